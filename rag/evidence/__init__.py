"""Pages as evidence: ``render`` (a page as PNG with passages highlighted, a page's chunk map) · ``pages``
(``CitationPages``: the pages a cited source's quoted sentences lie on)."""

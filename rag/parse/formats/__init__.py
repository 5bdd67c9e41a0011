"""Books in the formats people have: EPUB, Word (.docx), HTML, Markdown and plain text become a laid-out PDF.

Every format is converted into a paginated PDF with PyMuPDF's Story API (HTML + CSS, MuPDF only, no network)
and then parsed by the unchanged PDF pipeline, so chunking, page images with highlights, figures, code,
tables, citations ("p. 12" of the laid-out book) and the reader work the same for all of them.

- ``read``: ``read_document`` — detect (``sniff``, by content) and convert; a PDF passes through
- ``epub``, ``word``, ``webpage``, ``markdown``, ``plaintext``: one reader per format
- ``clean``: untrusted HTML → safe HTML subset; ``images``: accepted images; ``safezip``: hostile archives
- ``layout``: HTML → PDF pages, outline, metadata; ``builder``: one book being converted; ``converted``: the
  result and what it adds to the parsed book; ``originals``: the stored upload next to its PDF;
  ``limits``: the bounds on untrusted input
"""
from .converted import Converted
from .originals import original_file, remove_originals, store_original
from .read import ACCEPTED, read_document

__all__ = ["ACCEPTED", "Converted", "original_file", "read_document", "remove_originals", "store_original"]

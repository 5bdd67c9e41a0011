"""A book's figures at query time (extraction is in ``rag.parse.figures``): ``links`` (figure ↔ chunk, at
ingest) · ``choose`` (which figures to show under an answer; figures a question names) · ``describe``
(optional vision-model descriptions at ingest)."""

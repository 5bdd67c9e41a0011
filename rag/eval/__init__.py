"""Evaluation: metric functions, BEIR retrieval sets, book QA sets (``python -m rag eval …``).

- ``metrics``: nDCG@k, Recall@k, MRR, page-hit, abstention — pure functions
- ``beir``: a BEIR folder indexed through the project's own embedder, Chroma store and BM25
- ``bookqa``: a JSONL question set asked through ``Folio.ask`` (the chat's code path)
"""

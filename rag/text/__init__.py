"""Text resources, each once: ``languages`` (detection, BM25 tokens per language), ``tokens`` (the embedding
model's word-pieces), ``terms`` (stopwords, key terms, a light stemmer), ``sentences`` (quotable sentences,
block labels), ``captions`` (figure/table caption and reference patterns)."""

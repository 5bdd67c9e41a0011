"""The content-hash embedding cache: the same text with the same model is embedded once."""
import numpy as np

from rag.embed.cache import EmbeddingCache


class Counting:
    """Wraps the real embedder and counts the texts it is asked to embed."""

    def __init__(self, embed):
        self.inner, self.texts = embed, 0

    def get_text_embedding_batch(self, texts, **kw):
        self.texts += len(texts)
        return self.inner.get_text_embedding_batch(texts)

    def background_batch(self, texts):  # what ingest calls
        self.texts += len(texts)
        return self.inner.background_batch(texts)

    def __getattr__(self, name):
        return getattr(self.inner, name)


def test_cache_returns_the_vectors_it_stored(tmp_path, embed):
    counting = Counting(embed)
    cache = EmbeddingCache(tmp_path / "c.db", "all-MiniLM-L6-v2")
    texts = ["Tomatoes need water.", "Saturn has rings.", "Tomatoes need water."]
    first = cache.embed(texts, counting.get_text_embedding_batch)
    assert counting.texts == 2  # the repeated text once
    again = EmbeddingCache(tmp_path / "c.db", "all-MiniLM-L6-v2").embed(texts, counting.get_text_embedding_batch)
    assert counting.texts == 2 and np.allclose(first, again, atol=1e-6)
    # the int8 embedder quantises activations per batch: the same text alone is within cosine 0.98
    assert float(np.dot(first[0], embed.get_text_embedding_batch([texts[0]])[0])) >= 0.98
    EmbeddingCache(tmp_path / "c.db", "another-model").embed(texts[:1], counting.get_text_embedding_batch)
    assert counting.texts == 3  # keyed by model too


def test_reindex_embeds_nothing_twice(settings, embed, book_pdf):
    from rag.service import Folio

    counting = Counting(embed)
    folio = Folio(settings, embed=counting)
    r = folio.library.ingest(book_pdf, "garden.pdf")
    assert counting.texts == r.chunks  # no figures in this book
    folio.library.reindex(r.book_id)
    assert counting.texts == r.chunks
    a = folio.ask("How often do tomatoes need watering?").consume()
    assert "twice a week" in a.text

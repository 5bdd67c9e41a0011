"""The optional cross-encoder stage, exercised with a tiny CrossEncoder the test builds itself (no download)."""
import pytest

from rag.errors import RagError
from rag.retrieve.rerank import rerank, status
from rag.types import Chunk, Hit

WORDS = ("tomatoes need deep watering twice a week jupiter is the largest planet telescopes use lenses "
         "how often do what which of").split()


@pytest.fixture(scope="module")
def tiny_cross_encoder(tmp_path_factory):
    """A 2-layer BERT with a 1-logit head and a word-piece vocabulary of the test's own words, saved as a
    sentence-transformers CrossEncoder folder."""
    import torch
    from sentence_transformers import CrossEncoder
    from transformers import BertConfig, BertForSequenceClassification, BertTokenizer

    folder = tmp_path_factory.mktemp("tiny-ce")
    vocab = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"] + sorted(set(WORDS)) + ["?", "."]
    (folder / "vocab.txt").write_text("\n".join(vocab) + "\n")
    BertTokenizer(str(folder / "vocab.txt")).save_pretrained(folder)
    torch.manual_seed(0)
    cfg = BertConfig(vocab_size=len(vocab), hidden_size=32, num_hidden_layers=2, num_attention_heads=2,
                     intermediate_size=64, max_position_embeddings=128, num_labels=1)
    BertForSequenceClassification(cfg).save_pretrained(folder)
    CrossEncoder(str(folder), num_labels=1, device="cpu").save(str(folder))
    return str(folder)


def _hits():
    texts = ["Tomatoes need deep watering twice a week.", "Jupiter is the largest planet.", "Telescopes use lenses."]
    return [Hit(Chunk("b", i, t, 1, 1, 0, len(t)), 1.0 - i / 10, 0.5) for i, t in enumerate(texts)]


def test_a_cross_encoder_reorders_the_head_and_keeps_every_hit(tiny_cross_encoder):
    from sentence_transformers import CrossEncoder

    hits = _hits()
    out = rerank("How often do tomatoes need watering?", hits, tiny_cross_encoder, top_n=2)
    assert {h.chunk.id for h in out} == {h.chunk.id for h in hits} and out[2] is hits[2]  # the tail keeps its place
    ce = CrossEncoder(tiny_cross_encoder, device="cpu")
    scores = ce.predict([("How often do tomatoes need watering?", "\n" + h.chunk.text) for h in hits[:2]])
    expected = [hits[i].chunk.id for i in sorted(range(2), key=lambda i: -scores[i])]
    assert [h.chunk.id for h in out[:2]] == expected
    assert all(h.rerank_score is not None for h in out[:2]) and out[2].rerank_score is None


def test_the_retriever_runs_the_stage_when_configured(folio, book_pdf, tiny_cross_encoder):
    folio.library.ingest(book_pdf, "garden.pdf")
    a = folio.ask("How often do tomatoes need watering?", rerank_model=tiny_cross_encoder).consume()
    assert "rerank" in a.trace and a.sources


def test_status_says_whether_the_stage_can_run(tmp_path):
    assert status("").startswith("off")
    assert status(str(tmp_path / "missing")).startswith("unavailable")
    assert status(str(tmp_path)).startswith("on")
    with pytest.raises(RagError, match="not a folder"):
        rerank("q", _hits(), str(tmp_path / "missing"), 3)

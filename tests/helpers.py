import re


def assert_citations_valid(answer):
    """Every [n] points to a listed source, and the sentence it ends is in that source."""
    from rag.answer.quotecheck import without_fences

    by_n = {s.n: " ".join(s.text.split()) for s in answer.sources}
    cites = re.findall(r"([^\[\]]+?)\s*\[(\d+)\]", without_fences(answer.text))
    assert cites, f"no citations in: {answer.text!r}"
    for sentence, n in cites:
        assert int(n) in by_n, f"[{n}] is not a listed source"
        assert " ".join(sentence.split()).strip() in by_n[int(n)], f"[{n}] does not contain {sentence!r}"
    if getattr(answer, "backend", "") == "extractive":  # read top to bottom, the first source quoted is [1], the next
        first_seen = list(dict.fromkeys(int(n) for _, n in cites))  # new one [2] … (rag.answer.citations)
        assert first_seen == list(range(1, len(first_seen) + 1)), f"citations out of order: {first_seen}"
        assert [s.n for s in answer.sources] == list(range(1, len(answer.sources) + 1))


class FlatEmbed:
    """An embedder under which every text is as close to the question as every other: only the extractive
    answerer's priors (key terms, bonuses) decide."""

    def get_query_embedding(self, q):
        return [1.0, 0.0]

    def get_text_embedding_batch(self, texts):
        return [[1.0, 0.0] for _ in texts]

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

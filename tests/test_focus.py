"""LLM backends read the sources that hold an answer, best first, renumbered (rag.answer.focus)."""
from rag.answer.focus import focus
from rag.settings import AnswerTuning, Tuning
from rag.types import Chunk, Source

TEXTS = [
    "Roses are pruned in late winter. Cut each cane just above an outward-facing bud to open the bush.",
    "Tomatoes need a deep watering twice a week in summer. The soil should dry a little between waterings.",
    "A compost heap needs air. Turn it every few weeks with a fork so that it does not smell.",
    "Tomato plants are watered at the base, never over the leaves, to keep blight away from them.",
]


def sources() -> list[Source]:
    out = []
    for i, text in enumerate(TEXTS, start=1):
        chunk = Chunk("garden", i, text, i, i, 0, len(text))
        out.append(Source(i, "garden", "Garden", chunk, text, [i], i, i, f"p. {i}", 1.0 / i, 0.5))
    return out


def test_only_sources_that_answer_are_kept_best_first_and_renumbered(embed):
    got = focus("How often do tomatoes need watering?", sources(), embed,
                Tuning(answer=AnswerTuning(focus_keep_min=2)))
    assert [s.n for s in got] == list(range(1, len(got) + 1))
    assert got[0].text == TEXTS[1]  # the answer's source leads, though it was [2] in fused order
    assert TEXTS[0] not in [s.text for s in got] and TEXTS[2] not in [s.text for s in got]  # roses, compost: gone


def test_at_least_three_sources_stay_and_fewer_are_only_renumbered(embed):
    got = focus("How often do tomatoes need watering?", sources(), embed)  # at least 3 by default
    assert len(got) >= 3 and got[0].text == TEXTS[1]
    two = focus("Anything?", sources()[2:], embed)
    assert [(s.n, s.text) for s in two] == [(1, TEXTS[2]), (2, TEXTS[3])]

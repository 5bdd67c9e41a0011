"""Citation numbers follow the answer: the first source it quotes is [1] (rag.answer.citations)."""
from __future__ import annotations

from rag.answer.citations import renumber
from rag.types import Chunk, FigureHit, Source


def _source(n: int) -> Source:
    chunk = Chunk(book_id="b", chunk_index=n, text=f"text {n}", page_start=n, page_end=n,
                  char_start=0, char_end=6, section="")
    return Source(n=n, book_id="b", book_title="Book", hit=chunk, text=f"text {n}", chunk_indices=[n], page_start=n,
                  page_end=n, pages_label=str(n), score=1.0, similarity=0.5)


def test_the_first_source_quoted_is_one_and_the_unquoted_keep_their_order_after_the_quoted():
    sources = [_source(n) for n in range(1, 6)]
    fig = FigureHit(id="f", book_id="b", book_title="Book", page=4, page_label="4", caption="", kind="figure",
                    path="x.png", score=0.5, why="on the page of [4]", sources=[4, 2],
                    ties={4: "on the page of [4]", 2: "referred to by [2]"})
    mapping = renumber(sources, [4, 2, 4], [fig])
    assert mapping == {4: 1, 2: 2, 1: 3, 3: 4, 5: 5}
    assert [s.n for s in sources] == [1, 2, 3, 4, 5]
    assert [s.page_start for s in sources] == [4, 2, 1, 3, 5]  # each source keeps its passage under its new number
    assert fig.sources == [1, 2] and fig.why == "on the page of [1]"
    assert fig.ties == {1: "on the page of [1]", 2: "referred to by [2]"}


def test_an_answer_already_in_order_changes_nothing():
    sources = [_source(n) for n in range(1, 4)]
    assert renumber(sources, [1, 2]) == {1: 1, 2: 2, 3: 3}
    assert [s.page_start for s in sources] == [1, 2, 3]
    assert renumber(sources, []) == {1: 1, 2: 2, 3: 3}

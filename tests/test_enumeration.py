"""An answer never stops on an unfinished enumeration: "… four results:" "1. …" is followed by the items the book
numbers after it, from the other sources or from the book's next chunks (tour 39's "four results:" stopped at 1)."""
from dataclasses import replace

from rag.answer.enumeration import _count, awaited, complete, item_line, unfinished
from rag.answer.passages import Passage
from rag.answer.units import units
from tests.test_passages import source

INTRO = ("A pause is silence made eloquent. Efficient pausing accomplishes one or all of three results:\n"
         "1. Pause Gathers the Speaker's Forces\n\nIt is often dangerous to rush into battle without preparation.")
SECOND = "Listen to children talk.\n\n2. Pause Prepares the Hearer\n\nThe hearer needs a moment to take the thought in."
THIRD = "A rain that falls too fast runs off.\n\n3. Pause Lets an Idea Sink In\n\nGive the thought time to penetrate."
EXERCISES = "QUESTIONS AND EXERCISES\n1. Name four methods.\n2. What are the special effects of pause?"


def test_the_count_an_introduction_names():
    assert _count("Efficient pausing accomplishes one or all of four results:") == 4
    assert _count("Es gibt drei Arten von Konten:") == 3
    assert _count("Voici les 5 étapes :") == 5
    assert _count("The following steps apply:") == 0


def test_the_items_that_follow_are_quoted_after_the_first_passage_in_the_books_order():
    at = lambda text, n, chunk: replace(source(text, n), chunk_indices=[chunk])  # noqa: E731 (retrieval's n, book's order)
    srcs = {1: at(INTRO, 1, 10), 2: at(THIRD, 2, 14), 3: at(SECOND, 3, 12), 4: at(EXERCISES, 4, 20)}
    us = {n: units(s) for n, s in srcs.items()}
    first = Passage(1, us[1][:3], 1)  # … "three results:" "1. Pause Gathers …"
    assert unfinished(first) == (1, 1)
    out = complete([first], us, srcs)
    quoted = [u.text for p in out[1:] for u in p.units]
    assert quoted == ["2. Pause Prepares the Hearer", "3. Pause Lets an Idea Sink In"]  # not the exercise "2. What …?"
    assert [p.n for p in out] == [1, 3, 2]  # each cited to its own source


def test_a_finished_or_absent_enumeration_is_left_alone():
    srcs = {1: source("Do this:\n1. One thing.\n2. Another thing.", 1)}
    us = {1: units(srcs[1])}
    p = Passage(1, us[1], 0)
    assert complete([p], us, srcs) == [p]
    plain = {1: source("Tomatoes need deep watering twice a week.", 1)}
    assert awaited(list(plain.values()), {1: units(plain[1])}) == []


def test_an_enumeration_no_source_finishes_is_what_the_pipeline_looks_for():
    srcs = [source(INTRO, 1), source(EXERCISES, 2)]
    found = awaited(srcs, {s.n: units(s) for s in srcs})
    assert [(s.n, last, want, asks) for s, last, want, asks in found] == [(1, 1, 3, False)]
    assert item_line(SECOND, 2, False) == "2. Pause Prepares the Hearer"
    assert item_line(EXERCISES, 2, False) == ""  # an exercise asks: not an item of a list of titles


def test_the_pipeline_reads_on_in_the_book_for_the_items_no_source_holds(folio):
    from tests import pdfs

    filler = "Tomatoes need deep watering twice a week, and mulch keeps the soil cool in the summer months. " * 4
    chapters = {"Chapter 1 Pause": [
        ("Pause and Power", "Pause is silence made eloquent, and a pause before a thought gives it force. Efficient "
                            "pausing accomplishes one or all of three results:\n1. Pause Gathers the Speaker's Forces"),
        *[(f"Interlude {k}", filler) for k in range(1, 9)],
        ("Second result", "2. Pause Prepares the Hearer\n" + filler),
        ("Third result", "3. Pause Lets an Idea Sink In\n" + filler)]}
    folio.library.ingest(pdfs.make_book_pdf("Speaking", chapters, pad=0), "speaking.pdf")
    a = folio.ask("What does a pause accomplish in a speech?").consume()
    assert "three results:" in a.text
    at = [a.text.find(x) for x in ("1. Pause Gathers", "2. Pause Prepares", "3. Pause Lets")]
    assert -1 not in at and at == sorted(at), a.text

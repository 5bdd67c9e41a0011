"""'What is this book about?' is answered by the book's own account of itself: its abstract, preface, introduction
or "About this manual" — or, without such a heading, its opening — for the book the question names or the one
being read."""
import pytest

from rag.query.overview import asks_overview, introduces


@pytest.mark.parametrize("q", ["What is this book about?", "What is the essential oils paper about?",
                               "What does this manual cover?", "Worum geht es in dem Buch?",
                               "De quoi parle ce livre ?", "Sách này nói về gì?", "What is Think Python about?"])
def test_questions_about_a_whole_book(q):
    assert asks_overview(q)


@pytest.mark.parametrize("q", ["What is a tuple?", "How is the dictionary used?", "What about lists?"])
def test_other_questions(q):
    assert not asks_overview(q)


@pytest.mark.parametrize("path,yes", [("Preface", True), ("About this manual > 1. About this manual", True),
                                      ("Abstract", True), ("Chapter 1 Introduction", True), ("Vorwort", True),
                                      ("Results", False), ("Abstract > Background", False)])
def test_introducing_headings(path, yes):
    assert introduces(path) is yes


BOOK = ("# Growing Tomatoes\n\n## Preface\n\nThis book teaches gardeners how to grow tomatoes from seed to harvest, "
        "in pots and in open beds, through a whole season.\n\n## Watering\n\nWater the plants twice a week in "
        "summer, early in the morning, at the foot of the stem.\n\n## Pests\n\nAphids gather under the leaves; "
        "wash them off with a jet of water.\n")


def test_what_a_book_is_about_is_its_preface(folio):
    r = folio.library.ingest(BOOK.encode(), "tomatoes.md")
    a = folio.ask("What is this book about?", book_id=r.book_id).consume()
    assert a.text.startswith("This book teaches gardeners how to grow tomatoes"), a.text
    assert a.outcome == "answer" and a.context.get("basis") == "overview"  # the line under it says so
    title = folio.library.book(r.book_id).title
    b = folio.ask(f"What is {title} about?").consume()  # named by its title, over the whole library
    assert b.text.startswith("This book teaches gardeners"), (title, b.text)
    c = folio.ask("What is watering about?").consume()  # names no book: searched as any question
    assert not c.text.startswith("This book teaches")

"""'Who wrote <a book>?' is answered by the book's title page: the names on it, cited to the page; a question that
names no book of the library is searched like any other."""
import pymupdf
import pytest

from rag.query.authors import asks_authors, heading_words, named_books
from rag.text.bylines import names_people


@pytest.mark.parametrize("q", ["Who wrote Think Python?", "Who are the authors of the essential oils paper?",
                               "Who is the author of this book?", "Wer hat das Skript geschrieben?",
                               "Qui a écrit ce livre ?", "Ai là tác giả của cuốn sách này?"])
def test_authorship_questions_are_recognised(q):
    assert asks_authors(q)


@pytest.mark.parametrize("q", ["What are the guidelines for authors?", "What are the author contributions?",
                               "How do I write a function?", "Who founded the Debian project?",
                               "What do the authors of the paper conclude about the essential oils?",
                               "What did the authors of the study find?"])
def test_other_questions_are_not(q):
    assert not asks_authors(q)


def test_the_book_is_the_one_named_by_its_title_or_the_one_being_read():
    titles = {"tp": "Think Python", "oil": "In vitro comparison of three common essential oils mosquito repellents",
              "live": "Live Systems Manual"}
    assert named_books("Who wrote Think Python?", titles, []) == ["tp"]
    assert named_books("Who are the authors of the essential oils paper?", titles, []) == ["oil"]
    assert named_books("Who wrote the Linux kernel?", titles, ["tp"]) == []  # names no book of the library
    assert named_books("Who wrote the manual?", titles, []) == []  # "manual" names no one book
    assert named_books("Who wrote this book?", titles, ["live"]) == ["live"]
    assert named_books("Who wrote this book?", titles, []) == []  # the whole library: which book is "this"?
    assert named_books("Wer sind die Autoren des Handbuchs?", {"de": "Live Systems Handbuch"}, []) == []
    # every word the question names its book by must be in the title: one shared word is another book
    assert named_books("Who wrote the Python language?", titles, []) == []
    assert named_books("Who wrote the GNU General Public License?", {"oct": "GNU Octave"}, []) == []
    assert named_books("Wer hat das Skript Geometrie und Topologie geschrieben?",
                       {"g": "Geometrie und Topologie", "tp": "Think Python"}, []) == ["g"]
    editions = {"en": "Live Systems Manual", "de": "Live Systems Handbuch", "fr": "Manuel Live Systems"}
    langs = {"en": "en", "de": "de", "fr": "fr"}
    assert named_books("Who wrote the Live Systems manual?", editions, [], langs, "en") == ["en"]
    assert named_books("Qui a écrit le manuel Live Systems ?", editions, [], langs, "fr") == ["fr"]
    assert named_books("Who wrote this book?", titles, ["other"]) == []  # the chat's book is not searched now


@pytest.mark.parametrize("line", ["Allen Downey", "By Debbie Kuhlmann", "Dale Carnegie and J. Berg Esenwein",
                                  "Miora Ralambondrainy¹, Essia Belarbi², Chaker El Kalamouni¹*",
                                  "John W. Eaton David Bateman Søren Hauberg"])
def test_bylines_name_people(line):
    assert names_people(line, title="Some Book")


@pytest.mark.parametrize("line", ["How to Think Like a Computer Scientist", "Learning Manual", "Think Python",
                                  "2nd Edition, Version 2.2.20", "RESEARCH ARTICLE", "The music typesetter",
                                  "Green Tea Press", "Project Gutenberg", "The Octave Project Developers",
                                  "Copyright © 2008-2022 Alexis Bienvenüe", "Getting Started", "Further Reading",
                                  "Fachbereich Mathematik"])
def test_titles_and_editions_do_not(line):
    assert not names_people(line, title="Think Python Learning Manual",
                            headings=heading_words([("Intro > Getting Started", 0, 1), ("Further Reading", 2, 3)]))


def _titled_book(book_pdf: bytes) -> bytes:
    doc = pymupdf.open(stream=book_pdf, filetype="pdf")
    doc[0].insert_text((72, 150), "A Practical Handbook for Growers", fontsize=14)
    doc[0].insert_text((72, 200), "Ada Quill and Basil Hart", fontsize=14)
    return doc.tobytes()


def test_who_wrote_a_book_quotes_the_names_on_its_title_page(folio, book_pdf):
    r = folio.library.ingest(_titled_book(book_pdf), "garden.pdf")
    title = folio.library.book(r.book_id).title
    a = folio.ask(f"Who wrote {title}?").consume()
    assert a.outcome == "answer", a.text
    assert a.text.startswith("Ada Quill and Basil Hart [1]"), a.text
    assert a.sources[0].hit.chunk_index == 0 and a.sources[0].page_start == 1
    assert not a.figures  # no picture under an author list
    german = folio.ask(f"Wer ist der Autor des Buches {title}?").consume()  # the translations of its words, searched
    assert german.text.startswith("Ada Quill and Basil Hart [1]"), german.text  # beside it, name no book
    other = folio.ask("Who wrote the Linux kernel?").consume()
    assert "Ada Quill" not in other.text
    about = folio.ask("What did the authors of the book say about tomatoes?", book_id=r.book_id).consume()
    assert not about.text.startswith("Ada Quill")  # asks what they wrote, not who they are
    chat = folio.ask("Who wrote this book?", history=[("What is a tuple?", "A tuple is … [1]")],
                     follow_books=["not-in-the-library"]).consume()  # the chat's book is gone: no error
    assert chat.text


def test_a_book_whose_authors_are_a_section_of_it_answers_from_that_section(folio):
    text = ("# Garden Manual\n\n## About this manual\n\nThis manual explains how to plan a vegetable garden, "
            "from the soil to the harvest, season by season.\n\n## Watering\n\nWater the beds twice a week in "
            "summer, early in the morning.\n\n## Authors\n\nA list of authors (in alphabetical order):\n\n"
            "Ada Quill\nBasil Hart\n")
    r = folio.library.ingest(text.encode(), "garden-manual.md")
    title = folio.library.book(r.book_id).title
    a = folio.ask(f"Who are the authors of the {title}?").consume()
    assert "Ada Quill" in a.text and "Basil Hart" in a.text, (title, a.text)
    assert a.outcome == "answer" and a.context.get("basis") == "authors"
    from rag.answer.metrics import answer_metrics

    m = answer_metrics(a, 3000, 0.4)
    assert m["basis"] == "authors"  # the Metrics page shows the same words, and leaves it out of its averages
    chats = folio.catalog.chats
    sid = chats.new_session("authors")
    mid = chats.add_message(sid, "assistant", a.text, a.to_dict())
    chats.add_metrics(mid, sid, a.question, m)
    assert [r["confidence_kind"] for r in chats.metrics()] == ["authors"]


def test_the_confidence_line_says_what_answered_instead_of_a_probability():
    from rag.answer.metrics import confidence_words

    assert confidence_words(0.04, "answer", "overview").startswith("Found in your books · its own account")
    assert confidence_words(0.3, "answer", "byline") == "Found in your books · the names on its title page"
    assert "(92%)" in confidence_words(0.92, "answer")

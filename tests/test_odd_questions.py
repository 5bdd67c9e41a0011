"""Odd questions get an answer or a clear refusal, never an exception: one word, 2,000 characters, punctuation
only, nothing at all, a language no book is in, control characters and markup."""
import time

import pytest

from rag.pipeline import NO_WORDS

LONG = ("I have been reading about gardens for a long time and I wonder, after all the chapters about soil, compost, "
        "worms and the many other matters the book discusses at length, ") * 14 \
    + "how often should tomatoes be watered?"


@pytest.fixture
def garden(folio, book_pdf):
    folio.library.ingest(book_pdf, "garden.pdf")
    return folio


@pytest.mark.parametrize("question", [
    "Tomatoes", "tomatoes?", LONG, "Cà chua cần tưới nước bao nhiêu lần một tuần?", "Wie oft gießt man Tomaten?",
    "<script>alert(1)</script> **watering**", "water\x00ing\x1b[31m tomatoes\u202e",
])
def test_an_odd_question_is_answered_or_declined_in_words(garden, question):
    t = time.perf_counter()
    a = garden.ask(question).consume()
    assert a.text.strip() and "Traceback" not in a.text
    assert a.not_found or a.sources, "an answer has sources"
    assert time.perf_counter() - t < 30


def test_a_long_question_is_answered_from_its_question_part(garden):
    assert len(LONG) >= 2000
    a = garden.ask(LONG).consume()
    assert not a.not_found and "water" in a.text.lower()


@pytest.mark.parametrize("question", ["?!...", "  ", "", "¿¡—…", "\n\t"])
def test_a_question_without_words_says_so(garden, question):
    a = garden.ask(question).consume()
    assert a.not_found and a.text == NO_WORDS and not a.sources
    assert a.context == {"searched": False, "basis": "no_words"}  # nothing was asked of the books: no "not in your
    # books · 0%" under it, and the Metrics page says why


def test_a_general_knowledge_question_is_not_told_to_lower_a_threshold(garden):
    a = garden.ask("Who won the 2018 football world cup?").consume()
    assert a.not_found and a.text.startswith("Not in your books")
    assert "threshold" not in a.text and "sidebar" not in a.text  # tour 42: advice that cannot help such a question


def test_a_question_none_of_whose_words_the_books_have_says_so(garden):
    from rag.answer import NO_WORD_KNOWN_TEXT

    a = garden.ask("再帰とは何ですか？").consume()
    assert a.not_found and a.text.endswith(NO_WORD_KNOWN_TEXT)
    assert "threshold" not in a.text  # a lower similarity threshold cannot help a question in another script
    b = garden.ask("How often do unicorns need watering?").consume()  # some words are the book's: no such hint
    assert NO_WORD_KNOWN_TEXT not in b.text


def test_the_asking_part_of_a_long_question():
    from rag.query.asking import asking_part

    assert asking_part("How do I water tomatoes?") == "How do I water tomatoes?"
    assert asking_part(LONG).endswith("how often should tomatoes be watered?") and len(asking_part(LONG).split()) <= 60
    story = "My garden is small. " * 40 + "The leaves turn yellow in August. Why?"
    assert asking_part(story) == "The leaves turn yellow in August. Why?"
    no_mark = "word " * 100 + "tell me about watering"
    assert asking_part(no_mark).split()[-3:] == ["me", "about", "watering"] and len(asking_part(no_mark).split()) == 60
    python = ("I started learning Python a few months ago for my job. " + "Every morning I copy a report by hand. " * 8
              + "A colleague said a short Python script could do it, so I installed Python and read a book. "
              + "I understand loops now. " * 5 + "How do I open a file and read it line by line?")
    assert asking_part(python) == "How do I open a file and read it line by line? (Python)"  # what it is about
    once = "My colleague Anna told me to ask. " + "I water the garden every day. " * 12 + "Why do leaves turn yellow?"
    assert asking_part(once) == "Why do leaves turn yellow?"  # a name used once is background


def test_no_sentence_is_quoted_twice_even_for_a_question_searched_whole(garden):
    a = garden.ask(LONG, **{"tuning.retrieve.long_question_words": 10_000}).consume()  # the preamble searched too
    import re

    said = [" ".join(x.split()) for x in re.split(r"(?<=[.!?])\s+|\[\d+\]", a.text) if len(x.split()) >= 6]
    assert said and not any(x != y and x in y for x in said for y in said) and len(said) == len(set(said)), said


def test_a_declined_question_in_another_language_than_the_books_says_which_would_find_it(garden):
    a = garden.ask("¿Quién ganó la copa del mundo de fútbol en el año de la sequía?").consume()
    assert a.not_found  # Spanish, a language Folio has no messages in: told in English
    assert a.text.endswith(" Your question is in Spanish, and the books searched are in English: asking in English "
                           "may find it.")
    b = garden.ask("Who won the football world cup?").consume()  # in the books' language: no such hint
    assert b.not_found and "Your question is in" not in b.text


def test_a_question_declined_in_the_chosen_book_says_so_before_any_language_hint(garden):
    # tour 33: a French question asked of one English book chosen in "Search in", with a French book in the library,
    # was told to ask in English; the whole library, with its French book, is what may answer it
    from tests.pdfs import make_book_pdf

    garden_id = garden.library.books()[0].id
    garden.library.ingest(make_book_pdf("Le potager", {"Chapitre 1 Arrosage": [
        ("Tomates", "Il faut arroser les tomates deux fois par semaine, le matin, au pied de la plante. Les tomates "
                    "aiment le soleil et une terre riche. Quand il fait très chaud, on peut les arroser un peu plus "
                    "souvent, mais jamais sur les feuilles, car elles craignent les maladies.")]}, pad=0),
        "potager.pdf")
    q = "Combien de fois par semaine faut-il arroser les tomates dans le potager ?"
    a = garden.ask(q, book_id=garden_id).consume()
    assert a.not_found and "a été consulté, comme choisi : toute la bibliothèque pourrait y répondre." in a.text
    assert a.text.startswith("Pas dans vos livres")  # told in the question's language (tour 34)
    assert "Votre question est en" not in a.text  # a book in the question's language is in the library
    assert not garden.ask(q).consume().not_found  # and the whole library answers it


def test_a_declined_german_question_is_told_so_in_german_with_the_language_that_would_find_it(garden):
    """Tour 34: a German question got "Not in your books: …" in English. The message is the answer; the app's labels
    around it stay English."""
    a = garden.ask("Wer hat im Jahr der großen Dürre die Fußballweltmeisterschaft gewonnen?").consume()
    assert a.not_found and a.text.startswith("Nicht in Ihren Büchern:")
    assert a.text.endswith(" Ihre Frage ist auf Deutsch, die durchsuchten Bücher sind auf Englisch: Eine Frage auf "
                           "Englisch könnte die Antwort finden.")

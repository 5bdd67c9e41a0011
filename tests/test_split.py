"""Sentence boundaries without NLTK (rag.text.split): Punkt's rules on book text, pieces that join to the text, and
the app never importing NLTK (145 MB of memory for one splitter)."""
import subprocess
import sys

import pytest

from rag.text.split import span_tokenize, split_sentences
from tests.conftest import ROOT


@pytest.mark.parametrize("text, sentences", [
    ("It works. Then it stops! Does it? Yes.", ["It works.", "Then it stops!", "Does it?", "Yes."]),
    ("Er kann in einem Buch von R. Stöcker und H. Zieschang nachgelesen werden.", None),  # initials
    ("Sei P ein Polyeder, d. h. ∂P ist ein Komplex.", None),  # one-letter abbreviations
    ("See section 19.4. any and all are built in.", None),  # a number before a lower-case word
    ("Exercise 10.2. Write a function called cumsum.", ["Exercise 10.2.", "Write a function called cumsum."]),
    ("Glossary . . . . . . . . . 17\nExercises . . . . . . . . 18", None),  # a contents page's dot leaders
    ("He said “Hello, World!” and left. Then he came back.",  # as Punkt: a break before a lower-case word too
     ["He said “Hello, World!”", "and left.", "Then he came back."]),
])
def test_sentence_boundaries(text, sentences):
    parts = split_sentences(text)
    assert "".join(parts) == text  # verbatim pieces that join to the text (LlamaIndex's contract)
    assert [p.strip() for p in parts] == (sentences or [text])
    assert [text[a:b] for a, b in span_tokenize(text)] == [p.strip() for p in parts]


def test_leading_white_space_stays_with_the_first_sentence():
    assert split_sentences("\n\n \n\ntrong vòng 30 ngày. Tuy nhiên, hai căn nhà.") == [
        "\n\n \n\ntrong vòng 30 ngày. ", "Tuy nhiên, hai căn nhà."]
    assert split_sentences("") == [] and split_sentences("  ") == ["  "]


def test_chunking_and_quoting_never_import_nltk():
    code = ("import sys; from rag.parse import parse_pdf; from rag.chunking import chunk_book; "
            "from rag.settings import Settings; from rag.text.sentences import quotable; "
            "from tests.pdfs import make_book_pdf; "
            "b = parse_pdf(make_book_pdf(), 'b.pdf'); "
            "[chunk_book(b, 'b', Settings(chunker=c)) for c in ('paragraph', 'hierarchical', 'section')]; "
            "quotable(b.text); print('nltk' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert out.stdout.strip() == "False", out.stderr[-2000:]


def test_no_sentence_begins_with_a_stop_or_a_closing_bracket():
    from rag.text.sentences import quotable, sentence_spans

    text = ("Essential oils have a wide range of activities (e.g. antibacterial, antifungal, etc. . .) and remain "
            "promising sources of new therapeutics [37, 38]. A growing attention has been given to them.")
    spans = [text[a:b] for a, b in sentence_spans(text)]
    assert len(spans) == 2 and spans[0].endswith("[37, 38].") and spans[1].startswith("A growing")
    assert [q.split()[0] for q in quotable(text)] == ["Essential", "A"]


@pytest.mark.parametrize("text", [
    "Your settings are read at login. .bashrc is read by every interactive shell.",
    "Leave insert mode first. :wq writes the file and quits.",
    "Il hésita avant de répondre. … Puis il partit sans un mot.",
])
def test_a_sentence_may_begin_with_a_dot_file_a_command_or_an_ellipsis(text):
    from rag.text.sentences import sentence_spans

    assert len(sentence_spans(text)) == 2

"""Two-part questions: split at clear joins only, each part retrieved, both answered."""
import pytest

from rag.query.decompose import decompose


@pytest.mark.parametrize("question, parts", [
    ("What is loam and how often do tomatoes need watering?", ["What is loam?", "how often do tomatoes need "
                                                                                "watering?"]),
    ("Was ist ein Homöomorphismus und wann heißt ein Raum kompakt?",
     ["Was ist ein Homöomorphismus?", "wann heißt ein Raum kompakt?"]),
    ("What are salt and pepper?", ["What are salt and pepper?"]),  # "and" inside one question
    ("How do tomatoes and beans grow?", ["How do tomatoes and beans grow?"]),
    ("Explain it and why?", ["Explain it and why?"]),  # a part too short to stand alone
])
def test_only_clear_joins_split_a_question(question, parts):
    assert decompose(question) == parts


def test_a_two_part_question_gets_both_passages_and_both_answers(folio, book_pdf):
    r = folio.library.ingest(book_pdf, "garden.pdf")
    a = folio.ask("What is loam and how often do tomatoes need watering?").consume()
    assert not a.not_found and "sub_questions" in a.trace
    assert "Loam is a soil" in a.text and "twice a week" in a.text
    assert a.checks and all(c.ok for c in a.checks)  # each quote found in the source it cites
    assert r.book_id


def test_a_part_pointing_back_is_asked_with_the_first_parts_terms():
    from rag.query.decompose import decompose

    first, second = decompose("What does a tie look like and how do I type one?")
    assert first == "What does a tie look like?" and second.startswith("how do I type one?") and "tie" in second
    # a part with a subject of its own stays as it is, though it shares a word with the first
    assert decompose("When I write two voices with the double backslash construct, which voice gets stems up and "
                     "where do the inner voices go?")[1] == "where do the inner voices go?"

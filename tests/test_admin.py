"""'Who funded the study?' is answered by the paragraph that states it: the best books' labelled paragraphs join
the hits (rag.retrieve.admin), and the answerer prefers the one the question asks about."""
from rag.answer.extractive import ExtractiveBackend
from rag.query.admin import labels_asked, states
from rag.retrieve.admin import labelled_paragraphs
from rag.types import Chunk, Hit, Source
from tests.helpers import FlatEmbed

FUNDING = ("Data Availability Statement: All relevant data are within the paper.\n\nFunding: This work was supported "
           "by the Regional Council of Reunion Island to MR. The funders had no role in study design.")
ROLES = "Author Contributions\n\nFunding acquisition: Pierre Roques, Jimmy Selambarom.\n\nWriting: Miora R."


def chunk(book: str, i: int, text: str) -> Chunk:
    return Chunk(book, i, text, 1, 1, 0, len(text))


def test_the_paragraphs_a_question_asks_about():
    assert "funding" in labels_asked("Who funded the study?")
    assert "funding" in labels_asked("Who paid for this research?")  # tour 39: declined at 0 %
    assert "funding" in labels_asked("Wer hat die Studie bezahlt?")
    assert not labels_asked("How do I pay for hosting?")
    assert not labels_asked("Who paid for the tickets to the concert?")
    assert "competing interest" in labels_asked("Are there any competing interests?")
    assert labels_asked("How do I index a list?") == ()
    assert labels_asked("Wie sieht die Fundamentalgruppe vom Kreis aus?") == ()  # no funding (tour 34)
    assert labels_asked("What is the fundamental theorem of calculus?") == ()
    assert "funding" in labels_asked("Which agency funds the project?")
    assert states(FUNDING, labels_asked("Who funded it?")) and not states(ROLES, labels_asked("Who funded it?"))


def test_a_books_stating_paragraph_joins_the_hits_after_its_first_hit():
    hits = [Hit(chunk("speech", 7, "Such history is a worthless study."), 0.9, 0.32),
            Hit(chunk("paper", 59, ROLES), 0.8, 0.37), Hit(chunk("manual", 3, "Contributing to the project"), 0.7, 0.4)]
    shelf = {"paper": [chunk("paper", 8, FUNDING), chunk("paper", 59, ROLES)], "speech": [], "manual": []}
    out = labelled_paragraphs("Who funded the study?", hits, lambda b, labels: shelf[b],
                              lambda ids: {i: 0.13 for i in ids})
    assert [h.chunk.id for h in out] == ["speech:7", "paper:59", "paper:8", "manual:3"]
    assert out[2].similarity == 0.13
    assert labelled_paragraphs("How often do tomatoes need water?", hits, lambda b, labels: shelf[b], dict) == hits


def test_the_answer_is_the_stating_paragraph_not_a_line_that_shares_its_words():
    def source(n, text, book):
        c = chunk(book, n, text)
        return Source(n, book, book.title(), c, text, [n], 1, 1, "p. 1", 1.0, 0.5, layout=[])

    speech = source(1, "Such history is a worthless study of funding.", "speech")
    text = ExtractiveBackend(FlatEmbed()).answer("Who funded the study?",
                                                 [speech, source(2, ROLES, "paper"), source(3, FUNDING, "paper")])
    assert text.startswith("Funding: This work was supported") and "[3]" in text


def test_an_everyday_funding_question_no_passage_is_close_to_gets_the_funding_paragraph(folio):
    """"Who paid for this research?" shares no word with the paper's passages (tour 39: declined at 0 %); the paper
    states it in its "Funding: …" paragraph, which is quoted as the answer (tour 40: "likely" was too timid for the
    paper's own statement)."""
    from tests.pdfs import make_sidebar_pdf

    folio.library.ingest(make_sidebar_pdf(), "article.pdf")
    a = folio.ask("Who paid for this research?").consume()
    assert not a.not_found and a.outcome == "answer"
    assert "The garden club paid for the seeds." in a.text
    from rag.answer.metrics import confidence_words

    assert "its own labelled statement" in confidence_words(a.confidence, a.outcome, a.context["basis"])
    assert folio.ask("Who paid for the tickets to the concert?").consume().not_found  # no such paragraph of it


def test_a_funding_question_of_the_whole_library_is_answered_by_the_book_that_states_it(folio):
    """"Who paid for this research?" of the whole library: the best passages are a story's ("They paid him fifteen
    dollars a week", tour 39's speech manual), which has no "Funding: …" paragraph; the article that has one answers."""
    from tests.pdfs import make_book_pdf, make_sidebar_pdf

    for k, who in enumerate(("a young man", "an old miner", "a student of rocks")):  # the best books: stories
        story = {"Chapter 1 Acres": [("Diamonds", f"Here {who} paid for research into diamonds. They paid him fifteen "
                                                  "dollars a week for this research, and he paid for the rest of the "
                                                  "research himself. Who paid for this research? He paid.")]}
        folio.library.ingest(make_book_pdf(f"Acres of Diamonds {k}", story), f"acres{k}.pdf")
    folio.library.ingest(make_sidebar_pdf(), "article.pdf")
    a = folio.ask("Who paid for this research?").consume()
    assert a.outcome == "answer" and "The garden club paid for the seeds." in a.text
    assert "fifteen dollars" not in a.text


def test_who_paid_for_the_research_of_books_that_state_no_funding_is_declined(folio):
    """Tour 41: a library of manuals and a speech book, no paper: "Who paid for this research?" got "They paid him
    fifteen dollars a week …" as a likely answer (48 %). A question that wants who funded the work is answered by a
    passage that says it was funded, supported or granted, else declined with that reason."""
    from rag.answer.metrics import confidence_words
    from rag.query.wants import holds, wanted
    from tests.pdfs import make_book_pdf

    assert wanted("Who paid for this research?") == ["funding"] and wanted("Who paid for the tickets?") == []
    assert holds("funding", "Funding: This work was supported by the Conseil Régional.", "Who paid for this research?")
    assert not holds("funding", "They paid him fifteen dollars a week.", "Who paid for this research?")
    story = {"Chapter 1 Acres": [("Diamonds", "Here a young man paid for research into diamonds. They paid him "
                                              "fifteen dollars a week for this research, and he paid for the rest of "
                                              "the research himself. Who paid for this research? He paid.")]}
    folio.library.ingest(make_book_pdf("Acres of Diamonds", story), "acres.pdf")
    a = folio.ask("Who paid for this research?").consume()
    assert a.not_found and "funded" in confidence_words(a.confidence, a.outcome, a.context["basis"])

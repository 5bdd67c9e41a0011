"""Zones (contents, index, references, copyright page): tagged on their chunks, left out of answers to
ordinary questions, found when a question asks for them."""
import pytest

from rag.chunking.zones import asks_for_zone, page_zone, section_zone
from tests import pdfs


@pytest.mark.parametrize("path, zone", [
    ("Abstract > References", "references"), ("7 References", "references"), ("Bibliography", "references"),
    ("Literaturverzeichnis", "references"), ("Tài liệu tham khảo", "references"), ("Index", "index"),
    ("Stichwortverzeichnis", "index"), ("Table of Contents", "toc"), ("Inhaltsverzeichnis", "toc"),
    ("Mục lục", "toc"), ("References > Journals", "references"), ("Referencing other modules", ""),
    ("Chapter 3 > Index of a list", ""), ("", ""),
])
def test_section_titles_name_their_zone(path, zone):
    assert section_zone(path) == zone


INDEX_PAGE = "\n".join(f"term number {i}, {i * 3}, {i * 7}" for i in range(20))
TOC_PAGE = "\n".join(f"{i}.1 A section title . . . . . . . . . . . {i * 4}" for i in range(1, 16))
BODY_PAGE = "\n".join(["A recursive function calls itself until it reaches a base case, and then it returns."] * 15)


@pytest.mark.parametrize("text, number, zone", [
    (INDEX_PAGE, 280, "index"), (TOC_PAGE, 5, "toc"), (TOC_PAGE, 200, "index"), (BODY_PAGE, 50, ""),
    ("Copyright © 2015 Allen Downey. Green Tea Press.", 4, "front"), ("Copyright © 2015 in chapter 9.", 90, ""),
    ("Contents\n\n1 Intro\n2 More", 3, "toc"),
])
def test_pages_are_recognised_by_their_lines(text, number, zone):
    assert page_zone(text, number, 300) == zone


@pytest.mark.parametrize("question, asks", [
    ("What does reference 12 say?", True), ("Which page covers recursion?", True), ("What is [3] about?", True),
    ("Who is the publisher?", True), ("Welche Literatur wird zitiert?", True), ("Auf welcher Seite steht das?", True),
    ("What is recursion?", False), ("How often do tomatoes need watering?", False),
    ("Wann heißt ein Raum hausdorffsch?", False),
])
def test_questions_that_ask_for_a_zone(question, asks):
    assert asks_for_zone(question) is asks


REFS = {
    "Chapter 1 Gardening": [("Watering", "Tomatoes need deep watering twice a week. Shallow watering keeps roots "
                                         "near the surface, as gardeners have long observed [1].")],
    "References": [("Sources", "1. Miller A. Watering tomatoes twice a week in clay soils. Garden Journal. "
                               "2003;12:45-67. 2. Chen B. Deep roots and shallow watering of tomatoes. "
                               "Soil Science Letters. 2011;4:1-9.")],
}


def test_reference_lines_are_not_answers_but_can_be_asked_for(folio):
    r = folio.library.ingest(pdfs.make_book_pdf("Tomato Notes", REFS, pad=0), "tomatoes.pdf")
    kinds = {c.kind for c in folio.inspector.chunks(r.book_id)}
    assert "references" in kinds
    a = folio.ask("How often should tomatoes be watered?").consume()
    assert not a.not_found and "twice a week" in a.text
    assert all(s.hit.kind != "references" for s in a.sources)
    assert "Miller" not in a.text and all("Miller" not in s.text for s in a.sources)
    a = folio.ask("What does reference 1 say about watering tomatoes?").consume()
    assert any(s.hit.kind == "references" for s in a.sources)

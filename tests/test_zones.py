"""Zones (contents, index, references, copyright page): tagged on their chunks, left out of answers to
ordinary questions, found when a question asks for them."""
import pytest

from rag.chunking.zones import asks_for_zone, front_chunk, page_zone, section_zone
from rag.types import Chunk
from tests import pdfs


@pytest.mark.parametrize("path, zone", [
    ("Abstract > References", "references"), ("7 References", "references"), ("Bibliography", "references"),
    ("Literaturverzeichnis", "references"), ("Tài liệu tham khảo", "references"), ("Index", "index"),
    ("Stichwortverzeichnis", "index"), ("Table of Contents", "toc"), ("Inhaltsverzeichnis", "toc"),
    ("Mục lục", "toc"), ("Table des matières", "toc"), ("Sommaire", "toc"), ("Références", "references"),
    ("Index alphabétique", "index"), ("References > Journals", "references"), ("Referencing other modules", ""),
    ("Chapter 3 > Index of a list", ""), ("", ""),
])
def test_section_titles_name_their_zone(path, zone):
    assert section_zone(path) == zone


INDEX_PAGE = "\n".join(f"term number {i}, {i * 3}, {i * 7}" for i in range(20))
TOC_PAGE = "\n".join(f"{i}.1 A section title . . . . . . . . . . . {i * 4}" for i in range(1, 16))
# MuPDF reads a contents line as three: the section's number, its title with the leader, its page
SPLIT_TOC_PAGE = "\n".join(f"{i}.{j}\nQu’est-ce que la section {i}.{j} ? . . . . . . . . . . .\n{i * 4 + j}"
                           for i in range(1, 4) for j in range(1, 4))
BODY_PAGE = "\n".join(["A recursive function calls itself until it reaches a base case, and then it returns."] * 15)


@pytest.mark.parametrize("text, number, zone", [
    (INDEX_PAGE, 280, "index"), (TOC_PAGE, 5, "toc"), (SPLIT_TOC_PAGE, 4, "toc"),
    ("TABLE DES MATIÈRES\n4 Problèmes de compatibilité\n15", 5, "toc"), (TOC_PAGE, 200, "index"), (BODY_PAGE, 50, ""),
    ("Copyright © 2015 Allen Downey. Green Tea Press.", 4, "front"), ("Copyright © 2015 in chapter 9.", 90, ""),
    ("Contents\n\n1 Intro\n2 More", 3, "toc"),
])
def test_pages_are_recognised_by_their_lines(text, number, zone):
    assert page_zone(text, number, 300) == zone


BYLINE = ("RESEARCH ARTICLE\nIn vitro comparison of three common\nessential oils mosquito repellents\n\n"
          "Miora Ralambondrainy¹, Essia Belarbi², Wildriss Viranaicken¹, Pierre Roques²*")
AFFILIATIONS = ("1 Université de la Réunion, UM 134 Processus Infectieux, Sainte Clotilde, France, 2 Université "
                "Paris-Sud, Immunology of Viral Infections, Fontenay-aux-Roses, France\n* pierre.roques@cea.fr (PR)")
PREFACE = ("Einführung in die Geometrie und Topologie\nMartin Thoma\nVorwort\n"
           + "Dieses Skript wurde im Wintersemester 2013/2014 von Martin Thoma geschrieben. " * 8
           + "\nFehler bitte an info@martin-thoma.de")
CASE = "Vợ chồng cụ Phạm Ngọc T (chết năm 2014), cụ Nguyễn Thị Đ sinh được 05 người con chung là bà Phạm Thị Lan A"


@pytest.mark.parametrize("text, index, section, page, front", [
    (BYLINE, 0, "", 1, True), (AFFILIATIONS, 1, "", 1, True),
    (AFFILIATIONS, 1, "Abstract", 1, False),  # under a heading: the paper's text
    (AFFILIATIONS, 40, "", 9, False), (PREFACE, 0, "", 1, False),  # an e-mail address alone is no affiliation
    (CASE, 4, "", 1, False),  # names in a court case's facts are no byline
])
def test_a_papers_byline_and_affiliations_are_front_matter(text, index, section, page, front):
    chunk = Chunk("b", index, text, page, page, 0, len(text), section=section)
    assert front_chunk(chunk, "In vitro comparison of three common essential oils") is front


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

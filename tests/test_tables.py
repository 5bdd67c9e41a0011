"""Ruled tables: found with find_tables, kept whole as Markdown rows in one chunk, caption attached."""
import pymupdf
import pytest

from rag.chunking import chunk_book
from rag.chunking.base import embedding_texts
from rag.parse import parse_pdf, tables
from rag.settings import Settings
from rag.parse.lines import LINE_TABLE
from tests import pdfs
from tests.conftest import eval_pdf


def test_a_ruled_table_becomes_markdown_rows_with_its_caption():
    book = parse_pdf(pdfs.make_table_pdf(), "garden.pdf")
    text = book.pages[0].text
    assert "Table 1: When to sow and harvest\n| Vegetable | Sow indoors | Harvest |\n|---|---|---|\n" in text
    for row in pdfs.PLANTING[1:]:
        assert "| " + " | ".join(row) + " |" in text
    assert book.figure_report["tables"] == 1 and book.figure_report["found"] == 0  # the grid is no figure
    table_lines = [ln for ln in book.pages[0].lines if ln[6] == LINE_TABLE]
    assert len(table_lines) == 1 + len(pdfs.PLANTING) + 1  # caption, rows, separator
    assert text.index("The kitchen garden") < text.index("| Tomato") < text.index("Leeks stand")


@pytest.mark.parametrize("strategy", ["paragraph", "sentence", "token", "section", "hierarchical"])
def test_every_strategy_keeps_a_table_whole_in_one_chunk(strategy):
    book = parse_pdf(pdfs.make_table_pdf(), "garden.pdf")
    chunks = chunk_book(book, "b", Settings(chunker=strategy, chunk_size=128, chunk_overlap=0))
    holding = [c for c in chunks if "| Tomato" in c.text or "| Parsnip" in c.text]
    assert len(holding) == 1 and holding[0].kind == "table"
    assert "Table 1: When to sow" in holding[0].text and "| Parsnip | May | December |" in holding[0].text
    assert all(book.chunk_text[c.char_start:c.char_end] == c.text for c in chunks)


def test_a_long_table_is_cut_between_rows_and_each_part_embeds_the_header():
    rows = [("Vegetable", "Sow indoors", "Harvest")] + [(f"Crop number {i}", "March", "August") for i in range(30)]
    book = parse_pdf(pdfs.make_table_pdf(rows), "long.pdf")
    chunks = [c for c in chunk_book(book, "b", Settings(chunk_size=128, chunk_overlap=0)) if c.kind == "table"]
    assert len(chunks) >= 2
    assert all(c.text.rstrip().endswith("|") for c in chunks)  # whole rows only
    assert sum(c.text.count("| Crop number") for c in chunks) == 30
    texts = embedding_texts(book, chunks, 0)
    assert texts[0] == chunks[0].text
    assert all(t.startswith("Table 1: When to sow and harvest | Vegetable | Sow indoors | Harvest "
                            "|") for t in texts[1:])


@pytest.mark.parametrize("rows, ok", [
    ([["Tomato", "March"], ["Leek", "May"]], True),
    ([["Name", "Role"], ["Fred", ""]], False),  # one full row
    ([["b", "a", "n"], ["a", "n", "a"]], False),  # a diagram of letters
    ([["x" * 300, "y" * 300], ["z" * 300, "w" * 300]], False),  # boxes of prose
    ([["only one column"], ["x"]], False),
])
def test_what_reads_like_a_table(rows, ok):
    assert tables.looks_like_table(rows) is ok


def test_merged_cells_and_empty_columns_collapse():
    raw = [["", "Nouns", None, "Proper", None, "Common", None], ["People", None, "Fred", None, "student", None, None],
           [None] * 7, ["", "", "Seattle | WA", None, "city", None, ""]]
    assert tables.clean(raw) == [
        ["Nouns", "Proper", "Common"],
        ["People", "Fred", "student"],
        ["", "Seattle / WA", "city"],
    ]


def test_pages_without_a_grid_are_not_searched_for_tables(book_pdf):
    doc = pymupdf.open(stream=book_pdf)
    assert all(tables.grid_area(p) is None for p in doc)


def test_grammar_matters_tables_are_whole_chunks():
    book = parse_pdf(eval_pdf("en_grammar_matters_116p_ccby.pdf").read_bytes(), "gm.pdf")
    assert book.figure_report["tables"] >= 20
    chunks = chunk_book(book, "b", Settings())
    with_tables = [c for c in chunks if "|---|" in c.text]
    assert len(with_tables) == book.figure_report["tables"] and all(c.kind == "table" for c in with_tables)
    page38 = book.pages[37].text
    assert "| First Person | I walk | we walk | I walked | we walked | I will walk | we will walk |" in page38

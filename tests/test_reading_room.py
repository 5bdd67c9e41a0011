"""The reading room's parts without a browser: book text as blocks (paragraphs, lists, code, tables; never markup),
an answer's fenced blocks and citations, the one confidence notion (and old metrics rows migrated to it), chats
that belong to their browser, and the reader view's page — the cited page highlighted, the original whole or as
one page, and clear messages for a page that cannot be drawn or a book that is gone."""
import json
import sqlite3

import pymupdf
import pytest

from rag.answer.metrics import HIGH_CONFIDENCE, answer_metrics, confidence_words, level, outcome
from rag.errors import NotFoundError
from rag.evidence.blocks import answer_blocks, chunk_layout, cite_segments, source_blocks, table_rows
from rag.evidence.reader import ReaderTarget, png_size
from rag.library.catalog import Catalog
from rag.library.chats import Chats, history, title_of
from rag.library.ingest import original_path
from rag.parse.document import parse_pdf
from rag.types import Answer, Chunk
from tests.pdfs import CODE, MARKUP_LINE, PLANTING, make_code_pdf, make_table_pdf


def page_chunk(page) -> Chunk:
    return Chunk("b", 0, page.text, page.number, page.number, page.offset, page.offset + len(page.text))


# --- book text as blocks -------------------------------------------------------------------------------------

def test_a_ruled_table_becomes_rows_and_its_caption_stays_text():
    page = parse_pdf(make_table_pdf(), "planting.pdf").pages[0]
    for layout in (chunk_layout(page_chunk(page), [page]), ()):  # with the parser's line kinds, and without
        blocks = source_blocks(page.text, layout)
        tables = [b for b in blocks if b.kind == "table"]
        assert len(tables) == 1 and tables[0].rows == tuple(tuple(r) for r in PLANTING)
        texts = [b.text for b in blocks if b.kind == "para"]
        assert texts[0].startswith("The kitchen garden follows the seasons. Each crop") and "\n" not in texts[0]
        assert "Table 1: When to sow and harvest" in texts and not any("|" in t for t in texts)


def test_code_keeps_its_lines_and_indentation_and_prose_is_reflowed():
    page = parse_pdf(make_code_pdf(), "recursion.pdf").pages[0]
    blocks = source_blocks(page.text, chunk_layout(page_chunk(page), [page]))
    assert [b.kind for b in blocks] == ["para", "para", "code", "para"]
    assert blocks[2].text == "\n".join(CODE)
    assert blocks[1].text.startswith("A function that calls itself is recursive") and "\n" not in blocks[1].text


def test_without_a_layout_sessions_lists_and_pipes_are_still_found():
    text = ("To see it, type:\n\n>>> x = 5\n>>> x + 1\n6\n\nThe rules:\n\n• Parentheses come first,\nthen powers.\n\n"
            "• Then products.\n\nAfter the list, prose\ngoes on.\n| a | b |\n|---|---|\n| 1 | 2 |")
    blocks = source_blocks(text)
    assert [b.kind for b in blocks] == ["para", "code", "para", "list", "para", "table"]
    assert blocks[1].text == ">>> x = 5\n>>> x + 1\n6"
    assert blocks[3].text == "• Parentheses come first, then powers.\n• Then products."
    assert blocks[4].text == "After the list, prose goes on."
    assert blocks[5].rows == (("a", "b"), ("1", "2"))


def test_book_text_stays_the_characters_it_is_made_of():
    blocks = source_blocks(MARKUP_LINE + "\n<b>bold</b> **not bold** [link](http://x)")
    assert blocks[0].kind == "para" and blocks[0].text == MARKUP_LINE + " <b>bold</b> **not bold** [link](http://x)"
    assert table_rows(["| <script>x</script> | *y* |"]) == [["<script>x</script>", "*y*"]]


def test_answer_blocks_split_fenced_code_and_tables_and_find_citations():
    text = ("Define it so [1]\n```\ndef f(n):\n    return n\n```\nThe table [2, 3]:\n```table\n| Crop | Month |\n"
            "|---|---|\n| Leek | May |\n```\n\nSecond paragraph [9].\n```\nunclosed = True")
    blocks = answer_blocks(text)
    assert [b.kind for b in blocks] == ["para", "code", "para", "table", "para", "code"]
    assert blocks[1].text == "def f(n):\n    return n" and blocks[5].text == "unclosed = True"
    assert blocks[3].rows == (("Crop", "Month"), ("Leek", "May"))
    assert cite_segments(blocks[2].text, {1, 2, 3}) == [("text", "The table "), ("cite", 2), ("cite", 3),
                                                         ("text", ":")]
    assert cite_segments("Second paragraph [9].", {1, 2}) == [("text", "Second paragraph [9].")]  # no source 9


# --- one confidence --------------------------------------------------------------------------------------------

def test_one_confidence_in_plain_words():
    a = Answer(question="q", query="q", text="x [1]", confidence=0.92)
    m = answer_metrics(a, 3000, 0.4)
    assert m["confidence"] == 0.92 and m["outcome"] == "answer" and not m["not_found"]
    assert confidence_words(0.92, "answer") == "Found in your books · high confidence (92%)"
    assert confidence_words(0.7, "answer").endswith("medium confidence (70%)") and level(0.3) == "low"
    assert confidence_words(0.5, "likely").startswith("Likely answer · low confidence (50%)")
    assert confidence_words(0.1, "not_found").startswith("Not in your books")
    assert outcome({"not_found": True}) == "not_found" and outcome({}) == "answer"  # stored before outcomes
    assert outcome({"outcome": "likely", "not_found": False}) == "likely"
    assert HIGH_CONFIDENCE == 0.85


def test_metrics_rows_from_the_similarity_formula_are_migrated(tmp_path):
    cat = Catalog(tmp_path / "catalog.db").chats
    sid = cat.new_session("old chat")
    rows = []
    for conf, not_found in ((0.92, False), (0.12, True)):
        mid = cat.add_message(sid, "assistant", "text", {"confidence": conf, "not_found": not_found})
        rows.append(mid)
        cat.add_metrics(mid, sid, "q", {"total_ms": 10, "first_token_ms": 5, "stages": {}, "avg_similarity": 0.5,
                                        "confidence": 0.0, "not_found": not_found, "outcome": "", "slow": False,
                                        "low_similarity": False, "quote_failures": 0, "book_ids": []})
    lost = cat.add_message(sid, "assistant", "an answer stored without its dict")
    cat.add_metrics(lost, sid, "q", {"total_ms": 10, "first_token_ms": 5, "stages": {}, "avg_similarity": 0.5,
                                     "confidence": 0.29, "not_found": False, "outcome": "", "slow": False,
                                     "low_similarity": False, "quote_failures": 0, "book_ids": []})
    with sqlite3.connect(tmp_path / "catalog.db") as db:  # as an older version left them: 0.7 × similarity …
        db.execute("UPDATE answer_metrics SET confidence_kind='similarity', confidence=0.29, outcome=''")
    got = {r["message_id"]: r for r in Catalog(tmp_path / "catalog.db").chats.metrics()}
    assert (got[rows[0]]["confidence"], got[rows[0]]["outcome"]) == (0.92, "answer")
    assert (got[rows[1]]["confidence"], got[rows[1]]["outcome"]) == (0.12, "not_found")
    assert got[lost]["confidence"] == -1  # unknown: the Metrics page leaves it out
    assert {r["confidence_kind"] for r in got.values()} == {"answerable"}


# --- chats -----------------------------------------------------------------------------------------------------

def test_chats_belong_to_their_browser_and_are_found_by_title(folio):
    chats: Chats = folio.chats
    legacy = folio.catalog.chats.new_session("From before owners")
    a1 = chats.new("How often do tomatoes need watering?", owner="a" * 32)
    a2 = chats.new("  Leeks\n in   winter  ", owner="a" * 32)
    b1 = chats.new("Tomatoes for b", owner="b" * 32)
    assert chats.claim("a" * 32) == 1 and chats.claim("b" * 32) == 0  # the first browser gets the old chats
    assert [c["id"] for c in chats.sessions("a" * 32)] == [a2, a1, legacy]
    assert [c["id"] for c in chats.sessions("b" * 32)] == [b1]
    assert [c["id"] for c in chats.sessions("a" * 32, "tomato WATER")] == [a1]
    assert chats.sessions("a" * 32, "50%_") == []  # LIKE wildcards are plain characters
    assert chats.get(a2, "a" * 32)["title"] == "Leeks in winter"
    assert chats.get(a1, "b" * 32) is None and chats.get(999) is None
    chats.rename(a1, "x" * 200)
    assert chats.get(a1)["title"] == title_of("x" * 200) and len(title_of("x" * 200)) == 80
    chats.delete(a1)
    assert chats.get(a1) is None and [c["id"] for c in chats.sessions("a" * 32)] == [a2, legacy]


def test_history_pairs_questions_with_answers():
    msgs = [{"role": "user", "content": "q1", "answer": None},
            {"role": "assistant", "content": "a1", "answer": {"n": 1}},
            {"role": "user", "content": "q2", "answer": None},
            {"role": "assistant", "content": "⚠️ failed", "answer": None}]
    turns, last = history(msgs)
    assert turns == [("q1", "a1"), ("q2", "⚠️ failed")] and last == {"n": 1}


# --- the reader view -----------------------------------------------------------------------------------------

def cited(folio, book_pdf):
    folio.library.ingest(book_pdf, "garden.pdf")
    answer = folio.ask("How often do tomatoes need watering?").consume()
    n = answer.checks[0].n
    return answer, next(s for s in answer.sources if s.n == n)


def test_a_citation_opens_its_page_large_and_highlighted_with_the_original(folio, book_pdf):
    answer, src = cited(folio, book_pdf)
    target = folio.reader.open_source(src, answer.text)
    assert target.quotes and "twice a week" in target.quotes[0] and target.title.startswith(f"[{src.n}] Garden")
    assert ReaderTarget.from_dict(json.loads(json.dumps(target.to_dict()))) == target  # kept in the session
    page = folio.reader.read(target)
    assert page.number == target.page and page.highlighted and page.image and page.image.exists()
    assert page.focus is not None and 0 < page.focus[1] < 1
    with pymupdf.open(original_path(folio.settings, src.book_id)) as doc:
        points = doc[page.number - 1].rect.width
    assert png_size(page.image)[0] >= 2 * points - 1  # drawn at 144 dpi: readable at full width
    assert page.count == 5 and len(page.labels) == 5 and page.where.startswith(f"p. {page.label} (page")
    other = folio.reader.read(target, 1)
    assert other.number == 1 and not other.highlighted  # the cover: nothing cited there
    assert folio.reader.read(target, 99).number == 5  # a jump past the end shows the last page
    one = pymupdf.open(stream=folio.reader.page_pdf(src.book_id, target.page), filetype="pdf")
    assert one.page_count == 1 and "twice a week" in one[0].get_text()
    whole = pymupdf.open(stream=folio.reader.book_pdf(src.book_id, target.page), filetype="pdf")
    kind, value = whole.xref_get_key(whole.pdf_catalog(), "OpenAction")
    assert whole.page_count == 5 and kind == "array" and value.startswith(f"[{whole[target.page - 1].xref} 0 R")
    with pytest.raises(NotFoundError):
        folio.reader.page_pdf(src.book_id, 6)


def test_a_citation_opens_where_the_answer_s_first_quote_is_and_shows_a_quote_on_any_page(folio, book_pdf):
    from dataclasses import replace

    answer, src = cited(folio, book_pdf)
    target = folio.reader.open_source(src, answer.text)
    page = folio.reader.read(target)
    # the same quote cited from a chunk on another page: the page is still marked, the view opens on the quote
    elsewhere = folio.reader.read(replace(target, spans=((0, 0),)), target.page)
    assert elsewhere.highlighted and elsewhere.focus == page.focus
    other = next(p for p in range(1, 6) if p != target.page)
    assert not folio.reader.read(replace(target, spans=((0, 0),)), other).highlighted
    shifted = replace(src, page_start=1)  # the source's context starts earlier; the quote's page is still opened
    assert folio.reader.open_source(shifted, answer.text).page == target.page


def test_each_citation_of_a_source_quoted_twice_opens_its_own_passage(folio, book_pdf):
    from dataclasses import replace

    from rag.evidence.blocks import upto_citation

    answer, src = cited(folio, book_pdf)
    water = "Tomatoes need deep watering twice a week."
    star = "Jupiter is the largest planet of the solar system."
    both = replace(src, text=f"{water} {star}", page_start=1, page_end=5)  # a window over both sections
    text = f"{water} [{src.n}]\n\n```\nwater()\n```\n\n{star} [{src.n}]"
    assert upto_citation(text, src.n, 0).endswith(f"twice a week. [{src.n}]")
    assert upto_citation(text, src.n, 1).endswith(f"system. [{src.n}]") and upto_citation(text, src.n, -1) == ""
    first, second = (folio.reader.open_source(both, text, k) for k in (0, 1))
    words = [" ".join(folio.reader.read(t).text.split()) for t in (first, second)]
    assert water in words[0] and star not in words[0] and star in words[1] and second.page > first.page
    assert set(second.quotes) == set(first.quotes) == {water, star}  # both passages stay marked on their pages
    assert folio.reader.open_source(both, text, 7).page == first.page  # no such citation: the first passage
    every = [c.chunk_index for c in folio.catalog.chunks(src.book_id)]
    shown = " ".join(" ".join(b.text.split()) for b in folio.reader.quoted_passage(replace(both, chunk_indices=every),
                                                                                  text))
    assert water in shown and star in shown  # the source's passage holds both quotes (tour 43)
    # … and the reader's yellow is that passage: every chunk its quotes lie in, not only the matching one (tour 50)
    wide = folio.reader.open_source(replace(both, chunk_indices=every), text)
    held = [c for c in folio.catalog.chunks(src.book_id) if water in " ".join(c.text.split())
            or star in " ".join(c.text.split())]
    assert all(any(a <= c.char_start and c.char_end <= b for a, b in wide.spans) for c in held)
    assert all(x[1] < y[0] for x, y in zip(wide.spans, wide.spans[1:]))  # merged: an overlap is not drawn twice
    assert "Tomatoes need deep" in " ".join(b.text for b in folio.reader.quoted_passage(src, answer.text))


def test_a_later_citation_opens_where_its_passage_begins_after_the_one_before_not_at_an_earlier_copy(folio,
                                                                                                        book_pdf):
    """The book's filler paragraph is on every page; quoted after Jupiter's sentence, the second [n] opens at the
    copy that follows it, not the first page the line is on (tour 51: LilyPond's second [1] began with a
    "\\relative {" listing line that p. 17 has too, and opened p. 17, not p. 18)."""
    from dataclasses import replace

    answer, src = cited(folio, book_pdf)
    star = "Jupiter is the largest planet of the solar system."
    filler = ("This paragraph is filler text that talks about general matters of the chapter at some length, so "
              "that the document has several chunks per section and spans more than one page.")
    every = [c.chunk_index for c in folio.catalog.chunks(src.book_id)]
    whole = replace(src, text=" ".join(c.text for c in folio.catalog.chunks(src.book_id)), page_start=1, page_end=5,
                    chunk_indices=every)
    text = f"{star} [{src.n}]\n\n{filler} [{src.n}]"
    first, second = (folio.reader.open_source(whole, text, k) for k in (0, 1))
    copies = [n for n in range(1, 6) if filler in " ".join(folio.reader.read(first, n).text.split())]
    assert copies[0] < first.page <= second.page


def test_a_sentence_a_page_break_cuts_is_found_on_the_page_where_it_begins():
    from rag.evidence.render import locate
    from rag.types import Page

    quote = "To include files, simply add them to your config/ includes.chroot directory."
    end = Page(74, "74", "Another is to supply files.\n\nTo include files, simply add them to your config/\n\n74", 0)
    start = Page(75, "75", "Customizing contents\nsimply add them to your config/ includes.chroot directory. This "
                           "directory corresponds to the root directory.", 90)
    a, b = locate(end, quote)
    assert end.text[a:b] == "To include files, simply add them to your config/"
    a, b = locate(start, quote)
    assert start.text[a:b] == "simply add them to your config/ includes.chroot directory."
    assert locate(Page(3, "3", "Elsewhere: simply add them to your config/ in the middle of a long page. " * 3, 0),
                  quote) is None  # a few of its words in the middle of a page are not the sentence
    see = "For more information, see the apt-get manual page for all of its details."
    assert locate(Page(4, "4", "Text.\n\nFor more information, see Section 8.4.\n\n74", 0), see) is None
    assert locate(Page(5, "5", "Header\nUse lb build as described in the next section.", 0),
                  "Copy the files first, then run the build as described in the next section.") is None


def test_each_quote_is_marked_on_the_one_page_of_its_source_where_it_lies():
    # tour 47: the listing lines quoted with AMC's "Réponses sur plusieurs colonnes" (p. 32) were marked again in
    # the next listing, on p. 33, which the answer did not quote
    from rag.evidence.render import place
    from rag.types import Page

    one = Page(37, "32", "Afin de présenter les réponses sur plusieurs colonnes, on pourra englober l'environnement "
                         "reponses :\n\\begin{multicols}{2}\n\\begin{reponses}\n\\bonne{La bonne}\n\\end{reponses}\n"
                         "\\end{multicols}\nLa commande \\AMCBoxedAnswers a été définie afin d'éviter ce", 0)
    two = Page(38, "33", "phénomène, en enveloppant chaque réponse dans des petites boites.\n\\begin{multicols}{2}\n"
                         "\\begin{reponses}\n\\AMCBoxedAnswers\n\\end{reponses}\n\\end{multicols}", 300)
    quotes = ["Afin de présenter les réponses sur plusieurs colonnes, on pourra englober l'environnement reponses :",
              "\\begin{multicols}{2}", "\\begin{reponses}", "\\end{reponses}", "\\end{multicols}",
              "La commande \\AMCBoxedAnswers a été définie afin d'éviter ce phénomène, en enveloppant chaque réponse "
              "dans des petites boites."]
    placed = place([one, two], quotes)
    assert placed[37] == quotes  # the listing's lines where the passage is, the cut sentence on both pages
    assert placed[38] == quotes[-1:]
    # a quote the pages hold only on the later page is marked there; one they do not hold, nowhere
    assert place([one, two], ["phénomène, en enveloppant chaque réponse dans des petites boites.", "\\AMCBoxedAnswers",
                              "Nothing like this is on either page."]) == {
        37: [], 38: ["phénomène, en enveloppant chaque réponse dans des petites boites.", "\\AMCBoxedAnswers"]}
    # a passage quoted before an earlier one of the same page is still marked there
    assert place([one, two], [quotes[4], quotes[0]]) == {37: [quotes[4], quotes[0]], 38: []}


def test_a_passage_a_page_break_cuts_goes_on_at_the_top_of_the_next_page():
    # tour 49: Think Python's listing ">>> fin = open('words.txt')" / ">>> fin.readline()" / "'aa\r\n'" runs from
    # the foot of p. 99 onto p. 100, which has ">>> fin.readline()" again further down, in the cited passage: the
    # first line was marked there, its "'aa\r\n'" at the top
    from rag.evidence.render import place
    from rag.types import Page

    one = Page(119, "99", "The built-in function open returns a file object.\n>>> fin = open('words.txt')\nfin is a "
                          "common name for a file object used for input. It returns the result as a string:", 0)
    text = (">>> fin.readline()\n'aa\\r\\n'\nThe first word in this particular list is aa, a kind of lava.\n"
            "The file object keeps track of where it is in the file, so if you call readline again:\n"
            ">>> fin.readline()\n'aah\\r\\n'")
    two = Page(120, "100", text, 500)
    quotes = [">>> fin = open('words.txt')", "fin is a common name for a file object used for input.",
              "It returns the result as a string:", ">>> fin.readline()", "'aa\\r\\n'"]
    placed = place([one, two], quotes, {120: [(text.index("The file"), len(text))]})
    assert placed == {119: quotes[:3], 120: quotes[3:]}
    from rag.evidence.render import locate_all
    assert locate_all(two, placed[120], [(text.index("The file"), len(text))]) == [(0, 18), (19, 27)]
    # the copy in the cited passage, where it is the one the next quote follows
    assert locate_all(two, [">>> fin.readline()", "'aah\\r\\n'"], []) == [(177, 195), (196, 205)]


def test_a_listing_line_quoted_twice_is_marked_at_both_places():
    # tour 48: Think Python's ">>> fin.readline()" before 'aa' and again before 'aah'; only one was marked
    from rag.evidence.pages import quoted_sentences
    from rag.evidence.render import locate_all
    from rag.types import Page
    from tests.test_passages import source

    text = (">>> fin.readline()\n'aa\\r\\n'\nThe first word in this particular list is aa, a kind of lava.\n"
            "The file object keeps track of where it is in the file, so if you call readline again:\n"
            ">>> fin.readline()\n'aah\\r\\n'")
    answer = ("The first word in this particular list is aa, a kind of lava. [1]\n\n```\n>>> fin.readline()\n```\n\n"
              "The file object keeps track of where it is in the file, so if you call readline again: [1]\n\n```\n"
              ">>> fin.readline()\n```")
    quotes = quoted_sentences(answer, source(text))
    assert quotes.count(">>> fin.readline()") == 2
    found = locate_all(Page(120, "100", text, 0), quotes, [(text.index("The file"), len(text))])
    lines = sorted(a for (a, b), q in zip(found, quotes) if q == ">>> fin.readline()")
    assert lines == [0, text.rindex(">>> fin")]  # both places, the one in the cited passage and the other


def test_the_sentences_of_a_quoted_passage_are_marked_in_the_books_order():
    # Think Python's aliasing section says "In this example" twice; the answer quoted the second one, after
    # "For immutable objects …" (tour 36 saw the first marked orange)
    from rag.evidence.render import locate_all
    from rag.types import Page

    text = ("The association of a variable with an object is called a reference. In this example, there are two "
            "references to the same object.\n\nFor immutable objects like strings, aliasing is not as much of a "
            "problem. In this example:\n\na = 'banana'\nb = 'banana'")
    page = Page(136, "116", text, 0)
    quotes = ["For immutable objects like strings, aliasing is not as much of a problem.", "In this example",
              "a = 'banana'"]
    found = locate_all(page, quotes, [(0, len(text))])
    assert [text[a:b] for a, b in found] == quotes
    assert found[1][0] > text.index("For immutable")
    # a sentence quoted from earlier in the text than the one before it is still found, and the next one after it
    t = ("Lists are mutable. In this example, the list changes.\n\nStrings are immutable.\n\nTuples are like lists. "
         "In this example, the tuple cannot change.")
    assert locate_all(Page(1, "1", t, 0), ["Strings are immutable.", "Lists are mutable.", "In this example,"],
                      [(0, len(t))])[2] == (19, 35)
    # a listing quoted between two sentences is marked where it stands, not in the exercise that repeats it
    from rag.evidence.pages import quoted_sentences
    from tests.test_passages import source

    text = ("This program reads words.txt and prints each word, one per line:\n\nfin = open('words.txt')\n"
            "for line in fin:\n    print(line)\n\nThe output is a long list of words.\n\nExercise 2. Print only "
            "the long words:\n\nfin = open('words.txt')\nfor line in fin:\n    print(line)\n")
    answer = ("This program reads words.txt and prints each word, one per line: [1]\n```\nfin = open('words.txt')\n"
              "for line in fin:\n    print(line)\n```\nThe output is a long list of words. [1]")
    quotes = quoted_sentences(answer, source(text))
    found = locate_all(Page(1, "1", text, 0), quotes, [(0, len(text))])
    assert all(a < text.index("Exercise 2") for a, _ in found)


def test_a_page_that_cannot_be_drawn_or_a_deleted_book_gives_a_clear_message(folio, book_pdf):
    answer, src = cited(folio, book_pdf)
    target = folio.reader.open_source(src, answer.text)
    pdf = original_path(folio.settings, src.book_id)
    pdf.write_bytes(b"%PDF-1.7\n this file was damaged after it was indexed")
    page = folio.reader.read(target)  # no traceback: the reason, and the page's text instead
    assert page.image is None and "could not be drawn" in page.problem and "twice a week" in page.text
    pdf.unlink()
    page = folio.reader.read(target)
    assert page.image is None and "original file is missing" in page.problem
    folio.library.delete_book(src.book_id)
    with pytest.raises(NotFoundError, match="no longer in your library"):
        folio.reader.read(target)
    assert [b.kind for b in folio.reader.passage(src.hit)]  # the quoted passage still reads, from its text
    assert [b.kind for b in folio.reader.quoted_passage(src, answer.text)]


def test_an_epub_reads_with_its_code_and_table_and_its_upload_comes_with_it(folio):
    from tests.bookfiles import CODE as EPUB_CODE, TABLE as EPUB_TABLE, make_epub

    r = folio.library.ingest(make_epub(), "garden.epub")
    blocks = [b for c in folio.catalog.chunks(r.book_id) for b in folio.reader.passage(c)]
    assert any(b.kind == "table" and b.rows == tuple(tuple(x) for x in EPUB_TABLE) for b in blocks)
    # the listing is a <p> with <br/>: as any browser shows it, its leading spaces collapse; its lines stay lines
    listing = "\n".join(line.strip() for line in EPUB_CODE.split("\n"))
    assert any(b.kind == "code" and b.text == listing for b in blocks), [b.text for b in blocks if b.kind == "code"]
    assert folio.reader.uploaded_file(r.book_id).suffix == ".epub"  # offered beside the laid-out PDF
    page = folio.reader.read(ReaderTarget(r.book_id, 2))
    assert page.image is not None and page.count >= 2


def test_the_code_an_answer_quotes_is_marked_on_the_page_too(folio):
    """The reader marks the quoted listing's lines as well as the sentence that introduces it."""
    text = ("# Pinning\n\nTo pin the live packages from sid higher than all others, write this preferences file:\n\n"
            "```\n$ cat >> config/archives/sid.pref.chroot << EOF\nPackage: live-*\nPin: release n=sid\n"
            "Pin-Priority: 600\nEOF\n```\n\nOther packages keep their priority.\n")
    r = folio.library.ingest(text.encode(), "pinning.md")
    answer = folio.ask("How do I pin the live packages from sid higher?", book_id=r.book_id).consume()
    assert "```\n$ cat >> config/archives/sid.pref.chroot << EOF" in answer.text, answer.text
    src = answer.sources[0]
    target = folio.reader.open_source(src, answer.text)
    assert {"Package: live-*", "Pin-Priority: 600"} <= set(target.quotes), target.quotes
    assert "EOF" not in target.quotes  # a short line is found anywhere on a page
    page = folio.reader.read(target)
    assert page.highlighted


def test_a_source_is_named_by_the_chunk_its_quote_comes_from():
    """The question matched the Exercises chunk, but the answer quotes the Glossary line of its window: the source's
    label names the Glossary and its page (and survives a stored chat), the matching chunk when the quote is its."""
    from rag.evidence.pages import quoted_span
    from rag.types import Chunk, Source

    glossary = Chunk("tp", 4, "return statement: A statement that causes a function to end immediately.", 56, 56, 0,
                     74, section="Conditionals > Glossary", label_start="56", label_end="56")
    exercises = Chunk("tp", 5, "Exercise 5.1. The time module provides a function that returns the time.", 57, 57,
                      75, 150, section="Conditionals > Exercises", label_start="57", label_end="57")
    src = Source(4, "tp", "Think Python", exercises, glossary.text + "\n" + exercises.text, [4, 5], 56, 57, "p. 57",
                 1.0, 0.6)
    answer = "return statement: A statement that causes a function to end immediately. [4]"
    rng = lambda book, lo, hi: [c for c in (glossary, exercises) if lo <= c.chunk_index <= hi]  # noqa: E731
    src.quoted = quoted_span(answer, src, rng)[0]
    assert src.quoted == glossary and src.label == "Think Python › Conditionals › Glossary, p. 56"
    assert Source.from_dict(src.to_dict()).label == src.label
    own = "Exercise 5.1. The time module provides a function that returns the time. [4]"
    assert quoted_span(own, src, rng)[0] is None  # the matching chunk's own sentence: its label stays


def test_a_quote_that_runs_onto_the_next_page_is_cited_with_both_pages():
    """Tour 42: the Gauß-curvature answer quoted "Sei S eine reguläre Fläche …" (p. 94) and its items a) and b)
    (p. 95) under a source labelled "p. 94"."""
    from rag.evidence.pages import quoted_span
    from rag.types import Chunk, Source

    premise = Chunk("g", 7, "Bemerkung 79. Sei S eine reguläre Fläche, s ∈S ein Punkt.", 94, 94, 0, 60,
                    section="Flächen", label_start="94", label_end="94")
    items = Chunk("g", 8, "a) Ist K(s) > 0, so liegt S ganz auf einer Seite. b) Ist K(s) < 0, so schneidet jede "
                  "Umgebung beide Seiten.", 95, 95, 61, 160, section="Flächen", label_start="95", label_end="95")
    src = Source(1, "g", "Geometrie", premise, premise.text + "\n" + items.text, [7, 8], 94, 95, "p. 94", 1.0, 0.6)
    rng = lambda book, lo, hi: [c for c in (premise, items) if lo <= c.chunk_index <= hi]  # noqa: E731
    answer = ("Sei S eine reguläre Fläche, s ∈S ein Punkt. a) Ist K(s) > 0, so liegt S ganz auf einer Seite. b) Ist "
              "K(s) < 0, so schneidet jede Umgebung beide Seiten. [1]")
    src.quoted_to = quoted_span(answer, src, rng)[1]
    assert src.quoted_to == "95" and src.label == "Geometrie › Flächen, pp. 94–95"
    assert Source.from_dict(src.to_dict()).label == src.label
    assert quoted_span("Sei S eine reguläre Fläche, s ∈S ein Punkt. [1]", src, rng)[1] == ""  # one page: as it was
    # with the book's pages, the pages are where the quotes lie (tour 47: "p. 100" over a quote that begins on p. 99,
    # "pp. 32–33" over one that ends on p. 32)
    from rag.types import Page

    pages = {94: Page(94, "94", premise.text, 0), 95: Page(95, "95", items.text, 61)}
    page_of = lambda book, n: pages.get(n)  # noqa: E731
    for said, label in [(answer, "pp. 94–95"), ("Sei S eine reguläre Fläche, s ∈S ein Punkt. [1]", "p. 94"),
                        ("a) Ist K(s) > 0, so liegt S ganz auf einer Seite. [1]", "p. 95")]:
        src.quoted, src.quoted_to, src.quoted_from = quoted_span(said, src, rng, page_of)
        assert src.label == f"Geometrie › Flächen, {label}"
        assert Source.from_dict(src.to_dict()).label == src.label


def test_a_quote_the_page_has_twice_is_highlighted_in_the_cited_passage():
    # tour 30: the quoted "Syntax:" of gnuplot's "Samples" entry was highlighted at "Rgbmax"'s "Syntax:" above it
    from rag.evidence.render import locate
    from rag.types import Page

    text = ("Rgbmax\nSyntax:\nset rgbmax {1.0 | 255}\n\n"
            "Samples\nThe default sampling rate may be changed. Syntax:\nset samples")
    page = Page(195, "195", text, 0)
    cited = (text.index("Samples"), len(text))
    a, b = locate(page, "Syntax:", [cited])
    assert text[a:b] == "Syntax:" and a > cited[0]
    assert locate(page, "Syntax:")[0] == text.index("Syntax:")  # without a passage: the first


def test_a_quoted_line_of_a_symbol_or_two_marks_nothing_on_the_page():
    # tour 31: Octave's result arrow "⇒" quoted on a line of its own lit up every "⇒" of three pages
    from rag.evidence.pages import quoted_sentences
    from rag.types import Chunk, Source

    text = "A cell array holds values of any type. [1]\n⇒ [1]\nIt is indexed with braces. [1]"
    book = "A cell array holds values of any type.\n⇒\nIt is indexed with braces.\n⇒ ans = a string"
    chunk = Chunk("b", 0, book, 1, 1, 0, len(book))
    src = Source(1, "b", "Octave", chunk, book, [0], 1, 1, "p. 1", 1.0, 0.5)
    quotes = quoted_sentences(text, src)
    assert "⇒" not in quotes and "A cell array holds values of any type." in quotes


def test_a_quote_that_begins_mid_line_is_marked_from_its_first_word():
    # tour 43: the orange band covered the whole line, the sentence before the quote included
    from rag.evidence.render import drawn_boxes, locate

    doc = pymupdf.open()
    pdf_page = doc.new_page()
    pdf_page.insert_text((72, 100), "Water the beds twice a week. Mulch keeps the soil moist in summer.", fontsize=11)
    pdf_page.insert_text((72, 114), "Roots grow deep when the top layer dries between waterings.", fontsize=11)
    page = parse_pdf(doc.tobytes(), "garden.pdf", use_ocr=False).pages[0]
    line = next(ln for ln in page.lines if "Mulch" in page.text[ln[0]:ln[1]])
    a, b = locate(page, "Mulch keeps the soil moist in summer. Roots grow deep when the top layer dries between "
                        "waterings.")
    first, second = drawn_boxes(pdf_page, page, a, b)
    mulch = pdf_page.search_for("Mulch")[0]
    assert abs(first[0] - mulch.x0) < 1 and abs(first[2] - line[4]) < 1  # from "Mulch" to the line's end
    assert second == tuple(next(ln for ln in page.lines if "Roots" in page.text[ln[0]:ln[1]])[2:6])  # whole line
    a, b = locate(page, "Water the beds twice a week.")
    water = drawn_boxes(pdf_page, page, a, b)
    assert len(water) == 1 and water[0][0] == line[2] and water[0][2] < mulch.x0  # stops before "Mulch"
    assert drawn_boxes(pdf_page, page, b, b + 1) == []  # the space between the two sentences marks nothing


def test_a_quoted_sentence_with_an_abbreviation_and_a_bracket_is_marked_whole():
    # tour 45: "… wie z. B. [0, 1)." was marked only up to "wie z."; AMC's "**[columns=2]…" lost its "**"
    from rag.evidence.pages import quoted_sentences
    from rag.types import Chunk, Source

    def source(text: str) -> Source:
        return Source(1, "b", "Book", Chunk("b", 0, text, 3, 3, 0, len(text)), text, [0], 3, 3, "p. 3", 1.0, 0.5)

    book = "Topologie: Es gibt auch Mengen, die weder abgeschlossen, noch offen sind wie z. B. [0, 1). Weiter."
    assert quoted_sentences("Es gibt auch Mengen, die weder abgeschlossen, noch offen sind wie z. B. [0, 1). [1]",
                            source(book)) == ["Es gibt auch Mengen, die weder abgeschlossen, noch offen sind wie z. B. "
                                              "[0, 1)."]
    amc = "**[columns=2]Dans le gouter de Vanessa, il y a quoi ?\n+des pommes\n-des poires"
    assert quoted_sentences("**[columns=2]Dans le gouter de Vanessa, il y a quoi ? [1]", source(amc)) == [
        "**[columns=2]Dans le gouter de Vanessa, il y a quoi ?"]
    assert quoted_sentences("• Tomatoes need deep watering twice a week. [1]",
                            source("Tomatoes need deep watering twice a week.")) == [
        "Tomatoes need deep watering twice a week."]  # a bullet the answer sets is no part of the quote


def test_a_later_citation_of_a_sentence_a_page_break_cuts_opens_where_the_sentence_begins():
    """A second read of tour 51's fix: the passage's first sentence runs from p. 2 onto p. 3 (placed on both); its
    citation opens p. 2, where it begins, as a first citation of it does."""
    from types import SimpleNamespace

    from rag.evidence.pages import CitationPages
    from rag.types import Chunk, Page, Source

    star = "Jupiter is the largest planet of the solar system."
    head, tail = "Tomatoes need deep watering twice a week", "during the hot months of the year."
    texts = ["Chapter one.\n" + star + "\nMore filler words here.", "Other text on the second page.\n" + head,
             tail + "\nCompost adds organic matter to the soil."]
    pages, off = [], 0
    for i, t in enumerate(texts, 1):
        pages.append(Page(i, str(i), t, off))
        off += len(t) + 1
    book = "\n".join(texts)
    chunk = Chunk("b", 0, book, 1, 3, 0, len(book))
    catalog = SimpleNamespace(page=lambda b, n: pages[n - 1] if 1 <= n <= 3 else None,
                              chunk_range=lambda b, lo, hi: [chunk])
    reader = CitationPages(SimpleNamespace(catalog=catalog, settings=None))
    src = Source(1, "b", "Book", chunk, book, [0], 1, 3, "pp. 1–3", 1.0, 0.5)
    cut = f"{head} {tail}"
    assert [reader.open_source(src, f"{star} [1]\n\n{cut} [1]", k).page for k in (0, 1)] == [1, 2]
    assert reader.open_source(src, f"{cut} [1]").page == 2

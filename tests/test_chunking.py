"""Invariants every chunking strategy keeps, and the lint."""
import pytest

from rag.chunking import STRATEGIES, chunk_book
from rag.chunking.base import book_regions, embedding_texts
from rag.chunking.lint import counts, lint, near_duplicates
from rag.parse import parse_file, parse_pdf
from rag.settings import Settings
from rag.text.tokens import count_tokens
from tests.conftest import eval_pdf

OVERLAPPING = {"sentence"}  # overlap in sentences by default


def check_invariants(book, chunks, settings):
    text = book.chunk_text
    assert len(text) == len(book.text)
    furniture = [(p.offset + a, p.offset + b) for p in book.pages for a, b in p.furniture]
    assert all(not text[a:b].strip() for a, b in furniture)  # running headers/footers are blanked ...
    assert all(x == y for x, y in zip(text, book.text) if not x.isspace())  # ... and nothing else changes
    assert [c.chunk_index for c in chunks] == list(range(len(chunks)))
    for c in chunks:
        # the chunk's text is exactly the (furniture-blanked) book text at its character span
        assert text[c.char_start:c.char_end] == c.text and c.text.strip() == c.text
        # ... and the page text at that span when it sits on one page
        p0, p1 = book.pages[c.page_start - 1], book.pages[c.page_end - 1]
        if c.page_start == c.page_end:
            assert p0.chunk_text[c.char_start - p0.offset:c.char_end - p0.offset] == c.text
        assert p0.offset <= c.char_start and c.char_end <= p1.offset + len(p1.text)
        assert c.label_start == p0.label and c.label_end == p1.label
        # fits the embedding model
        assert c.tokens == count_tokens(c.text) <= settings.chunk_size
        # a chunk stays inside its section
        sec = next(s for s in book.sections if s.start <= c.char_start < s.end)
        assert c.char_end <= sec.end and c.section == sec.path
    for a, b in zip(chunks, chunks[1:]):
        assert a.char_start < b.char_start  # reading order
        if settings.chunker not in OVERLAPPING and not settings.chunk_overlap:
            assert a.char_end <= b.char_start  # no overlap
        if a.section == b.section:
            assert not text[a.char_end:b.char_start].strip()  # no text lost between consecutive chunks


def check_parents(book, chunks, settings):
    parents: dict[int, list] = {}
    for c in chunks:
        assert c.parent >= 0
        parents.setdefault(c.parent, []).append(c)
    spans = []
    for kids in parents.values():
        idx = [k.chunk_index for k in kids]
        assert idx == list(range(idx[0], idx[0] + len(idx)))  # children are consecutive
        a, b = kids[0].char_start, kids[-1].char_end
        assert count_tokens(book.chunk_text[a:b]) <= settings.parent_size  # children inside a parent that fits its size
        assert len({k.section for k in kids}) == 1
        spans.append((a, b))
    assert all(x[1] <= y[0] for x, y in zip(spans, spans[1:]))  # parents do not overlap


def _chunk(book, name, embed, **kw):
    s = Settings(chunker=name, **kw)
    return s, chunk_book(book, "b", s, embed.get_text_embedding_batch if name == "semantic" else None)


@pytest.mark.parametrize("name", list(STRATEGIES))
@pytest.mark.parametrize("size", [64, 200])
def test_every_strategy_keeps_the_invariants_on_a_generated_book(book_pdf, embed, name, size):
    book = parse_pdf(book_pdf, "garden.pdf")
    s, chunks = _chunk(book, name, embed, chunk_size=size, parent_size=256)
    assert len(chunks) > 3
    check_invariants(book, chunks, s)
    assert sum(len(c.text) for c in chunks) > 0.8 * len(book.text.replace(" ", ""))  # nearly all text is indexed
    if name == "hierarchical":
        check_parents(book, chunks, s)
    else:
        assert all(c.parent == -1 for c in chunks)


def test_semantic_breaks_where_the_topic_changes(embed):
    from rag.chunking.semantic import breakpoints
    import numpy as np

    v = np.array([[1, 0], [1, 0.05], [1, 0.1], [0, 1], [0.05, 1]], dtype=np.float32)
    assert breakpoints(v, 70) == {3}


@pytest.mark.parametrize("breaks,min_tokens,expected", [
    (set(), 0, [(0, 4)]),            # no breaks: everything fits in one span
    ({1, 3}, 0, [(0, 1), (1, 3), (3, 4)]),  # every break starts a span
    ({1, 3}, 5, [(0, 3), (3, 4)]),   # a break before the span holds 5 word-pieces is ignored
    ({2}, 100, [(0, 4)]),            # a minimum above everything: one span
])
def test_pack_honours_breaks_once_a_span_holds_the_minimum(breaks, min_tokens, expected):
    from rag.chunking.base import SectionContext, pack

    seg = "Alpha beta. Gamma delta epsilon. Zeta eta. Theta."
    units, pos = [], 0
    for sent in ["Alpha beta.", "Gamma delta epsilon.", "Zeta eta.", "Theta."]:
        a = seg.index(sent, pos)
        units.append((a, a + len(sent)))
        pos = a + len(sent)
    spans = pack(seg, units, 200, SectionContext(Settings()), breaks=breaks, min_tokens=min_tokens)
    assert spans == [(units[i][0], units[j - 1][1]) for i, j in expected]


def test_code_and_tables_are_kept_whole_and_marked(embed):
    from tests.pdfs import CODE, TABLE, make_code_pdf

    book = parse_pdf(make_code_pdf(), "code.pdf")
    regions = book_regions(book)
    kinds = {r.kind for r in regions}
    assert kinds == {"code", "table"}
    code = next(r for r in regions if r.kind == "code")
    assert (
        book.text[code.start : code.end].splitlines() == [ln.strip() for ln in CODE]
        or CODE[0] in book.text[code.start : code.end]
    )
    s, chunks = _chunk(book, "section", embed, chunk_size=64)
    check_invariants(book, chunks, s)
    for r in regions:  # each block lies inside one chunk
        assert any(c.char_start <= r.start and r.end <= c.char_end for c in chunks), book.text[r.start:r.end]
    assert {c.kind for c in chunks} >= {"code", "table"}
    table_chunk = next(c for c in chunks if c.kind == "table")
    assert all(cell in table_chunk.text for cell in TABLE[2])
    # a fixed-size window cuts the listing, and the lint says so
    s, token_chunks = _chunk(book, "token", embed, chunk_size=40)
    assert "split_block" in {f.check for f in lint(token_chunks, book.text, regions)}
    assert not [f for f in lint(chunks, book.text, regions) if f.check == "split_block"]


def test_lint_finds_each_problem():
    from rag.types import Chunk

    text = "A heading\n\nThis sentence is cut in the mid dle of a word and goes on. Done.\n\n" + "same words here " * 12
    a = text.index("This")
    b = text.index(" dle") + 1
    dup = text.index("same")

    def ch(i, s, e):
        return Chunk("b", i, text[s:e], 1, 1, s, e, tokens=count_tokens(text[s:e]))

    done = text.index("Done.") + 5
    chunks = [ch(0, 0, 9), ch(1, a, b - 1), ch(2, b, done), ch(3, dup, dup + 95), ch(4, dup + 16, dup + 111)]
    found = counts(lint(chunks, text, small=3))
    assert found["heading_only"] == 1 and found["near_duplicate"] == 1
    assert found["mid_sentence"] == 2  # "…in the mid" | "dle…", and chunk 3 cut inside its words
    assert found["too_small"] >= 1 and found["too_large"] == 0
    assert near_duplicates(chunks) == [(4, 3, pytest.approx(1.0))]


def test_embedding_context_wraps_the_chunk_and_stays_in_its_section(book_pdf):
    book = parse_pdf(book_pdf, "garden.pdf")
    chunks = chunk_book(book, "b", Settings(chunk_size=64))
    plain = embedding_texts(book, chunks, 0)
    wide = embedding_texts(book, chunks, 60)
    assert plain == [c.text for c in chunks]
    for c, w in zip(chunks, wide):
        assert " ".join(c.text.split()) in w and len(w) >= len(" ".join(c.text.split()))
        sec = next(s for s in book.sections if s.start <= c.char_start < s.end)
        assert w.split()[0] in book.text[sec.start:sec.end]


@pytest.mark.parametrize("name", ["en_think_python_2e_288p_ccbync.pdf", "de_geotopo_117p_ccbysa.pdf",
                                  "vi_anle/an_le_so_432021AL.pdf", "en_plos_one_0196757_14p_ccby.pdf"])
def test_invariants_on_real_documents(name):
    book = parse_file(eval_pdf(name))
    for strategy in ("paragraph", "section", "hierarchical"):
        s = Settings(chunker=strategy)
        chunks = chunk_book(book, "b", s)
        assert len(chunks) > 5
        check_invariants(book, chunks, s)
        if strategy == "hierarchical":
            check_parents(book, chunks, s)


def test_vietnamese_diacritics_survive():
    book = parse_file(eval_pdf("vi_anle/an_le_so_432021AL.pdf"))
    assert "ÁN LỆ" in book.text.upper()


@pytest.mark.parametrize("name", list(STRATEGIES))
def test_running_headers_and_footers_stay_out_of_chunks_but_in_the_pages(name, embed):
    from tests.pdfs import make_book_pdf

    book = parse_pdf(make_book_pdf(running_heads=True), "heads.pdf")
    body = book.pages[1:]
    assert all({p.text[a:b] for a, b in p.furniture} == {"Garden and Sky", str(p.number - 1),
                                                          f"Page {p.number} of {book.page_count}"} for p in body)
    assert not book.pages[0].furniture  # the title page's title is text, not a header
    s, chunks = _chunk(book, name, embed)
    check_invariants(book, chunks, s)
    assert not any("Page " in c.text and " of " in c.text for c in chunks)
    assert all("Garden and Sky" not in c.text for c in chunks if c.page_start > 1)
    assert all("Garden and Sky" in p.text for p in body)  # the page text keeps them (highlighting, images)


def test_a_page_break_inside_a_sentence_is_no_chunk_boundary():
    """The pages' blank line and the blanked page number cut "(avec leurs propres fichiers" | "persistence.conf)
    peuvent …": the default chunker and the sentence splitters keep that sentence in one piece (a chunk that began
    with "persistence.conf) …" quoted half a sentence); a page break after a full stop still ends a paragraph."""
    from rag.chunking.base import SectionContext, sentence_spans
    from rag.chunking.paragraph import split

    filler = " ".join(f"Ceci est la phrase numéro {i} de ce long paragraphe sur la persistance." for i in range(14))
    cut = "Plusieurs volumes overlays différents (avec leurs propres fichiers"
    rest = "persistence.conf) peuvent être utilisés au même temps, mais un seul sera monté."
    seg = f"{filler}\n{cut}\n\n  \n\n{rest}\n\nUn autre paragraphe commence ici.\n\n  \n\nEt un autre encore ici."
    for size in range(40, 250, 10):  # wherever the chunks' budget runs out
        pieces = split(seg, SectionContext(Settings(chunk_size=size)))
        assert len(pieces) > 1
        assert not any(seg[p.start:p.end].lstrip().startswith("persistence.conf)") for p in pieces), size
    sentences = [seg[a:b] for a, b in sentence_spans(seg)]
    assert any(s.startswith("Plusieurs volumes") and s.endswith("sera monté.") for s in sentences)
    assert "Et un autre encore ici." in sentences  # a page break after a full stop ends the paragraph


def test_a_header_set_just_below_the_top_band_is_a_header_the_chunks_keep():
    """GNU Octave sets "Chapter 5: Strings  85" 50–61 pt down a 792-pt page, past the top band's 59.4 pt: as the
    page's first line with its middle in the band it is a header (never quoted, ``headers``), though not furniture
    the chunks leave out (``find``); a listing's line under the header, repeated on every page, is neither."""
    from rag.parse.furniture import find, headers

    pages = []
    for n in range(1, 7):
        text = f"Chapter 5: Strings\n{84 + n}\n\\relative {{\nBody text of page {n}."
        a, b, c = len("Chapter 5: Strings"), len(f"Chapter 5: Strings\n{84 + n}"), text.index("\\relative")
        lines = [(0, a, 90.0, 49.9, 300.0, 60.8, 0), (a + 1, b, 500.0, 49.9, 522.0, 60.8, 0),
                 (c, c + 11, 90.0, 54.0, 200.0, 64.0, 1),  # a listing's line just under the header, every page
                 (c + 12, len(text), 90.0, 120.0, 500.0, 131.0, 0)]
        pages.append((str(84 + n), n, text, lines, 792.0))
    found = find(pages)
    assert all(not f for f in found)
    assert all(h == {0, 1} for h in headers(pages, found))
    # gnuplot's "gnuplot 5.4" and "65" at 56.4–66.4 pt: a little lower, still the page's first line, still a header
    low = [(label, n, text, [(a, b, x0, y0 + 6.5, x1, y1 + 5.6, k) for a, b, x0, y0, x1, y1, k in lines], h)
           for label, n, text, lines, h in pages]
    assert all(h == {0, 1} for h in headers(low, find(low)))


def test_a_page_number_set_inside_wide_margins_is_furniture():
    """The TIPA manual sets its page numbers at 88 % of an A4 page's height, above the bottom band: "Allerdings 66 ist
    es …" was quoted across a page break. A bare number as a page's last (or first) line that keeps step with the
    pages is their numbering wherever it stands; numbers that do not keep step are the pages' text."""
    from rag.parse.furniture import find, headers

    def book(last) -> list:
        pages = []
        for n in range(1, 6):
            body = f"Es ist nicht schwer, kursive Formen zu erstellen, Seite {n}. Allerdings"
            text = f"{body}\n\n{last(n)}"
            lines = [(0, len(body), 87.0, 111.8, 384.3, 123.1, 0),
                     (len(body) + 2, len(text), 290.0, 738.5, 300.0, 748.5, 0)]  # the last line, at 88 %
            pages.append((str(60 + n), n, text, lines, 842.0))
        return pages

    pages = book(lambda n: n + 60)
    found = find(pages)
    assert all(f == {1} for f in found) and all(not h for h in headers(pages, found))
    assert all(not f for f in find(book(lambda n: 7 * n + 1)))  # 8, 15, 22 … do not keep step: the page's text


def test_a_footer_set_a_little_above_the_bottom_band_is_furniture():
    """The Gutenprint manual sets "40  Gutenprint 5.2 User's Manual  06/01/2012" at 91–93 % of the page, above the
    bottom band: it was quoted mid-sentence at 96 % and marked in the reader as quoted. A text line repeated at the
    very same height near the bottom on several pages is furniture, with the number and date on its baseline; a
    listing's line repeated there is not, nor a line that repeats at other heights."""
    from rag.parse.furniture import find

    def book(kind: int = 0, shift: float = 0.0) -> list:
        pages = []
        for n in range(1, 6):
            body = f"Body text of page {n}, which goes on."
            foot = [str(n + 9), "Gutenprint 5.2 User's Manual", "06/01/2012"]
            text = body + "\n" + "\n".join(foot)
            at, lines = len(body) + 1, [(0, len(body), 72.0, 100.0, 500.0, 112.0, 0)]
            for k, part in enumerate(foot):
                y = 722.5 - shift * n
                lines.append((at, at + len(part), 72.0 + 200 * k, y, 100.0 + 200 * k, y + 12.7,
                              kind if k == 1 else 0))
                at += len(part) + 1
            pages.append((str(n + 9), n, text, lines, 792.0))
        return pages

    assert all(f == {1, 2, 3} for f in find(book()))
    assert all(not f for f in find(book(kind=1)))  # a listing's line: the page's text
    assert all(not f for f in find(book(shift=6.0)))  # at a different height on each page: the page's text


def test_a_highlight_leaves_out_running_headers_footers_and_page_numbers():
    from rag.types import Page

    text = "Chapter 15: Plotting\n417\nThe print command saves the figure."
    lines = ((0, 20, 90.0, 50.0, 190.0, 61.0, 4), (21, 24, 505.0, 50.0, 522.0, 61.0, 3),
             (25, len(text), 90.0, 100.0, 400.0, 111.0, 0))
    page = Page(number=1, label="417", text=text, offset=0, lines=lines)
    assert len(page.boxes(0, len(text))) == 3
    assert page.text_boxes(0, len(text)) == [(90.0, 100.0, 400.0, 111.0)]

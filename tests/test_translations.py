"""A passage found in one language edition of a book is cited from the edition in the question's language: same
numbered section, the chunk sharing the passage's commands and numbers — and only between books that are editions."""
from rag.retrieve.translations import are_editions, counterpart, in_question_language, verbatim
from rag.types import Book, Chunk, Hit, heading_number

NUMBERS = [f"{c}.{s}" for c in range(1, 9) for s in range(1, 5)]  # 32 numbered headings


def lengths(seed: int) -> dict[str, int]:
    import random

    rng = random.Random(seed)
    return {n: rng.randint(200, 20_000) for n in NUMBERS}


LENGTHS = lengths(1)  # a translation's sections are long where the original's are (×1.1 for French, say)


def book(bid: str, language: str, titles: dict[str, str], pages: int = 140, numbers=NUMBERS, scale: float = 1.0,
         sizes: dict[str, int] | None = None) -> Book:
    sizes = sizes or LENGTHS
    sections, at = [], 0
    for n in numbers:
        size = int(sizes.get(n, 1000) * scale)
        sections.append((f"{titles.get('part', 'Part')} > {n} {titles.get(n, 'Heading')}", at, at + size))
        at += size
    report = {"language": language} if language else {}
    return Book(bid, bid, bid + ".epub", pages, 300, "ready", "m", {}, report=report, sections=sections)


def chunk(bid: str, i: int, number: str, text: str) -> Chunk:
    return Chunk(bid, i, text, i, i, 0, len(text), section=f"Part > {number[0]}. Part > {number} Heading")


FR = [chunk("fr", 10, "8.4", "Une configuration courante est le proxy. Par exemple $ lb config --apt-http-proxy "
                             "http://proxy/"),
      chunk("fr", 11, "8.4", "Pour gagner de la place, --apt-recommends false.")]
DE = [chunk("de", 20, "8.4", "Man kann Platz sparen."),
      chunk("de", 21, "8.4", "Ein Proxy wird so gesetzt: $ lb config --apt-http-proxy http://proxy/"),
      chunk("de", 22, "8.4", "Mehr dazu später.")]
SHELF = {("fr", "8.4"): FR, ("de", "8.4"): DE}


def sections(bid, number):
    return SHELF.get((bid, number), [])


def sims(ids):
    return {i: 0.42 for i in ids}


def test_heading_numbers():
    assert heading_number("Les bases > 4. Les bases > 4.8 Netboot > 4.8.5 Qemu") == "4.8.5"
    assert heading_number("Basics > 4. Basics") == "4"
    assert heading_number("Chapter 3 > Recursion") == ""
    assert heading_number("1999 Annual report") == ""  # a year is not a heading number


def test_books_are_editions_only_in_different_languages_with_the_same_numbered_headings_and_length():
    de, fr = book("de", "de", {}), book("fr", "fr", {"8.4": "Proxy"}, pages=150, scale=1.1)
    assert are_editions(de, fr, 20, 0.8, 0.75)
    # the same numbering and length, but sections long and short in no relation to each other: another book
    assert not are_editions(de, book("textbook", "fr", {}, sizes=lengths(2)), 20, 0.8, 0.75)
    assert not are_editions(de, book("de2", "de", {}), 20, 0.8, 0.75)  # same language: not translations
    assert not are_editions(de, book("pdf", "", {}), 20, 0.8, 0.75)  # no declared language
    assert not are_editions(de, book("short", "fr", {}, pages=60), 20, 0.8, 0.75)
    assert not are_editions(de, book("few", "fr", {}, numbers=NUMBERS[:10]), 20, 0.8, 0.75)
    other = [f"{c}.{s}" for c in range(1, 9) for s in range(3, 7)]  # half the headings shared
    assert not are_editions(de, book("other", "fr", {}, numbers=other), 20, 0.8, 0.75)


def test_the_counterpart_shares_the_passages_commands_else_its_place_in_the_section():
    assert "--apt-http-proxy" in verbatim(FR[0].text) and "http://proxy/" in verbatim(FR[0].text)
    assert verbatim("Voir aussi le proxy. Debian: c'est tout.") == set()  # words before a full stop are words
    assert verbatim("LB_ISO_VOLUME est limité à 32 caractères (config/includes.chroot, -v).") == {
        "LB_ISO_VOLUME", "32", "config/includes.chroot", "-v"}
    assert counterpart(FR[0], FR, DE).chunk_index == 21
    plain = chunk("fr", 11, "8.4", "Rien de plus.")
    assert counterpart(plain, [FR[0], plain], DE).chunk_index == 22  # second of two → last of three
    assert counterpart(FR[0], FR, []) is None


def test_hits_from_another_language_edition_are_cited_from_the_questions_edition():
    books = [book("de", "de", {}), book("fr", "fr", {}), book("notes", "", {}, numbers=[])]
    hits = [Hit(FR[0], 0.9, 0.66), Hit(DE[1], 0.7, 0.48), Hit(chunk("notes", 3, "8.4", "A note."), 0.5, 0.3)]
    out = in_question_language(hits, books, "de", sections, sims, 20, 0.8, 0.75)
    assert [(h.chunk.id, h.score, h.similarity) for h in out] == [("de:21", 0.9, 0.42), ("notes:3", 0.5, 0.3)]
    assert in_question_language(hits, books, "fr", sections, sims, 20, 0.8, 0.75)[0].chunk.id == "fr:10"
    assert in_question_language(hits, books, "vi", sections, sims, 20, 0.8, 0.75) == hits  # no Vietnamese edition
    far = in_question_language(hits, books, "de", sections, lambda ids: {i: 0.1 for i in ids}, 20, 0.8, 0.75)
    assert [h.chunk.id for h in far] == ["de:21", "notes:3"]  # a "counterpart" far less like the question is
    # another passage: the French passage is left out, the German edition's own hit stays

"""The same passage in two books (two editions) is one source, from the edition in the question's language."""
from rag.retrieve.editions import in_language, one_per_passage
from rag.types import Book, Chunk, Hit


def book(bid: str, language: str = "") -> Book:
    return Book(bid, bid, bid + ".epub", 10, 10, "ready", "m", {}, report={"language": language} if language else {})


def hit(bid: str, i: int, text: str, score: float) -> Hit:
    return Hit(Chunk(bid, i, text, 1, 1, 0, len(text)), score, score)


ISO = "ISO images prepared with xorriso can be simply copied to a USB stick with cp."
USER = "It is also possible to change the default username and the default password."
OTHER = "A package list names packages to install."


def test_copies_in_two_books_become_one_source_in_the_questions_language():
    books = [book("handbuch", "de"), book("manual", "en-US")]
    hits = [hit("handbuch", 3, ISO, 0.9), hit("manual", 3, "  " + ISO.upper(), 0.9),
            hit("manual", 7, OTHER, 0.5), hit("handbuch", 9, USER, 0.4), hit("manual", 9, USER, 0.4)]
    en = one_per_passage(hits, books, "en")
    assert [(h.chunk.book_id, h.chunk.chunk_index) for h in en] == [("manual", 3), ("manual", 7), ("manual", 9)]
    assert en[0].score == 0.9  # the kept copy keeps the place of the better-ranked one
    de = one_per_passage(hits, books, "de")
    assert [(h.chunk.book_id, h.chunk.chunk_index) for h in de] == [("handbuch", 3), ("manual", 7), ("handbuch", 9)]


def test_without_a_declared_language_the_better_ranked_copy_stays_and_repeats_in_one_book_stay():
    books = [book("a"), book("b")]
    hits = [hit("b", 1, ISO, 0.8), hit("a", 1, ISO, 0.7), hit("a", 5, ISO, 0.6), hit("b", 2, OTHER, 0.5)]
    out = one_per_passage(hits, books, "fr")
    assert [(h.chunk.book_id, h.chunk.chunk_index) for h in out] == [("b", 1), ("b", 2)]
    one = [hit("a", 1, ISO, 0.8), hit("a", 5, ISO, 0.6)]  # one book: nothing to collapse
    assert one_per_passage(one, [book("a"), book("b")], "en") == one


def test_a_passage_from_the_other_edition_is_swapped_for_its_copy_in_the_questions_language():
    books = [book("handbuch", "de"), book("manual", "en"), book("notes")]
    shelf = {("manual", ISO): Chunk("manual", 41, ISO, 26, 26, 0, len(ISO))}
    asked = []

    def copies(ids, text):
        asked.append(ids)
        return [shelf[(b, text)] for b in ids if (b, text) in shelf]

    hits = [hit("handbuch", 41, ISO, 0.7), hit("notes", 2, OTHER, 0.5), hit("handbuch", 50, USER, 0.4)]
    out = in_language(hits, books, "en", copies)
    assert [(h.chunk.book_id, h.chunk.chunk_index, h.score) for h in out] == [
        ("manual", 41, 0.7), ("notes", 2, 0.5), ("handbuch", 50, 0.4)]  # no English copy of USER: kept as found
    assert asked and all(ids == ["manual"] for ids in asked)
    assert in_language(hits, books, "vi", copies) == hits  # no book declares Vietnamese


def test_two_books_of_one_title_are_told_apart_by_their_files_wherever_a_title_is_shown(settings):
    # tour 45: the English and the French AMC manuals were both "Auto Multiple Choice" in the sources, the inspector's
    # book list and the Metrics chart
    from rag.library.catalog import Catalog

    settings.data_dir.mkdir(parents=True)
    cat = Catalog(settings.catalog_path)
    for book_id, title, filename in (("a" * 16, "Auto Multiple Choice", "en_amc.pdf"),
                                     ("b" * 16, "Auto Multiple Choice", "fr_amc.pdf"),
                                     ("c" * 16, "Think Python", "think.pdf")):
        cat.begin_book(book_id, title, filename, settings.embed_model, settings.chunking_config())
    assert sorted(b.title for b in cat.books()) == ["Auto Multiple Choice (en_amc)", "Auto Multiple Choice (fr_amc)",
                                                    "Think Python"]
    assert cat.book("b" * 16).title == "Auto Multiple Choice (fr_amc)" and cat.book("c" * 16).title == "Think Python"
    cat.delete_book("a" * 16)
    assert cat.book("b" * 16).title == "Auto Multiple Choice"  # alone again

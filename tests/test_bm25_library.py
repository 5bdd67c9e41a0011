"""BM25 per book: a library change builds only the changed book; saved indexes read back the same."""
from rag.library.bm25 import BM25Index, LibraryBM25
from rag.library.bm25_cache import BM25Cache
from rag.types import Chunk
from tests.test_lang import ENGLISH, GERMAN

GARDEN = ["Tomatoes need a deep watering twice a week in summer.",
          "Basil grows best in warm soil and full sun; pinch the flowers.",
          "Compost improves the soil and feeds the worms that aerate it."]


def _chunks(book, texts):
    return [Chunk(book_id=book, chunk_index=i, text=t, page_start=i + 1, page_end=i + 1, char_start=0,
                  char_end=len(t), section="", tokens=10) for i, t in enumerate(texts)]


BOOKS = {
    "de-book": _chunks("de-book", GERMAN),
    "en-book": _chunks("en-book", ENGLISH),
    "garden": _chunks("garden", GARDEN),
}


def test_per_book_indexes_rank_like_one_index_over_the_library():
    lib = LibraryBM25({b: BM25Index(c) for b, c in BOOKS.items()})
    one = BM25Index([c for chunks in BOOKS.values() for c in chunks])  # library IDF, as before the split
    for q in ("recursive functions", "Wann sind Abbildungen stetig?", "watering tomatoes", "soil worms"):
        for b in BOOKS:
            assert [c.id for c, _ in lib.search(q, 3, [b])] == [c.id for c, _ in one.search(q, 3, [b])]
        assert [c.id for c, _ in lib.search(q, 3)] == [c.id for c, _ in one.search(q, 3)]
    whole = lib.search("watering tomatoes in summer", 5)
    assert whole[0][0].book_id == "garden" and all(s > 0 for _, s in whole)
    assert [s for _, s in whole] == sorted((s for _, s in whole), reverse=True)
    assert lib.languages == {"de-book": "de", "en-book": "en", "garden": "en"}
    w = lib.term_weights("How often do tomatoes need watering?", ["garden"])
    assert w["tomato"][1] and w["tomato"][0] > 0  # weighted within the searched book, and present there



def test_a_term_no_book_has_weighs_half_when_it_is_an_everyday_word():
    """"zstd" (no everyday word, however short) weighs as much as the rarest term; "cheap" (an everyday word the
    books lack) half that, as does a long everyday word ("ausprobieren"); a word the books have keeps its IDF."""
    lib = LibraryBM25({"garden": BM25Index(BOOKS["garden"])})
    w = lib.term_weights("Is zstd cheap for tomatoes?")
    assert not w["zstd"][1] and not w["cheap"][1] and w["tomato"][1]
    assert w["zstd"][0] == 2 * w["cheap"][0]
    de = LibraryBM25({"de-book": BM25Index(BOOKS["de-book"])})
    wd = de.term_weights("Kann ich das ausprobieren oder ist es ein Quellcodeverwaltungssystem?")
    unknown = {t: x for t, (x, ok) in wd.items() if not ok}
    assert len(unknown) == 2 and len(set(unknown.values())) == 2  # the everyday word weighs half the other

def test_a_library_change_builds_only_the_changed_book(tmp_path):
    loads = []

    def load(book_id):
        loads.append(book_id)
        return BOOKS[book_id]

    cache = BM25Cache(tmp_path / "bm25")
    first = cache.get({"de-book": (1,), "en-book": (1,)}, load)
    assert sorted(loads) == ["de-book", "en-book"]
    loads.clear()
    assert cache.get({"de-book": (1,), "en-book": (1,)}, load) is first and loads == []
    added = cache.get({"de-book": (1,), "en-book": (1,), "garden": (1,)}, load)
    assert loads == ["garden"] and added.search("watering tomatoes", 1)[0][0].book_id == "garden"
    loads.clear()
    cache.get({"de-book": (1,), "garden": (1,)}, load)  # en-book deleted: nothing rebuilt
    assert loads == []
    cache.forget("en-book")
    assert not list((tmp_path / "bm25").glob("en-book-*"))


def test_saved_indexes_read_back_after_a_restart(tmp_path, monkeypatch):
    versions = {b: (1,) for b in BOOKS}
    before = BM25Cache(tmp_path / "bm25").get(versions, BOOKS.__getitem__)
    assert len(list((tmp_path / "bm25").iterdir())) == 3
    import rag.library.bm25

    def no_tokenising(*a, **kw):
        raise AssertionError("a saved index was rebuilt instead of read back")

    with monkeypatch.context() as m:
        m.setattr(rag.library.bm25, "tokenize", no_tokenising)
        after = BM25Cache(tmp_path / "bm25").get(versions, BOOKS.__getitem__)
    for q in ("recursive functions", "Wann sind Abbildungen stetig?", "compost soil"):
        assert after.search(q, 3) == before.search(q, 3)
    assert after.languages == before.languages
    # a stale saved index (the book re-made with other chunks) is not used
    changed = {**versions, "garden": (2,)}
    fewer = BM25Cache(tmp_path / "bm25").get(changed, lambda b: BOOKS[b][:2] if b == "garden" else BOOKS[b])
    assert len(fewer.books["garden"].chunks) == 2


def test_whole_library_search_skips_a_book_being_added(folio, book_pdf):
    folio.library.ingest(book_pdf, "garden.pdf")
    ready = [b.id for b in folio.library.books()]
    # a book still being indexed: its vectors are in Chroma already, the catalog says 'indexing'
    folio.catalog.begin_book("half", "Half", "half.pdf", folio.settings.embed_model, folio.settings.chunking_config())
    text = "Tomatoes need deep watering twice a week, says the book being added."
    half = [Chunk("half", i, text, 1, 1, 0, len(text)) for i in range(30)]
    folio.store.add(half, folio.embed.get_text_embedding_batch([c.text for c in half]))
    vec = folio.embed.get_query_embedding("How often do tomatoes need watering?")
    hits = folio.store.query(vec, 5, ready)
    assert len(hits) == 5 and all(c.book_id in ready for c, _ in hits)
    answer = folio.ask("How often do tomatoes need watering?").consume()
    assert answer.sources and all(s.book_id in ready for s in answer.sources)


def test_a_named_subject_picks_the_books_about_it():
    python = _chunks("py", [f"Python lesson {i}: a Python function returns a value." for i in range(12)])
    octave = _chunks("oct", [f"Octave section {i}: plot a vector with plot." for i in range(12)]
                     + ["Unlike Python, Octave indexes from one."])
    garden = _chunks("garden", GARDEN * 4)
    lib = LibraryBM25({b: BM25Index(c) for b, c in (("py", python), ("oct", octave), ("garden", garden))})
    assert lib.subject_books("How do I write a Python function?") == ["py"]
    assert lib.subject_books("How do I plot in Octave?") == ["oct"]
    assert lib.subject_books("How often do tomatoes need watering?") == []  # no name: every book
    assert lib.subject_books("What is the capital of France?") == []  # a name no book is about
    assert lib.subject_books("How do I write a Python function?", ["py"]) == []  # one book asked: nothing to pick
    # a one-page note names its subject in 2 of its 3 chunks: it is about it as much as a manual full of "boot"
    boots = _chunks("nut", ["The Boots self-locking nut is of one piece, all-metal.", "Boots nuts are light.",
                            "Torque values for nuts."])
    manual = _chunks("live", [f"Boot the live system {i} times; the boot menu waits." for i in range(20)])
    two = LibraryBM25({b: BM25Index(c) for b, c in (("nut", boots), ("live", manual), ("garden", garden))})
    assert "nut" in two.subject_books("How is the Boots self-locking nut constructed?") or \
        two.subject_books("How is the Boots self-locking nut constructed?") == []


def test_an_english_questions_function_words_do_not_match_a_french_books_english_example():
    # a French book quoting an English example ("What is the value of x?") and a French sentence about the
    # question's subject: "what", "is", "the", "of" are not French stopwords, yet they are no part of the subject
    french = _chunks("fr-book", [
        "Voici un exemple de question pour le paquet : What is the value of the sum in the following code of the "
        "program? Il est écrit dans le fichier de la question avec les autres choix.",
        "Les symboles des exemples sont dans la liste des symboles : la barre, le point et la virgule sont les "
        "symboles que le programme utilise pour les choix de la question.",
        "La compilation du document produit les sujets et les feuilles de réponses pour les étudiants."])
    lib = LibraryBM25({"fr-book": BM25Index(french)})
    assert lib.languages == {"fr-book": "fr"}
    hits = lib.search("What is the meaning of the symbols in the examples?", 3)
    assert hits and hits[0][0].chunk_index == 1
    assert all(c.chunk_index != 0 for c, _ in hits)  # it shares only the frame of the question


def test_a_questions_translations_are_searched_whole_even_when_they_are_function_words_of_its_language():
    # "Mann" → "man", "Hut" → "hat": English words the German question's frame also has ("man", "hat")
    from rag.text.query_terms import query_tokens as _query_tokens, words as _words

    assert "man" in _words("male man husband stiff hat", "en") and "hat" in _words("male man husband stiff hat", "en")
    english = _chunks("en-manual", ["The man with the hat walks in.", "Tomatoes need watering.",
                                    "A man page documents a command."])
    lib = LibraryBM25({"en-manual": BM25Index(english)})
    hits = lib.search("Wer ist der Mann mit dem Hut?", 3, extra={"en": "man hat"})
    assert hits and hits[0][0].chunk_index == 0
    assert "hat" not in _query_tokens("Wer ist der Mann mit dem Hut?", "en")  # the question's own "hat" is frame


def test_superscripts_are_searched_as_written_plainly_and_footnote_marks_come_apart_from_their_word():
    from rag.text.languages import fold_scripts

    assert fold_scripts("the directory⁹ holds") == "the directory 9 holds"  # a footnote mark glued to its word
    assert fold_scripts("Teilmenge vom Rⁿ") == "Teilmenge vom Rn"  # as a PDF's text layer writes "Rⁿ"
    assert fold_scripts("x² and H₂O") == "x2 and H2O"  # a variable's power, a formula's subscript
    assert fold_scripts("plain text") == "plain text"
    from rag.text.terms import key_terms

    assert key_terms("The directory⁹ holds") == ["directory", "holds"]  # the answerer matches words the same way
    book = _chunks("admin", ["The site library directory⁹ holds packages installed by the administrator.",
                             "Eine kompakte Teilmenge vom Rn ist beschränkt und abgeschlossen.",
                             "Compost improves the soil."])
    index = BM25Index(book)
    assert index.search("Which directory holds packages?", 1)[0][0].chunk_index == 0
    assert index.search("Wann ist eine Teilmenge vom Rⁿ kompakt?", 1)[0][0].chunk_index == 1


def test_a_saved_index_of_an_older_tokens_version_is_rebuilt(folio, book_pdf, monkeypatch):
    import rag.library.bm25

    folio.library.ingest(book_pdf, "garden.pdf")
    folio.library.bm25(folio.settings)
    folder = folio.settings.data_dir / "bm25"
    before = sorted(p.name for p in folder.iterdir())
    monkeypatch.setattr(rag.library.bm25, "TOKENS_VERSION", rag.library.bm25.TOKENS_VERSION + 1)
    folio.res.bm25._view = None  # a new process: nothing kept in memory
    folio.res.bm25._books.clear()
    folio.library.bm25(folio.settings)
    after = sorted(p.name for p in folder.iterdir())
    assert len(after) == len(before) == 1 and after != before  # built again under the new version, the old removed

"""Questions in another language than the books: dictionary translations searched beside the question's words.

Unit tests read a small dictzip dictionary written here (the format Debian's FreeDict packages use); the others use
the installed FreeDict dictionaries (scripts/test.sh installs dict-freedict-deu-eng and -fra-eng)."""
import struct
import zlib

import pytest

from rag.library.bm25 import BM25Index
from rag.retrieve.answerability import features
from rag.retrieve.crosslingual import bridges, extra_text
from rag.text.glossary import DICT_DIR, Dictionary, dictionary, translate
from rag.types import Chunk, Hit

B64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"


def b64(n: int) -> str:
    out = ""
    while True:
        out = B64[n % 64] + out
        n //= 64
        if not n:
            return out


def write_dictionary(folder, name: str, entries: dict[str, str], chunk: int = 64) -> None:
    """A dictd dictionary: ``name``.index (unsorted on purpose) and a dictzip ``name``.dict.dz in ``chunk``-byte
    chunks, so entries cross chunk boundaries."""
    text, index = b"", []
    for head, body in entries.items():
        raw = f"{head}\n{body}\n".encode()
        key = head.split(" /")[0].split(" <")[0].lower()
        index.append(f"{key}\t{b64(len(text))}\t{b64(len(raw))}")
        text += raw
    pieces = []
    for i in range(0, len(text), chunk):
        c = zlib.compressobj(9, zlib.DEFLATED, -15)
        pieces.append(c.compress(text[i:i + chunk]) + c.flush())
    ra = b"RA" + struct.pack("<HHHH", 6 + 2 * len(pieces), 1, chunk, len(pieces)) + \
        struct.pack(f"<{len(pieces)}H", *map(len, pieces))
    header = b"\x1f\x8b\x08\x04" + b"\x00" * 4 + b"\x02\x03" + struct.pack("<H", len(ra)) + ra
    (folder / f"{name}.dict.dz").write_bytes(header + b"".join(pieces))
    (folder / f"{name}.index").write_text("\n".join(reversed(index)) + "\n", encoding="utf-8")


ENTRIES = {
    "Reihenfolge /ˈraɪ̯ənˌfɔlɡə/ <fem>": "order <n>, sequence <n>\n   Synonyms: {Abfolge}\n",
    "Tastatur <fem>": "keyboard <n>\n      \"eine deutsche Tastatur\"  - a German keyboard\n",
    "Layout <neut>": "layout <n>\n",
    "bekommen <v>": "get sth. <v>, receive sth. <v>\n see: {bekommend}\n",
    "Handbuch <neut>": "manual <n>, handbook <n> [Br.]\n",
    "lesen <v>": " [ugs.] read <v>\n",
    "Lese <fem>": "vintage <n>\n",
    "einfach <adj>": "simple <adj>\n",
    "Klasse <fem>": "grade <n>\n",
    "Klasse /klˈasə/ <fem>": "class <n>\n",
    "Klasse <fem, n, sg>": " [school] school class <n>, class <n>\n",
    "abaisser <v>": "1. lower, decrease\n2. reduce\n",
}


@pytest.fixture
def tiny(tmp_path):
    write_dictionary(tmp_path, "freedict-deu-eng", ENTRIES)
    return tmp_path


def test_entries_are_read_across_dictzip_chunks(tiny):
    d = Dictionary(tiny / "freedict-deu-eng.index", tiny / "freedict-deu-eng.dict.dz")
    assert d.translations("Reihenfolge") == ("order", "sequence")  # pronunciation, notes and synonyms left out
    assert d.translations("Tastatur") == ("keyboard",)  # the example sentence is not a translation
    assert d.translations("Handbuch") == ("manual", "handbook")
    assert d.translations("lesen") == ("read",)  # a usage label before the translation
    assert d.translations("abaisser") == ("lower", "decrease", "reduce")  # numbered senses (French-English)


def test_inflected_forms_and_compounds_find_their_headwords(tiny):
    d = Dictionary(tiny / "freedict-deu-eng.index", tiny / "freedict-deu-eng.dict.dz")
    assert d.translations("bekomme") == ("get", "receive")  # "bekomme" → "bekommen"
    assert d.translations("Reihenfolgen")[:1] == ("order",)
    assert d.translations("Tastaturlayout") == ("keyboard", "layout")  # a compound of two headwords
    assert d.translations("Zeitmaschine") == ()  # not in the dictionary: nothing, no error
    assert d.translations("einfachsten") == ("simple",)  # a superlative
    assert d.translations("Klasse")[0] == "class"  # two of its three senses say "class"
    assert d.translations("Lese") == ("vintage",) and d.translations("lese") == ("read",)  # "ich lese": the verb


def test_no_dictionary_for_a_pair_adds_nothing(tiny, tmp_path_factory):
    assert translate(["Reihenfolge"], "de", "en", folder=str(tiny)) == {"Reihenfolge": ("order", "sequence")}
    assert translate(["Reihenfolge"], "de", "fr", folder=str(tiny)) == {}  # no German-French dictionary there
    assert translate(["Reihenfolge"], "de", "en", folder=str(tmp_path_factory.mktemp("none"))) == {}
    bad = tmp_path_factory.mktemp("bad")
    (bad / "freedict-deu-eng.index").write_text("reihenfolge\tA\tB\n")
    (bad / "freedict-deu-eng.dict.dz").write_bytes(b"not a dictzip file")
    assert dictionary("de", "en", str(bad)) is None  # a broken file is no dictionary, not an error
    damaged = tmp_path_factory.mktemp("damaged")
    write_dictionary(damaged, "freedict-deu-eng", ENTRIES)
    raw = bytearray((damaged / "freedict-deu-eng.dict.dz").read_bytes())
    raw[-40:] = bytes(40)  # the last compressed blocks zeroed
    (damaged / "freedict-deu-eng.dict.dz").write_bytes(bytes(raw))
    index = (damaged / "freedict-deu-eng.index").read_text().replace("handbuch\t", "handbuch\t!")  # a bad number
    (damaged / "freedict-deu-eng.index").write_text(index)
    got = translate(["Reihenfolge", "Handbuch", "abaisser", "Klasse", ""], "de", "en", folder=str(damaged))
    assert list(got) == ["Reihenfolge", "Klasse"]  # what cannot be read (a bad number, a damaged block) is left out


def test_only_a_question_in_another_language_is_bridged(tiny):
    got = bridges("Wie bekomme ich die Reihenfolge im Handbuch?", ("en",), folder=str(tiny))
    assert got == {"en": {"bekomme": ("get", "receive"), "Reihenfolge": ("order", "sequence"),
                          "Handbuch": ("manual", "handbook")}}  # "Wie", "ich", "die", "im": the frame
    assert bridges("In which order should I read the manual?", ("en",), folder=str(tiny)) == {}
    assert extra_text(got) == {"en": "get receive order sequence manual handbook"}


def _chunk(i, text):
    return Chunk(book_id="manual", chunk_index=i, text=text, page_start=i + 1, page_end=i + 1, char_start=0,
                 char_end=len(text), section="", tokens=20)


MANUAL = ["We suggest reading the chapters of this manual in the following order: tutorial, basics, customization.",
          "The build system downloads packages from the mirror and caches them for the next build.",
          "Boot parameters such as keyboard layouts and locales are set with lb config --bootappend-live.",
          "The image can be written to a USB stick with dd or any disk imaging tool."]


def test_translations_find_the_passage_and_count_as_its_words(tiny):
    index = BM25Index([_chunk(i, t) for i, t in enumerate(MANUAL)])
    question = "In welcher Reihenfolge soll ich das Handbuch lesen?"
    bridge = bridges(question, ("en",), folder=str(tiny))
    assert index.search(question, 2) == []  # the German words are not in the English manual
    found = index.search(question, 2, extra=extra_text(bridge))
    assert found[0][0].text == MANUAL[0]
    hit = Hit(found[0][0], 1.0, 0.5, 1, 1, found[0][1], True)
    plain = features(question, [hit], index, [hit.chunk.id], [hit.chunk.id])
    bridged = features(question, [hit], index, [hit.chunk.id], [hit.chunk.id], bridge=bridge)
    assert plain["unknown"] > 0.5 and bridged["unknown"] == 0.0  # every word has a translation the manual has
    assert bridged["coverage"] > plain["coverage"] and bridged["coverage"] >= 0.9


def test_the_installed_german_english_dictionary():
    assert (DICT_DIR / "freedict-deu-eng.index").exists(), "run scripts/test.sh: it installs dict-freedict-deu-eng"
    got = translate(["Reihenfolge", "Tastaturlayout", "Datei", "bekomme"], "de", "en")
    assert "order" in got["Reihenfolge"] and "keyboard" in got["Tastaturlayout"] and "file" in got["Datei"]
    assert "received" in got["bekomme"] or "get" in got["bekomme"]
    assert "system" in translate(["système"], "fr", "en")["système"]
    # one German marker word ("man") does not make English keywords German: nothing is translated
    assert bridges("man page mount options", ("en",)) == {}
    assert set(bridges("Wie lege ich eine eigene Datei fest?", ("en",))["en"]) == {"lege", "eigene", "Datei", "fest"}


def test_a_german_question_is_answered_from_an_english_book(folio, book_pdf):
    """The whole flow with the installed dictionary: the German question finds the English passage, is answered
    from it (not 'Not in your books'), and the inspector shows which translations were searched."""
    if dictionary("de", "en") is None:
        pytest.fail("Debian's dict-freedict-deu-eng is not installed: run scripts/test.sh, which installs it")
    folio.library.ingest(book_pdf, "garden.pdf")
    question = "Wie oft muss man Tomaten gießen?"
    a = folio.ask(question).consume()
    assert not a.not_found and "twice a week" in a.text
    probe = folio.inspector.probe(question)
    held = probe["translations"]["en"]["Tomaten"]  # each translation: does the book hold it?
    assert held["tomato"] is True and held["apples"] is False
    off = folio.ask(question, translate_words=False).consume()
    assert off.confidence < a.confidence  # without the dictionary the question shares no word with the book

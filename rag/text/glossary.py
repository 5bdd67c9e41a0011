"""Word translations from an installed FreeDict dictionary, for questions asked in another language than the books.

The embedding model is English-only and BM25 matches words, so a German question over an English manual ("Wie lang
darf die Datenträgerbezeichnung höchstens sein?") shares little with the passage that answers it. A bilingual
dictionary bridges the words: each content word of the question is looked up and its translations are searched
beside it. This holds for any book in the dictionary's target language; it needs no model and no network.

Dictionaries are Debian's FreeDict packages (``dict-freedict-deu-eng``, ``dict-freedict-fra-eng``, …) in dictd
format under ``/usr/share/dictd``: ``freedict-<from>-<to>.index`` (sorted ``headword<TAB>offset<TAB>length``,
numbers in dictd's base 64) and ``freedict-<from>-<to>.dict.dz`` (dictzip: gzip in independently deflated chunks,
so one entry is read without inflating the whole file). Without them nothing is added and nothing fails.
"""
from __future__ import annotations

import bisect
import functools
import re
import struct
import threading
import zlib
import logging
from collections import Counter
from pathlib import Path

log = logging.getLogger("folio.glossary")
DICT_DIR = Path("/usr/share/dictd")
CODES = {"en": "eng", "de": "deu", "fr": "fra", "es": "spa", "it": "ita", "nl": "nld", "pt": "por", "vi": "vie"}
_B64 = {c: i for i, c in enumerate("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/")}
_WORD = re.compile(r"[^\W\d_][\w-]*", re.U)
# words of a translation that are its frame, not its sense ("to read", "time of day", "at most")
_FRAME = frozenset("to a an the oneself of at as in on for with by from sb sth one's".split())
_IPA = re.compile(r"[\u0250-\u02ff]")  # a pronunciation, not a word
_NOTE = re.compile(r"<[^>]*>|\[[^\]]*\]|\([^)]*\)|\{[^}]*\}|\bsth\.|\bsb\.|\betw\.|\bjdm\.|\bjdn\.")
# German inflection, superlative and linking endings, tried in this order when a word is not a headword itself
_ENDINGS = ("sten", "ster", "stes", "stem", "ste", "ern", "en", "es", "er", "em", "e", "n", "s", "t", "st", "te", "ten")


def _number(s: str) -> int:
    n = 0
    for ch in s:
        n = n * 64 + _B64[ch]
    return n


class DictZip:
    """Random access to a dictzip file: the chunk holding an offset is inflated alone (and kept, a few at a time)."""

    def __init__(self, path: Path):
        self.f = open(path, "rb")
        try:
            self._read_header(path)
        except (OSError, ValueError, struct.error):
            self.f.close()
            raise
        self.lock = threading.Lock()
        self.cache: dict[int, bytes] = {}

    def _read_header(self, path: Path) -> None:
        head = self.f.read(10)
        if head[:3] != b"\x1f\x8b\x08" or not head[3] & 4:
            raise ValueError(f"{path} is not a dictzip file")
        flags = head[3]
        xlen = struct.unpack("<H", self.f.read(2))[0]
        extra = self.f.read(xlen)
        self.chunk_len, sizes, pos = 0, [], 0
        while pos + 4 <= len(extra):
            si, ln = extra[pos:pos + 2], struct.unpack("<H", extra[pos + 2:pos + 4])[0]
            if si == b"RA":
                _ver, self.chunk_len, count = struct.unpack("<HHH", extra[pos + 4:pos + 10])
                sizes = list(struct.unpack(f"<{count}H", extra[pos + 10:pos + 10 + 2 * count]))
            pos += 4 + ln
        if not self.chunk_len:
            raise ValueError(f"{path} has no dictzip chunk table")
        for flag in (8, 16):  # a file name, a comment: zero-terminated
            if flags & flag:
                while self.f.read(1) not in (b"\x00", b""):
                    pass
        if flags & 2:
            self.f.read(2)
        self.starts = [self.f.tell()]
        for size in sizes:
            self.starts.append(self.starts[-1] + size)

    def _chunk(self, i: int) -> bytes:
        if i not in self.cache:
            self.f.seek(self.starts[i])
            raw = self.f.read(self.starts[i + 1] - self.starts[i])
            if len(self.cache) >= 64:
                self.cache.pop(next(iter(self.cache)))
            self.cache[i] = zlib.decompressobj(-15).decompress(raw)
        return self.cache[i]

    def read(self, offset: int, length: int) -> bytes:
        with self.lock:
            first, last = offset // self.chunk_len, (offset + length - 1) // self.chunk_len
            data = b"".join(self._chunk(i) for i in range(first, min(last, len(self.starts) - 2) + 1))
        start = offset - first * self.chunk_len
        return data[start:start + length]


class _Index:
    """A dictd index held as one sorted block of bytes and the lines' offsets (a German-English index is 12 MB; as
    half a million Python strings it would take six times that): item ``i`` is line ``i``'s headword, for bisect."""

    def __init__(self, raw: bytes):
        import numpy as np

        lines = sorted(ln for ln in raw.split(b"\n") if ln.count(b"\t") == 2)  # dictd's own order is not bytes'
        self.blob = b"\n".join(lines) + b"\n"
        lengths = np.fromiter((len(ln) + 1 for ln in lines), dtype=np.int64, count=len(lines))
        self.starts = np.concatenate([[0], np.cumsum(lengths)[:-1]]).astype(np.int64) if len(lines) else lengths

    def __len__(self) -> int:
        return len(self.starts)

    def __getitem__(self, i: int) -> bytes:
        a = int(self.starts[i])
        return self.blob[a:self.blob.index(b"\t", a)]

    def line(self, i: int) -> str:
        a = int(self.starts[i])
        return self.blob[a:self.blob.index(b"\n", a)].decode("utf-8", "replace")


class Dictionary:
    """One FreeDict dictionary: ``translations(word)`` → its translations' words, in the dictionary's order."""

    def __init__(self, index: Path, data: Path, senses: int = 4):
        self.index = _Index(index.read_bytes())
        self.data = DictZip(data)
        self.senses = senses
        self.name, self.damaged = index.stem, False
        self._translations: dict[str, tuple[str, ...]] = {}

    def entries(self, word: str) -> list[str]:
        """``word``'s entries (a headword, lower-cased); an entry the files cannot give (a damaged index line or
        compressed block) is left out, once logged."""
        key = word.encode("utf-8")
        i = bisect.bisect_left(self.index, key) if key else len(self.index)
        out = []
        while i < len(self.index) and self.index[i] == key:
            try:
                _, offset, length = self.index.line(i).split("\t")
                out.append(self.data.read(_number(offset), _number(length)).decode("utf-8", "replace"))
            except (ValueError, KeyError, IndexError, OSError, zlib.error) as e:
                if not self.damaged:
                    log.warning("dictionary %s: entry %r unreadable (%s); such entries are skipped", self.name,
                                word, e)
                self.damaged = True
            i += 1
        return out

    def headword(self, word: str) -> str | None:
        """``word`` (lower-cased) or, for an inflected form, the headword it is an ending away from."""
        w = word.lower()
        # the forms it may inflect: "bekomme" → "bekommen", "ersten" → "erste", "einfachsten" → "einfach"
        forms = [form for end in _ENDINGS if w.endswith(end) and len(w) - len(end) >= 3
                 for stem in (w[:-len(end)],) for form in (stem + "e", stem, stem + "en", stem + "n")]
        if self._has(w):
            if word[:1].isupper() or any(e[:1].islower() for e in self.entries(w)):
                return w
            # a word in lower case whose headword is only a noun (German "lese": "Lese", the grape harvest): the
            # form of a verb or adjective it inflects first ("lesen")
            return next((f for f in forms if self._has(f) and any(e[:1].islower() for e in self.entries(f))), w)
        return next((f for f in forms if self._has(f)), None)

    def parts(self, word: str) -> list[str]:
        """A compound's two headwords, longest first part first ("tastaturlayout" → tastatur, layout;
        "datenträgerbezeichnung" → datenträger, bezeichnung), with a linking "s" allowed; [] when none splits it."""
        w = word.lower()
        for cut in range(len(w) - 4, 3, -1):
            head, tail = w[:cut], w[cut:]
            for first in (head, head[:-1] if head.endswith("s") else None):
                if first and len(first) >= 4 and self._has(first) and (second := self.headword(tail)):
                    return [first, second]
        return []

    def _has(self, w: str) -> bool:
        key = w.encode("utf-8")
        i = bisect.bisect_left(self.index, key)
        return i < len(self.index) and self.index[i] == key

    def translations(self, word: str) -> tuple[str, ...]:
        """The words of ``word``'s translations (each a word or a short phrase), deduplicated: a word more of the
        entries (senses) give first ("Klasse": class, in four of them, before grade, year, group …); among the rest
        the first translation of each entry before the second of any, entries whose headword is written like
        ``word`` first (German "gießen", to water, before "Gießen", casting)."""
        if word not in self._translations:
            if len(self._translations) > 4096:
                self._translations.clear()
            self._translations[word] = self._translate(word) if word.strip() else ()
        return self._translations[word]

    def _translate(self, word: str) -> tuple[str, ...]:
        head = self.headword(word)
        if head is None:
            parts = self.parts(word) if len(word) >= 8 else []
            return tuple(dict.fromkeys(t for p in parts for t in self.translations(p)[:3]))
        senses: list[list[list[str]]] = []
        for entry in self.entries(head):
            lines = entry.splitlines()
            phrases = []
            for line in lines[1:1 + self.senses]:
                if line.startswith("  ") or line.lstrip().startswith(('"', "Synonym", "see:", "Note:", "Antonym")):
                    continue
                line = re.sub(r"^\s*\d+\.\s*", "", _NOTE.sub(" ", line))
                for phrase in re.split(r"[,;]", line):
                    words = [w.lower() for w in _WORD.findall(phrase) if not _IPA.search(w)]
                    if 0 < len(words) <= 3:
                        phrases.append([w for w in words if w not in _FRAME and len(w) > 1])
            same_case = bool(lines) and lines[0][:1].isupper() == word[:1].isupper()
            senses.append((not same_case, phrases))
        senses = sorted(senses, key=lambda x: x[0])
        alike = [phrases for other_case, phrases in senses if not other_case] or [phrases for _, phrases in senses]
        senses = [phrases for _, phrases in senses]
        out = [w for k in range(max(map(len, senses), default=0)) for phrases in senses if k < len(phrases)
               for w in phrases[k]]
        order = list(dict.fromkeys(out))
        entries = Counter(w for phrases in alike for w in {w for p in phrases for w in p})  # senses naming it
        return tuple(sorted(order, key=lambda w: (-entries[w], order.index(w))))


def dictionary(source: str, target: str, folder: str = str(DICT_DIR)) -> Dictionary | None:
    """The installed dictionary from language ``source`` to ``target`` (codes of ``rag.text.languages``), or None
    (each read once)."""
    return _dictionary(source, target, folder)


@functools.lru_cache(maxsize=16)
def _dictionary(source: str, target: str, folder: str) -> Dictionary | None:
    a, b = CODES.get(source), CODES.get(target)
    if not a or not b or a == b:
        return None
    base = Path(folder) / f"freedict-{a}-{b}"
    index, data = base.parent / (base.name + ".index"), base.parent / (base.name + ".dict.dz")
    if not index.exists() or not data.exists():
        return None
    try:
        return Dictionary(index, data)
    except (OSError, ValueError, UnicodeDecodeError):
        return None


def translate(words: list[str], source: str, target: str, per_word: int = 6,
              folder: str = str(DICT_DIR)) -> dict[str, tuple[str, ...]]:
    """Each of ``words`` (a question's content words, in ``source``) → up to ``per_word`` of its translations in
    ``target``; words the dictionary lacks are left out. {} when no dictionary for the pair is installed."""
    d = dictionary(source, target, folder)
    if d is None:
        return {}
    out = {}
    for w in dict.fromkeys(words):
        found = d.translations(w)[:per_word]
        if found:
            out[w] = found
    return out


_LETTERS = re.compile(r"[^\W\d_]+", re.U)


@functools.lru_cache(maxsize=256)
def bridges(query: str, targets: tuple[str, ...], per_word: int = 6,
            folder: str = "") -> dict[str, dict[str, tuple[str, ...]]]:
    """Book language → {content word of the question → its translations}, for each of ``targets`` (the searched
    books' languages) that is not the question's own language and has an installed dictionary. {} otherwise."""
    from .languages import detect, surely, tokenize
    from .query_terms import function_words

    source = detect(query)
    if not surely(query, source):  # a few words a language is not sure of ("man page mount options") stay as they are
        return {}
    where = folder or str(DICT_DIR)
    others = [t for t in dict.fromkeys(targets) if t != source and dictionary(source, t, where) is not None]
    if not others:  # the books are in the question's language, or no dictionary bridges the two
        return {}
    frame = function_words(source)
    found_words = [w for w in dict.fromkeys(_LETTERS.findall(query)) if len(w) > 2 and w.lower() not in frame]
    words = [w for w, toks in zip(found_words, tokenize(found_words, source)) if toks and toks[0] not in frame]
    out = {}
    for target in others:
        found = translate(words, source, target, per_word, where)
        if found:
            out[target] = found
    return out

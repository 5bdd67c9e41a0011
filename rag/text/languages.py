"""Languages: which language a text is in (books and questions), and BM25 tokens for it.

Detection counts each language's most frequent function words (and, for Vietnamese, its letters with
horns, breves and tone marks), so it needs no model and works on a question of a few words. Tokens use
PyStemmer's stemmer and bm25s's stopwords for the language; Vietnamese is syllable-based — no stemming,
its own stopwords, one-letter syllables kept.
"""
from __future__ import annotations

import re
import unicodedata

# a few dozen of the most frequent words per language (enough to tell them apart, not a stopword list), with the
# pronouns and question words a short question is made of ("Ich habe wenig Zeit: In welcher Reihenfolge …?"), none
# that another language also uses ("i", "me", "comment", "bin")
MARKERS = {
    "en": "the of and to in is that it for as with was on be by this are which or from an not but have a "
          "what how why who when does do can should my you your we our if would could will",
    "de": "der die das und ist nicht ein eine zu den von mit sich des auf für im dem als auch es an wird "
          "werden sind oder bei wenn man einer eines wie heißt welche wann zeigt gibt sei hat kann muss über nach "
          "durch warum wer wo was ich mein meine meinen meinem mir mich habe haben einen einem soll sollte "
          "welcher welches kein keine dass",
    "fr": "le la les et des est une un du que qui dans pour pas sur au avec par ce sont ou mais je mon "
          "quel quelle quels quelles pourquoi quand où faut peut",
    "es": "el la los las y de que en un una es por con para no se del al lo como más pero cómo qué cuál cuáles "
          "cuándo dónde quién quiénes",
    "it": "il la di che e è un una per non sono del della con nel gli le si come anche",
    "nl": "de het een en van is dat op te zijn met voor niet aan er maar ook als bij",
    "pt": "o a os as e de que em um uma é não para com do da por se mais como",
    "vi": "của và là có được cho các những trong với không một người này đã khi thì để theo tại về bị",
}
_WORDS = {lang: set(words.split()) for lang, words in MARKERS.items()}
# question words that are another language's words too, and tell only as a question's first word: "Comment
# installer live-build ?" and "Combien de pages … ?" are French ("a LaTeX comment" is English)
OPENERS = {"fr": {"comment", "combien"}}
_ES_MARKS = re.compile(r"[¿¡]")  # Spanish opens a question or an exclamation upside down; no other language read does
_VI_LETTERS = re.compile(r"[ăâđêôơưạảấầẩẫậắằẳẵặẹẻẽếềểễệỉịọỏốồổỗộớờởỡợụủứừửữựỳỵỷỹ]", re.I)
_WORD = re.compile(r"[^\W\d_]+", re.U)
_TOKEN = re.compile(r"[^\W_]+", re.U)
_GERMAN_C = re.compile(r"(?<![^\W\d_])[cC](?=[aouAOU])")

STEMMERS = {"en": "english", "de": "german", "fr": "french", "es": "spanish", "it": "italian", "nl": "dutch",
            "pt": "portuguese"}
STOPWORDS = {"en": "en", "de": "de", "fr": "fr", "es": "es", "it": "it", "nl": "nl", "pt": "pt"}
VI_STOPWORDS = set(MARKERS["vi"].split()) | {"thì", "mà", "nên", "rằng", "cũng", "đó", "nào", "gì", "ở", "ra", "vào"}
LANGUAGES = tuple(MARKERS)
NAMES = {"en": "English", "de": "German", "fr": "French", "es": "Spanish", "it": "Italian", "nl": "Dutch",
         "pt": "Portuguese", "vi": "Vietnamese"}


def scores(text: str) -> dict[str, int]:
    """Each language's count of its marker words in ``text`` (Vietnamese: also its letters with tone marks, the
    strongest sign of it), and of its ``OPENERS`` as the text's first word."""
    words = [w.lower() for w in _WORD.findall(text[:200_000])]
    out = {lang: sum(1 for w in words if w in ws) for lang, ws in _WORDS.items()}
    if words and text.lstrip()[:1].isupper():
        for lang, openers in OPENERS.items():
            out[lang] += words[0] in openers and _other_sign(text, words, lang, out[lang])
    out["vi"] += len(_VI_LETTERS.findall(text[:200_000]))
    out["es"] += len(_ES_MARKS.findall(text[:200_000]))  # "¿Cómo instalo un paquete?" had read as French (tour 35)
    return out


def _other_sign(text: str, words: list[str], lang: str, markers: int) -> bool:
    """Whether a question opening with one of ``lang``'s ``OPENERS`` shows that language otherwise too: a marker
    word, a letter English does not write, a space before "?" ("Comment installer live-build ?"), or a next word
    that is an everyday word of ``lang`` and none of English ("installer", "ajouter"; not "out" of "Comment out …")."""
    from .frequency import ordinary

    letters = _OWN_LETTERS.get(lang)
    return markers > 0 or (letters is not None and bool(letters.search(text[:300]))) \
        or bool(re.search(r"\s[?!]", text[:300])) \
        or (len(words) > 1 and ordinary(words[1], lang) is True and ordinary(words[1], "en") is not True)


def detect(text: str, default: str = "en") -> str:
    """The language of ``text`` (a code from ``LANGUAGES``), ``default`` when nothing tells. Languages tied on their
    markers are told apart by the words that are everyday words of one of them and none of the others' ("Was macht
    lb config?", "Was bedeutet Persistenz?": "was" is English too, "macht" and "bedeutet" are German only); a tie
    that stays goes to the language listed first."""
    counts = scores(text)
    best = max(counts, key=counts.get)
    if counts[best] <= 0:
        return default
    tied = [lang for lang, n in counts.items() if n == counts[best]]
    if len(tied) > 1 and len(text) <= TIE_TEXT:
        from .frequency import ordinary

        words = {w.lower() for w in _WORD.findall(text)}
        own = {lang: sum(1 for w in words if ordinary(w, lang) is True
                         and not any(ordinary(w, o) for o in tied if o != lang)) for lang in tied}
        best = max(tied, key=lambda lang: own[lang])
    return best


TIE_TEXT = 500  # characters: a tie is looked into for a question or a line, not for a book's text


# letters a language writes and English does not: with one marker word they make a short question sure
_OWN_LETTERS = {"de": re.compile(r"[äöüßÄÖÜ]"), "fr": re.compile(r"[éèêëàâçùûîïôœÉÈÊÀÇŒ]")}


def surely(text: str, lang: str, least: int = 2) -> bool:
    """Whether ``text`` is in ``lang`` beyond doubt: more of its words are that language's markers than any other
    language's, and at least ``least`` of them, or one and a letter of that language ("Welches ätherische Öl …?").
    "man page mount options" has one German marker and no German letter: not surely German."""
    counts = scores(text)
    own = counts.get(lang, 0)
    letters = _OWN_LETTERS.get(lang)
    enough = own >= least or (own >= 1 and letters is not None and bool(letters.search(text)))
    return enough and all(v < own for code, v in counts.items() if code != lang)


# superscript and subscript characters and what they stand for ("ⁿ" → "n", "²" → "2", "₂" → "2")
_SCRIPTS = {c: unicodedata.normalize("NFKC", c) for c in "¹²³" + "".join(map(chr, range(0x2070, 0x20A0)))}
_SCRIPTS = {c: plain for c, plain in _SCRIPTS.items() if plain != c and len(plain) == 1}
_SCRIPT_CHARS = re.compile("[" + re.escape("".join(_SCRIPTS)) + "]")
_FOOTNOTE_MARK = re.compile(r"(?<=[^\W\d_]{2})[¹²³⁰⁴-⁹]+")  # superscript digits right after a word
_FOLD = str.maketrans(_SCRIPTS)


def fold_scripts(text: str) -> str:
    """``text`` with superscripts and subscripts written plainly, as a PDF's text layer writes them ("Rⁿ" → "Rn",
    "H₂O" → "H2O"), and superscript digits right after a word of two letters or more set apart as the footnote
    marks they are ("directory⁹" → "directory 9"): glued, the word could not be found."""
    if not _SCRIPT_CHARS.search(text):
        return text
    return _FOOTNOTE_MARK.sub(lambda m: " " + m.group(0), text).translate(_FOLD)


def tokenize(texts: list[str], lang: str) -> list[list[str]]:
    """BM25 tokens of ``texts`` in language ``lang``: lower-cased words (superscripts written plainly,
    ``fold_scripts``), stopwords dropped, stemmed."""
    import bm25s

    texts = [fold_scripts(t) for t in texts]
    if lang == "de":  # "Codierung" and "Kodierung", "Code" and "Kode": German writes a loanword's c before a, o, u
        texts = [_GERMAN_C.sub("k", t) for t in texts]  # either way (books9's "Kodierung" met the book's "Codierung")

    if lang == "vi":  # syllables and numbers ("1.200.000.000 đồng" keeps 1, 200, 000, 000)
        return [[w for w in (m.lower() for m in _TOKEN.findall(t)) if w not in VI_STOPWORDS] for t in texts]
    import Stemmer

    stemmer = Stemmer.Stemmer(STEMMERS.get(lang, "english"))
    return bm25s.tokenize(texts, stopwords=STOPWORDS.get(lang, "en"), stemmer=stemmer, show_progress=False,
                          return_ids=False)

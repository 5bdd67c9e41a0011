"""What a question writes out as the book does, to be found letter for letter: an operator or other symbol ("What
does // do?", "%*%", "|>", "<-") and a path, file name, option or identifier ("/var/www/index.html", "--apt-http-proxy",
"LB_ISO_VOLUME"). Word-based search drops symbols altogether and splits identifiers into words that every page has;
a book that explains the operator writes it as the question does."""
from __future__ import annotations

import re

# a path or file name ("/var/www/index.html", "config/includes.chroot", ".octaverc"), an option ("--apt-http-proxy"),
# an identifier with an underscore or "::" ("LB_ISO_VOLUME")
VERBATIM = re.compile(r"(?<![\w-])(?:--?[A-Za-z][\w-]*[\w]|[~/.]?\w+(?:[./:~]+\w+|_\w+)+/?|[~.]\w{2,})")
# a run of symbols standing alone between spaces or quotes: "//", "%*%", "|>", "**", "+=", "<-", "==" (a single one
# only when quoted: "`%`"); sentence punctuation alone ("?", "...", "--") is none
_SYMBOL = re.compile(r"(?:(?<=\s)|^|(?<=[\"'`‘“(]))([^\w\s\"'`‘’“”()\[\]{}]{1,4})(?=\s|$|[\"'`’”),?.!:;])")
# a word wrapped in percent signs or led by a dollar sign: R's "%in%" and "%o%", Windows' "%PATH%", the shell's
# "$HOME" and "${TEXMFHOME}": written letter for letter, split into common words by search
_WRAPPED = re.compile(r"(?<![\w%$])(%\w+%|\$\{?\w+\}?)(?![\w%])")
_QUOTED_ONE = re.compile(r"[\"'`‘“]([^\w\s\"'`‘’“”])[\"'`’”]")
_PUNCTUATION = set("?!.,;:-–—…")


def symbols(question: str) -> list[str]:
    """The operator-like symbols the question writes out, in order: "What does the // operator do?" → ["//"]."""
    end = len(question.rstrip())
    # the question's own end mark glued to a symbol it ends with is no part of it: "… between && and &?" asks about "&"
    found = [m.group(1).rstrip("?!.") if m.end(1) == end else m.group(1) for m in _SYMBOL.finditer(question)]
    out = [s for s in found if len(s) >= 2 and not set(s) <= _PUNCTUATION]
    out += [m.group(1) for m in _QUOTED_ONE.finditer(question) if m.group(1) not in _PUNCTUATION]
    return list(dict.fromkeys(out))


def verbatim(question: str) -> list[str]:
    """The paths, file names, options and identifiers the question writes out (five characters or more; no number),
    and its words wrapped in percent signs or led by a dollar sign ("%in%", "$HOME")."""
    found = [v for v in VERBATIM.findall(question) if len(v) >= 5 and not re.fullmatch(r"[\d.:]+", v)]
    found += [w for w in _WRAPPED.findall(question) if not re.fullmatch(r"\$\{?\d+\}?", w)]  # "$5": a price
    return list(dict.fromkeys(found))


_COINAGE = re.compile(r"(?<![\w\\/.-])[^\W\d_][\w]{3,}(?![\w/-])")  # a word standing alone, four letters or more


def coined(question: str, lang: str) -> list[str]:
    """The question's words that may be no word of its language nor of English: a package, program or file format's
    own name written as the book writes it ("fancyhdr", "titlesec", "latexmk"). Here only the everyday lists are
    read (no word of them is a coinage); ``a_coinage`` reads the large ones (tens of MB a language, read only for a
    word worth it). Empty where there is no list for ``lang``. How rare a coinage is in the books is for the caller to
    judge: a book's own name ("yathesis") is on all its pages."""
    from .frequency import zipf

    if zipf("the", lang) is None:
        return []
    out = [w for w in _COINAGE.findall(question)
           if not w[1:].isupper() and not zipf(w.lower(), lang) and not zipf(w.lower(), "en")]
    return list(dict.fromkeys(out))


def a_coinage(word: str, lang: str) -> bool:
    """Whether ``word`` is no word of ``lang`` nor of English at all (wordfreq's large lists)."""
    from .frequency import a_word

    return a_word(word.lower(), lang) is False and a_word(word.lower(), "en") is False


def holds_symbol(text: str, symbol: str) -> bool:
    """Whether ``text`` writes ``symbol`` standing alone ("7 // 2", "operator, //, divides"; not "http://")."""
    return bool(re.search(r"(?:(?<=[\s,(\"'`‘“])|^)" + re.escape(symbol) + r"(?=[\s,.;:)\"'`’”]|$)", text))


# an interval or a pair of numbers: "(0,1)", "[0, 1]", "(-1, 2.5]" — the open interval is not the closed one, and
# search reads neither (its numbers are on every page of a mathematics book)
INTERVAL = re.compile(r"[(\[]\s*[-−]?\d+(?:\.\d+)?\s*,\s*[-−]?\d+(?:\.\d+)?\s*[)\]]")


def intervals(question: str) -> list[str]:
    """The intervals and number pairs the question writes out, as written: "Warum ist (0,1) nicht kompakt?" →
    ["(0,1)"]."""
    return list(dict.fromkeys(m.group(0) for m in INTERVAL.finditer(question)))


def spellings(token: str) -> list[str]:
    """How a book may write ``token``: an interval with and without a space after its comma ("(0,1)", "(0, 1)")."""
    if not INTERVAL.fullmatch(token):
        return [token]
    tight = re.sub(r"\s+", "", token)
    return list(dict.fromkeys([token, tight, tight.replace(",", ", ")]))


def written_out(question: str) -> list[str]:
    """Everything the question writes out to be found letter for letter: its symbols, then its paths and options,
    then its intervals."""
    return symbols(question) + verbatim(question) + intervals(question)


def holds(text: str, token: str) -> bool:
    """Whether ``text`` writes ``token``: a symbol standing alone, a path or option anywhere, an interval with any
    spaces inside."""
    if INTERVAL.fullmatch(token):
        pattern = r"\s*".join(re.escape(ch) for ch in re.sub(r"\s+", "", token))
        return bool(re.search(rf"(?<![\w.]){pattern}", text))
    return token in text if re.search(r"\w", token) else holds_symbol(text, token)

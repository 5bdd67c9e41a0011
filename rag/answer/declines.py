"""What a declined answer says, in the question's language: English, German or French (English for any other).

The message is the answer the user reads in place of one ("Nicht in Ihren Büchern: …" for a German question); the
app's own labels around it stay English. ``TEXTS[lang]`` holds one language's sentences, ``LANGUAGE_NAMES[lang]``
the names of the languages Folio detects, as that language writes them (for "asking in English may find it")."""
from __future__ import annotations

TEXTS: dict[str, dict[str, str]] = {
    "en": {
        "not_relevant": "Not in your books: no passage was relevant enough to answer this. The closest passages "
                        "found are listed below; they are not an answer.",
        "try": " If one of your books should cover it, try asking in the words that book uses.",
        "not_in_books": "Not in your books: the passages found share words or topic with the question but do not "
                        "seem to answer it. The closest passages are listed below; they are not an answer.",
        "unwritten": "Not in your books: none of the books searched writes {symbols}, so they do not explain it. The "
                     "closest passages are listed below; they are not an answer.",
        "unnamed": "Not in your books: none of the books searched mentions {names}. The closest passages are listed "
                   "below; they are not an answer.",
        "scope_one": " Only {books} was searched, as chosen: the whole library may answer it.",
        "scope_many": " Only {books} were searched, as chosen: the whole library may answer it.",
        "other_language": " Your question is in {question}, and the books searched are in {books}: asking "
                          "{theirs} may find it.",
        "no_word_known": " None of the question's words occur in your books: if it is in another language than they "
                         "are, ask in theirs.",
        "or": "or", "and": "and", "in_one": "in {name}", "in_any": "in one of them",
    },
    "de": {
        "not_relevant": "Nicht in Ihren Büchern: Keine Passage war relevant genug, um die Frage zu beantworten. Die "
                        "nächstliegenden Passagen stehen unten; sie sind keine Antwort.",
        "try": " Sollte eines Ihrer Bücher es behandeln, fragen Sie mit den Worten, die dieses Buch verwendet.",
        "not_in_books": "Nicht in Ihren Büchern: Die gefundenen Passagen teilen Wörter oder das Thema mit der Frage, "
                        "scheinen sie aber nicht zu beantworten. Die nächstliegenden Passagen stehen unten; sie sind "
                        "keine Antwort.",
        "unwritten": "Nicht in Ihren Büchern: Keines der durchsuchten Bücher schreibt {symbols}, also erklärt es "
                     "keines. Die nächstliegenden Passagen stehen unten; sie sind keine Antwort.",
        "unnamed": "Nicht in Ihren Büchern: Keines der durchsuchten Bücher erwähnt {names}. Die nächstliegenden "
                   "Passagen stehen unten; sie sind keine Antwort.",
        "scope_one": " Durchsucht wurde, wie gewählt, nur {books}: Die ganze Bibliothek könnte die Antwort haben.",
        "scope_many": " Durchsucht wurden, wie gewählt, nur {books}: Die ganze Bibliothek könnte die Antwort haben.",
        "other_language": " Ihre Frage ist auf {question}, die durchsuchten Bücher sind auf {books}: Eine Frage "
                          "{theirs} könnte die Antwort finden.",
        "no_word_known": " Keines der Wörter der Frage kommt in Ihren Büchern vor: Ist sie in einer anderen Sprache "
                         "als die Bücher, fragen Sie in deren Sprache.",
        "or": "oder", "and": "und", "in_one": "auf {name}", "in_any": "in einer davon",
    },
    "fr": {
        "not_relevant": "Pas dans vos livres : aucun passage n'est assez pertinent pour répondre à la question. Les "
                        "passages les plus proches sont listés ci-dessous ; ils ne sont pas une réponse.",
        "try": " Si l'un de vos livres devrait en parler, posez la question avec les mots qu'il emploie.",
        "not_in_books": "Pas dans vos livres : les passages trouvés partagent des mots ou le sujet de la question, "
                        "mais ne semblent pas y répondre. Les passages les plus proches sont listés ci-dessous ; ils "
                        "ne sont pas une réponse.",
        "unwritten": "Pas dans vos livres : aucun des livres consultés n'écrit {symbols}, ils ne l'expliquent donc "
                     "pas. Les passages les plus proches sont listés ci-dessous ; ils ne sont pas une réponse.",
        "unnamed": "Pas dans vos livres : aucun des livres consultés ne mentionne {names}. Les passages les plus "
                   "proches sont listés ci-dessous ; ils ne sont pas une réponse.",
        "scope_one": " Seul {books} a été consulté, comme choisi : toute la bibliothèque pourrait y répondre.",
        "scope_many": " Seuls {books} ont été consultés, comme choisi : toute la bibliothèque pourrait y répondre.",
        "other_language": " Votre question est en {question} et les livres consultés sont en {books} : la poser "
                          "{theirs} pourrait trouver la réponse.",
        "no_word_known": " Aucun mot de la question n'apparaît dans vos livres : si elle est dans une autre langue "
                         "que la leur, posez-la dans leur langue.",
        "or": "ou", "and": "et", "in_one": "en {name}", "in_any": "dans l'une d'elles",
    },
}

LANGUAGE_NAMES: dict[str, dict[str, str]] = {
    "en": {"en": "English", "de": "German", "fr": "French", "es": "Spanish", "it": "Italian", "nl": "Dutch",
           "pt": "Portuguese", "vi": "Vietnamese"},
    "de": {"en": "Englisch", "de": "Deutsch", "fr": "Französisch", "es": "Spanisch", "it": "Italienisch",
           "nl": "Niederländisch", "pt": "Portugiesisch", "vi": "Vietnamesisch"},
    "fr": {"en": "anglais", "de": "allemand", "fr": "français", "es": "espagnol", "it": "italien",
           "nl": "néerlandais", "pt": "portugais", "vi": "vietnamien"},
}


def texts(lang: str) -> dict[str, str]:
    """The sentences of a declined answer in ``lang`` (a language code), English when Folio has none in it."""
    return TEXTS.get(lang, TEXTS["en"])


def joined(items: list[str], lang: str, word: str = "and") -> str:
    """"A, B and C" in ``lang`` (``word``: "and" or "or")."""
    w = texts(lang)[word]
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + f" {w} " + items[-1]


def other_language(asked: str, theirs: list[str]) -> str:
    """What a declined answer adds when the question's language (``asked``, a code) is none of the searched books'
    (``theirs``): which language would find it, said in the question's language."""
    t, names = texts(asked), LANGUAGE_NAMES.get(asked, LANGUAGE_NAMES["en"])
    books = sorted(names.get(x, x) for x in theirs)
    return t["other_language"].format(question=names.get(asked, asked), books=joined(books, asked),
                                      theirs=t["in_one"].format(name=books[0]) if len(books) == 1 else t["in_any"])

"""What a question's answer must contain, when its words say so plainly: a year ("In what year…", "En quelle
année…"), who made something ("Who founded…", "Qui a inventé…", "Wer hat … entwickelt?") or an organisation ("At
which university…", "Bei welcher Firma…"), a number of years, months or days ("How many years…"), a price ("How
much does … cost?", "Wie viel kostet …?", "Combien coûte …?") or a size of data ("What is the maximum file size…?",
"Wie viel Plattenplatz…?", "Quelle taille…?").

Such a question is answered by a passage that holds a year, or that says who founded/created/invented/
developed/wrote something — in any book and any language; a passage that merely mentions the names the
question contains does not answer it (the manual that mentions MATLAB does not say when MATLAB appeared).
The decision stage turns an answer into "not in your books" when none of the best passages has what the
question wants (about the subject the question names, when it names one). Cues in English, German, French and
Vietnamese; a question without such cues wants nothing in particular (the check does nothing).
"""
from __future__ import annotations

import re

from ..text.terms import names

_YEAR_Q = re.compile(
    r"\b(in |during )?(what|which) year\b|\bwhat year\b|\bin welchem jahr\b|\bseit welchem jahr\b"
    r"|\b(en |dans )?quelle année\b|\bnăm nào\b|\bvào năm nào\b"
    r"|\bwhen (was|were|did) .{0,60}\b(born|founded|released|invented|created|built|published|introduced|"
    r"established|died|fall|fell|end|ended|begin|began|start|started|launched|discovered|written)\b"
    r"|\bwann wurde .{0,60}\b(geboren|gegründet|veröffentlicht|erfunden|gebaut|eingeführt|entdeckt|gestartet)\b"
    r"|\bquand (a|est|fut|ont|sont) .{0,60}\b(né|née|fondé|fondée|sorti|sortie|inventé|inventée|créé|créée|"
    r"publié|publiée|construit|construite|lancé|lancée|découvert)\b",
    re.I)
_MAKING = (r"founded|created|invented|developed|develops|wrote|designed|started|discovered|built|made|makes|"
           r"maintains|maintained|sells|sold|owns|owned|acquired|bought|publishes|published")
_WHO_Q = re.compile(
    rf"\bwho (\w+ ){{0,2}}({_MAKING})\b"
    rf"|\b(which|what) (company|companies|firm|corporation|organi[sz]ation|vendor|university|team|group|person|"
    rf"people)( \w+){{0,2}} ({_MAKING})\b"
    r"|\bwer (hat|haben|hatte) .{0,60}\b(gegründet|erfunden|entwickelt|geschrieben|erstellt|entworfen|gebaut|"
    r"entdeckt|verkauft|gekauft|übernommen|veröffentlicht)\b"
    r"|\bwelche[sr]? (firma|unternehmen|organisation|hersteller|universität)\b.{0,60}\b(gegründet|erfunden|"
    r"entwickelt|geschrieben|erstellt|entworfen|gebaut|entdeckt|verkauft|gekauft|übernommen|veröffentlicht|"
    r"pflegt|vertreibt|herstellt|stellt)\b"
    r"|\bqui (a|ont|avait) (\w+ ){0,2}(fondé|inventé|créé|développé|écrit|conçu|construit|lancé|découvert|vendu|"
    r"racheté|acheté|publié)\b"
    r"|\bquelle (entreprise|société|organisation|université|firme)\b.{0,60}\b(fondé|inventé|créé|développé|écrit|"
    r"conçu|construit|lancé|découvert|vendu|vend|racheté|acheté|publié|publie|maintient|développe)\b"
    r"|\bai (đã )?(sáng lập|phát minh|tạo ra|phát triển|viết|thiết kế)\b"
    # who holds a role: "Who is the current leader of the Debian project?", "Wer ist der Betreuer …?"
    r"|\bwho (is|was|are|were) (the |its |their )?(current |original |first |main |lead )?"
    r"(leaders?|head|president|ceo|chair(man|woman|person)?|director|maintainers?|founders?|creators?|developers?|"
    r"inventors?|designers?|owners?|publishers?)\b"
    r"|\bwer (ist|war|sind|waren) (der|die) (heutige |aktuelle |erste )?(leiter|chef|präsident|vorsitzende|"
    r"betreuer|gründer|erfinder|entwickler|eigentümer|herausgeber)\w*\b"
    r"|\bqui (est|était|sont) (le|la|les) (chef|président|présidente|directeur|directrice|responsable|mainteneur|"
    r"fondateur|fondatrice|créateur|créatrice|inventeur|développeur|propriétaire|éditeur)s?\b",
    re.I)
_YEAR = re.compile(r"(?<!\w)(1[5-9]\d\d|20\d\d)(?!\w)")
_MADE_BY = re.compile(
    r"\b(found(ed|er|ers)|creat(ed|or|ors)|invent(ed|or|ors)|develop(ed|er|ers)|wrote|written by|author(ed|s)?|"
    r"design(ed|er|ers)|discover(ed|er))\b(?!\s+(?:to|for)\b)"  # "designed to be easy", "developed for": a purpose
    r"|\b(gegründet|gründer\w*|erfunden|erfinder\w*|entwickelt|entwickler\w*|geschrieben|schrieb|verfasst|"
    r"autor\w*|entworfen|entdeckt)\b"
    r"|\b(fond[ée]e?s?|fondat(eur|rice)s?|cré[ée]e?s?|créat(eur|rice)s?|invent[ée]e?s?|invent(eur|rice)s?|"
    r"développ[ée]e?s?|écrit|auteure?s?|conçue?s?|découvert)\b"
    r"|sáng lập|phát minh|tác giả|phát triển",
    re.I)
# who keeps, sells, owns or publishes a thing is said with these words, not with those of its making: a question
# asked with one of them ("Which company sold …?") is answered by a sentence with one of the same kind
_DEALS = [
    (re.compile(r"\b(leaders?|head|president|ceo|chair\w*|director|leiter|chef|präsident|vorsitzende|"
                r"présidente?|directeur|directrice|responsable)\b", re.I),
     re.compile(r"\b(lead(s|er|ers|ing)?|led|head(s|ed)?|chief|president|ceo|chair\w*|director|directs|directed|"
                r"leit\w*|geleitet|chef\w*|präsident\w*|vorsitz\w*|président\w*|dirig\w*|directeur|directrice|"
                r"responsable)\b", re.I)),
    (re.compile(r"\b(maintains?|maintained|maintainers?|pflegt|betreut|betreuer|maintient|mainteneur)\b", re.I),
     re.compile(r"\b(maintain(s|ed|er|ers)?|gepflegt|betreu\w*|maintenue?s?|mainteneurs?)\b", re.I)),
    (re.compile(r"\b(sells?|sold|verkauft|vertreibt|vend|vendu)\b", re.I),
     re.compile(r"\b(sells?|sold|seller|vendors?|verkauf\w*|vertrieb\w*|vend|vendue?s?)\b", re.I)),
    (re.compile(r"\b(owns?|owned|owners?|acquired|bought|gekauft|übernommen|eigentümer|racheté|acheté|"
                r"propriétaire)\b", re.I),
     re.compile(r"\b(own(s|ed|er|ers)|acquir(ed|es)|acquisition|bought|gekauft|übernomm\w*|übernahme|"
                r"rachet[ée]e?s?|rachat|achet[ée]e?s?)\b", re.I)),
    (re.compile(r"\b(publish(es|ed|ers?)?|veröffentlicht|herausgegeben|herausgeber|publie|publié|éditeur)\b",
                re.I),
     re.compile(r"\b(publish(es|ed|er|ers)?|veröffentlich\w*|herausgegeben|herausgeber\w*|verlag\w*|"
                r"publi[ée]e?s?|éditeurs?)\b", re.I)),
    (re.compile(r"\b(makes|made|herstellt|stellt|fabrique)\b", re.I),
     re.compile(r"\b(made by|makes|maker|manufactur(es|ed|er|ers)|hergestellt|hersteller\w*|fabriqu[ée]e?s?|"
                r"fabricants?)\b", re.I)),
]


# "At which university …?", "Für welche Firma …?", "Dans quelle entreprise …?": the answer names an organisation —
# a passage that only names the people asked about ("Thomas Williams & Colin Kelley") does not say where they worked
_ORG_Q = re.compile(
    r"\b(which|what) (universit(y|ies)|college|compan(y|ies)|firm|employer|institut(e|ion)|laborator(y|ies)|lab|"
    r"organi[sz]ation)\b"
    r"|\bwelche[rmns]? (universität|hochschule|firma|unternehmen|institut|organisation|arbeitgeber)\b"
    r"|\bquel(le)?s? (université|entreprise|société|institution|institut|laboratoire|organisation|employeur)\b",
    re.I)
_ORG = re.compile(
    r"\b(universit(y|ies|ät|äten|é|és)|college|hochschule|institut(e|es|ion|ions)?|laborator(y|ies|ium|ien|ire)|"
    r"labs?|inc|corp|corporation|ltd|llc|gmbh|company|companies|firma|unternehmen|entreprise|société|"
    r"employ(ed|er|ee)|work(s|ed|ing)? (at|for)|arbeitet\w* (bei|an|für)|travaill\w* (à|chez|pour))\b",
    re.I)


# "How many years …?", "Pendant combien d'années …?", "Wie viele Monate …?": the answer states a number of them
_UNITS = {"en": r"years?|months?|weeks?|days?", "de": r"jahren?|monaten?|wochen|tagen?",
          "fr": r"ans|années?|mois|semaines?|jours?", "vi": r"năm|tháng|tuần|ngày"}
_DURATION_Q = re.compile(
    rf"\bhow many ({_UNITS['en']})\b|\bwie viele ({_UNITS['de']})\b|\bcombien (d'|d’|de )({_UNITS['fr']})\b"
    rf"|\bbao nhiêu ({_UNITS['vi']})\b", re.I)
_NUMBER_WORDS = (r"\d+|one|two|three|four|five|six|seven|eight|nine|ten|twelve|ein\w*|zwei|drei|vier|fünf|sechs|sieben|"
                 r"acht|neun|zehn|zwölf|une?|deux|trois|quatre|cinq|six|sept|huit|neuf|dix|douze|một|hai|ba|bốn|năm")
_DURATION = re.compile(rf"\b({_NUMBER_WORDS})[ -]({'|'.join(_UNITS.values())})\b", re.I)


# "How much does the DVD set cost?", "Was kostet …?", "Quel est le prix de …?": the answer states a price (an amount
# of money, or that it costs nothing); a passage that says where to buy it does not say what it costs
_PRICE_Q = re.compile(
    r"\bhow much (?:does|do|did|would|will|is|are|was|were)\b.{0,60}\b(?:cost|costs|charge|pay)\b"
    r"|\b(?:what|which) (?:is|was|are|were) the (?:price|cost)s?\b|\bhow much money\b"
    r"|\bwie ?viel (?:kostet|kosten|kostete|kosteten|muss ich (?:\w+ )?(?:zahlen|bezahlen))\b|\bwas kostet\b"
    r"|\bwas kosten\b|\bzu welchem preis\b"
    r"|\bcombien (?:co[uû]te|co[uû]tent|co[uû]tait|faut-il payer|dois-je payer)\b|\bquel est le (?:prix|co[uû]t)\b"
    r"|\bgiá (?:bao nhiêu|là bao nhiêu)\b",
    re.I)
_PRICE = re.compile(
    r"[$€£¥]\s?\d|\d[\d.,]*\s?(?:€|\$|£|¥|eur|euros?|usd|dollars?|cents?|chf|franken|francs?|pounds?|đồng|vnd)(?!\w)"
    r"|\b(?:free of charge|at no cost|costs? nothing|for free|kostenlos|kostenfrei|gratis|umsonst|gratuite?s?|"
    r"gratuitement|miễn phí)\b",
    re.I)
# "What is the maximum file size …?", "Wie viel RAM und Plattenplatz …?", "Quelle taille pour /var ?": the answer
# states a size of data (a number with its unit: "40–100MB", "2 GB", "512 octets")
_DATA = (r"(?:file|disk|partition\w*|upload|memory|ram|storage|space|speicher\w*|plattenplatz|festplatte\w*|platz|"
         r"datei\w*|arbeitsspeicher|fichiers?|disques?|mémoire|espace|taille)")
_SIZE_Q = re.compile(
    rf"\b(?:maximum|max\.?|largest|biggest|minimum|smallest|maximale\w*|minimale\w*|höchste\w*)\b.{{0,30}}"
    rf"\b(?:size|sizes|größe|dateigröße|taille)\b"
    rf"|\bhow (?:big|large)\b.{{0,40}}\b{_DATA}|\b{_DATA}\b.{{0,40}}\bhow (?:big|large)\b"
    rf"|\bhow much (?:disk |free |hard disk )?(?:space|memory|ram|storage)\b"
    rf"|\bwie (?:groß|viel)\b.{{0,80}}\b{_DATA}|\b(?:welche|wie viel) (?:\w+ )?(?:größe|speicher|platz)\b"
    rf"|\bquelle (?:taille|place)\b.{{0,60}}\b{_DATA}|\bquantité de mémoire\b"
    rf"|\bcombien d[e'’] ?(?:espace|mémoire|place|octets)\b",
    re.I)
_SIZE = re.compile(r"\d[\d.,]*\s?(?:[kmgtp]i?b|bytes?|kilobytes?|megabytes?|gigabytes?|terabytes?|[kmgt]o|octets?|"
                   r"zeichen|characters?|caractères)(?!\w)", re.I)


# who paid for the work, asked of no named subject ("Who paid for this research?", "Wer hat diese Studie bezahlt?"):
# the answer says it was funded, supported, granted — "They paid him fifteen dollars a week" in a speech manual is no
# answer (tour 41: "likely" at 48 % of a library without a paper)
_FUNDING_Q = re.compile(
    r"\bwho (?:paid|pays|funded|funds|financed|sponsored) (?:for )?(?:the|this|their|that) (?:research|study|studies|"
    r"work|project|paper|trial|experiments?|survey)\b|\bwhere did (?:the|their) money (?:for \w+ )?come from\b"
    r"|\bwer hat (?:die|diese|das|dieses) (?:studie|forschung|arbeit|projekt|untersuchung) (?:bezahlt|finanziert|"
    r"gefördert)\b|\bqui a (?:payé|financé) (?:cette|la|ce|le) (?:étude|recherche|travail|projet)\b", re.I)
_FUNDING = re.compile(r"\b(?:fund(?:s|ed|ing)?|grants?|supported (?:financially )?by|financ\w+|sponsor\w*|"
                      r"gefördert|förder\w+|finanzier\w+|financé\w*|subvention\w*|bourse)\b", re.I)


# what a question may want, in the order ``wanted`` lists them: the cue that asks for it, and what a passage that says
# it holds (who made something is said with the words of its making or dealing: ``_making``)
WANTS: dict[str, tuple[re.Pattern, re.Pattern | None]] = {
    "year": (_YEAR_Q, _YEAR), "duration": (_DURATION_Q, _DURATION), "maker": (_WHO_Q, None),
    "organisation": (_ORG_Q, _ORG), "price": (_PRICE_Q, _PRICE), "size": (_SIZE_Q, _SIZE),
    "funding": (_FUNDING_Q, _FUNDING)}


def _making(question: str) -> re.Pattern:
    """The words a passage says the asked-for making or dealing with (``_DEALS``, else ``_MADE_BY``)."""
    cue = _WHO_Q.search(question)
    return next((said for asked, said in _DEALS if cue and asked.search(cue.group(0))), _MADE_BY)


def wants(question: str) -> str:
    """'year', 'duration', 'maker', 'organisation', 'price', 'size', 'funding' or '' (nothing particular): the first of
    ``wanted``."""
    return next(iter(wanted(question)), "")


def wanted(question: str) -> list[str]:
    """Everything the question asks for plainly, in that order: "Who developed BibTeX, and in what year?" wants a
    year and a maker — a passage with a year of BibTeX but no maker does not answer it."""
    return [want for want, (cue, _) in WANTS.items() if cue.search(question)]


def holds(want: str, text: str, question: str = "") -> bool:
    """Does ``text`` hold what a question that wants ``want`` asks for, said of the question's subject? The year or
    the making must stand in a sentence that names the subject, or right after one ("Debian was announced in 1993.
    It was founded by Ian Murdock."): a year in a passage that does not name Mozart does not say when Mozart was
    born, and "… the great inventors who live here in Philadelphia" says nothing of who invented the telephone.
    The subject is the question's names ("Mozart", "Debian"), else its other content words ("telephone")."""
    pattern = _making(question) if want == "maker" else WANTS.get(want, (None, None))[1]
    if pattern is None:
        return True
    if not pattern.search(text):
        return False
    if want == "funding":  # "Funding: This work was supported by …" names no "research": the paper's own work
        return True
    from ..text.sentences import sentence_spans

    sentences = [text[a:b] for a, b in sentence_spans(text, min_words=1)] or [text]
    subject = names(question)
    if subject:
        named = [any(re.search(rf"(?<!\w){re.escape(w)}(?!\w)", x, re.I) for w in subject) for x in sentences]
    else:
        terms = _subject_terms(question, want)
        if not terms:  # "In what year was it released?": any year
            return True
        from ..text.languages import detect, tokenize

        named = [bool(terms & set(t)) for t in tokenize(sentences, detect(question))]
    return any(pattern.search(x) and (named[i] or (i > 0 and named[i - 1])) for i, x in enumerate(sentences))


def _subject_terms(question: str, want: str) -> set[str]:
    """The question's content words outside its cue ("Who invented", "In what year was … released"), as BM25
    tokens of its language: what the year or the making must be said of."""
    from ..text.languages import detect, tokenize

    cue = WANTS.get(want, (_WHO_Q, None))[0].search(question)
    rest = question[:cue.start()] + " " + question[cue.end():] if cue else question
    rest = _making(question).sub(" ", rest)
    return set(tokenize([rest], detect(question))[0]) - set(tokenize(["year years first originally"], "en")[0])

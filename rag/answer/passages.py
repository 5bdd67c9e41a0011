"""The passage around an anchor sentence that answers a question, grown over a source's units
(``rag.answer.units``).

A passage is contiguous and in the book's order: the anchor sentence, the sentence before it when the anchor points
back ("This …", "Diese …"), the following sentences while they stay relevant, and whatever the passage introduces —
the code listing, list items or table rows after a sentence that ends with a colon or is left unfinished ("… mit
folgenden Eigenschaften" followed by (i)–(iii)) — so an answer never ends on a colon or halfway through an
enumeration. In a glossary ("term: definition" entries) a passage ends where the next entry's term begins."""
from __future__ import annotations


import re
from dataclasses import dataclass

from ..query.kinds import EXAMPLE_LABEL
from ..text.labels import ABOUT_LISTING, BLOCK_LABEL, PROMPT, PROOF
from ..text.captions import caption_key
from ..types import heading_number
from .cues import POINTER, asking
from .quotecheck import mark_book_brackets
from .units import ENTRY, HEADING_WORDS, ITEM, SIGNATURE, Unit

MAX_ITEMS, MAX_WORDS = 12, 160  # a passage quotes at most so many list items and grows up to so many words
# a sentence that points back at what came before it
REFERS_BACK = re.compile(r"^\s*(?:(?:if|when|once|as|since|because|wenn|falls|sobald|si|quand|lorsque)\s+"
                         r"(?=(?:this|these|those|they|it|diese[rsmn]?|ces|ceux|celles|ils|elles)\b))?"
                         r"(?:this|these|that|those|it|they|such|here|there|then|thus|so|also|however|ceux|celles|"
                         r"for (?:example|instance)|e\.\s?g\.|dies(?:e[rsmn]?)?|das|es|sie|hier|damit|dabei|dann|"
                         r"zum beispiel|beispielsweise|ce(?:tte|s)?|cela|il|elle|ils|elles|ici|alors|ainsi|"
                         r"par exemple)(?=\W|$)", re.I)
BACK_SENTENCES = 2  # how far a passage goes back while its first sentence points back
ELLIPSIS_END = re.compile(r"(?:…|\.\s?\.\s?\.)\s*$")  # "Die Geraden erfüllen. . ." + "a) . . ." introduces a list
LEAD = (3, 60)  # a passage begins at its paragraph's start when that is this near (sentences, words)
SENTENCE_END = re.compile(r"[.!?:…][)\]»“”\"'’]*$")
HOW_LEAD = (6, 150)  # … a how-to answer at its procedure's start, not just before its listing (tour 39)
# a sentence that offers another way than the listing before it ("Or use …", "Alternatively, …", "Oder …", "Ou …")
ALTERNATIVE = re.compile(r"^\s*(?:or|alternatively|oder|alternativ|ou|sinon)\b", re.I)
PAREN_SENTENCES = 2  # how far a passage goes on to close a parenthesis its last sentence opened
DISPLAY_UNITS = 5  # how far back a passage goes over a displayed formula's lines to the sentence they belong to
DISPLAY_WORDS = 8  # a formula line is this short
DISPLAY_LEAD_WORDS = 12  # and the words before it that begin the sentence ("Dann heißt") so short
LABELLED = re.compile(r"^[^\W\d_]+\s*:")  # "Beobachtung: …", "Beweis: …", "Note: …": a statement of its own
DISPLAY_SYMBOLS = re.compile(r"[=≤≥<>∑∫∏∈∉⊆⊂⊇⊃∪∩→↦⇒⇔±×÷√∞∂∇]")
# a premise: what it lets be is for the statements after it (tour 41: "Wie berechnet man die Gauß-Krümmung?" was
# answered with "Sei S eine reguläre Fläche, s ∈S ein Punkt." alone, its a) and b) left out); a labelled example's
# setting leads on too (``EXAMPLE_LABEL``: "Beispiel: Sie haben einen Computer für 1500 € gekauft …" was books8's
# whole answer on depreciation)
PREMISE = re.compile(r"(?i)^(?:(?:es )?sei(?:en)?|soient|soit|let\b[^.]{0,80}\bbe\b|suppose|angenommen|supposons)[\s,]")
# a sentence that ends on "e.g." or "i.e." (in the reader's languages) leads on to the example after it
# ("Python, for example." gave its example first: only "for example" without a full stop leads on)
LEADS_ON = re.compile(r"(?:\b(?:e\.\s?g|i\.\s?e|z\.\s?B|d\.\s?h|p\.\s?ex|par ex|cf|vgl|v\.\s?d)\.|\b(?:for example|"
                      r"for instance|such as|zum Beispiel|beispielsweise|par exemple)[,:]?|\b(?:comme suit|wie folgt|"
                      r"as follows)[.,:]?)\s*$|"
                      # a sentence that only points at the example after it: "(…) Consider this example."
                      r"(?:^|[.!?]\s+)(?:consider|see|look at|here is|here's|take)\s+"
                      r"(?:this|the following|an|the next)\s+"
                      r"(?:short\s+|simple\s+)?(?:example|snippet|listing|fragment|input)\s*[.:]\s*$|"
                      r"(?:^|[.!?]\s+)(?:betrachten sie|sehen sie sich)\s+(?:dieses|das folgende|folgendes)\s+"
                      r"beispiel\b.*[.:]\s*$|"
                      r"(?:^|[.!?]\s+)(?:considérez|voici|voyez)\s+(?:cet|l'|l’|un)\s*exemple\b.*[.:]\s*$", re.I)

# a sentence just before a listing that speaks of what follows ("The following example shows a complex expression,
# but …", "Das folgende Beispiel …", "… l'exemple ci-dessous") introduces that listing, wherever the words stand
FOLLOWING = re.compile(r"\b(?:following|below|folgende\w*|nachstehende\w*|unten|suivante?s?|ci-dessous)\b", re.I)


@dataclass
class Passage:
    n: int  # the source it is from
    units: list[Unit]
    anchor: int  # index into units of the sentence that answers

    @property
    def words(self) -> int:
        return sum(len(u.text.split()) for u in self.units if u.prose)

    def render(self) -> str:
        """Prose runs end with their citation [n] (the book's own "[3]" marked as the book's); code and tables follow
        as fenced blocks (```, ```table)."""
        out, run, seen = [], [], set()
        for u in self.units:
            if u.kind in ("heading", "boilerplate"):  # never quoted (a passage does not run into the next section)
                continue
            if u.prose:
                if u.text not in seen:  # a sentence the book repeats word for word is quoted once
                    run.append((u.text, u.opens_paragraph))
                    seen.add(u.text)
                continue
            if run:
                out.append(mark_book_brackets(_join(run)) + f" [{self.n}]")
                run = []
            out.append(f"```{'table' if u.kind == 'table' else ''}\n{u.text}\n```")
        if run:
            out.append(mark_book_brackets(_join(run)) + f" [{self.n}]")
        return "\n".join(out)


def _join(texts: list[tuple[str, bool]]) -> str:
    """(text, opens a paragraph) → a line per paragraph, item and sentence after a list (not one in lower case)."""
    out, in_list = "", False
    for t, opens in texts:
        if not out:
            out, in_list = t, bool(ITEM.match(t))
        elif ITEM.match(t):
            out, in_list = out + "\n" + t, True
        elif (in_list or (opens and SENTENCE_END.search(out))) and t[:1].isupper():  # (not a sentence a formula cut)
            out, in_list = out + "\n" + t, False
        else:
            out += " " + t
    return out


def _list_start(us: list[Unit], k: int) -> int:
    """Item ``k``'s list from its first item (at most ``MAX_ITEMS`` back), and the sentence that introduces it."""
    i = k
    while i > 0 and us[i - 1].kind == "item" and k - i < MAX_ITEMS:
        i -= 1
    return i - 1 if i > 0 and (_opens(us[i - 1]) or ELLIPSIS_END.search(us[i - 1].text) and us[i - 1].prose) else i


def grow(us: list[Unit], k: int, keep, max_sentences: int, further_listing: bool = True,
         lead: tuple[int, int] = LEAD, related=None) -> tuple[int, int]:
    """The span [i, j] of units around anchor ``k``: back a sentence or two when the anchor points back ("This …",
    "For example, …"), to a list's intro when it is an item, and to where a sentence cut by a page break begins;
    forward while ``keep(unit index)`` says the next sentence still answers, and always over what an open sentence
    (ending with a colon, or unfinished) introduces: its listing, table, items or next sentence; with
    ``further_listing`` (the answer's first passage), a demonstration goes on to the one next listing its following
    sentence introduces. ``related(unit index)``: whether a sentence shares a word with the question or the anchor; a
    lead back to the paragraph's start begins at its first such sentence."""
    i = j = k
    if us[k].kind == "item":  # back to the first item of its list and the sentence that introduces the list
        i = _list_start(us, k)
    else:  # "For example, …" / "This …": back to the sentence it points at (and once more if that one does too)
        while i > 0 and k - i < BACK_SENTENCES and REFERS_BACK.match(us[i].text) and us[i - 1].kind == "sentence" \
                and not (i < k and us[i].opens_paragraph) \
                and not (us[i - 1].text[:1].islower() and i > 1 and us[i - 2].kind == "code"):
            i -= 1  # (not to the tail of a sentence a line of code cut: "… as a boot parameter.")
    if i == k and us[i].kind == "sentence" and ABOUT_LISTING.match(us[i].text) \
            and not _opens(us[i]):  # "In this example, …" after the (not "Here is an example …:", which leads on)
        at = next((j for j in range(k - 1, max(-1, k - 2 - BACK_SENTENCES), -1)  # example (a sentence or two
                   if us[j].kind in ("code", "table")), None)  # between them): the example with it
        if at is not None and all(u.kind == "sentence" for u in us[at + 1:k]):
            i = at
            if i > 0 and us[i - 1].kind == "sentence" and _opens(us[i - 1]):
                i -= 1  # "… like this:" that introduces it
    if i > 0 and us[i].prose and us[i].opens_paragraph and us[i].text[:1].islower() and _cut_sentence(us[i - 1]):
        i -= 1  # a sentence cut by a page break (a paragraph break inside it): from where it begins
    if i > 0 and us[i].prose and not us[i].text[:1].isupper() and us[i - 1].kind == "item" \
            and not us[i - 1].finished:  # "b) K(s) := κn" + "1(s) · κn 2(s) heißt Gauß-Krümmung …": the whole item
        i -= 1
    if i > 0 and us[i].kind == "sentence":  # "Dann heißt" + "χ(K) :=" + "n=0 (−1)nan(K)" + "Eulerzahl (oder
        d = _display_lead(us, i)  # Euler-Charakteristik) von K.": the sentence a displayed formula split (tour 36),
        i = d - (0 < d < i and bool(REFERS_BACK.match(us[d].text)) and us[d - 1].kind == "sentence")  # and the one
        # its "Dann" points back to ("Für n ≥ 0 sei an(K) die Anzahl der n-Simplizes in K.", tour 49)
    if i > 1 and us[i].prose and us[i].text[:1].islower() and us[i - 1].kind == "code" \
            and us[i - 2].kind == "sentence" and not us[i - 2].finished and us[i - 2].text[:1].isupper():
        i -= 2  # "Or use" + an inline token set as a line of code + "as a boot parameter.": the whole sentence
    if i > 1 and us[i].kind == "sentence" and ALTERNATIVE.match(us[i].text) and us[i - 1].kind == "code" \
            and us[i - 2].kind == "sentence" and _opens(us[i - 2]):
        i -= 2  # "You can store the result as a tuple:" + listing + "Or use tuple assignment …": the first way too
    elif i == k and us[k].kind == "sentence" and i > 0 and signature(us[i - 1]):
        i -= 1  # "Read the comma-separated-value (CSV) file …": with the call forms it describes ("x = csvread (…)")
    elif us[i].kind in ("code", "table") and i > 0 and us[i - 1].prose:
        i -= 1  # a passage never opens with a listing: the sentence or item before it says what it shows
        if us[i].kind == "item":  # … and an item, with its list and the sentence that introduces the list (tour 43:
            i = _list_start(us, i)  # "— en français …; — en anglais …" without "… est composé :")
    elif i == k and _annotates(us, k):
        i -= 1  # "fm <- lm(y ~ x, data=dummy)" + "Fit a simple linear regression …": the code it describes
    if i == k and us[k].kind == "sentence" and not us[k].opens_paragraph:  # from its paragraph's first sentence,
        a = k  # when that is near: "Tuplets are made with the \tuplet keyword. … For triplets, there are three notes
        while a > 0 and us[a - 1].kind == "sentence" and not us[a].opens_paragraph and k - a < lead[0] \
                and not POINTER.match(us[a - 1].text):  # (not from a cross-reference: "Music Glossary: Section …")
            a -= 1  # instead of two …" (the paragraph's first sentence names what the rest of it explains)
        starts = us[a].opens_paragraph or (a > 0 and us[a - 1].kind == "heading")  # (a heading's first sentence too)
        if starts and sum(len(u.text.split()) for u in us[a:k]) <= lead[1]:
            while related is not None and a < k and not related(a):  # "Standardmäßig wird … der erste Benutzer
                a += 1  # … sudo …" opened an answer on setting the time zone: a paragraph that runs on to another topic
            i = a
    faq = us[k].kind == "sentence" and asking(us[k].text) and k + 1 < len(us) and us[k + 1].prose \
        and not asking(us[k + 1].text)  # a FAQ's question ("Q5: Wie kann ich Großbuchstaben … nutzen …?") goes on to
    if faq:  # its answer ("A5: Nutzen Sie den Befehl \*. …"): tour 42 had quoted the question alone
        j = k + 1
    sentences = sum(u.kind == "sentence" for u in us[i:j + 1])
    items = sum(u.kind == "item" for u in us[i:j + 1])
    words = sum(len(u.text.split()) for u in us[i:j + 1] if u.prose)
    shown_more = not further_listing  # a demonstration went on to a further listing (once)
    while j + 1 < len(us):
        last, nxt = us[j], us[j + 1]
        if faq and nxt.prose and asking(nxt.text):
            break  # the next question of the FAQ
        if nxt.kind == "heading" and _points_to(last, nxt) and j + 2 < len(us) and us[j + 2].prose \
                and words < MAX_WORDS:  # "… the recommended way is to install it from the Debian repository." +
            j += 2  # "3.2.1 From the Debian repository": the subsection the sentence names is what it recommends,
            words += len(us[j].text.split())  # from its first sentence on (its heading is not quoted)
            sentences += 1
            continue
        if nxt.kind in ("heading", "boilerplate"):  # the next section begins; thanks or a funding note: not quoted
            break
        if PROOF.match(nxt.text) and not PROOF.match(us[k].text):  # a statement's proof is not what it states
            break
        titled = last.text.rstrip().endswith(":") and j + 2 < len(us) and us[j + 2].kind in ("code", "table")
        if nxt.prose and not last.finished and caption_key(nxt.text) and not titled \
                and not caption_key(us[k].text):  # "… not significantly different" + "Fig 4. Comparative
            break  # effect …": the page set a figure's caption inside the sentence; the caption does not go on with it
        # (but "… zu den folgenden Berechnungen führt:" + "Tabelle 20.1. …" + the table: the table it introduces)
        if nxt.kind in ("code", "table"):
            before = us[max(i, j - 1):j + 1]
            ok = _opens(last) or (last.kind == "item" and nxt.kind == "code") or _names_command(before, nxt) \
                or (caption_key(last.text) and j > i and us[j - 1].text.rstrip().endswith(":")) \
                or (last.kind == "sentence" and bool(FOLLOWING.search(last.text))) \
                or (signature(nxt) and _names_function(before, nxt))  # "… what the polyfit function does." +
            # "p = polyfit (x, y, n)" + what it returns
        elif nxt.kind == "item":
            ok = (_opens(last) or last.kind == "item") and items < MAX_ITEMS and words <= MAX_WORDS
            items += ok
        elif _opens(last) or (last.kind == "item" and not last.finished and not _cut(last) and nxt.prose
                              and not nxt.text[:1].isupper()):
            ok = words <= MAX_WORDS  # "… as follows:" / "… mit folgenden Eigenschaften" goes on, and so does an
            # item a displayed formula cut ("(iii) Ist I eine Menge …, so ist ⋃" + "i∈I Ui ∈ T")
        elif signature(last) and j > k and nxt.kind == "sentence":
            ok = words <= MAX_WORDS  # the call forms a passage went on to: with the sentence that says what they do
        elif last.kind in ("code", "table") and j > i and _opens(us[j - 1]) and nxt.kind == "sentence" \
                and nxt.text[:1].islower():  # "For example, instead of:" + listing + "you could write:" + listing:
            ok = words <= MAX_WORDS  # the sentence goes on after the listing it introduced
        elif last.kind == "code" and j > i and _opens(us[j - 1]) and nxt.kind == "sentence" and _opens(nxt) \
                and j + 2 < len(us) and us[j + 2].kind == "code" and not shown_more:  # "For example, to swap a and
            ok = shown_more = words <= MAX_WORDS  # b:" + listing + "This solution is cumbersome; tuple assignment is
            # more elegant:" + listing: the one next listing the demonstration introduces (the better way, the output)
        elif _entry(us[k]) and _entry(nxt):
            ok = False  # in a glossary the next entry defines another term
        else:  # the anchor's paragraph reads on; a new paragraph only while it still answers
            ok = (keep(j + 1) or not nxt.opens_paragraph and last.kind == "sentence") \
                and sentences < max_sentences and words < MAX_WORDS
            sentences += ok
        if not ok:
            break
        words += len(nxt.text.split()) if nxt.prose else 0
        j += 1
    end = j
    while j > k and (_opens(us[j]) or _cut(us[j])):  # never end on a colon, an unfinished sentence or item
        j -= 1
    if j == k < end and _opens(us[k]) and not _cut(us[end]):  # "A list of authors:" + names without end marks:
        j = end  # what the colon introduces, rather than the colon alone
    for _ in range(PAREN_SENTENCES):  # "… in two weeks. (Correct!" + "These two clauses are closely related.)":
        if j + 1 >= len(us) or not us[j + 1].prose or _open_parens(us[i:j + 1]) <= 0:
            break  # never end inside a parenthesis a sentence opened
        j += 1
    return i, j


def leads_to_listing(us: list[Unit], a: int, b: int) -> bool:
    """Whether the passage ``us[a..b]`` holds no listing while the book goes on, in a new paragraph, with a sentence
    that introduces one ("A function is defined by an assignment of the form" + "> name <- function(arg_1, …)"):
    for a question that asks how, that is the how (``ExtractiveBackend.passages``)."""
    return b + 2 < len(us) and not any(u.kind in ("code", "table") for u in us[a:b + 1]) \
        and us[b + 1].kind == "sentence" and us[b + 1].opens_paragraph and _opens(us[b + 1]) \
        and us[b + 2].kind == "code" and sum(len(u.text.split()) for u in us[a:b + 2] if u.prose) <= MAX_WORDS


RUN_ON_SENTENCES = 2  # a how-to passage's paragraph shows its command within this many further sentences


def runs_into_listing(us: list[Unit], a: int, b: int) -> int:
    """The index of the listing the passage ``us[a..b]`` runs into when its own paragraph goes on, within
    ``RUN_ON_SENTENCES`` sentences, to one ("… use the cp command to copy the image to the stick. This will
    definitely overwrite any previous contents on your stick!" + "$ cp live-image-i386.hybrid.iso ${USBSTICK}"): for a
    question that asks how, the command is the how (tour 37 stopped before it). ``b`` when there is none."""
    if any(u.kind in ("code", "table") for u in us[a:b + 1]):
        return b
    j = b + 1
    while j < len(us) and j - b <= RUN_ON_SENTENCES and us[j].kind == "sentence" and not us[j].opens_paragraph:
        j += 1
    words = sum(len(u.text.split()) for u in us[a:j] if u.prose)
    return j if j > b + 1 and j < len(us) and us[j].kind == "code" and words <= MAX_WORDS else b


ANNOTATED_LINES = 4  # a listing this short, right above a paragraph and introduced by no sentence, is what it says


def _annotates(us: list[Unit], k: int) -> bool:
    """Whether sentence ``k`` is set right under (or beside) a short listing that no sentence introduces (the one
    before it is finished): an annotated session ("fm <- lm(y ~ x, data=dummy)" + "Fit a simple
    linear regression and look at the analysis."), where the sentence says what the code above it does."""
    if k < 1 or us[k].kind != "sentence" or us[k].opens_paragraph or not us[k].text[:1].isupper() \
            or us[k - 1].kind != "code":  # (after a blank line, a sentence may be about anything: "The next chapter
        return False  # …"; in lower case it is the rest of one a listing's line cut: "… as a boot parameter.")
    if len(us[k - 1].text.split("\n")) > ANNOTATED_LINES or signature(us[k - 1]):
        return False
    return k >= 2 and us[k - 2].kind == "sentence" and not _opens(us[k - 2])  # (a listing the source begins with:
    # what introduced it is not known)


def _open_parens(units: list[Unit]) -> int:
    """How many parentheses the prose of ``units`` opens and does not close."""
    text = " ".join(u.text for u in units if u.prose)
    return text.count("(") - text.count(")")


def signature(u: Unit) -> bool:
    """A reference entry's call forms (``units.SIGNATURE``), set as code."""
    return u.kind == "code" and all(SIGNATURE.match(line) for line in u.text.split("\n"))


def _names_function(before: list[Unit], calls: Unit) -> bool:
    """Whether the sentences just before a reference entry's call forms name its function ("… which just is what the
    polyfit function does." + "p = polyfit (x, y, n)")."""
    name = re.search(r"([a-z_][\w.]*)\s*\(", calls.text)
    if not name or len(name.group(1)) < 3:
        return False
    word = re.compile(rf"(?<![\w.]){re.escape(name.group(1))}(?![\w(])")
    return any(u.kind == "sentence" and word.search(u.text) for u in before)


def _bit(u: Unit) -> bool:
    """A short line without an end mark, a comma or a colon at its end (":=" is an operator): a piece of a sentence."""
    t = u.text.rstrip()
    return u.kind == "sentence" and not u.finished and len(t.split()) <= DISPLAY_WORDS \
        and not (t.endswith((":", ",")) and not t.endswith(":="))


def _display(u: Unit) -> bool:
    """A line of a displayed formula: a short piece with a relation or operator sign, or more symbols than letters."""
    t = u.text.replace(" ", "")
    return _bit(u) and (bool(DISPLAY_SYMBOLS.search(t)) or sum(ch.isalpha() for ch in t) < 0.5 * len(t))


def _display_lead(us: list[Unit], k: int) -> int:
    """Where the sentence that unit ``k`` ends begins, when a displayed formula stands between its start and ``k``:
    a lead-in of a few words that opens a sentence ("Dann heißt", "Let"), formula lines (one at least with a sign),
    then ``k``; else ``k``. Not across a finished sentence, a proof's end (■), a colon, a label ("Beweis:") or a list
    item, and not to a ``k`` that opens a statement of its own ("Beobachtung: …", a footnote's "1Diese …")."""
    if not us[k].finished or not us[k].text[:1].isalpha() or BLOCK_LABEL.match(us[k].text) \
            or LABELLED.match(us[k].text) or caption_key(us[k].text):
        return k
    a = k
    while a > 0 and k - a < DISPLAY_UNITS and _bit(us[a - 1]):
        a -= 1
    if a < k and _display(us[a]) and a > 0 and us[a - 1].kind == "sentence" and not us[a - 1].finished:
        a -= 1  # a longer lead-in ("Sei X eine Menge und d die Abbildung")
    lead = us[a]
    if a == k or _display(lead) or lead.kind != "sentence" or len(lead.text.split()) > DISPLAY_LEAD_WORDS \
            or BLOCK_LABEL.match(lead.text) or LABELLED.match(lead.text) or PROOF.match(lead.text) \
            or lead.text.rstrip().endswith((":", ",", "■", "∎", "□")) or not any(_display(u) for u in us[a + 1:k]):
        return k
    if a > 0 and us[a - 1].kind == "sentence" and not us[a - 1].finished:
        return k  # the lead-in does not open its sentence
    return a


def _cut_sentence(u: Unit) -> bool:
    """The first part of a sentence a page break cut ("To include files, simply add them to your config/"): no end
    mark, and not a heading (headings are short, and often numbered)."""
    return u.kind == "sentence" and not u.finished and len(u.text.split()) >= HEADING_WORDS \
        and not heading_number(u.text)


def _entry(u: Unit) -> bool:
    """A glossary entry: 'aliasing: A circumstance where …' (a term of at most four words, then a colon)."""
    m = ENTRY.match(u.text)
    return bool(m) and len(u.text[:m.end()].split(":")[0].split()) <= 4


def _cut(u: Unit) -> bool:
    """An item that stops where its content should begin ('4) f3(x) :=' where the source's text ends)."""
    return u.kind == "item" and u.text.rstrip().endswith((":", ":=", "=", "⇔", "→"))


def _names_command(before: list[Unit], listing: Unit) -> bool:
    """Whether the sentences just before a listing name the command its first line runs after its prompt ("… use the
    cp command to copy the image to the stick. This will overwrite …" + "$ cp live-image-i386.hybrid.iso
    ${USBSTICK}"): the listing is what they describe, though no colon introduces it."""
    line = listing.text.lstrip() if listing.kind == "code" else ""
    prompt = PROMPT.match(line)
    words = line[prompt.end():].split() if prompt else []
    words = words[1:] if words[:1] == ["sudo"] else words
    command = re.match(r"\w[\w.+-]*", words[0]) if words else None
    if not command or len(command.group()) < 2:
        return False
    word = re.compile(rf"(?<![\w/.-]){re.escape(command.group())}(?![\w/-])")
    return any(u.kind == "sentence" and word.search(u.text) for u in before)


HEADING_NUMBER = re.compile(r"^\s*(?:[\dIVXLC]+(?:\.\d+)*\.?|[A-Z]\.)\s+")
POINTED_MIN_WORDS = 3  # a heading named this many words long or longer: a common phrase of two words points nowhere


def _points_to(last: Unit, heading: Unit) -> bool:
    """Whether a sentence names the heading after it, word for word ("… la méthode recommandée consiste à installer
    live-build à partir du dépôt Debian." before "3.2.1 À partir du dépôt Debian"): it points into that subsection."""
    title = " ".join(HEADING_NUMBER.sub("", heading.text).split()).rstrip(".:").lower()
    return last.kind == "sentence" and len(title.split()) >= POINTED_MIN_WORDS \
        and title in " ".join(last.text.split()).lower()


def _opens(u: Unit) -> bool:
    """A sentence that leads on to what follows: it ends with a colon, is unfinished, ends on "e.g." or "for
    example", or sets a premise ("Sei S eine reguläre Fläche, s ∈ S ein Punkt.", "Let X be a space.", "Beispiel:
    Sie haben …")."""
    return u.kind == "sentence" and (u.text.rstrip().endswith(":") or not u.finished or bool(LEADS_ON.search(u.text))
                                     or bool(PREMISE.match(u.text) or EXAMPLE_LABEL.match(u.text)))

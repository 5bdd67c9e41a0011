"""Passage answers: a source's text as units, the passage grown around the best sentence, and what the extractive
answerer says — whole passages in the book's order with what they introduce, never ending on a colon."""
from rag.answer.extractive import ExtractiveBackend
from rag.answer.passages import grow
from rag.answer.units import units
from rag.answer.quotecheck import check_quotes
from rag.settings import ExtractiveTuning
from rag.types import Chunk, Source
from tests.helpers import FlatEmbed

CODE_TEXT = ("Files can be read line by line. You can also use a file object as part of a for loop. This program reads "
             "words.txt and prints each word, one per line:\n\nfin = open('words.txt')\nfor line in fin:\n\n"
             "word = line.strip()\nprint(word)\n\nThe output is a long list of words.")


def source(text: str, n: int = 1, code: tuple[str, ...] = (), book: str = "b1", indent: dict | None = None) -> Source:
    layout, pos = [], 0
    for line in text.split("\n"):
        if line.strip() in code:
            layout.append([pos, pos + len(line), 1, (indent or {}).get(line.strip(), 0)])
        elif line.strip():
            layout.append([pos, pos + len(line), 0, 0])
        pos += len(line) + 1
    chunk = Chunk(book, n, text, 1, 1, 0, len(text), section="Files")
    return Source(n, book, "A Book", chunk, text, [n], 1, 1, "p. 1", 1.0, 0.5, layout=layout)


def _grown(text: str, anchor, n: int) -> tuple[list, int, int, int]:
    """The units of ``text``, the first whose text ``anchor`` accepts, and the span ``grow`` gives it (no further
    sentence kept, at most ``n`` sentences)."""
    us = units(source(text))
    k = next(i for i, u in enumerate(us) if anchor(u.text))
    i, j = grow(us, k, lambda _: False, n)
    return us, k, i, j


def test_code_the_passage_introduces_is_kept_with_its_indentation():
    code = ("fin = open('words.txt')", "for line in fin:", "word = line.strip()", "print(word)")
    us = units(source(CODE_TEXT, code=code, indent={"word = line.strip()": 4, "print(word)": 4}))
    assert [u.kind for u in us] == ["sentence", "sentence", "sentence", "code", "sentence"]
    assert us[3].text == "fin = open('words.txt')\nfor line in fin:\n    word = line.strip()\n    print(word)"
    i, j = grow(us, 2, lambda k: False, 4)
    assert (i, j) == (1, 3)  # "This program …" points back one sentence; its colon brings the listing, no more


def test_a_blank_line_the_page_sets_inside_a_listing_is_kept_and_a_block_split_or_page_break_adds_none():
    """An APT preferences file's stanzas are separated by a blank line the page shows (a line's height of space);
    Think Python's listing, which the PDF splits into text blocks at the same line pitch, gets none, and neither
    does the page break inside a listing (whose page number the furniture pass blanks)."""
    from rag.context.layout import source_layout, structured_text
    from rag.types import Page

    rows = [("Pin-Priority: 600", 100.0), ("", 0), ("Package: *", 124.0), ("", 0), ("Pin: release n=sid", 136.0)]
    text = "\n".join(r for r, _ in rows)  # the page text has a blank line (a block break) before each of the two
    lines, pos = [], 0
    for r, y in rows:
        if r:
            lines.append((pos, pos + len(r), 72.0, y, 72.0 + 6 * len(r), y + 10.0, 1))
        pos += len(r) + 1
    page = Page(1, "1", text, 0, lines=tuple(lines))
    chunk = Chunk("b1", 0, text, 1, 1, 0, len(text), section="APT")
    layout = source_layout([(0, chunk)], lambda book, n: page)
    assert [ln[4] for ln in layout] == [0, 1, 0]
    src = Source(1, "b1", "A Book", chunk, text, [0], 1, 1, "p. 1", 1.0, 0.5, layout=layout)
    (u,) = units(src)
    assert u.text == "Pin-Priority: 600\n\nPackage: *\nPin: release n=sid"
    assert "Pin-Priority: 600\n\nPackage: *\nPin" in structured_text(text, layout)
    # the passage shown under a source reads the listing the same way (tour 50: a blank line before Think Python's
    # "word = line.strip()" that the answer's copy did not have)
    from rag.evidence.blocks import chunk_layout, source_blocks

    (block,) = source_blocks(text, chunk_layout(chunk, [page]))
    assert block.kind == "code" and block.text == "Pin-Priority: 600\n\nPackage: *\nPin: release n=sid"


def test_a_neighbour_cut_to_fit_keeps_its_listings_layout():
    """tour 49: Think Python's "def sequence(n):" listing lay in the neighbour after the hit, which the budget cut
    to its first part; the layout knew only whole chunks, so the listing was quoted as one line of prose."""
    from rag.context.assemble import _piece
    from rag.context.layout import source_layout
    from rag.types import Page

    text = "For some other loops, it is not so easy to tell. For example:\ndef sequence(n):\nwhile n != 1:\nMore."
    rows = text.split("\n")
    lines, pos = [], 0
    for k, (r, x) in enumerate(zip(rows, (57.0, 57.0, 80.0, 57.0))):
        lines.append((pos, pos + len(r), x, 100.0 + 14 * k, x + 6 * len(r), 110.0 + 14 * k, 1 if k in (1, 2) else 0))
        pos += len(r) + 1
    page = Page(1, "1", text, 1000, lines=tuple(lines))
    chunk = Chunk("b1", 3, text, 1, 1, 1000, 1000 + len(text), section="Loops")
    kept = text[:text.index("\nMore")]  # the neighbour's start, as windows.cut keeps it
    piece = _piece(chunk, kept)
    assert (piece.char_start, piece.char_end) == (1000, 1000 + len(kept))
    layout = source_layout([(7, piece)], lambda book, n: page)
    assert [(ln[0] - 7, ln[2], ln[3]) for ln in layout] == [(0, 0, 0), (62, 1, 0), (79, 1, 4)]  # its code, indented
    end = text[text.index("def"):]  # a neighbour before the hit keeps its end
    assert _piece(chunk, end, before=True).char_start == 1000 + text.index("def")
    assert _piece(chunk, "not so easy") is None and _piece(chunk, text) is chunk and _piece(chunk, end) is None
    twice = Chunk("b1", 4, "x = 1\n\nCall it again:\n\nx = 1", 1, 1, 0, 28)  # its start and its end alike
    assert _piece(twice, "x = 1", before=True).char_start == 23 and _piece(twice, "x = 1").char_start == 0


def test_a_line_left_of_a_finished_items_marker_is_the_paragraph_after_the_list():
    """tour 49: Think Python sets "This type of flow is called a loop …" right under "3. If the condition is true,
    …" with no blank line between; the line begins at the margin, left of the items' numbers, so it is a sentence
    after the list, not the end of item 3. An item's own continuation lines (indented under its text) stay in it."""
    text = ("More formally, here is the flow of execution:\n\n1. Determine whether the condition is true.\n\n"
            "3. If the condition is true, run the body and then go back\nto step 1.\n"
            "This type of flow is called a loop because the third step loops back.")
    src = source(text)
    lefts = {57.0: ("More", "This"), 71.0: ("1.", "3."), 86.0: ("to step",)}
    src.layout = [ln[:4] + [0, next(x for x, starts in lefts.items() if text[ln[0]:].startswith(starts))]
                  for ln in src.layout]
    us = units(src)
    assert [u.kind for u in us] == ["sentence", "item", "item", "sentence"]
    assert us[2].text == "3. If the condition is true, run the body and then go back to step 1."
    src.layout = [ln[:4] for ln in src.layout]  # no positions known: as before, the line goes on the item
    assert [u.kind for u in units(src)] == ["sentence", "item", "item"]


def test_a_passage_keeps_its_paragraphs_on_lines_of_their_own():
    from rag.answer.passages import Passage

    text = ("The body of the loop should change a variable. Otherwise the loop repeats forever.\n\n"
            "In the case of countdown, we can prove that the loop terminates.\nFor other loops, it is not so easy.")
    rendered = Passage(1, units(source(text)), 0).render()
    assert rendered == ("The body of the loop should change a variable. Otherwise the loop repeats forever.\n"
                        "In the case of countdown, we can prove that the loop terminates. For other loops, it is not "
                        "so easy. [1]")  # a line break inside a paragraph is none
    # nor the tail of a sentence a displayed formula cut ("Dann heißt χ(K) := …" + "Eulerzahl … von K.")
    split = "Dann heißt\n\nχ(K) := ∑ (−1)nan(K)\n\nEulerzahl (oder Euler-Charakteristik) von K."
    assert "\n" not in Passage(1, units(source(split)), 0).render()


def test_a_letter_and_parenthesis_that_closes_a_parenthesis_is_no_list_item():
    # tour 49: AMC's "… to make working documents (--mode" + "s) and the layout should have been processed …"
    # came out as a list item "s) and the layout …" on a line of its own
    text = ("Before calling analyse, prepare should have been called to make working documents (--mode\n"
            "s) and the layout should have been processed with meptex.\n\nThe steps are:\na) prepare the "
            "documents;\nb) print them.")
    us = units(source(text))
    assert [u.kind for u in us] == ["sentence", "sentence", "item", "item"]
    assert us[0].text.endswith("(--mode s) and the layout should have been processed with meptex.")
    # a parenthesis left open by a finished line is no parenthesis the item closes (a second read: a half-open
    # interval had swallowed the list)
    us = units(source("Sei x ∈ (0, 1]. Dann gilt:\na) x ist positiv;\nb) x ist höchstens 1."))
    assert [u.kind for u in us] == ["sentence", "item", "item"]


def test_a_follow_up_does_not_begin_where_the_last_answer_did():
    # tour 49: "What does automatic data capture mean?" and then "and why is it needed?" quoted the same sentence
    from rag.answer.extractive import ExtractiveBackend
    from tests.helpers import FlatEmbed

    text = ("Automatic data capture reads the scans of completed answer sheets.\n\nThe data capture is needed "
            "because marking hundreds of sheets by hand takes days.")
    backend = ExtractiveBackend(FlatEmbed(), 1)
    said = "Automatic data capture reads the scans of completed answer sheets. [1]"  # the last answer
    folded = "and why?"
    again = [p.units[p.anchor].text for p in backend.passages(folded, [source(text)], 1)]
    new = [p.units[p.anchor].text for p in backend.passages(folded, [source(text)], 1, last_answer=said)]
    assert again[0].startswith("Automatic data capture reads") and new[0].startswith("The data capture is needed")
    # nothing else to quote: the same passage rather than none
    only = "Automatic data capture reads the scans of completed answer sheets."
    assert backend.passages("and why?", [source(only)], 1, last_answer=only)
    # a sentence of the last answer with a word of the question's own is still its answer ("Why in the morning?")
    kept = backend.passages("and why automatic?", [source(text)], 1, last_answer=said)
    assert kept[0].units[0].text.startswith("Automatic")


def test_a_follow_up_that_asks_only_why_prefers_a_sentence_that_gives_a_reason():
    # tour 51: "and why?" after the difference of lists and tuples quoted "Some people say 'tuh-ple' …"
    from rag.answer.extractive import ExtractiveBackend
    from tests.helpers import FlatEmbed

    said = "The important difference is that tuples are immutable. [1]"
    text = ("The important difference is that tuples are immutable.\n\nSome people say tuh-ple, which rhymes with "
            "supple.\n\nBecause tuples are immutable, they can be keys of a dictionary.")
    anchor = [p.units[p.anchor].text for p in ExtractiveBackend(FlatEmbed(), 1).passages(
        "and why?", [source(text)], 1, last_answer=said)]
    assert anchor[0].startswith("Because tuples are immutable")
    plain = ExtractiveBackend(FlatEmbed(), 1, ExtractiveTuning(reason_bonus=0.0))
    assert plain.passages("and why?", [source(text)], 1, last_answer=said)[0].units[0].text.startswith("Some people")


def test_a_german_questions_function_words_are_no_terms_a_sentence_shares():
    # "Wie berechnet man die Euler-Charakteristik einer Fläche?": "die", "ein", "man" had counted as three of its
    # seven terms, met by almost every German sentence ("Der Flächeninhalt eines Dreiecks …" led tour 49's answer)
    from rag.answer.extractive import ExtractiveBackend
    from tests.helpers import FlatEmbed

    src = source("Die Seite ist ein Dreieck, wie man sieht.\n\nDann heißt χ(K) die Euler-Charakteristik von K.")
    cands = [(u.text, 1, False) for u in units(src)]
    scores = ExtractiveBackend(FlatEmbed(), 1).score("Wie berechnet man die Euler-Charakteristik?", [src], cands)
    assert scores[1] > scores[0]


def test_a_sentence_ending_on_an_ellipsis_introduces_its_items():
    # tour 50: "Was besagt das Parallelenaxiom?" opened with "a) . . . die Inzidenzaxiome §1" and no lead-in
    text = ("Bemerkung 68\n\nDie hyperbolischen Geraden erfüllen. . .\n\na) . . . die Inzidenzaxiome §1\n"
            "b) . . . das Anordnungsaxiom §3 (ii)\n\nc) . . . nicht das Parallelenaxiom §5")
    us = units(source(text))
    k = next(i for i, u in enumerate(us) if u.text.startswith("c)"))
    i, j = grow(us, k, lambda x: False, 4)
    assert us[i].text == "Die hyperbolischen Geraden erfüllen. . ." and j == k
    # an ellipsis that trails off leads on to nothing else (a second read: it had run on into the next chapter)
    us = units(source("A loop repeats its body while the condition holds, and so on...\n\nChapter 8 is about strings."))
    assert grow(us, 0, lambda x: False, 1) == (0, 0)


def test_an_unfinished_sentence_brings_its_items_in_the_books_order():
    text = ("Ein topologischer Raum ist ein Paar (X, T) mit folgenden Eigenschaften\n\n(i) ∅, X ∈T\n\n"
            "(ii) Sind U1, U2 ∈T, so ist U1 ∩U2 ∈T\n\n(iii) Beliebige Vereinigungen offener Mengen sind offen.\n\n"
            "Die Elemente von T heißen offene Teilmengen von X.")
    us = units(source(text))
    assert [u.kind for u in us] == ["sentence", "item", "item", "item", "sentence"]
    i, j = grow(us, 0, lambda k: False, 4)
    assert (i, j) == (0, 3)
    i, j = grow(us, 2, lambda k: False, 4)  # an item as anchor: back to its list's intro, on to its end
    assert (i, j) == (0, 3)


def test_never_ends_on_an_item_cut_off_where_its_content_begins():
    text = ("Beispiele offener Abbildungen:\n\n1) f1 := idR ist eine offene und stetige Abbildung.\n\n"
            "2) g(x) := e2πix ist offen, aber nicht stetig.\n\n3) f2(x) := 42 ist stetig, aber nicht offen.\n\n"
            "4) f3(x) :=")
    us = units(source(text))
    assert [u.kind for u in us] == ["sentence", "item", "item", "item", "item"]
    assert grow(us, 1, lambda k: True, 4) == (0, 3)


def test_a_sentence_ending_on_for_example_brings_its_example():
    for lead in ("as needed, e.g.", "comme suit", "zum Beispiel:", "for example"):
        text = (f"You may specify your APT proxy with the --apt-http-proxy option {lead}\n\n"
                "$ lb config --apt-http-proxy http://proxy/\n\nTweaking APT to save space is next.")
        us = units(source(text, code=("$ lb config --apt-http-proxy http://proxy/",)))
        assert [u.kind for u in us] == ["sentence", "code", "sentence"], lead
        assert grow(us, 0, lambda k: False, 4) == (0, 1), lead
    plain = units(source("Proxies are set with an option.\n\n$ lb config --apt-http-proxy http://proxy/",
                         code=("$ lb config --apt-http-proxy http://proxy/",)))
    assert grow(plain, 0, lambda k: False, 4) == (0, 0)  # a finished sentence does not bring the code after it


def test_an_example_reaches_back_to_what_it_illustrates_and_a_sentence_cut_by_a_page_break_is_whole():
    text = ("Chroot local includes add files to the live system.\n\nTo include files, simply add them to your "
            "config/\n\nincludes.chroot directory. This directory corresponds to the root directory. For example, "
            "to add a file /var/www/index.html, use:\n\n$ mkdir -p config/includes.chroot/var/www")
    us = units(source(text, code=("$ mkdir -p config/includes.chroot/var/www",)))
    k = next(i for i, u in enumerate(us) if u.text.startswith("For example"))
    i, j = grow(us, k, lambda k: False, 4)
    assert us[i].text.startswith("To include files") and us[j].kind == "code", [u.text for u in us[i:j + 1]]
    heading = units(source("2.9. Glossary\n\nvariable: A name that refers to a value."))
    assert grow(heading, 1, lambda k: False, 4)[0] == 1  # a heading is not the first half of a cut sentence


def test_never_ends_on_a_colon():
    us = units(source("The answer is long and detailed. It has two parts as follows:"))
    assert grow(us, 0, lambda k: True, 4) == (0, 0)


def test_a_glossary_entry_ends_where_the_next_term_begins():
    text = ("aliasing: A circumstance where two or more variables refer to the same object. Mutable objects can "
            "be aliased.\ndelimiter: A character or string used to indicate where a string should be split.\n\n"
            "element: One of the values in a list (or other sequence), also called items.")
    us = units(source(text))
    assert grow(us, 0, lambda k: True, 4) == (0, 1)  # every entry "still answers": it is another term all the same
    prose = units(source("Note: a list is mutable. It can be changed in place.\n\nAliasing: two names, one list."))
    assert grow(prose, 0, lambda k: True, 4) == (0, 1)  # a note is not a glossary: its paragraph reads on


def test_administrative_paragraphs_are_no_answer():
    us = units(source("Competing interests: The authors have declared that no competing interests exist.\n\n"
                      "The oils reduced viral replication when applied early."))
    assert [u.kind for u in us] == ["boilerplate", "sentence"]


def test_administrative_paragraphs_answer_the_questions_that_ask_for_them():
    src = source("Funding acquisition: Pierre Roques, Jimmy Selambarom.\n\nFunding: This work was supported by the "
                 "Regional Council of Reunion Island to MR. The funders had no role in study design.\n\n"
                 "The oils reduced viral replication when applied early.")
    backend = ExtractiveBackend(FlatEmbed())
    assert "supported by the Regional Council" in backend.answer("Who funded the study?", [src])
    assert "supported by" not in backend.answer("When do the oils reduce viral replication?", [src])


def test_the_extractive_answer_is_a_whole_passage_with_its_code(embed):
    code = ("fin = open('words.txt')", "for line in fin:", "word = line.strip()", "print(word)")
    src = source(CODE_TEXT, code=code, indent={"word = line.strip()": 4, "print(word)": 4})
    other = source("Pythons are large snakes that live in warm countries and eat small animals.", n=2, book="b2")
    text = ExtractiveBackend(embed).answer("How do I read a file line by line?", [src, other])
    assert "prints each word, one per line: [1]\n```\nfin = open('words.txt')\nfor line in fin:\n    word" in text
    assert "[2]" not in text  # another book's sentences are not stitched on
    assert all(c.ok for c in check_quotes(text, [src, other]))



def test_a_section_heading_is_never_quoted_but_its_section_answers_and_a_page_cut_sentence_is_whole():
    """The section's own heading, a line of its own in the text, is no sentence: an answer never begins "Chemical
    composition of the oils The combination …"; a question that matches the heading gets the section's first
    sentences. A sentence a page break cut after "(45.11%)" reads on to its end."""
    text = ("Chemical composition of the oils\n\nThe combination of two methods identified 37 components of the oils. "
            "For the CC oil, the major components were geranial (45.11%)\n\nand neral (36.11%) typical for African "
            "oils.\n\nThe PG oil was less toxic.")
    src = source(text)
    src.hit.section = "Results > Chemical composition of the oils"
    us = units(src)
    assert us[0].kind == "heading" and us[1].kind == "sentence"
    backend = ExtractiveBackend(FlatEmbed())
    a = backend.answer("What is the chemical composition of the oils?", [src])
    assert a.startswith("The combination of two methods"), a
    assert grow(us, 1, lambda k: True, 9)[1] < len(us)  # reads on to the next section's heading, not past it
    two = source("First section text ends here without a stop\n\nNext part\n\nIts first sentence is here.")
    two.hit.section = "Book > Next part"
    ut = units(two)
    assert [u.kind for u in ut] == ["sentence", "heading", "sentence"] and grow(ut, 0, lambda k: True, 9) == (0, 0)
    b = backend.answer("What were the major components for the CC oil, geranial?", [src])
    assert "geranial (45.11%) and neral (36.11%) typical for African oils." in b, b


def test_a_numbered_heading_on_the_line_above_its_first_sentence_is_not_part_of_it():
    """Where a chunk boundary leaves "5.1 Le paquet live-build" directly above "live-build est une collection …" (one
    paragraph in the text), the heading is a unit of its own: the definition starts its sentence."""
    src = source("Ce chapitre fournit un aperçu des outils.\n\n5.1 Le paquet live-build\nlive-build est une collection "
                 "de scripts pour construire des systèmes\nlive. Ces scripts sont aussi appelés commandes.")
    us = units(src)
    assert [u.kind for u in us] == ["sentence", "heading", "sentence", "sentence"]
    assert us[2].text.startswith("live-build est une collection")
    a = ExtractiveBackend(FlatEmbed()).answer("Qu'est-ce que live-build ?", [src])
    assert a.startswith("live-build est une collection de scripts"), a
    for head in ("Vorwort\n\nDieses Skript wurde 2014 geschrieben.", "Preface\nThis book teaches Python."):
        us = units(source(head))  # a book's introducing heading, though no section says so
        assert [u.kind for u in us] == ["heading", "sentence"], (head, [u.kind for u in us])
    for number in ("3.5 million people visit the park every year, and most\nof them come in summer.",
                   "1.000 Besucher kommen jedes Jahr, und die meisten\nim Sommer."):  # numbers, not headings
        assert [u.kind for u in units(source(number))] == ["sentence"], number


def test_a_colon_brings_the_names_it_introduces_though_they_have_no_end_marks():
    """"A list of authors:" followed by names, one a line, no full stops: the names, not the colon alone; the next
    section's numbered heading, left at the paragraph's end by a chunk boundary, is not quoted."""
    src = source("A list of authors (in alphabetical order):\n\nBen Armstrong\nBrendan Sleight\nChris Lamb\n\n"
                 "Franklin Piat\nTrent W. Buck\n1.4 Contributing to this document")
    us = units(src)
    assert us[-1].kind == "heading" and us[-1].text == "1.4 Contributing to this document"
    a = ExtractiveBackend(FlatEmbed()).answer("Who are the authors?", [src])
    assert "Ben Armstrong Brendan Sleight Chris Lamb" in a and "Trent W. Buck [1]" in a and "1.4" not in a, a


def test_a_heading_that_answers_best_introduces_its_listing_cited():
    code = ("Package: *", "Pin: release n=sid", "Pin-Priority: 600")
    src = source("An APT preferences file for pinning\n\nPackage: *\nPin: release n=sid\nPin-Priority: 600\n\n"
                 "Other packages are unchanged.", code=code)
    src.hit.section = "Book > An APT preferences file for pinning"
    a = ExtractiveBackend(FlatEmbed()).answer("What does an APT preferences file for pinning look like?", [src])
    assert a.startswith("An APT preferences file for pinning [1]\n```\nPackage: *"), a


def test_a_caption_the_question_does_not_name_is_no_answer():
    caption = "Abbildung 1.5: Beispiel einer stetigen Abbildung f zwischen zwei Räumen."
    prose = "Eine stetige Abbildung f zwischen zwei Räumen erhält den Zusammenhang."
    src = source(caption + "\n\n" + prose)
    backend = ExtractiveBackend(FlatEmbed())
    cands = [(caption, 1, True), (prose, 1, True)]
    plain = backend.score("Was ist eine stetige Abbildung zwischen zwei Räumen?", [src], cands)
    assert plain[1] - plain[0] >= backend.t.caption_penalty - 1e-6  # the same words; the caption shows a picture
    named = backend.score("Was zeigt Abbildung 1.5?", [src], cands)
    assert named[0] > named[1]  # a question naming the figure gets its caption first


def test_the_parts_of_a_two_part_question_are_answered_from_one_book():
    music = source("To remove the time signature, its stencil is set to #f with \\omit Staff.TimeSignature. "
                   "Making it transparent with \\hide leaves the space it takes but makes it invisible.", n=1,
                   book="music")
    grammar = source("Differ with (people): I differ with you on many points, and the difference is plain.", n=2,
                     book="grammar")
    backend = ExtractiveBackend(FlatEmbed())
    text = backend.answer("Should I use \\hide or \\omit to remove the time signature, and what is the difference?",
                          [music, grammar])
    assert "[1]" in text and "[2]" not in text and "differ with you" not in text


def test_the_parts_of_a_two_part_question_never_quote_the_same_sentence_twice():
    note = source("Package names may also be injected into the list at build time. What happens when a package does "
                  "not exist depends on your choice of APT utility. See Choosing apt or aptitude for details.", n=1,
                  book="live")
    apt = source("You can use either apt or aptitude when installing packages. With apt, a missing package makes the "
                 "installation fail.", n=2, book="live")
    text = ExtractiveBackend(FlatEmbed()).answer(
        "My package list names a package that does not exist. Will the build break, and does it matter whether I use "
        "apt or aptitude?", [note, apt])
    sentences = [x for x in text.replace("[1]", "").replace("[2]", "").split(". ") if x.strip()]
    assert len(sentences) == len(set(x.strip() for x in sentences)), text


def test_a_question_asking_which_is_best_is_answered_by_the_sentence_that_ranks():
    text = ("Each essential oil was characterised by its terpenoid content and tested on Vero cells. "
            "PG yielded the least toxic extract of the three essential oils.")
    backend = ExtractiveBackend(FlatEmbed())
    cands = [(s, 1, True) for s in ("Each essential oil was characterised by its terpenoid content and tested on "
                                    "Vero cells.", "PG yielded the least toxic extract of the three essential oils.")]
    scores = backend.score("Which essential oil yielded the least toxic extract?", [source(text)], cands)
    plain = backend.score("Which essential oil yielded a toxic extract?", [source(text)], cands)
    assert scores[1] - scores[0] > plain[1] - plain[0]  # the superlative sentence gains only when asked "which is best"
    # a set phrase with the question's word ranks nothing and shares no term with it
    idiom = [(s, 1, True) for s in ("To the best of our knowledge, no essential oil was tested against the virus.",
                                    "No essential oil was ever tested against the virus in any earlier study.")]
    best = backend.score("Which essential oil worked best against the virus?", [source(text)], idiom)
    assert best[0] <= best[1] + 1e-6


def test_a_sentence_that_only_points_elsewhere_is_not_the_answer(embed):
    """'See the lb_clean man page for a full list of options.' shares the question's words and says nothing; the
    sentences that answer come first."""
    text = ("The lb clean command removes various parts of a build so later builds start from a clean state. "
            "See the lb clean man page for a full list of options. By default, chroot, binary and source stages "
            "are cleaned, but the cache is left intact. Also, individual stages can be cleaned.")
    answer = ExtractiveBackend(embed).answer("What does lb clean delete with no options, and what is kept?",
                                             [source(text)])
    assert not answer.startswith("See the")
    assert "the cache is left intact" in answer
    from rag.answer.extractive import POINTER

    assert POINTER.match("More information on titling can be found in Section 3.")
    assert POINTER.match("Voir la section 4.") and POINTER.match("Siehe auch Abschnitt 2.")
    assert not POINTER.match("For example, see the code.") and not POINTER.match("Seeing the output helps.")
    for answers in ("For more than two arguments, the function sums all of them, see below.",
                    "Refer to a global variable with the global keyword.", "See how the value of x changes.",
                    "Further information about the user is available in /etc/passwd, which lists every account."):
        assert not POINTER.match(answers), answers  # sentences that answer in their main clause
    assert POINTER.match("See also: [str2num], page 98.") and POINTER.match("(see Figure 3)")


def test_a_sentence_that_thanks_someone_is_no_answer_but_thanks_to_a_command_is(embed):
    """A preface's 'Vielen Dank für die Erlaubnis …' was quoted for 'Was sagt die Eulersche Polyederformel?'; an
    acknowledgement answers only a question about acknowledgements. 'thanks to the option' means 'by means of'."""
    from rag.text.labels import THANKS

    us = units(source("Vielen Dank für die Erlaubnis, die Formel zu verwenden. Die Eulersche Polyederformel sagt, "
                      "dass für jedes Polyeder E − K + F = 2 gilt."))
    assert [u.kind for u in us] == ["boilerplate", "sentence"]
    assert THANKS.search("We would like to thank the reviewers.") and THANKS.search("Special thanks go to Ann.")
    assert not THANKS.search("One can modify the seed thanks to the option.")
    assert not THANKS.search("Whom should I thank for this coffee?")
    text = ExtractiveBackend(embed).answer("Was sagt die Eulersche Polyederformel?", [source(
        "Die Eulersche Polyederformel sagt, dass für jedes konvexe Polyeder E − K + F = 2 gilt. Wir danken Herrn "
        "Müller für den Beweis in diesem Abschnitt. Die Formel gilt auch für planare Graphen.")])
    assert "E − K + F = 2" in text and "danken" not in text and "```" not in text  # mid-paragraph: not fenced


def test_a_passage_never_starts_with_the_tail_of_a_sentence_a_line_of_code_cut():
    """"… or use" + a long boot parameter set as a line of code + "as a boot parameter.": a passage reaching back from
    "It is also possible …" stops before that tail; a tail whose sentence starts with a capital is taken whole."""
    param = "live-config.user-default-groups=audio,cdrom,dip,floppy,video,plugdev,netdev,powerdev,scanner,bluetooth"
    text = (f"or use\n{param}\nas a boot parameter.\n\nIt is also possible to change the default username \"user\". "
            "You can do it with a boot parameter.")
    us = units(source(text, code=(param,)))
    assert [u.kind for u in us] == ["sentence", "code", "sentence", "sentence", "sentence"]
    assert grow(us, 3, lambda k: False, 4)[0] == 3  # "It …" does not reach back to "as a boot parameter."
    us = units(source(text.replace("or use", "Or use"), code=(param,)))
    assert grow(us, 2, lambda k: False, 4)[0] == 0  # the tail's sentence, with its line of code, whole


def test_a_contributor_list_is_no_answer():
    """A preface's list of contributors ("• Mark Griffiths pointed out a confusing example in Chapter 3.") was quoted,
    22 items of it, for the follow-up "show me an example"; a sentence of running text naming a maker is not a
    credit."""
    us = units(source("Contributor List\n\n• Kelli Kratzer spotted one of the typos.\n• Mark Griffiths pointed out a "
                      "confusing example in Chapter 3.\n• Man-Yong Lee sent in a correction to the example code.\n"
                      "• Jean-Philippe Rey at Ecole Centrale Paris sent a number of patches with an example.\n\n"
                      "Python Software Foundation made the language free. An example follows."))
    assert [u.kind for u in us if "example" in u.text or "typos" in u.text] == ["boilerplate"] * 4 + ["sentence"]


def test_a_passage_starts_with_the_item_a_formula_line_continues():
    """"b) K(s) := κn" / "1(s) · κn 2(s) heißt Gauß-Krümmung von S in s." (a formula's subscripts set on their own
    lines): a passage anchored on the second part starts with the item, so the definition is not quoted headless."""
    us = units(source("a) Die Hauptkrümmungen sind die Eigenwerte.\n\nb) K(s) := κn\n\n1(s) · κn 2(s) heißt "
                      "Gauß-Krümmung von S in s.\n\nBemerkung 78"))
    k = next(i for i, u in enumerate(us) if "heißt Gauß" in u.text)
    assert us[k - 1].kind == "item" and grow(us, k, lambda j: False, 4)[0] == k - 1


def test_a_named_theorem_is_answered_by_its_statement_without_its_proof(embed):
    """"Was sagt die Eulersche Polyederformel?": the label "Satz 2.1 (Eulersche Polyederformel)" names the theorem;
    the answer is the statement under it, up to its proof (it had been an unrelated sentence, or the proof too)."""
    text = ("Satz 2.1 (Eulersche Polyederformel)\n\nSei P ein konvexes Polyeder in R³, sodass gilt: ∀x, y ∈ ∂P : "
            "[x, y] ⊆ P\n\nDann ist χ(∂P) = 2. Beweis: 1) Die Aussage ist richtig für den Tetraeder. "
            "2) Sonst projiziere man ∂P auf die Sphäre.")
    us = units(source(text))
    assert us[0].kind == "heading"
    answer = ExtractiveBackend(embed).answer("Was sagt die Eulersche Polyederformel?", [source(text)])
    assert "Dann ist χ(∂P) = 2. [1]" in answer and "Beweis" not in answer and "Satz 2.1" not in answer


def test_a_sentence_about_the_listing_before_it_brings_the_listing():
    """Tour 11: the follow-up "show me an example" quoted "In this example, there are two references to the same
    object." without the example it speaks of."""
    code = (">>> a = [1, 2, 3]", ">>> b = a", ">>> b is a", "True")
    text = ("If a refers to an object and you assign b = a, then both variables refer to the same object:\n\n"
            + "\n".join(code) + "\n\nIn this example, there are two references to the same object.")
    us = units(source(text, code=code))
    assert [u.kind for u in us] == ["sentence", "code", "sentence"]
    assert grow(us, 2, lambda j: False, 4) == (0, 2)  # the intro, the listing, the sentence about it
    between = units(source(text.replace("\n\nIn this example", "\n\nThe state diagram looks like Figure 10.4. The "
                                        "association is called a reference. In this example"), code=code))
    assert grow(between, len(between) - 1, lambda j: False, 4)[0] == 0  # two sentences between them: still
    plain = units(source("Lists are mutable.\n\n>>> t = [1]\n\nThe next chapter is about tuples.",
                         code=(">>> t = [1]",)))
    assert grow(plain, 2, lambda j: False, 4)[0] == 2  # a sentence not about the listing does not bring it


def test_an_examples_label_is_a_heading_never_the_answers_first_line():
    """"Beispiel 12 (Topologische Räume und Hausdorff-Räume)" on its own line labels the example under it; it is not
    quoted, and a passage before it stops there."""
    us = units(source("Metrische Räume sind hausdorffsch.\n\nBeispiel 12 (Topologische Räume und Hausdorff-Räume)\n\n"
                      "1) (R, TZ) ist ein topologischer Raum, der nicht hausdorffsch ist.\n\nBemerkung 78\n\n"
                      "Ersetzt man n durch −n, so gilt es auch."))
    assert [u.kind for u in us] == ["sentence", "heading", "item", "heading", "sentence"]
    assert grow(us, 0, lambda j: True, 4) == (0, 0)


def test_a_sentence_running_over_a_page_break_is_one_sentence():
    """A book laid out in pages breaks a sentence where the page ends ("… For example, to get the" | page number |
    "locale files for German …"): the answer quotes it whole, never from its middle; a paragraph that ends with a
    full stop, or a line that goes on in code, still ends there."""
    from rag.text.sentences import quotable, runs_on

    text = ("Often, only the layout needs to be configured. For example, to get the\n\n  \n\n"
            "locale files for German and Swiss German keyboard layout in X use:\n\n"
            "The default locale is en_US.UTF-8 on every image.\n\nlower case after a full stop starts anew here.")
    us = units(source(text))
    sentences = [u.text for u in us]
    assert "For example, to get the locale files for German and Swiss German keyboard layout in X use:" in sentences
    assert not any(s.startswith("locale files") for s in sentences)
    assert sentences[-1] == "lower case after a full stop starts anew here."  # a full stop ended the paragraph
    assert quotable(text)[1].startswith("For example, to get the locale files")
    assert not runs_on("the following packages", "live-boot live-config")  # too short to be a sentence's line
    for before, after in (("Plusieurs volumes overlays différents (avec leurs propres fichiers",  # parentheses: prose
                           "persistence.conf) peuvent être utilisés au même temps, mais si"),
                          ("from separate simultaneous constructs on the same staff are the same",
                           "voice. Other voice-related properties also carry across"),  # a first word with its stop
                          ("and concisely. This means it might look daunting at first sight. Don’t",
                           "worry! The guidance and explanation presented here"),
                          ("-staff-staff-spacing property of the VerticalAxisGroup grob. The value",
                           "for stretchability below is taken from the definition"),
                          ("PG yielded the least-toxic extract (CC50 > 1000 μg.mL⁻¹). The time-of-addition assay "
                           "using the gene reporter RRV-renLuc showed that",  # an earlier sentence's ">" is no code
                           "the CC and PG essential oils significantly reduced viral replication and infectivity"),
                          ("Branchez une clé USB avec une capacité suffisamment grande pour votre fichier",  # a shell
                           "image et déterminez quel périphérique elle est, appelé ci-dessous ${USBSTICK}.")):
        # variable in prose is no code mark (tour 39: the answer began "image et déterminez …")
        assert runs_on(before, after), after
    assert not runs_on("This is a long line of prose that ends with a list intro and", "ii. the second item of it")
    assert not runs_on("Seien K, L Simplizialkomplexe und a) p ist injektiv", "b) q ist surjektiv und stetig")
    assert not runs_on("In the configuration file set the value of", "opts = {verbose: true};")
    page = "\n\n  \n\n"  # a page break: the pages' blank line and the blanked page number
    for two in ("Setting up the keyboard layout\n\nlb config sets the locale for the image.",  # a heading: no
                "install the packages you need first\n\nrun lb config and then build it",  # page break between
                f"verbose   print more messages about it{page}quiet     print nothing at all here",  # columns
                f"    result = sum of the items{page}    return result if result else none"):  # code
        assert len(quotable(two, min_words=1)) == 2, two


def test_a_shell_listing_whose_command_the_passage_names_is_part_of_it():
    """"… use the cp command to copy the image to the stick. This will overwrite …" + "$ cp … ${USBSTICK}": no
    colon introduces the listing, but the passage names its command, so the answer shows it; a listing running a
    command the passage does not name stays out."""
    text = ("Once you are certain you have the correct device name, use the cp command to copy the image to the stick. "
            "This will definitely overwrite any previous contents on your stick!\n\n"
            "$ cp live-image-i386.hybrid.iso ${USBSTICK}\n$ sync\n\nThe sync command flushes the data to the stick.")
    code = ("$ cp live-image-i386.hybrid.iso ${USBSTICK}", "$ sync")
    us = units(source(text, code=code))
    assert [u.kind for u in us] == ["sentence", "sentence", "code", "sentence"]
    assert grow(us, 0, lambda k: k == 1, 4)[1] == 2  # the warning, then the listing
    other = text.replace("the cp command", "a copying tool")
    us = units(source(other, code=code))
    assert grow(us, 0, lambda k: k == 1, 4)[1] == 1


def test_an_item_a_displayed_formula_cut_goes_on_and_a_sentence_after_a_list_starts_a_line():
    """"(iii) Ist I eine Menge …, so ist ⋃" + (blank line) "i∈I Ui ∈ T": the item goes on with the formula; the
    sentence after the list is a line of its own."""
    text = ("Ein topologischer Raum ist ein Paar (X, T) mit folgenden Eigenschaften\n(i) ∅, X ∈ T\n\n"
            "(ii) Sind U1, U2 ∈ T, so ist U1 ∩ U2 ∈ T\n\n"
            "(iii) Ist I eine Menge und Ui ∈ T für jedes i ∈ I, so ist ⋃\n\n"
            "i∈I Ui ∈ T\n\nDie Elemente von T heißen offene Teilmengen von X.")
    backend = ExtractiveBackend(FlatEmbed())
    answer = backend.answer("Was ist ein topologischer Raum?", [source(text)])
    assert "so ist ⋃ i∈I Ui ∈ T\n" in answer  # the formula with its item
    assert "\nDie Elemente von T heißen offene Teilmengen von X." in answer or "Die Elemente" not in answer


def test_a_line_of_glyphs_the_pdf_gives_no_characters_for_is_never_quoted():
    # a music tutorial's note icons come out of PyMuPDF as U+FFFD: nothing to quote, and not the start of the next
    # sentence ("� Note: Each note is relative …")
    text = ("Ossia staves are printed smaller.\n\n\ufffd\n\ufffd\ufffd\nNote: Each note is relative to the previous "
            "note in the input.\nThe first one is relative to c.")
    us = units(source(text))
    assert us and all("\ufffd" not in u.text for u in us)
    assert any(u.text.startswith("Note: Each note is relative") for u in us)


def test_a_formulas_operator_without_characters_stays_inside_its_sentence():
    text = "Ein Raum heißt kompakt, wenn jede Überdeckung eine endliche Teilüberdeckung\n\ufffd\ni∈J Ui = X besitzt."
    us = units(source(text))
    assert [u.text for u in us] == ["Ein Raum heißt kompakt, wenn jede Überdeckung eine endliche Teilüberdeckung "
                                    "\ufffd i∈J Ui = X besitzt."]


def test_the_shown_passage_drops_note_icons_and_keeps_a_formulas_operator():
    from rag.evidence.blocks import source_blocks

    text = ("Ossia staves are printed smaller.\n\ufffd\n\ufffd\ufffd\nNote: Each note is relative.\n\n"
            "eine endliche Teilüberdeckung\n\ufffd\ni∈J Ui = X besitzt.")
    shown = " ".join(b.text for b in source_blocks(text))
    assert "Note: Each note is relative." in shown and "Teilüberdeckung \ufffd i∈J" in shown
    assert shown.count("\ufffd") == 1


def test_two_passages_of_one_source_a_listing_apart_are_quoted_as_one_in_the_books_order():
    from rag.answer.assembly import bridge_gaps
    from rag.answer.passages import Passage

    text = ("The built-in function open returns a file object you can use to read the file.\n\n"
            "fin = open('words.txt')\n\nfin is a common name for a file object used for input.\n\n"
            "The file object provides several methods for reading, including readline.")
    us = units(source(text, code=("fin = open('words.txt')",)))
    assert [u.kind for u in us] == ["sentence", "code", "sentence", "sentence"]
    first, second = Passage(1, us[0:1], 0), Passage(1, us[3:4], 0)
    one = bridge_gaps([first, second], {1: [(0, 0), (3, 3)]}, {1: us}, 2)
    assert len(one) == 1 and [u.kind for u in one[0].units] == ["sentence", "code", "sentence", "sentence"]
    assert "fin = open('words.txt')" in one[0].render() and one[0].anchor == 0
    assert len(bridge_gaps([first, second], {1: [(0, 0), (3, 3)]}, {1: us}, 1)) == 2  # three units apart: two
    later = bridge_gaps([second, first], {1: [(3, 3), (0, 0)]}, {1: us}, 2)  # the later one chosen first: the
    assert len(later) == 1 and later[0].units[0].text.startswith("The buil")  # two read in the book's order
    assert later[0].anchor == 3  # the best sentence is still the one it answers with
    apart = bridge_gaps([second, first], {1: [(3, 3), (0, 0)]}, {1: us}, 1)  # further apart: best first
    assert [p.units[0].text[:8] for p in apart] == ["The file", "The buil"]
    middle = Passage(1, us[2:3], 0)  # a third passage between two that join: inside the joined one, not again
    three = bridge_gaps([first, second, middle], {1: [(0, 0), (3, 3), (2, 2)]}, {1: us}, 2)
    assert len(three) == 1 and len(three[0].units) == 4  # (tour 39 quoted two sentences twice)


def test_a_passage_whose_first_sentence_says_if_these_starts_with_what_these_are():
    text = ("Two more commands that may appear in a score block are the layout and midi blocks.\n\n"
            "If these appear as shown they will cause LilyPond to produce a printed output and a MIDI output.")
    us = units(source(text))
    assert grow(us, 1, lambda k: False, 4)[0] == 0
    plain = units(source("LilyPond reads the input file.\n\nIf you start it twice, it reads it twice."))
    assert grow(plain, 1, lambda k: False, 4)[0] == 1  # "If you …" points at nothing before it


def test_joined_passages_never_run_over_a_heading_and_a_glyph_line_in_a_listing_stays_code():
    from rag.answer.assembly import bridge_gaps
    from rag.answer.passages import Passage, REFERS_BACK

    text = ("Partitions are resized with gparted. Unmount them first.\n\n5.2 Formatting a USB stick\n\n"
            "A USB stick is formatted with mkfs. Pick vfat for Windows.")
    src = source(text)
    src.hit.section = "Tools > 5.2 Formatting a USB stick"
    us = units(src)
    kinds = [u.kind for u in us]
    h = kinds.index("heading")
    first, second = Passage(1, us[0:h], 0), Passage(1, us[h + 1:], 0)
    assert len(bridge_gaps([first, second], {1: [(0, h - 1), (h + 1, len(us) - 1)]}, {1: us}, 2)) == 2
    listing = units(source("The loop below prints every item of the list:\nfor i in items:\n\ufffd\n    print(i)",
                           code=("for i in items:", "\ufffd", "print(i)")))
    assert [u.kind for u in listing] == ["sentence", "code"] and "\ufffd" in listing[1].text
    assert not REFERS_BACK.match("Wenn Sie ein Paket entfernen möchten, nutzen Sie apt.")  # the polite "you"
    assert REFERS_BACK.match("Si ceux-ci manquent, rien ne démarre.") and REFERS_BACK.match("Ceux-ci sont vides.")


def test_a_sentence_that_only_points_at_the_example_brings_it_or_is_left_out():
    """"… does not change the pitch. Consider this example." + the example's listing: the answer quotes the
    listing; where the example is not in the source (a picture of notes), it does not end on "Consider this
    example."."""
    text = ("The command \\key sets the key signature, which affects the printed representation. "
            "Consider this example.\n\n\\relative { \\key d \\major cis''4 d e fis }")
    us = units(source(text, code=("\\relative { \\key d \\major cis''4 d e fis }",)))
    assert us[-1].kind == "code" and us[-2].text.endswith("Consider this example.")
    assert grow(us, 0, lambda k: False, 4)[1] == len(us) - 1
    alone = units(source("It is a good idea to set it early. The command \\key sets the key signature, which affects "
                         "the printed representation. Consider this example."))
    i, j = grow(alone, 0, lambda k: True, 4)
    assert not alone[j].text.endswith("Consider this example.")


def test_a_caption_the_page_sets_inside_a_sentence_is_not_read_on_into():
    """"… it varied in a manner not significantly different" + "Fig 4. Comparative effect of the essential oils …":
    the caption is no continuation of the sentence, so the passage neither splices it in nor ends unfinished."""
    text = ("All treatments induced a significant decrease of the virus activity at six hours. However, the reduction "
            "varied in a non-regular manner not significantly different\n"
            "Fig 4. Comparative effect of the essential oils on HEK293T against RRV. Viability of the cells (C).")
    us = units(source(text))
    i, j = grow(us, 0, lambda k: True, 4)
    quoted = " ".join(u.text for u in us[i:j + 1])
    assert "Fig 4" not in quoted and quoted.endswith("six hours.")


def test_a_sentence_that_goes_on_after_the_listing_it_introduced_is_quoted_whole():
    """"… For example, instead of:" + listing + "you could write:" + listing: the answer does not stop at the first
    listing, halfway through the sentence."""
    text = ("If you have a return statement with a complex expression, you don't have a chance to print the result "
            "before returning. For example, instead of:\n\nreturn self.hands[i].removeMatches()\n\nyou could write:\n\n"
            "count = self.hands[i].removeMatches()\nreturn count\n\nNow you can display count before returning.")
    code = ("return self.hands[i].removeMatches()", "count = self.hands[i].removeMatches()", "return count")
    us = units(source(text, code=code))
    assert [u.kind for u in us][-4:] == ["code", "sentence", "code", "sentence"]
    i, j = grow(us, 0, lambda k: False, 4)
    assert us[j].kind == "code" and "return count" in us[j].text


def test_a_passage_never_opens_with_a_listing():
    """"In this example you could also use sorted …" points back to the t2 = t[:] listing; the list item before the
    listing says what it shows ("3. Make copies … you can make a copy."), so the answer starts there."""
    text = ("3. Make copies to avoid aliasing. If you want to use a method like sort that modifies the argument, but "
            "you need to keep the original list as well, you can make a copy.\n\n>>> t2 = t[:]\n>>> t2.sort()\n\n"
            "In this example you could also use the built-in function sorted, which returns a new, sorted list.")
    us = units(source(text, code=(">>> t2 = t[:]", ">>> t2.sort()")))
    assert [u.kind for u in us] == ["item", "code", "sentence"]
    assert grow(us, 2, lambda k: False, 4)[0] == 0


def test_a_passage_grown_back_over_a_listing_to_an_item_takes_the_list_with_its_introduction():
    """A passage never opens with a listing: the unit before it says what it shows. When that is the last item of a
    list, the passage starts with the sentence that introduces the list (tour 43's answer on yathesis's main language
    opened on two items, without "… est composé :")."""
    text = ("Par défaut, un mémoire créé avec la classe yathesis est composé :\n"
            "• en français comme langue principale;\n• en anglais comme langue secondaire.\n\n"
            "mainlanguage=french|english\n\n(pas de valeur par défaut) "
            "Pour que la langue principale soit l’anglais, il suffit de le stipuler au moyen de l’option "
            "mainlanguage=english.")
    us = units(source(text, code=("mainlanguage=french|english",)))
    assert [u.kind for u in us] == ["sentence", "item", "item", "code", "sentence"]
    assert grow(us, 3, lambda k: False, 4)[0] == 0


def test_a_year_question_quotes_the_sentence_with_the_year_of_its_subject():
    """'In what year was the book first published?' over a preface: the sentence that says the year of the book's
    publishing, not the one about the book's changes that shares more of the question's words."""
    text = ("The result is this book, now with the less grandiose title Think Python, and the first edition of the "
            "book was a success. Some of the changes are small.\n\nAs Green Tea Press, I published the first Python "
            "version of the book in 2001. Students liked it.")
    a = ExtractiveBackend(FlatEmbed()).answer("In what year was the Think Python book first published?", [source(text)])
    assert a.startswith("As Green Tea Press, I published the first Python version of the book in 2001.")


def test_a_reference_entrys_call_forms_are_code_and_come_with_their_description():
    """Octave's reference entries: the call forms, then what the function does. The description that answers comes
    with the forms it describes, as code, one form a line; forms run into the description are split off it."""
    text = ("See also: [dlmwrite], page 284.\n\nx = csvread (filename)\nx = csvread (filename, dlm_opt1, . . .)\n"
            "Read the comma-separated-value (CSV) file filename into the matrix x.\nNote: only CSV files containing "
            "numeric data can be read.\n\nmean (x) mean (x, dim) Compute the mean of the elements of the vector x.")
    us = units(source(text))
    assert [u.kind for u in us] == ["sentence", "code", "sentence", "code", "sentence"]
    assert us[1].text == "x = csvread (filename)\nx = csvread (filename, dlm_opt1, . . .)"
    assert us[3].text == "mean (x)\nmean (x, dim)" and us[4].text.startswith("Compute the mean")
    assert grow(us, 2, lambda k: False, 4)[0] == 1  # from the call forms, not from the previous entry's "See also"
    a = ExtractiveBackend(FlatEmbed()).answer("How do I read a CSV file into a matrix?", [source(text)])
    assert a.startswith("```\nx = csvread (filename)\nx = csvread (filename, dlm_opt1, . . .)\n```\nRead the "
                        "comma-separated-value (CSV) file"), a


def test_a_sentence_naming_a_function_brings_its_call_forms_and_what_they_do():
    text = ("One most often wants to fit the polynomial in a least-squares sense, which is what the polyfit function "
            "does.\n\np = polyfit (x, y, n)\nReturn the coefficients of a polynomial p(x) of degree n that minimizes "
            "the least-squares-error of the fit.\n\nThe polyval function evaluates it.")
    us = units(source(text))
    assert [u.kind for u in us] == ["sentence", "code", "sentence", "sentence"]
    assert grow(us, 0, lambda k: False, 1) == (0, 2)


def test_a_passage_does_not_end_inside_a_parenthesis():
    """Grammar Matters' examples: "… finals take place in two weeks. (Correct! These two independent clauses are
    closely related.)" — the sentence splitter cuts after "Correct!", the passage goes on to the closing parenthesis."""
    text = ("Semicolons are used to connect two independent clauses. Winter quarter is almost finished; finals take "
            "place in two weeks. (Correct! These two independent clauses are closely related.) Use a semicolon "
            "before a transition word.")
    us, k, i, j = _grown(text, lambda t: t.endswith("(Correct!"), 1)
    assert us[j].text.endswith("closely related.)")


def test_another_way_after_a_listing_comes_with_the_first_way():
    text = ("The result is a tuple of two values. You can store the result as a tuple:\n\n>>> t = divmod(7, 3)\n\n"
            "Or use tuple assignment to store the elements separately:\n\n>>> quot, rem = divmod(7, 3)\n\n"
            "Tuples are immutable.")
    src = source(text, code=(">>> t = divmod(7, 3)", ">>> quot, rem = divmod(7, 3)"))
    us = units(src)
    k = next(n for n, u in enumerate(us) if u.text.startswith("Or use"))
    i, j = grow(us, k, lambda n: False, 1)
    assert us[i].text == "You can store the result as a tuple:" and us[j].text == ">>> quot, rem = divmod(7, 3)"


def test_here_is_an_example_with_a_colon_leads_on_and_does_not_take_the_listing_before_it():
    text = ("Or use tuple assignment to store the elements separately:\n\n>>> quot, rem = divmod(7, 3)\n\n"
            "Here is an example of a function that returns a tuple:\n\ndef min_max(t):\n\n"
            "max and min are built-in functions.")
    us = units(source(text, code=(">>> quot, rem = divmod(7, 3)", "def min_max(t):")))
    k = next(n for n, u in enumerate(us) if u.text.startswith("Here is"))
    i, j = grow(us, k, lambda n: False, 1)
    assert i == k and any(u.kind == "code" and u.text == "def min_max(t):" for u in us[i:j + 1])


def test_a_sentence_speaking_of_the_following_example_brings_its_listing():
    text = ("Music can be combined. The following example shows a complex expression, but as it begins with a "
            "single note it will be set out on a single staff.\n\n\\relative { c''2 <<c e>> }\n\nThat is all.")
    us = units(source(text, code=("\\relative { c''2 <<c e>> }",)))
    k = next(n for n, u in enumerate(us) if u.text.startswith("The following"))
    i, j = grow(us, k, lambda n: False, 1)
    assert us[j].kind == "code"


def test_a_question_asking_for_an_example_gets_the_sentence_that_introduces_a_listing():
    from rag.query.kinds import asks_example

    assert asks_example("Show me an example.") and asks_example("Gib mir ein Beispiel") \
        and asks_example("Montre-moi un exemple (voices)")
    assert not asks_example("How do I, for example, install it?") and not asks_example("Wie geht das zum Beispiel?")
    text = ("Voices are entered with double backslashes. Several voices can share one staff.\n\n"
            "Here two voices share a staff.\n\n<< { e4 f } \\\\ { c4 d } >>\n\nVoices are numbered.")
    src = source(text, code=("<< { e4 f } \\\\ { c4 d } >>",))
    (p, *_) = ExtractiveBackend(FlatEmbed()).passages("Show me an example. (voices)", [src])
    assert any(u.kind == "code" for u in p.units)


def test_a_sentence_naming_the_next_subsection_goes_on_into_it():
    text = ("You can install live-build in a number of ways: from the Debian repository, from source, from snapshots. "
            "If you are using Debian, the recommended way is to install live-build from the Debian repository.\n\n"
            "3.2.1 From the Debian repository\n\nSimply install live-build like any other package:\n\n"
            "# apt-get install live-build\n\n3.2.2 From source\n\nlive-build is developed using Git.")
    src = source(text, code=("# apt-get install live-build",))
    src.hit.section = "3.2 Installing live-build > 3.2.1 From the Debian repository"
    us = units(src)
    assert [u.kind for u in us][:3] == ["sentence", "sentence", "heading"]
    i, j = grow(us, 1, lambda n: False, 2)
    assert us[j].text == "# apt-get install live-build"  # through the named subsection to its command, no further
    k = next(n for n, u in enumerate(us) if u.text.startswith("Simply"))
    assert not any(u.kind == "heading" and "From source" in u.text for u in us[i:j + 1])
    assert k <= j


def test_a_heading_line_ends_the_list_item_before_it():
    """An EPUB's list runs into the next section with no blank line: the heading is no part of the last item, and the
    section's first sentences are sentences again (the answer to "how do I use a proxy?" was buried in an item)."""
    text = ("Choose the method for package installation.\n• apt: a missing package makes the installation fail.\n"
            "• aptitude: a missing package is skipped and the installation goes on.\n8.4.2 Using a proxy with APT\n"
            "One commonly required configuration is to deal with a proxy. You may specify your proxy with an option.")
    us = units(source(text))
    assert [u.kind for u in us] == ["sentence", "item", "item", "heading", "sentence", "sentence"]
    assert us[2].text.endswith("goes on.") and us[5].text == "You may specify your proxy with an option."


def test_a_demonstration_goes_on_to_the_next_listing_its_following_sentence_introduces():
    """Think Python's swap: the temporary-variable listing, then "This solution is cumbersome; tuple assignment is more
    elegant:" and the one line the follow-up asked for."""
    text = ("It is often useful to swap the values of two variables. For example, to swap a and b:\n\n>>> temp = a\n"
            ">>> a = b\n>>> b = temp\n\nThis solution is cumbersome; tuple assignment is more elegant:\n\n"
            ">>> a, b = b, a\n\nThe left side is a tuple of variables.")
    code = (">>> temp = a", ">>> a = b", ">>> b = temp", ">>> a, b = b, a")
    us = units(source(text, code=code))
    assert [u.kind for u in us] == ["sentence", "sentence", "code", "sentence", "code", "sentence"]
    assert grow(us, 0, lambda k: False, 2) == (0, 4)


def test_a_journal_record_is_administrative_a_glossary_entry_with_the_same_word_is_not():
    us = units(source("Editor: A program used to create and change text files, such as vi.\n\n"
                      "Copyright: The legal right of an author to control copies of a work.\n\n"
                      "Received: October 9, 2017\n\nCopyright: © 2018 Gardener et al. This is an open access "
                      "article.\n\nCitation: Gardener A, Planter B, Digger C, Hoe D, Rake E, et al.\n(2018) Deep "
                      "watering of tomatoes."))
    assert [u.kind for u in us] == ["sentence", "sentence", "boilerplate", "boilerplate", "boilerplate"]


def test_a_list_item_that_reports_a_fact_is_no_credit_and_a_decimal_ends_no_item():
    us = units(source("Key findings of the survey:\n• The Ministry of Health reported 300 new cases in March.\n"
                      "• Download the installer image, which is about\n1.2 GB in size, and write it to a stick.\n"
                      "• Jean-Philippe Rey at Ecole Centrale Paris sent a number of patches."))
    assert [u.kind for u in us] == ["sentence", "item", "item", "boilerplate"]
    assert us[2].text.endswith("write it to a stick.")


def test_a_series_begun_inside_a_sentence_goes_on_where_the_line_wraps():
    """"(i) 3 h before …; (ii) during …;" + a line opening "(iii) 2 h …" is one sentence (the PLOS paper, p. 5): the
    wrap put "(iii)" at the line's start, it opens no list item. A list whose items open their lines stays a list."""
    text = ("The essential oils were added at the highest non-toxic concentration: (i) 3 h before virus incubation "
            "and after it; (ii) during virus incubation and after it;\n(iii) 2 h, 4 h or 6 h after virus incubation. "
            "The luciferase activity was then measured in every well of the plate.")
    us = units(source(text))
    assert [u.kind for u in us] == ["sentence", "sentence"] and us[0].text.endswith("after virus incubation.")
    listed = units(source("The steps are these:\n(i) open the file;\n(ii) read it;\n(iii) close it."))
    assert [u.kind for u in listed] == ["sentence", "item", "item", "item"]
    # after a finished sentence a mark opens an item, though the sentence had its own "1."
    after = units(source("The values are given in Table 1. The remaining steps follow.\n2. Mix the buffer with the "
                         "sample.\n3. Incubate it for one hour."))
    assert [u.kind for u in after][-2:] == ["item", "item"] and after[-3].text.endswith("steps follow.")


def test_a_papers_part_title_on_its_own_line_is_a_heading_but_a_sentences_last_word_is_not():
    us = units(source("Combined with their repellent activity, the oils may provide a new option to control "
                      "arboviral infection.\nIntroduction\n\nManagement of arthropod-borne viruses has become a "
                      "global concern."))
    assert [u.kind for u in us] == ["sentence", "heading", "sentence"] and us[1].text == "Introduction"
    wrapped = units(source("All three extraction methods were compared under the same conditions and gave "
                           "consistent\nresults."))
    assert [u.kind for u in wrapped] == ["sentence"] and wrapped[0].text.endswith("consistent results.")
    parts = units(source("Every report has four parts:\n1. Background\n2. Methods\n3. Results\n4. Discussion"))
    assert [u.kind for u in parts] == ["sentence", "item", "item", "item", "item"]
    numbered = units(source("1. Introduction\n\nManagement of arthropod-borne viruses has become a global concern."))
    assert [u.kind for u in numbered] == ["heading", "sentence"]  # a numbered part title alone is still a heading


def test_a_running_header_the_chunk_keeps_is_never_quoted_and_a_sentence_goes_on_past_it():
    """A header the chunk's text keeps (line kind 4, ``rag.parse.furniture.headers``) is a page break to the answer:
    "… saves the figure in the" + "Chapter 15: Plotting 417" + "format its extension names." is one sentence."""
    text = ("The print command saves the figure in the\n\n  \n\nChapter 15: Plotting 417\n\nformat that the "
            "extension of its file name names, such as PDF or PNG.")
    src = source(text)
    head = text.index("Chapter")
    src.layout = [ln if ln[0] != head else [ln[0], ln[1], 4, 0] for ln in src.layout]
    us = units(src)
    assert [u.kind for u in us] == ["sentence"] and "Chapter 15" not in us[0].text
    assert us[0].text.endswith("such as PDF or PNG.")


def test_a_source_that_opens_by_closing_a_bracket_opens_with_the_rest_of_a_sentence():
    """"PFU) and the essential oils (0.1×CC10 or 1×CC10)." is the end of "… a mixture of virus (1×10⁵" that the page
    set in the block before: never quoted; the sentences after it are."""
    us = units(source("PFU) and the essential oils (0.1×CC10 or 1×CC10). The infected cells without exposure to the "
                      "essential oils were used as controls in every one of these assays."))
    assert [u.kind for u in us] == ["fragment", "sentence"]
    assert units(source("The oils (CC, PG and VZ) were tested on Vero cells in five independent runs."))[0].kind \
        == "sentence"


def test_a_numbered_heading_alone_in_its_paragraph_is_a_heading_though_its_words_differ_from_the_section_path():
    """"10.8 The unwind protect Statement" (the section path says "unwind_protect") over its first paragraph is never
    quoted as the first words of an answer."""
    us = units(source("10.8 The unwind protect Statement\n\nOctave supports a limited form of exception handling "
                      "modeled after the unwind-protect form of Lisp."))
    assert [u.kind for u in us] == ["heading", "sentence"]


def test_a_path_the_question_writes_out_brings_the_sentence_that_holds_it():
    # the other sentence shares more of the question's words; the path is what only the answer has
    other = source("To add a file to the live system's documentation tree, list it in the manual. "
                   "The documentation of each file lists its owner.", n=1)
    answer = source("Chroot local includes add or replace files. For example, to put /var/www/index.html into "
                    "the image, copy it to config/includes.chroot/var/www/index.html before the build.", n=2)
    question = "How do I add the file /var/www/index.html to the live system?"
    text = ExtractiveBackend(FlatEmbed()).answer(question, [other, answer])
    assert text.split("\n\n")[0].endswith("[2]")  # the passage that holds the path comes first
    plain = ExtractiveBackend(FlatEmbed(), tuning=ExtractiveTuning(verbatim_bonus=0.0))
    without = plain.answer(question, [other, answer])
    assert without.split("\n\n")[0].endswith("[1]")  # (the case is one the bonus decides)


def test_a_german_questions_words_count_in_an_english_passage_by_their_translations():
    from rag.answer.matching import translated
    from rag.text.glossary import dictionary
    from rag.text.terms import key_terms, stem

    question = "Wie lege ich eine eigene Datei fest?"
    members = translated(question, {stem(w) for w in key_terms(question)})
    assert members[stem("fest")] >= {stem("fest")}  # every term counts as itself
    if dictionary("de", "en") is None:  # Debian's dict-freedict-deu-eng (scripts/test.sh installs it)
        return
    assert stem("file") in members[stem("datei")]
    assert translated("How do I add a file?", {"add", "file"}) == {"add": {"add"}, "file": {"file"}}


def test_a_german_question_meets_its_words_inflected_as_the_book_inflects_them():
    from rag.answer.matching import stemmer_language, stems

    question = "Wie deinstalliere ich TeX Live komplett?"
    lang = stemmer_language(question)
    assert lang == "de"
    sentence = stems("Um TeX Live zu deinstallieren, führen Sie tlmgr uninstall aus.", lang)
    assert "deinstalli" in stems(question, lang) & sentence  # "deinstalliere" meets "deinstallieren" (German stems)
    assert not stems("deinstalliere", "en") & stems("deinstallieren", "en")  # English stems would not meet
    assert stemmer_language("How do I uninstall it?") == "en"


def test_a_papers_own_reference_numbers_are_never_read_as_the_answers_citations():
    # tour 30: "… Australia [3], [4] … Fiji [5, 6]." showed chips for sources 3–6 and opened the paper's cover page
    from rag.answer.quotecheck import check_quotes, unmark
    from rag.evidence.blocks import cite_segments
    from rag.evidence.pages import quoted_sentences

    text = ("Ross River virus is endemic to Australia and Papua New Guinea [3], [4]. It spread to Fiji in 1979 "
            "[5, 6] and caused an epidemic there.")
    sources = [source(text, n=1)] + [source(f"Unrelated source {k} text about other things.", n=k) for k in range(2, 7)]
    answer = ExtractiveBackend(FlatEmbed()).answer("Where is Ross River virus endemic?", sources)
    cites = [n for kind, n in cite_segments(answer, {1, 2, 3, 4, 5, 6}) if kind == "cite"]
    assert cites == [1]  # only the answer's own citation is one
    assert "[3], [4]" in unmark(answer)  # the book's brackets are shown as the book has them
    assert all(c.ok and c.n == 1 for c in check_quotes(answer, sources))
    assert any("[3], [4]" in q for q in quoted_sentences(answer, sources[0]))  # the reader finds the quote


def test_a_line_holding_the_books_title_is_a_heading_never_quoted():
    # tour 30: the paper's "RESEARCH ARTICLE In vitro comparison of …" title line was quoted as a sentence
    from dataclasses import replace as _replace

    text = ("RESEARCH ARTICLE In vitro comparison of three common essential oils\n\n"
            "Three essential oils were compared for their antiviral activity against the virus.")
    src = _replace(source(text), book_title="In vitro comparison of three common essential oils")
    us = units(src)
    assert [u.kind for u in us] == ["heading", "sentence"]


class _Spy(FlatEmbed):
    def __init__(self):
        self.texts = []

    def get_text_embedding_batch(self, texts):
        self.texts += list(texts)
        return super().get_text_embedding_batch(texts)


def test_a_sentence_of_the_matching_chunk_is_compared_under_its_sections_heading():
    # "Fit: The fit command fits … Marquardt-Levenberg algorithm." is closer to "Which algorithm does fit use?" than
    # the sentence alone, whose words are about data points (gnuplot's reference manual)
    text = "The fit command fits an expression to data points, using the Marquardt-Levenberg algorithm."
    hit = Chunk("b", 1, text, 1, 1, 0, len(text), section="III Commands > Fit")
    window = text + " It reports the standard deviation at the end."
    src = Source(1, "b", "A Book", hit, window, [1], 1, 1, "p. 1", 1.0, 0.5)
    spy = _Spy()
    cands = [(text, 1, True), ("It reports the standard deviation.", 1, False)]
    ExtractiveBackend(spy).score("Which algorithm does fit use?", [src], cands)
    assert "Fit: " + text in spy.texts  # the matching chunk's sentence, under its innermost heading
    assert "It reports the standard deviation." in spy.texts  # a sentence of the window around it: bare
    spy = _Spy()
    ExtractiveBackend(spy, tuning=ExtractiveTuning(heading_context=False)).score(
        "Which algorithm does fit use?", [src], [(text, 1, True)])
    assert spy.texts == [text]


def test_a_sentence_that_annotates_the_short_listing_above_it_comes_with_that_listing():
    # An Introduction to R's sample session: code at the left, what it does beside it, no colon introducing either
    text = ("dummy <- data.frame(x=x, y= x + rnorm(x)*w)\ndummy\nMake a data frame of two columns, x and y, and "
            "look at it.\nfm <- lm(y ~ x, data=dummy)\nsummary(fm)\nFit a simple linear regression and look at the "
            "analysis.")
    code = ("dummy <- data.frame(x=x, y= x + rnorm(x)*w)", "dummy", "fm <- lm(y ~ x, data=dummy)", "summary(fm)")
    us = units(source(text, code=code))
    assert [u.kind for u in us] == ["code", "sentence", "code", "sentence"]
    assert grow(us, 3, lambda k: False, 4) == (2, 3)  # the lm() call with the sentence that says what it does
    # a listing a colon introduced belongs to that sentence: the sentence after it stands alone
    us = units(source(CODE_TEXT, code=("fin = open('words.txt')", "for line in fin:", "word = line.strip()",
                                       "print(word)")))
    from rag.answer.passages import _annotates

    assert not _annotates(us, 4)


def test_a_passage_begins_at_its_paragraphs_first_sentence_when_that_is_near():
    # LilyPond: the paragraph's first sentence names the keyword; the best sentence is its third
    text = ("Tuplets are made with the \\tuplet keyword. It takes two arguments: a fraction and a piece of music. "
            "For triplets, there are three notes instead of two, so triplets have 3/2 as their fraction.\n\n"
            "Grace notes are made with the \\grace command.")
    us, k, i, j = _grown(text, lambda t: t.startswith("For triplets"), 4)
    assert us[i].text.startswith("Tuplets are made") and j == k
    far = units(source(" ".join(["This sentence is twelve words long and says nothing at all here."] * 6)
                       + " For triplets, there are three notes instead of two."))
    assert grow(far, len(far) - 1, lambda j: False, 4)[0] == len(far) - 1  # too far back: the sentence alone


def test_a_how_question_goes_on_to_the_form_the_next_paragraph_introduces():
    from rag.answer.passages import leads_to_listing

    text = ("The R language allows the user to create objects of mode function. Learning to write useful functions "
            "makes R comfortable.\n\nA function is defined by an assignment of the form\n\n"
            "> name <- function(arg_1, arg_2, ...) expression\n\nThe expression is an R expression.")
    us = units(source(text, code=("> name <- function(arg_1, arg_2, ...) expression",)))
    assert [u.kind for u in us][:4] == ["sentence", "sentence", "sentence", "code"]
    assert leads_to_listing(us, 0, 1)  # the passage, then the sentence that introduces the form, then the form
    assert not leads_to_listing(us, 0, 3)  # a passage with its listing already
    plain = units(source("Functions are objects.\n\nThe next chapter is about loops.\n\n> for (i in 1:3) print(i)",
                         code=("> for (i in 1:3) print(i)",)))
    assert not leads_to_listing(plain, 0, 0)  # the next paragraph introduces nothing


def test_the_extractive_answer_to_a_how_question_ends_with_the_form_not_before_it(embed):
    text = ("The R language allows the user to create objects of mode function. Learning to write useful functions "
            "makes R comfortable.\n\nA function is defined by an assignment of the form\n\n"
            "> name <- function(arg_1, arg_2, ...) expression\n\nThe expression is an R expression.")
    src = source(text, code=("> name <- function(arg_1, arg_2, ...) expression",))
    a = ExtractiveBackend(embed).answer("How do I write my own functions in R?", [src])
    assert "> name <- function(arg_1, arg_2, ...) expression" in a
    assert not a.rstrip().endswith("of the form [1]")


def test_a_sections_numbered_title_is_its_heading_not_a_list_item():
    """Tour 35: the EPUB's "2. About the Live Systems Project", under that very section, was read as a list item and
    quoted as the answer to "Was ist eigentlich ein Live-System?"."""
    from dataclasses import replace

    s = source("Files\n2. Files\n\n1. Open the file first.\n2. Read it line by line.")
    us = units(replace(s, hit=replace(s.hit, section="Files")))
    assert [u.kind for u in us][:2] == ["heading", "heading"] and [u.kind for u in us][2:] == ["item", "item"]


def test_a_sentence_a_displayed_formula_split_is_quoted_from_where_it_begins():
    # the German topology notes: "Dann heißt" + the formula's lines + "Eulerzahl … von K." (tour 36 quoted the last
    # line alone as the definition)
    text = ("Sei K ein endlicher Simplizialkomplex. Für n ≥0 sei an(K) die Anzahl der n-Simplizes in K.\n\n"
            "Dann heißt\n\nχ(K) :=\n\ndim K\n\nn=0\n(−1)nan(K)\n\nEulerzahl (oder Euler-Charakteristik) von K.")
    us, k, i, j = _grown(text, lambda t: t.startswith("Eulerzahl"), 4)
    assert us[i].text.startswith("Für n ≥0 sei") and j == k  # and what its "Dann" follows (tour 49)
    # a short line without an end mark that is no formula (an unlisted title) is not taken along
    us, k, i, j = _grown("Lists and tuples\n\nA tuple is a sequence of values.", lambda t: t.startswith("A tuple"), 4)
    assert i == k
    # nor a sentence ending on a colon, a proof's end, a list item's formula tail, or to a statement of its own (a
    # second read of the change found each on Think Python's and the notes' pages)
    for text, anchor in [
        ("To understand why, consider Figure 11.2, which shows the call graph for fibonacci with n=4:\n\n"
         "A call graph shows a set of function frames.", "A call graph"),
        ("Beweis: Nach Definition ist U ⊆X offen ⇔π⁻¹(U) ⊆X offen.\n■\n\n"
         "Beobachtung: Die Quotiententopologie ist die feinste Topologie, sodass π stetig wird.", "Beobachtung"),
        ("(iii) Ist I eine Menge und Ui ∈T für jedes i ∈I, so ist\n\ni∈I Ui ∈T\n\n"
         "Die Elemente von T heißen offene Teilmengen von X.", "Die Elemente"),
        ("Da X hausdorffsch ist, gibt es\n\nU ∩ V = ∅\n\n1Diese Metrik wird auch Eisenbahnmetrik genannt.", "1Diese"),
    ]:
        us, k, i, j = _grown(text, lambda t: t.startswith(anchor), 4)
        assert i == k, text


def test_a_passage_does_not_begin_at_a_cross_reference_to_another_manual():
    # LilyPond's paragraphs open with "Music Glossary: Section “tie” in Music Glossary." (tour 36 quoted it)
    text = ("Music Glossary: Section “tie” in Music Glossary. A tie is created by appending a tilde ‘~’ to the "
            "first of the two notes being tied.\n\nSlurs are different.")
    us, k, i, j = _grown(text, lambda t: t.startswith("A tie"), 4)
    assert i == k
    from rag.answer.cues import POINTER

    assert POINTER.match("Notation Reference: Section “Bar and bar number checks” in Notation Reference.")
    assert not POINTER.match("A section “Ties” in the chapter explains ties.")


USB_TEXT = ("Plug in a USB stick and find which device it is. This is the device file of your key, such as /dev/sdb. "
            "Once you are certain you have the correct device name, use the cp command to copy the image to the stick. "
            "This will definitely overwrite any previous contents on your stick!\n\n"
            "$ cp live-image.iso ${USBSTICK}\n$ sync\n\nNote: The sync command flushes the data to the stick.")


def test_a_how_to_passage_runs_on_to_the_command_its_paragraph_shows(embed):
    from rag.answer.passages import runs_into_listing

    src = source(USB_TEXT, code=("$ cp live-image.iso ${USBSTICK}", "$ sync"))
    us = units(src)
    assert [u.kind for u in us] == ["sentence"] * 4 + ["code", "sentence"]
    assert runs_into_listing(us, 0, 2) == 4  # one more sentence of the paragraph, then its command
    assert runs_into_listing(us, 0, 0) == 0  # three more sentences before it: too far
    text = ExtractiveBackend(embed, n_sentences=3).answer("How do I put the image on a USB stick?", [src])
    assert text.rstrip().endswith("```\n$ cp live-image.iso ${USBSTICK}\n$ sync\n```"), text  # tour 37 ended before
    # the command
    assert "Note:" not in text


def test_a_heading_with_nothing_of_its_section_after_it_does_not_leave_the_answer_empty():
    """Tour 38: "About the Live Systems Project", the last line of a source, scored best; it anchors no passage, and
    the floor it set (a share of its score) had kept every sentence out: the answer said "no clear sentence"."""
    head = source("About the Live Systems Project")
    head.hit.section = "Manual > About the Live Systems Project"
    assert [u.kind for u in units(head)] == ["heading"]
    other = source("It maintains the tools that build images for Debian.", n=2)
    a = ExtractiveBackend(FlatEmbed()).answer("What is the Live Systems Project?", [head, other])
    assert a.startswith("It maintains the tools"), a


def test_a_section_of_exercises_is_not_quoted_as_an_answer():
    """"1. Select from any source several sentences …" under QUESTIONS AND EXERCISES sets a task (tour 39: a
    follow-up got a chapter's exercise list); the chapter's own sentence answers, though it comes second."""
    from dataclasses import replace

    tasks = source("1. Select several sentences on stage fright and deliver them to an audience twice.", n=1)
    tasks = replace(tasks, hit=replace(tasks.hit, section="THE ART OF PUBLIC SPEAKING > QUESTIONS AND EXERCISES"))
    text = source("Facing an audience often is what cures stage fright, as the horse gets used to cars.", n=2)
    answer = ExtractiveBackend(FlatEmbed()).answer("How do I get over stage fright before an audience?", [tasks, text])
    assert answer.startswith("Facing an audience often") and "Select several" not in answer


def test_the_solutions_to_exercises_are_scored_as_exercises_are():
    """Tour 40: "Was ist die Vereinigung von offenen Mengen?" quoted "Lösung zu Aufgabe 3 (a) Beh.: …" from the notes'
    "Lösungen der Übungsaufgaben" at 89 %; a solution shows a task done, not what the book states."""
    from rag.answer.cues import EXERCISES_SECTION

    for title in ("Lösungen der Übungsaufgaben", "Solutions", "Answers to the exercises", "Corrigés des exercices",
                  "Übungsaufgaben", "5.14. Exercises"):
        assert EXERCISES_SECTION.match(title), title
    for title in ("Answers", "Solution concepts", "Lösungsansätze der Topologie"):
        assert not EXERCISES_SECTION.match(title), title


def test_a_how_to_answer_quotes_its_procedure_from_the_start():
    """Tour 39: "Comment je mets mon image ISO sur une clé USB ?" began at "Ceci écrasera tout fichier …", the last
    sentence before the command, and left out how to find the stick's device; a how-to answer starts where its
    procedure starts (its heading's first sentence, six sentences back at most)."""
    from rag.answer.passages import grow

    intro = "Images made with xorriso can simply be copied to a stick with cp. Take a stick large enough for it."
    text = ("4.5.2 Copying an ISO hybrid image to a USB stick\n" + USB_TEXT.replace("Plug in", intro + " Plug in")
            .replace("Once you", "You can also look at the output of dmesg after plugging it in. Once you"))
    us = units(source(text, code=("$ cp live-image.iso ${USBSTICK}", "$ sync")))
    assert us[0].kind == "heading" and us[1].text.startswith("Images made with xorriso")
    last = next(k for k, u in enumerate(us) if u.text.startswith("Once you are certain"))
    assert grow(us, last, lambda _: False, 4)[0] == last  # an answer to anything else: from the sentence itself
    assert grow(us, last, lambda _: False, 4, lead=(6, 150))[0] == 1  # a how-to answer: from the procedure's start


def test_a_music_examples_lyric_words_do_not_run_into_the_sentence_after_them():
    """Tour 39: LilyPond's lyrics under an example's notes come out a word a line, and the last one ran into the
    next sentence: "am None of the examples so far …". A wrapped paragraph's short last line still belongs to it."""
    text = ("in\n\nearth,\nam\n\nI\n\nlaid,\nWhen\nlaid\n\nam\nNone of the examples so far have involved words "
            "containing more than one syllable.\n\nThe lyrics are entered\nafter the notes. Each syllable gets one "
            "note.\n\nSome text that wraps with a short last line and\nthen\nAnother line.")
    sentences = [u.text for u in units(source(text)) if u.prose]
    assert "None of the examples so far have involved words containing more than one syllable." in sentences
    assert not any(s.startswith("am None") for s in sentences)
    assert any(s.startswith("The lyrics are entered after the notes.") for s in sentences)
    assert any(s.startswith("Some text that wraps") and "then Another" in s for s in sentences)  # no scatter before
    formula = units(source("Ein Raum heißt kompakt, wenn er eine endliche Teilüberdeckung\n⋃\ni∈J⊆I\nUi = X besitzt."))
    assert "i∈J⊆I" in formula[0].text  # a formula's pieces a line each are no lyrics


def test_the_outlines_next_heading_inside_a_paragraph_is_a_heading():
    """Tour 40: an EPUB sets "6.1.2 Utiliser les scripts auto d'exemple" with no blank line between the paragraph
    before it and the one after, and the answer quoted it inside its prose. Under 6.1.1, the outline's next heading
    (6.1.2, 6.2, 7 or 6.1.1.1) on a line of its own after a finished sentence is a heading, never quoted, never a
    passage's start; "6.1.2 million" or a number the outline does not lead to stays prose."""
    from dataclasses import replace

    from rag.answer.units import next_headings

    assert next_headings("6. Gestion > 6.1 Gérer > 6.1.1 Pourquoi") == {(7,), (6, 2), (6, 1, 2), (6, 1, 1, 1)}
    assert next_headings("Preface") == set()
    text = ("Pour toutes ces raisons, les scripts auto vous rendront la vie plus facile. Ils enregistrent la "
            "configuration.\n6.1.2 Utiliser les scripts auto d'exemple\nPour votre commodité, live-build est fourni "
            "avec des exemples.\n4.2 Autre chose sans rapport\nLa suite du texte.")
    src = source(text)
    src = replace(src, hit=replace(src.hit, section="6. Gestion > 6.1 Gérer > 6.1.1 Pourquoi utiliser des scripts"))
    us = units(src)
    at = next(k for k, u in enumerate(us) if u.text.startswith("6.1.2"))
    assert [(u.kind, u.text[:20]) for u in us][at:at + 2] == [("heading", "6.1.2 Utiliser les s"),
                                                              ("sentence", "Pour votre commodité")]
    assert not any(u.kind == "heading" and u.text.startswith("4.2") for u in us)
    answer = ExtractiveBackend(FlatEmbed()).answer("À quoi servent les scripts auto ?", [src])
    assert "6.1.2" not in answer


def test_a_lead_back_to_the_paragraphs_start_begins_where_it_is_about_the_question():
    """books7: "Wie stelle ich die Zeitzone richtig ein?" began "Standardmäßig wird in diesem Fall der erste … Benutzer
    die Berechtigung erhalten, den sudo-Befehl zu verwenden …": the paragraph (no blank line in the PDF) runs on from
    the users to the time zone. The lead back starts at its first sentence that shares a word with the question or
    the answering sentence."""
    from rag.answer.matching import content_stems as stems

    text = ("Standardmäßig wird in diesem Fall der erste eingerichtete Benutzer die Berechtigung für sudo erhalten. "
            "In den nächsten Schritten werden Ihre Zeitzone und die Uhr eingestellt. Der Installer versucht, einen "
            "Zeit-Server zu kontaktieren. Die Einstellung für die Zeitzone basiert auf dem vorher ausgewählten Land.")
    us = units(source(text))
    k = next(i for i, u in enumerate(us) if u.text.startswith("Die Einstellung"))
    near = stems("Wie stelle ich die Zeitzone richtig ein?", "de") | stems(us[k].text, "de")
    a, _ = grow(us, k, lambda _: False, 4, lead=(6, 150), related=lambda j: bool(stems(us[j].text, "de") & near))
    assert us[a].text.startswith("In den nächsten Schritten")
    assert grow(us, k, lambda _: False, 4, lead=(6, 150))[0] == 0  # without it: from the paragraph's first sentence


def test_a_premise_leads_on_to_what_it_is_for():
    """Tour 41: "Wie berechnet man die Gauß-Krümmung einer Fläche?" was answered with "Sei S eine reguläre Fläche,
    s ∈S ein Punkt." alone; a premise ("Sei …", "Let X be …", "Soit …") is for the statements after it."""
    text = ("Bemerkung 79\n\nSei S eine reguläre Fläche, s ∈S ein Punkt.\na) Ist K(s) > 0, so liegt S auf einer Seite "
            "von TsS + s.\nb) Ist K(s) < 0, so schneidet jede Umgebung von s beide Seiten.")
    us = units(source(text))
    k = next(i for i, u in enumerate(us) if u.text.startswith("Sei S"))
    _, j = grow(us, k, lambda _: False, 4)
    assert us[j].text.startswith("b) Ist K(s) < 0")
    from rag.answer.passages import PREMISE

    assert PREMISE.match("Let X be a topological space.") and PREMISE.match("Soit E un espace vectoriel.")
    assert not PREMISE.match("Seit 2004 gibt es Debian-Pakete.") and not PREMISE.match("Let me explain this.")
    assert PREMISE.match("Angenommen, Sie haben zwei Konten.")


def test_a_worked_example_goes_on_from_its_setting_to_the_table_its_colon_introduces():
    """books8: "… über fünf Jahre abschreiben. Worin unterscheiden sich …?" was answered with the example's setting
    alone ("Beispiel: Sie haben einen Computer für 1500 € gekauft …"). A worked example's setting leads on, and a
    sentence ending in a colon takes the table it introduces, its caption between them included."""
    text = ("Beispiel: Sie haben einen Computer für 1500 € gekauft und möchten ihn über fünf Jahre abschreiben.\n"
            "Jedes Jahr beträgt der Abschreibungsbetrag 300 €, was zu den folgenden Berechnungen führt:\n"
            "Tabelle 20.1. Beispiel einer Linearen Abschreibung\n| Jahr | Wert |\n| 0 | 1500 |\n| 1 | 1200 |")
    us = units(source(text))
    assert [u.kind for u in us][-1] == "table"
    _, j = grow(us, 0, lambda _: False, 4)
    assert us[j].kind == "table"


def test_a_heading_whose_number_stands_on_the_line_above_it_is_one_heading_and_no_sentences_end():
    """A chunk boundary joins "… d’une dizaine de pages environ." to "4.8" + "Liste d’acronymes, …" (the next
    section's number on a line of its own, its title with a typographic apostrophe where the PDF's outline has a
    straight one): one heading, and the sentence before it ends where it ends (books9: "… environ. 4.8" was unfinished
    and left out, and the heading was quoted as text)."""
    text = ("Un mémoire composé en langue étrangère requiert un résumé en français\nde la thèse. Celui-ci doit être "
            "substantiel, d’une dizaine de pages environ.\n4.8\nListe d’acronymes, liste de symboles, glossaire\n\n"
            "Cette section est à passer en 1re lecture.")
    src = source(text)
    src.hit = Chunk("b1", 1, text, 1, 1, 0, len(text),
                    section="4 Partie liminaire > 4.8 Liste d'acronymes, liste de symboles, glossaire")
    us = units(src)
    assert [u.kind for u in us] == ["sentence", "sentence", "heading", "sentence"], [(u.kind, u.text) for u in us]
    assert us[1].text.endswith("environ.") and us[2].text.startswith("4.8")
    top = ("4.8\nListe d’acronymes, liste de symboles, glossaire\nCette section est à passer en 1re lecture si on ne "
           "compte faire figurer ni listes, ni glossaire.")
    src = source(top)
    src.hit = Chunk("b1", 1, top, 1, 1, 0, len(top), section="4.8 Liste d'acronymes, liste de symboles, glossaire")
    assert [u.kind for u in units(src)] == ["heading", "sentence"]


def test_a_faqs_question_goes_on_to_its_answer_and_stops_at_the_next_question():
    """Tour 42: "Wie bekomme ich richtige Großbuchstaben in der IPA-Umgebung?" had been answered with the FAQ's
    question Q5 alone; its answer A5, a paragraph of its own below it, is what the reader wants."""
    text = ("Q5: Wie kann ich Großbuchstaben in der IPA-Umgebung nutzen, ich meine richtige Großbuchstaben?\n\n"
            "A5: Nutzen Sie den Befehl \\*. Er setzt den Buchstaben so, wie er ist.\n\n"
            "Q6: Wie kann ich ein Diakritisches Zeichen allein angeben?\n\nA6: Fügen Sie ein leeres Argument hinzu.")
    us, k, i, j = _grown(text, lambda t: t.startswith("Q5"), 4)
    assert [u.text[:3] for u in us[i:j + 1]] == ["Q5:", "A5:", "Er "]  # the answer's paragraph, not Q6
    a = ExtractiveBackend(FlatEmbed()).answer("Wie nutze ich richtige Großbuchstaben in der IPA-Umgebung?",
                                              [source(text)])
    assert "Nutzen Sie den Befehl" in a and "Q6" not in a, a


def test_a_further_passage_never_begins_in_the_middle_of_a_list_or_of_a_sentence():
    """Tour 42: a right answer carried a further source's passage that began "2. false si l'utilisateur …" (the
    list's first item on the page before)."""
    from rag.answer.assembly import mid_list

    us = units(source("2. false si l'utilisateur ne l'emploie pas en option de la classe.\n3. la valeur true ou "
                      "false que l'utilisateur lui passe."))
    assert [u.kind for u in us] == ["item", "item"] and mid_list(us, 0) and not mid_list(us, 1)
    whole = units(source("Les valeurs sont :\n1. true par défaut.\n2. false sinon."))
    assert not any(mid_list(whole, k) for k in range(len(whole)))


def test_a_figure_s_panel_labels_above_its_caption_are_no_answer():
    # tour 51: "(a) Kreis mit zwei Wegen (b) Torus mit drei Wegen" was the second passage on the fundamental group
    from rag.answer.subcaptions import panel_labels

    text = ("Die Fundamentalgruppe des Kreises ist isomorph zu den ganzen Zahlen.\n\n(a) Kreis mit zwei Wegen\n"
            "(b) Torus mit drei Wegen\n\nAbbildung 3.3: Beispiele für Wege auf dem Kreis\n\n"
            "Die Schritte sind:\n(a) Wähle einen Weg auf dem Kreis.\n(b) Ziehe ihn zusammen.")
    us = units(source(text))
    labels = {us[k].text for k in panel_labels(us)}
    assert labels == {"(a) Kreis mit zwei Wegen", "(b) Torus mit drei Wegen"}  # not the steps after the caption
    steps = ("To save a document, follow these steps:\n1. Open the File menu.\n2. Click Save As.\n\n"
             "Figure 2: The Save As dialog")  # a screenshot's caption under the steps: they stay candidates
    assert panel_labels(units(source(steps))) == set()
    said = [u.text for p in ExtractiveBackend(FlatEmbed(), 1).passages("Kreis mit Wegen?", [source(text)], 3)
            for u in p.units]
    assert not any(t in said for t in labels)

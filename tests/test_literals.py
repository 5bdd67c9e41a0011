"""A question that writes out an operator or a path is answered by the passage that writes it the same way."""
from rag.retrieve.literals import unwritten, with_literals
from rag.text.literals import holds_symbol, symbols, verbatim, written_out
from rag.types import Chunk, Hit


def test_the_symbols_a_question_writes_out():
    assert symbols("What does the // operator do?") == ["//"]
    assert symbols("Which operator is %*% in R?") == ["%*%"]
    assert symbols("How do I use <- vs = in R?") == ["<-"]  # a lone "=" is no operator unless quoted
    assert symbols("What does `%` mean?") == ["%"]
    assert symbols("What is this?? Really... - and --") == []  # sentence punctuation
    assert symbols("What is C++ used for?") == []  # part of a name
    # the question's end mark is no part of the symbol it ends with (tour 37: declined, "no book writes “&?”")
    assert symbols("What is the difference between && and &?") == ["&&"]
    assert symbols("Is != the same as ~=?") == ["!=", "~="]
    assert verbatim("Wie lege ich /var/www/index.html ab, e.g. with --apt-http-proxy?") == \
        ["/var/www/index.html", "--apt-http-proxy"]


def test_a_symbol_counts_where_it_stands_alone():
    assert holds_symbol("The floor division operator, //, divides two numbers", "//")
    assert holds_symbol(">>> 7 // 2", "//")
    assert not holds_symbol("See http://example.org for more.", "//")
    assert not holds_symbol("a /// b", "//")


def _hit(i: int, text: str, score: float) -> Hit:
    return Hit(Chunk("b", i, text, 1, 1, 0, len(text)), score, 0.5)


def test_the_chunk_that_writes_the_operator_joins_the_hits_after_the_best():
    hits = [_hit(0, "Operators in general combine values.", 0.9), _hit(1, "The % operator gives a remainder.", 0.8)]
    floor = Chunk("b", 7, "The floor division operator, //, divides two numbers and rounds down.", 1, 1, 0, 10)
    url = Chunk("b", 9, "See http://example.org // the site", 1, 1, 0, 10)
    got = with_literals("What does the // operator do?", hits, ["b"], lambda ids, s: [url, floor],
                        lambda ids: {floor.id: 0.4, url.id: 0.3})
    assert [h.chunk.chunk_index for h in got] == [0, 7, 9, 1]
    assert with_literals("What do operators do?", hits, ["b"], lambda ids, s: [floor], lambda ids: {}) == hits


def test_a_contents_line_that_writes_it_does_not_join():
    """The French Debian FAQ's contents page writes « ld: cannot find -lfoo » as an entry: no answer to it."""
    hits = [_hit(0, "Les bibliothèques partagées de Debian.", 0.9)]
    entry = Chunk("b", 3, "5.6 Pourquoi est-ce que j’obtiens « ld: cannot find -lfoo » ? . . . . 20", 4, 4, 0, 10,
                  kind="toc")
    answer = Chunk("b", 40, "Le lien libfoo.so est dans le paquet libfoo-dev ; « -lfoo » le demande.", 20, 20, 0, 10)
    got = with_literals("Pourquoi « ld: cannot find -lfoo » ?", hits, ["b"], lambda ids, s: [entry, answer],
                        lambda ids: {entry.id: 0.9, answer.id: 0.5})
    assert [h.chunk.chunk_index for h in got] == [0, 40]


def test_an_operator_question_is_answered_from_the_passage_that_writes_it(folio):
    from tests.pdfs import make_book_pdf

    chapters = {"Chapter 1 Arithmetic": [
        ("Operators", "Operators are special symbols that represent computations like addition and multiplication. "
                      "The operators +, -, * and / perform addition, subtraction, multiplication and division."),
        ("Floor division", "The floor division operator, //, divides two numbers and rounds down to an integer. "
                           "For example, 7 // 2 is 3."),
        ("Modulus", "The modulus operator, %, divides two numbers and returns the remainder."),
    ], "Chapter 2 Web": [
        ("Addresses", "A web address such as http://example.org names a page; operators of web sites run servers."),
    ]}
    folio.library.ingest(make_book_pdf("Arithmetic", chapters), "arith.pdf")
    a = folio.ask("What does the // operator do?").consume()
    first = a.text.split("\n\n")[0]
    assert "floor division" in first.lower() and "//" in first


def test_an_option_question_is_answered_from_the_entry_that_writes_the_option(folio):
    # tour 31: "What does the --no-gui option do?" quoted the options chapter's introduction, not the entry
    from tests.pdfs import make_book_pdf

    chapters = {"Chapter 2 Starting the program": [
        ("Invoking", "You can further control how the program starts by using the command-line options described "
                     "in the next section. Type 'prog --help' to display all available options when it starts."),
        ("Options", "--gui Start the graphical user interface. --no-gui Disable the graphical user interface and use "
                    "the command line interface instead. --quiet Do not print the startup message."),
    ]}
    folio.library.ingest(make_book_pdf("The Program", chapters), "prog.pdf")
    a = folio.ask("What does the --no-gui option do when starting the program?").consume()
    assert "--no-gui Disable the graphical user interface" in a.text.split("\n\n")[0]


def test_words_written_letter_for_letter_count_too_but_a_price_does_not():
    assert verbatim("What does %in% do in R?") == ["%in%"]
    assert verbatim("Where is $HOME set, and ${TEXMFHOME}?") == ["$HOME", "${TEXMFHOME}"]
    assert verbatim("It costs $5, that is 50% more.") == []


def test_only_operators_that_no_searched_book_writes_are_unwritten():
    floor = Chunk("b", 7, "The floor division operator, //, divides two numbers.", 1, 1, 0, 10)
    url = Chunk("b", 9, "See http://example.org for the site", 1, 1, 0, 10)
    assert unwritten("What does the // operator do?", ["b"], lambda ids, s: [url, floor]) == []
    assert unwritten("How does |> work?", ["b"], lambda ids, s: []) == ["|>"]
    assert unwritten("What does the // operator do?", ["b"], lambda ids, s: [url]) == ["//"]  # only inside a URL
    # a name of the user's own ("%myop%") or a path is no operator the books must write
    assert unwritten("Can I define my own operator like %myop%?", ["b"], lambda ids, s: []) == []


def test_an_operator_no_book_writes_is_declined_and_the_answer_says_why(folio):
    from tests.pdfs import make_book_pdf

    chapters = {"Chapter 1 Pipes": [
        ("Pipes", "A pipe passes the output of one command to the next command. Pipes are written with a vertical "
                  "bar between the two commands, and a pipe operator makes long chains of functions readable."),
    ]}
    folio.library.ingest(make_book_pdf("Pipes", chapters), "pipes.pdf")
    a = folio.ask("How does the pipe operator |> work?").consume()
    assert a.not_found and a.outcome == "not_found"
    assert "none of the books searched writes “|>”" in a.text
    assert a.context["basis"] == "no_operator"
    b = folio.ask("How does a pipe pass the output of one command?").consume()
    assert not b.not_found


def test_a_coinage_the_books_write_in_a_few_chunks_is_what_the_question_is_about():
    from rag.retrieve.literals import rare_coinages
    from rag.text.literals import coined

    question = "J'ai l'habitude de personnaliser mes en-têtes avec fancyhdr. Puis-je l'utiliser avec yathesis ?"
    assert coined(question, "fr") == ["fancyhdr", "yathesis"]  # no word of French nor English
    assert coined("How do I use TIPA with Mandarin tones?", "en") == []  # words, and an acronym
    own = [Chunk("b", i, f"La classe yathesis, page {i}.", 1, 1, 0, 10) for i in range(6)]
    known = Chunk("b", 9, "La liste: fancyhdr qui est incompatible avec le package titlesec.", 1, 1, 0, 10)
    index = Chunk("b", 12, "fancyhdr, 101", 1, 1, 0, 10, kind="index")

    def find(ids, token):
        return [c for c in own + [known, index] if token in c.text]

    assert rare_coinages(question, ["b"], find) == ["fancyhdr"]  # the book's own name is on every page
    hits = [_hit(i, own[i].text, 0.9 - i / 10) for i in range(3)]
    got = with_literals(question, hits, ["b"], find, lambda ids: {known.id: 0.3},
                        extra=rare_coinages(question, ["b"], find))
    assert [h.chunk.chunk_index for h in got] == [0, 9, 1, 2]


def test_an_interval_is_written_out_and_found_with_or_without_a_space_after_its_comma():
    from rag.text.literals import holds, intervals, spellings

    question = "Warum ist das offene Intervall (0,1) nicht kompakt?"
    assert intervals(question) == ["(0,1)"] and "(0,1)" in written_out(question)
    assert spellings("(0,1)") == ["(0,1)", "(0, 1)"]
    assert holds("2) (0, 1) ist nicht kompakt.", "(0,1)")
    assert not holds("[0, 1] ist kompakt.", "(0,1)")  # the closed interval is another set
    assert not holds("f(0,1) = 2", "(0,1)")  # a function's arguments
    assert intervals("Is [0, 1] compact, and (-1, 2.5]?") == ["[0, 1]", "(-1, 2.5]"]


def test_a_statement_about_the_asked_interval_is_quoted_though_it_is_mostly_symbols():
    """Tour 41: "Warum ist das offene Intervall (0,1) nicht kompakt?" had been answered with passages about [0, 1];
    the item that says it, "(0, 1) ist nicht kompakt. Un = (¹/n, 1 −¹/n) …", has few letters and was no candidate."""
    from rag.answer.extractive import ExtractiveBackend
    from tests.helpers import FlatEmbed
    from tests.test_passages import source

    src = source("Beispiel 16 (Kompakte Räume)\n1) R ist nicht kompakt.\n2) (0, 1) ist nicht kompakt. Un = (¹/n, "
                 "1 −¹/n) ⇒⋃ n∈N Un = (0, 1)\n3) R mit der Zariski-Topologie ist kompakt.")
    other = source("Das Einheitsintervall I := [0, 1] ist kompakt bezüglich der euklidischen Topologie.", n=2)
    a = ExtractiveBackend(FlatEmbed()).answer("Warum ist das offene Intervall (0,1) nicht kompakt?", [other, src])
    assert "2) (0, 1) ist nicht kompakt." in a.split("\n\n")[0], a

"""A question that asks for a year or for who made something is answered only by a passage that has one."""
import pytest

from rag.query.wants import holds, wants


@pytest.mark.parametrize("q,want", [
    ("In what year was MATLAB first released?", "year"),
    ("Who founded the Debian project, and in what year?", "year"),
    ("When was the Berlin Wall built?", "year"),
    ("En quelle année Debian est-il sorti ?", "year"),
    ("In welchem Jahr erschien LilyPond?", "year"),
    ("Who originally created the LaTeX document preparation system?", "maker"),
    ("Qui a fondé le projet Debian ?", "maker"),
    ("Qui a inventé la reconnaissance optique de marques (OMR) ?", "maker"),
    ("Wer hat den Linux-Kernel ursprünglich entwickelt?", "maker"),
    ("Ai đã sáng lập dự án này?", "maker"),
    ("Which company originally developed the Python language?", "maker"),
    ("Which company sold the first commercial version of MATLAB?", "maker"),
    ("Welche Firma verkauft Windows?", "maker"),
    ("Quelle entreprise a racheté GitHub ?", "maker"),
    ("Who is the current leader of the Debian project?", "maker"),
    ("Wer ist der Betreuer von live-build?", "maker"),
    ("Qui est le fondateur de Debian ?", "maker"),
    ("Who is the target audience of this manual?", ""),
    ("At which university did Ross Ihaka and Robert Gentleman start developing R?", "organisation"),
    ("Bei welcher Firma arbeitete der Autor?", "organisation"),
    ("Pendant combien d'années Debian fournit-il des mises à jour de sécurité ?", "duration"),
    ("How many years is a stable release supported?", "duration"),
    ("How do I time how long a block of my code takes to run?", ""),
    ("Dans quelle entreprise travaillaient les auteurs de gnuplot ?", "organisation"),
    ("Wie viel kostet ein offizielles Debian-DVD-Set, wenn ich es bei einem Händler kaufe?", "price"),
    ("How much does a MATLAB licence cost?", "price"),
    ("Combien coûte une licence MATLAB ?", "price"),
    ("What is the maximum file size Debian accepts for a single source package upload?", "size"),
    ("Wie viel RAM und Plattenplatz sollte mein Rechner mindestens haben?", "size"),
    ("Quelle taille faut-il prévoir pour la partition /home ?", "size"),
    # questions that want nothing in particular
    ("En quelle année Leslie Lamport a-t-il reçu le prix Turing ?", "year"),  # a prize is no price
    ("Quelle taille de police choisir ?", ""),  # a font's size is no size of data
    ("How do I reduce the size of my PDF?", ""),
    ("Wie groß sollte der Rand sein?", ""),
    ("When does Octave read ~/.octaverc?", ""),
    ("Wann heißt ein topologischer Raum kompakt?", ""),
    ("Which command adds a justification that only shows up in the corrected copy?", ""),
    ("Who can read the files the build writes?", ""),
    ("How do I define a class?", ""),
])
def test_what_a_question_wants(q, want):
    assert wants(q) == want


def test_a_question_that_asks_who_and_when_wants_both():
    from rag.query.wants import wanted

    assert wanted("Wer hat BibTeX ursprünglich entwickelt, und in welchem Jahr ist es erschienen?") == ["year", "maker"]
    assert wanted("In what year was MATLAB first released?") == ["year"]
    assert wanted("How do I define a class?") == []


def test_a_passage_holds_a_year_or_who_made_it_or_not():
    assert holds("year", "Debian was announced on 16 August 1993 by Ian Murdock.")
    assert not holds("year", "The input flag changes the algorithm to match releases prior to R2012b.")
    assert not holds("year", "See page 12 and the 64-bit build.")
    assert holds("maker", "LaTeX was written by Leslie Lamport as a macro package for TeX.")
    assert holds("maker", "Le projet a été fondé par Ian Murdock.")
    assert holds("maker", "Linux wurde von Linus Torvalds entwickelt.")
    assert not holds("maker", "C'est un sous-projet de Debian. Il reflète l'état actuel d'une distribution.")
    assert not holds("maker", "AMC va procéder à une reconnaissance optique de marques sur les scans.")
    assert holds("", "anything")


def test_a_passage_holds_a_price_or_a_size_or_not():
    q = "How much does the official Debian DVD set cost?"
    assert holds("price", "The official Debian DVD set costs 25 € at most vendors.", q)
    assert holds("price", "Debian DVD images are free of charge to download.", q)
    assert not holds("price", "You can buy the Debian DVD set from a vendor (see the vendors page).", q)
    s = "Wie groß sollte ich /tmp anlegen?"
    assert holds("size", "Für /tmp: 40–100MB sollten normalerweise genügen.", s)
    assert holds("size", "Eine separate /tmp-Partition von 1 GB reicht.", s)
    assert not holds("size", "Eine separate /tmp-Partition ist eine gute Idee (siehe Abschnitt 3.5).", s)
    q = "At which university or company were Thomas Williams and Colin Kelley working when they wrote gnuplot?"
    assert not holds("organisation", "gnuplot 5.4 An Interactive Plotting Program Thomas Williams & Colin Kelley", q)
    assert holds("organisation", "Thomas Williams and Colin Kelley wrote it while at Villanova University.", q)
    q = "How many years is a Debian stable release supported?"
    assert holds("duration", "Each Debian stable release is supported for five years.", q)
    assert not holds("duration", "Debian stable releases are supported by the security team.", q)


def test_the_year_or_maker_must_be_the_named_subjects():
    q = "In what year was Mozart born?"
    assert not holds("year", "Consider this fragment from Mozart: cis''8. d''16 cis''8", q)  # Mozart, no year
    assert not holds("year", "Copyright 2012 Alexis Bienvenüe; released under the GPL.", q)  # a year, not Mozart's
    assert holds("year", "Wolfgang Amadeus Mozart was born in Salzburg in 1756.", q)
    assert holds("year", "Released in 2012.", "In what year was it released?")  # no name: any year
    assert holds("maker", "Linux wurde von Linus Torvalds entwickelt.", "Wer hat den Linux-Kernel entwickelt?")
    assert not holds("maker", "Octave was written by John Eaton.", "Who created LaTeX?")


def test_a_common_noun_subject_must_share_a_sentence_with_the_year_or_maker():
    q = "Who invented the telephone?"
    inventors = ("Introduce me to the great inventors who live here in Philadelphia. Invention has made the whole "
                 "world over again. The railroad, telegraph, telephone have bound the people of modern nations.")
    assert not holds("maker", inventors, q)  # inventors in one sentence, the telephone in another
    assert holds("maker", "The telephone was invented by Alexander Graham Bell.", q)
    q = "In what year was the first telephone call made?"
    assert holds("year", "The first telephone call was made in 1876.", q)
    assert not holds("year", "Copyright 2012. Each function call gets a frame.", q)  # a year, said of nothing asked
    q = "Which company originally developed the Python language?"
    assert not holds("maker", "A programming language like Python that is designed to be easy to read.", q)
    assert not holds("maker", "This book is written for Python 3.", q)  # a purpose, not a maker
    assert holds("maker", "Python was developed by Guido van Rossum at CWI.", q)
    q = "Which company sold the first commercial version of MATLAB?"  # selling is said with its own words
    assert not holds("maker", "MATLAB was designed by Cleve Moler.", q)
    assert holds("maker", "MATLAB is sold by The MathWorks.", q)
    q = "Qui a fondé le projet Debian ?"
    assert not holds("maker", "Des utilisateurs et des développeurs de Debian sont présents sur IRC.", q)
    q = "Who is the current leader of the Debian project?"  # a role: said with its own words
    assert not holds("maker", "The primary contact for the Debian project is the mailing list.", q)
    assert holds("maker", "The Debian project is led by its elected Project Leader.", q)
    assert holds("maker", "Debian is a volunteer project. It is headed by a leader elected every year.", q)
    q = "Qui a inventé la reconnaissance optique de marques ?"  # in the question's language
    assert holds("maker", "La reconnaissance optique de marques a été inventée dans les années 1950.", q)
    assert not holds("maker", "AMC a été créé par Alexis Bienvenüe. Il lit les marques cochées.", q)


def test_a_year_question_about_a_passage_without_a_year_is_not_answered(folio, book_pdf):
    folio.library.ingest(book_pdf, "garden.pdf")
    q = "In what year was Jupiter, the largest planet of the solar system, discovered?"
    unchecked = folio.ask(q, **{"tuning.retrieve.wants_hits": 0}).consume()
    assert not unchecked.not_found and "Jupiter" in unchecked.text  # the names alone look like an answer
    checked = folio.ask(q).consume()
    assert checked.not_found and checked.text.startswith("Not in your books")
    from rag.answer.metrics import answer_metrics, confidence_words

    assert checked.context["basis"] == "no_year"  # the label says why, not a probability that looks like a yes
    assert confidence_words(checked.confidence, "not_found", answer_metrics(checked, 3000, 0.4)["basis"]) \
        == "Not in your books · no passage found gives the year asked for"
    assert not folio.ask("Which is the largest planet of the solar system?").consume().not_found


def test_a_question_whose_names_no_best_passage_mentions_is_declined_saying_which(folio, book_pdf):
    from rag.retrieve.answerability import unnamed
    from rag.types import Chunk, Hit

    hits = [Hit(Chunk("b", 0, "Build the live image with lb build.", 1, 1, 0, 10, section="Building"), 1.0, 0.5)]
    assert unnamed("Wie starte ich das Live-Image als Docker-Container?", hits) == ["Docker"]
    assert unnamed("How do I build the image with lb build?", hits) == []
    folio.library.ingest(book_pdf, "garden.pdf")
    q = "Which is the largest planet of the solar system according to NASA?"
    off = folio.ask(q, **{"tuning.retrieve.names_missing_decline": 1.1}).consume()
    a = folio.ask(q).consume()
    assert not off.not_found or off.context.get("basis") != "no_name"
    assert a.not_found and a.context["basis"] == "no_name"  # the label says why
    assert "none of the books searched mentions NASA" in a.text

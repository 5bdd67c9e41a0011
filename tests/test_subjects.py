"""A question that names a book's title searches that book; a format or an everyday word picks no book."""
from rag.query.subjects import program_names, titled_books

TITLES = {"oct": "GNU Octave", "amc": "Auto Multiple Choice", "tl": "TeX Live Anleitung",
          "live": "Live Systems Handbuch", "r": "An Introduction to R", "py": "Think Python"}


def test_a_name_in_a_title_picks_that_book():
    assert titled_books("How do I plot in Octave?", TITLES) == ["oct"]
    assert titled_books("How do I write a Python function?", TITLES) == ["py"]
    assert titled_books("How do I scan the answer sheets in AMC?", TITLES) == ["amc"]  # the title's initials


def test_a_program_name_typed_in_lower_case_picks_its_book_but_an_everyday_word_does_not():
    titles = {**TITLES, "gp": "gnuplot documentation", "lily": "LilyPond"}
    assert titled_books("How do I move the legend outside the plot in gnuplot?", titles) == ["gp"]  # tour 32
    assert titled_books("How do I install lilypond?", titles) == ["lily"]
    assert titled_books("which octave does each note land in?", titles) == []  # "octave" is an English word
    assert titled_books("How do I build a live image?", titles) == []


def test_the_title_holding_most_of_the_names_wins():
    # "TeX" and "Live" are both in "TeX Live Anleitung", only "Live" in "Live Systems Handbuch"
    assert titled_books("How do I remove TeX Live completely?", TITLES) == ["tl"]
    assert titled_books("Wie deinstalliere ich TeX Live komplett?", TITLES) == ["tl"]


def test_formats_everyday_words_and_german_nouns_pick_no_title():
    assert titled_books("How do I save a plot as a PDF file?", TITLES) == []
    assert titled_books("How often do tomatoes need watering?", TITLES) == []
    assert titled_books("Was steht im Handbuch über Images?", TITLES) == []  # "Handbuch" is an everyday noun
    assert titled_books("How do I plot in Octave?", {"oct": "GNU Octave"}) == []  # one book: nothing to pick


def test_only_names_that_can_be_a_books_subject_are_counted_by_frequency():
    langs = {"en", "fr", "de"}
    assert program_names("How do I save a plot as a PDF or JPEG file?", langs) == set()  # formats
    assert program_names("How does R differ from S-Plus?", langs) == set()  # "Plus" is a French word
    assert program_names("Comment écrire % en LaTeX ?", langs) == {"LaTeX"}  # "latex" is English, "LaTeX" a name
    assert program_names("How do I install Debian on it?", langs) == {"Debian"}

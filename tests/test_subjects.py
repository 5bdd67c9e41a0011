"""A question that names a book's title searches that book; a format or an everyday word picks no book."""
from rag.query.subjects import program_names, subject_scope, titled_books

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


def test_a_name_no_title_holds_adds_the_books_about_it_to_those_titled():
    """"… Debian … für LinuxCNC …": a Debian guide by its title and the LinuxCNC manual (titled by its first
    chapter, without the name) by what it is about — not the Debian guide alone, which never mentions LinuxCNC."""
    titles = {"deb": "Guide du nouveau responsable Debian", "cnc": "Getting Started", "py": "Think Python"}
    about = {"LinuxCNC": ["cnc"], "Debian": ["deb"]}
    asked = []

    def subject(names):
        asked.append(set(names))
        return [b for n in names for b in about.get(n, [])]

    q = "Ich habe Debian Buster für LinuxCNC installiert. Warum geht sudo nicht?"
    assert subject_scope(q, titles, {"Debian", "LinuxCNC"}, subject) == {"deb", "cnc"}
    assert asked == [{"LinuxCNC"}]  # the name the title holds is not weighed again
    assert subject_scope("How do I write a Python function?", titles, {"Python"}, subject) == {"py"}
    assert subject_scope("How often do tomatoes need watering?", titles, set(), subject) == set()  # every book

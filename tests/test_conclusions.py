"""'What do the authors conclude?' is answered from the text's concluding section, which the question's words
(about concluding, not about the subject) seldom retrieve."""
import pytest

from rag.query.conclusions import asks_conclusion, concludes


@pytest.mark.parametrize("q", ["What do the authors conclude?", "What is the main finding of the study?",
                               "Summarize the paper", "Was ist das Fazit?", "Quelle est la conclusion ?",
                               "Kết luận của bài báo là gì?",
                               "What did the PLOS paper find about the essential oils and the Ross River virus?",
                               "What were the main findings?", "Was hat die Studie über Mücken herausgefunden?",
                               "Qu'a montré l'étude ?", "Qu'est-ce que l'étude a montré ?",
                               "What did the studies find?"])
def test_questions_about_what_a_text_concludes(q):
    assert asks_conclusion(q)


@pytest.mark.parametrize("q", ["How do I read a file?", "What is a tuple?", "Who funded the study?",
                               "How do I find a file by name?", "What does Figure 2 show?",
                               "What does the find command do?", "What does it show when I run ls -l?",
                               "What does the trial version show on startup?", "Qu'a-t-il trouvé dans la boîte ?"])
def test_other_questions(q):
    assert not asks_conclusion(q)


@pytest.mark.parametrize("path,yes", [("Abstract > Conclusion", True), ("7 Conclusions", True), ("3.7 Summary", True),
                                      ("Zusammenfassung", True), ("Kết luận", True), ("Results", False),
                                      ("Conclusion of the contract > Terms", False), ("Summary statistics", False)])
def test_concluding_headings(path, yes):
    assert concludes(path) is yes


def test_what_the_authors_conclude_is_quoted_from_the_conclusion(folio):
    text = ("# A study of garden soil\n\n## Methods\n\nWe sampled soil from forty gardens and measured nitrogen, "
            "phosphorus and the number of earthworms in each sample over two summers.\n\n## Results\n\nGardens with "
            "compost had twice as many earthworms. Nitrogen was higher in the spring samples than in the autumn ones."
            "\n\n## Conclusion\n\nCompost is the cheapest way to a living soil: it doubles the earthworms within two "
            "summers, and a gardener should add it every spring.\n")
    r = folio.library.ingest(text.encode(), "soil.md")
    a = folio.ask("What do the authors conclude?", book_id=r.book_id).consume()
    assert a.text.startswith("Compost is the cheapest way to a living soil"), a.text
    assert a.outcome == "likely"  # its words share nothing with the book: shown as the passage to check

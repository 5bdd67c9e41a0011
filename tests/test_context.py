"""Query-time context rules: question types, book types, fixed/adaptive/parent windows, budgets."""
import pytest

from rag.context import ContextBuilder, guess_doc_type
from rag.query.kinds import classify as classify_question
from rag.context.windows import adaptive_plan, cut, position
from rag.settings import WindowTuning
from rag.text.tokens import count_tokens
from rag.types import Chunk, Hit

BUDGET, DOC_FACTOR, BEFORE_SHARE = WindowTuning().budget, WindowTuning().doc_factor, WindowTuning().before_share


@pytest.mark.parametrize("question, kind", [
    ("What is recursion?", "definition"),
    ("Define a state diagram", "definition"),
    ("Was ist eine Mannigfaltigkeit?", "definition"),
    ("Án lệ là gì?", "definition"),
    ("How do I install Python on Windows?", "procedural"),
    ("Wie kann man eine Funktion ableiten?", "procedural"),
    ("Làm thế nào để nộp đơn khởi kiện?", "procedural"),
    ("What is the difference between a list and a tuple?", "comparison"),
    ("Was ist der Unterschied zwischen Tangentialraum und Normalraum?", "comparison"),
    ("So sánh án lệ và luật", "comparison"),
    ("Why does the recursion never stop?", "complex"),
    ("Warum ist die Kugel eine Mannigfaltigkeit?", "complex"),
    ("Tại sao tòa án bác yêu cầu?", "complex"),
    ("Which year was the paper published?", "factual"),
    ("Wann wurde das Urteil verkündet?", "factual"),
    ("Wie bringe ich das fertige ISO-Image auf einen USB-Stick?", "procedural"),  # tour 37: was "factual"
    ("Comment installer live-build ?", "procedural"),
    ("Comment je mets un titre à mon tableau ?", "procedural"),
    ("Comment s'appelle le paquet ?", "factual"),
    ("Qu’est-ce qu’un système live ?", "definition"),
    ("C'est quoi KOMA-Script ?", "definition"),
    ("Quelle différence entre SQ1 et SQ2 ?", "comparison"),
    ("Pourquoi mes modifications disparaissent-elles ?", "complex"),
])
def test_question_types_in_four_languages(question, kind):
    assert classify_question(question) == kind


def _chunks(n, tokens=100, section=lambda i: "S", parent=lambda i: -1):
    words = " ".join(["word"] * (tokens - 2))
    return {i: Chunk("b", i, f"Sentence {i} one. {words}.", 1, 1, i * 1000, i * 1000 + 500, section=section(i),
                     tokens=tokens, parent=parent(i)) for i in range(n)}


@pytest.mark.parametrize("qtype, doc, before, after", [
    # budget = BUDGET[q] · DOC_FACTOR[doc]; what is left after the 100-piece hit is split by BEFORE_SHARE;
    # whole 100-piece neighbours only (their sentences are too long to cut); leftovers go to the other side
    ("definition", "narrative", 1, 2),   # 450 → 350: 105 before (1) / 245 + 5 after (2)
    ("factual", "narrative", 1, 2),      # 400 → 300: 150 (1) / 150 + 50 (2)
    ("procedural", "narrative", 3, 3),   # 750 → 650: 325 (3) / 325 (3)
    ("procedural", "reference", 2, 2),   # 525 → 425: 212 (2) / 213 (2)
    ("definition", "reference", 0, 2),   # 315 → 215: 64 (0) / 151 + 64 (2)
    ("complex", "procedural", 4, 4),     # 910 → 810: 405 (4) / 405 (4)
])
def test_adaptive_allocation_by_question_and_book_type(qtype, doc, before, after):
    chunks = _chunks(20)
    plan = adaptive_plan(chunks[10], chunks, lambda ids: {}, qtype, doc, window=3, min_sim=0.0, remaining=5000,
                         model="all-MiniLM-L6-v2")
    assert plan.budget == int(BUDGET[qtype] * DOC_FACTOR[doc]) and plan.tokens <= plan.budget
    # nearest first and contiguous
    assert plan.before == list(range(9, 9 - before, -1)) and plan.after == list(range(11, 11 + after))
    assert plan.tokens == 100 * (1 + before + after) and not plan.truncated
    assert BEFORE_SHARE["definition"] < 0.5  # a definition reads on


def test_a_window_never_looks_further_than_twice_the_window_plus_one():
    chunks = _chunks(40, tokens=20)
    plan = adaptive_plan(chunks[20], chunks, lambda ids: {}, "complex", "procedural", 1, 0.0, 5000, "all-MiniLM-L6-v2")
    assert len(plan.before) == 3 and len(plan.after) == 3



def test_a_hit_ending_on_a_colon_brings_the_chunk_it_introduces():
    """"… schlagen wir die folgende Reihenfolge vor, bevor sie sich mit den Details befassen:" ends its chunk, and the
    steps are the next chunk (in English, so hardly similar to a German question): the window takes that chunk first,
    whatever its similarity, and gives the chunks in front what is left."""
    from dataclasses import replace

    chunks = _chunks(20)
    chunks[10] = replace(chunks[10], text=chunks[10].text + " Read them in this order:")
    low = lambda ids: {i: 0.0 for i in ids}  # noqa: E731 - every neighbour below min_sim
    plan = adaptive_plan(chunks[10], chunks, low, "factual", "narrative", 3, 0.15, 5000, "all-MiniLM-L6-v2")
    assert plan.after[:1] == [11] and plan.before == []
    plain = adaptive_plan(chunks[9], chunks, low, "factual", "narrative", 3, 0.15, 5000, "all-MiniLM-L6-v2")
    assert plain.after == [] and plain.before == []  # without a colon, too dissimilar neighbours stay out
    led = adaptive_plan(chunks[11], chunks, low, "factual", "narrative", 3, 0.15, 5000, "all-MiniLM-L6-v2")
    assert led.before[:1] == [10]  # the chunk before ends on a colon: it introduces the hit (a listing)


@pytest.mark.parametrize("tail", ["Consider this example.\n\\relative {", "int main(void) {\n  return 0;",
                                  "plot sin(x) \\"])
def test_a_hit_stopping_inside_a_listing_brings_the_chunk_it_goes_on_in(tail):
    """Tour 34: LilyPond's "Consider this example. \relative {" ends page 29, and the listing goes on on page 30, the
    next chunk: the answer quoted a listing of one line. The window takes that chunk, whatever its similarity."""
    from dataclasses import replace

    chunks = _chunks(20)
    chunks[10] = replace(chunks[10], text=chunks[10].text + " " + tail)
    low = lambda ids: {i: 0.0 for i in ids}  # noqa: E731 - every neighbour below min_sim
    plan = adaptive_plan(chunks[10], chunks, low, "factual", "narrative", 3, 0.15, 5000, "all-MiniLM-L6-v2")
    assert plan.after[:1] == [11]

def test_the_remaining_budget_caps_a_plan():
    chunks = _chunks(20)
    plan = adaptive_plan(chunks[10], chunks, lambda ids: {}, "procedural", "narrative", 3, 0.0, 250, "all-MiniLM-L6-v2")
    assert plan.budget == 250 and plan.tokens <= 250
    assert adaptive_plan(chunks[10], chunks, lambda ids: {}, "factual", "narrative", 3, 0.0, 50, "x") is None


def test_section_start_gives_everything_to_after_and_boundaries_stop_windows():
    chunks = _chunks(20, section=lambda i: "A" if i < 10 else "B")
    plan = adaptive_plan(chunks[10], chunks, lambda ids: {}, "factual", "narrative", 3, 0.0, 5000, "all-MiniLM-L6-v2")
    assert plan.position == "first" and plan.before == [] and len(plan.after) >= 2
    assert any("section boundary" in d for d in plan.dropped)
    assert position(chunks[9], chunks[8], chunks[10]) == "last"


def test_low_similarity_neighbour_ends_the_window_on_its_side():
    chunks = _chunks(20)
    sims = {9: 0.5, 8: 0.02, 7: 0.9, 11: 0.6, 12: 0.6}
    plan = adaptive_plan(chunks[10], chunks, lambda ids: {i: sims.get(i, 0.5) for i in ids}, "procedural",
                         "narrative", 3, 0.15, 5000, "all-MiniLM-L6-v2")
    assert plan.before == [9]  # 8 is dissimilar, so 7 is not reached either
    assert any("chunk 8 similarity 0.02" in d for d in plan.dropped)


def test_truncation_keeps_the_sentences_nearest_the_hit():
    text = "First far sentence. Second sentence here. Third one is nearest."
    assert cut(text, count_tokens("Third one is nearest.") + 1, keep_end=True, model="all-MiniLM-L6-v2") == \
        "Third one is nearest."
    assert cut(text, count_tokens("First far sentence.") + 1, keep_end=False, model="all-MiniLM-L6-v2") == \
        "First far sentence."
    assert cut(text, 2, keep_end=True, model="all-MiniLM-L6-v2") == ""


def test_truncation_never_starts_or_stops_inside_a_sentence_a_line_break_splits():
    """Public Speaking's epigraph: "… To manage it, with its delicacies and compensations,\nrequires that same
    fineness …" had been cut at the line break, and the answer quoted "requires that same fineness …"."""
    text = ("The music of the movement is going on ... To manage it, with its delicacies and compensations,\n"
            "requires that same fineness of ear on which we must depend for all\nfaultless prose rhythm. When "
            "there is no compensation, when the\npause is inadvertent ... there is a sense of jolting.")
    last = "When there is no compensation, when the\npause is inadvertent ... there is a sense of jolting."
    budget = count_tokens("requires that same fineness of ear on which we must depend for all faultless prose "
                          "rhythm.", "all-MiniLM-L6-v2") + count_tokens(last, "all-MiniLM-L6-v2") + 2
    assert cut(text, budget, keep_end=True, model="all-MiniLM-L6-v2") == last
    ahead = count_tokens("The music of the movement is going on ...", "all-MiniLM-L6-v2") + count_tokens(
        "To manage it, with its delicacies and compensations, requires that same fineness of ear on which we must "
        "depend for all faultless prose rhythm.", "all-MiniLM-L6-v2") + 2
    assert cut(text, ahead, keep_end=False, model="all-MiniLM-L6-v2").endswith("faultless prose rhythm.")
    assert cut(text, ahead - 3, keep_end=False, model="all-MiniLM-L6-v2") == "The music of the movement is going on ..."
    assert cut("one\n\ntwo words\n\nthree", count_tokens("three", "all-MiniLM-L6-v2") + 1, True,
               "all-MiniLM-L6-v2") == "three"  # a blank line is a place to cut


def test_parent_taken_whole_when_it_fits_else_a_window_of_siblings():
    small = _chunks(12, tokens=60, parent=lambda i: i // 4)
    plan = adaptive_plan(small[5], small, lambda ids: {}, "factual", "narrative", 1, 0.0, 5000, "all-MiniLM-L6-v2")
    assert plan.mode == "parent" and sorted(plan.parts) == [4, 5, 6, 7]
    big = _chunks(40, tokens=150, parent=lambda i: i // 20)
    plan = adaptive_plan(big[10], big, lambda ids: {}, "factual", "narrative", 1, 0.0, 5000, "all-MiniLM-L6-v2")
    assert plan.mode == "parent" and 1 < len(plan.parts) < 20 and plan.tokens <= plan.budget
    assert all(big[i].parent == 0 for i in plan.parts)


def test_hard_budget_across_hits_and_fixed_mode_unchanged():
    chunks = _chunks(30)
    hits = [Hit(chunks[i], 1.0, 0.9) for i in (3, 15, 25)]

    def neighbours(book, lo, hi):
        return [chunks[i] for i in range(max(lo, 0), min(hi, 29) + 1)]

    for mode in ("adaptive", "fixed"):
        srcs = ContextBuilder(mode, 1, 600, neighbours, {"b": "B"}, "procedural").build(hits)
        used = sum(s.plan["tokens"] for s in srcs)
        assert used <= 600 and srcs[0].hit.chunk_index == 3 and srcs[0].plan["mode"] == mode
    fixed = ContextBuilder("fixed", 1, 10000, neighbours, {"b": "B"}).build(hits)
    assert [s.chunk_indices for s in fixed] == [[2, 3, 4], [14, 15, 16], [24, 25, 26]]


def test_book_type_guess():
    code = [Chunk("b", i, "x = 1", 1, 1, 0, 5, section=f"s{i // 10}", tokens=150, kind="code" if i % 5 == 0 else "text")
            for i in range(50)]
    assert guess_doc_type(code) == "procedural"
    prose = [
        Chunk("b", i, "A long paragraph of prose.", 1, 1, 0, 5, section=f"s{i // 20}", tokens=180) for i in range(60)
    ]
    assert guess_doc_type(prose) == "narrative"
    faq = [Chunk("b", i, "Q: Why? A: Because. Q: How? A: So.", 1, 1, 0, 5, section=f"s{i // 20}", tokens=180)
           for i in range(60)]
    assert guess_doc_type(faq) == "reference"


def test_a_top_hits_window_leaves_room_for_the_later_hits_own_chunks():
    chunks = _chunks(30)
    hits = [Hit(chunks[i], 1.0, 0.9) for i in (3, 15, 25)]

    def neighbours(book, lo, hi):
        return [chunks[i] for i in range(max(lo, 0), min(hi, 29) + 1)]

    budget = sum(chunks[i].tokens for i in (2, 3, 4, 15))  # the first window and one more hit, no more
    first_come = ContextBuilder("fixed", 1, budget, neighbours, {"b": "B"}, tuning=WindowTuning(reserve_hits=0))
    assert [s.hit.chunk_index for s in first_come.build(hits)] == [3, 15]
    kept = ContextBuilder("fixed", 1, budget, neighbours, {"b": "B"}, tuning=WindowTuning(reserve_hits=9)).build(hits)
    assert [s.hit.chunk_index for s in kept] == [3, 15, 25]
    assert sum(s.plan["tokens"] for s in kept) <= budget
    assert len(kept[0].chunk_indices) < 3  # the first window gave up a neighbour for them


def test_a_brace_a_paragraph_mentions_is_no_unfinished_listing():
    from rag.context.windows import unfinished

    assert not unfinished("In C, a block opens with { and closes with the matching brace.\nMore.\nAnd more.\nEnd.")
    assert unfinished("Consider this example.\n\\relative {")

"""The query stages' tuning numbers: one typed group per stage, part of ``Settings.tuning`` (env
``RAG_TUNING__<GROUP>__<NAME>``), swept with ``python -m rag eval qa … --config tuning.<group>.<name>=…``."""
from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field


class _Group(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class ExtractiveTuning(_Group):
    """How the extractive answerer scores the sources' sentences (``rag.answer.extractive``): cosine to the
    question + these."""

    term_weight: float = Field(0.3, description="Weight of the share of the question's key terms a sentence contains.")
    in_hit: float = Field(0.15, description="Bonus of a sentence of the matching chunk itself over its window's (a "
                                            "quote "
                                            "from the window cites a page retrieval did not pick).")
    lead_bonus: float = Field(0.12, description="Bonus of source [1]'s sentences; [2] gets half, [3] a quarter, …")
    hit_similarity: float = Field(0.2, description="Weight of the matching chunk's own similarity to the question in "
                                                   "the score of each sentence of its source.")
    question_penalty: float = Field(0.3, description="Penalty of a sentence that asks a question or sets an exercise.")
    pointer_penalty: float = Field(0.3, description="Penalty of a sentence that only points elsewhere ('See the "
                                                    "lb_clean man page for a full list of options.').")
    named_bonus: float = Field(0.25, description="Bonus of a sentence naming the figure/table the question names.")
    caption_bonus: float = Field(0.25, description="Further bonus of that figure's caption itself.")
    caption_penalty: float = Field(0.3, description="Penalty of a figure's or table's caption the question does not "
                                                    "name: it says what a picture shows, not what a term means.")
    defines_bonus: float = Field(0.5, description="Bonus of a sentence defining the term a definition question asks.")
    wants_bonus: float = Field(0.5, description="Bonus of a sentence that says what a 'who made …'/'in what year …'/"
                                                "'how much does … cost' question wants, of its subject "
                                                "(rag.query.wants), as a definition defines.")
    example_bonus: float = Field(0.3, description="Bonus of a sentence that introduces a listing or table (the next "
                                                  "unit is one) when the question asks for an example.")
    reason_bonus: float = Field(0.2, description="Bonus of a sentence that gives a reason ('because', 'weil', 'parce "
                                                 "que') when a follow-up asks only why ('and why?').")
    ranks_bonus: float = Field(0.1, description="Bonus of a sentence that ranks (a superlative: 'the most …', 'am "
                                                "besten', 'le plus …') when the question asks which is best.")
    number_bonus: float = Field(0.15, description="Bonus of a source holding every number the question names (the "
                                                  "same as a penalty for a sentence naming only other numbers).")
    verbatim_bonus: float = Field(0.5, description="Bonus of a sentence holding a path, file name, option or "
                                                    "identifier the question writes out ('/var/www/index.html', "
                                                    "'--apt-http-proxy', 'LB_ISO_VOLUME'): a translation keeps it "
                                                    "as it is, and few sentences hold it by chance.")
    keep_share: float = Field(0.8, description="No padding: sentences scoring below this share of the best are left "
                                               "out.")
    heading_context: bool = Field(True, description="A sentence of the matching chunk is compared with the question "
                                  "under its section's heading (\"Fit: The fit command fits …\").")
    shortlist: int = Field(48, description="Candidate sentences embedded per question (by their score without cosine).")
    gap_units: int = Field(2, description="Two passages of one source at most this many units (sentences, listings) "
                                          "apart are quoted as one, with what stands between them; 0: never.")
    new_words: int = Field(6, description="A further passage must bring this many content words the answer does not "
                                          "have yet (or a question term it lacks).")
    duplicate_share: float = Field(0.8, description="A sentence sharing more than this share of its words with one "
                                                    "already chosen is a near-duplicate.")


class WindowTuning(_Group):
    """How much context an adaptive window gets (``rag.context.windows``)."""

    budget: dict[str, int] = Field({"definition": 450, "factual": 400, "procedural": 750, "comparison": 500,
                                    "complex": 700}, description="Word-pieces for a hit and its context, by question "
                                                                 "type.")
    before_share: dict[str, float] = Field({"definition": 0.3, "factual": 0.5, "procedural": 0.5, "comparison": 0.4,
                                            "complex": 0.5}, description="Share of the neighbours' budget before the "
                                                                         "hit.")
    doc_factor: dict[str, float] = Field({"reference": 0.7, "procedural": 1.3, "narrative": 1.0},
                                         description="Budget factor by book type.")
    reserve_hits: int = Field(9, description="Room is kept in the budget for this many next hits' own chunks while "
                                             "a hit's window is planned (0: first come, first served).")
    min_piece: int = Field(24, description="A neighbour cut to fit shorter than this many word-pieces is left out.")


class RetrieveTuning(_Group):
    """Retrieval stages after fusion (``rag.retrieve``, ``rag.pipeline``)."""

    definition_lead: int = Field(3, description="A definition question's defining passage must be among this many "
                                                "hits, "
                                                "else a later one moves up or BM25 is asked for the term.")
    definition_hop_k: int = Field(30, description="BM25 hits of the term scanned for a definition.")
    named_figure_probability: float = Field(0.95, description="P(answerable) of a question naming a figure or table "
                                                              "the searched books have.")
    rare_term_share: float = Field(0.01, description="A question none of whose passages is similar enough is still "
                                                      "judged when one of the fused best passages holds one of its "
                                                      "words that at most this share of the searched chunks hold "
                                                      "(never more than 3 below 300 chunks; 0: off): "
                                                      "'What does FANBOYS stand for?'.")
    dense_keep: int = Field(1, description="The dense retriever's best this many passages are kept among the hits "
                                           "even when fusion ranks them lower (a passage that words the question "
                                           "differently has no BM25 score).")
    dense_keep_at: int = Field(1, description="… moved up to at most this position (0: first; 1: after the "
                                              "fused best, so each retriever's best passage is among the first "
                                              "two).")
    closest: int = Field(3, description="Passages shown with a 'not in your books' answer.")
    follow_reach: int = Field(2, description="A follow-up looks first at the chunks this near the ones the last "
                                             "answer cited.")
    sub_question_min_words: int = Field(3, description="A part of a two-part question shorter than this is not split "
                                                       "off.")
    long_question_words: int = Field(60, description="A question longer than this many words is searched for its "
                                                     "sentences that ask (``rag.query.asking``).")
    wants_hits: int = Field(3, description="A question that asks for a year, for who made something, for a price or "
                                           "for a size of data is not answered unless one of this many best passages "
                                           "holds one (``rag.query.wants``); 0 turns the check off.")
    names_missing_decline: float = Field(1.0, ge=0.0, le=1.1, description=(
        "A question is declined when at least this share of the names it writes (\"Docker\", \"Raspberry Pi\") is "
        "in none of the three best passages (the answerability feature ``name_missing``) and one of them is in no "
        "book searched at all; above 1 turns the rule off."))
    edition_min_sections: int = Field(20, description="Two books in different languages are editions of one work "
                                                      "(``rag.retrieve.translations``) only if each has this many "
                                                      "numbered headings …")
    edition_min_overlap: float = Field(0.8, description="… and they share this share of them …")
    edition_page_ratio: float = Field(0.75, description="… and the shorter has at least this share of the longer's "
                                                        "pages.")


class AnswerTuning(_Group):
    """What the LLM reads and how answers are checked (``rag.answer.focus``, ``rag.answer.quotecheck``)."""

    focus_keep_min: int = Field(3, description="Sources an LLM reads at least (with RAG_LLM_FOCUS).")
    supported_share: float = Field(0.6, description="A paraphrased sentence is 'supported' when this share of its "
                                                    "content words are in the source it cites.")


class FigureTuning(_Group):
    """Which figures go under an answer (``rag.figures.choose``)."""

    linked_min_similarity: float = Field(0.15, description="A figure linked to a source but less similar to the "
                                                           "question than this is noise.")
    named_bonus: float = Field(1.0, description="Bonus of a figure the question names ('Figure 2.1').")
    lead_bonus: tuple[float, ...] = Field((0.12, 0.06), description="Bonus of the figures of the first, second … "
                                                                   "source the answer cites.")
    on_hit: float = Field(0.25, description="Bonus of a figure on the matching chunk's page.")
    ref_hit: float = Field(0.2, description="Bonus of a figure the matching chunk refers to.")
    on_window: float = Field(0.1, description="Bonus of a figure on a page of the source's window.")
    ref_window: float = Field(0.08, description="Bonus of a figure the source's window refers to.")
    answer_weight: float = Field(0.3, description="Weight of the answer text's similarity once the answer is written.")


class Tuning(_Group):
    """Every tuning number of the query stages, by stage."""

    extractive: ExtractiveTuning = ExtractiveTuning()
    windows: WindowTuning = WindowTuning()
    retrieve: RetrieveTuning = RetrieveTuning()
    answer: AnswerTuning = AnswerTuning()
    figures: FigureTuning = FigureTuning()

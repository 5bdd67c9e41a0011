"""Extractive answers, no LLM: the sentences of the sources most relevant to the question,
each cited [n]. Relevance = cosine(question, sentence) + a share of the question's key
terms the sentence contains."""
from __future__ import annotations

import re
from typing import Iterator

import numpy as np

from ..query.decompose import decompose
from ..query.definitions import definition_pattern
from ..query.followup import fold_history
from ..text.captions import caption_key, reference_keys
from ..text.sentences import MIN_WORDS, quotable
from ..text.terms import key_terms, stem
from ..types import Source

# Sentences of the matching chunk itself are preferred to those of its window/parent (context for the
# reader, but a quote from them cites a page the retriever did not pick): 0.03 → 0.15 raised page-hit of
# cited sources on eval/qa_shared_eval.jsonl from 0.877 to 0.908 with adaptive context, 0.923 → 0.938 fixed.
IN_HIT = 0.15
# the fused ranking already put the passage that holds the answer first (in most cases): its sentences
# get LEAD_BONUS, the second source's half that, and so on
LEAD_BONUS = 0.12
# a sentence that asks a question (an exercise, a rhetorical question) does not answer one
QUESTION_PENALTY = 0.3
# a question naming a figure or table ("What does Fig 2 show?"): its caption outranks sentences citing it
CAPTION_BONUS = 0.25
# an exercise prompt ("Describe some of the effects of …") does not answer either
EXERCISE = re.compile(r"^(?:\d+[.)]\s*)?(?:describe|explain|discuss|compare|define|illustrate|list|name|give|write|"
                      r"state|show that|prove|beschreiben sie|erklären sie|zeigen sie|beweisen sie)\b", re.I)
# a sentence defining the term a definition question asks about ("A tuple is …", "f heißt Homöomorphismus, wenn …")
DEFINES_BONUS = 0.35
# no padding: a sentence scoring below this share of the best one is loosely related, not part of the answer
KEEP_SHARE = 0.8
SHORTLIST = 48  # candidate sentences embedded per question
# a passage holding every number the question names ("Án lệ số 67/2023/AL …", "in 1914") is about that: its
# sentences gain, and a sentence elsewhere naming only other numbers (precedent 55/2022's title block) loses
NUMBER_BONUS = 0.15


class ExtractiveBackend:
    name = "extractive"

    def __init__(self, embed, n_sentences: int = 4):
        self.embed, self.n = embed, n_sentences

    def select(self, question: str, sources: list[Source], keep_share: float = KEEP_SHARE) -> list[tuple[str, int, float]]:
        """(sentence, source n, score), best first, near-duplicates dropped; none below ``keep_share`` of the
        best score."""
        cands: list[tuple[str, int, bool]] = []
        seen: set[str] = set()
        for s in sources:
            hit_norm = " ".join(s.hit.text.split())
            for sent in quotable(s.text):
                if sent not in seen:
                    seen.add(sent)
                    cands.append((sent, s.n, sent in hit_norm))
        if not cands:
            return []
        terms = {stem(t) for t in key_terms(question)}
        define = definition_pattern(question)
        named = set(reference_keys(question))  # "What does Figure 7-26 show?"
        rank = {s.n: i for i, s in enumerate(sources)}
        numbers = set(re.findall(r"\d+", question))
        numbered = {s.n for s in sources if numbers and numbers <= set(re.findall(r"\d+", s.text))}
        prior: list[tuple[str, int, float]] = []  # what a sentence scores besides its similarity
        for sent, n, in_hit in cands:
            if len(sent.split()) < MIN_WORDS and caption_key(sent) not in named:  # a bare caption answers only
                continue  # a question about that figure
            words = {stem(w) for w in key_terms(sent)}
            overlap = len(terms & words) / len(terms) if terms else 0.0
            boost = DEFINES_BONUS if define and define.search(sent) else 0.0
            if named and named & set(reference_keys(sent)):
                boost += 0.25
                if caption_key(sent) in named:  # the caption itself says what the figure shows
                    boost += CAPTION_BONUS
            boost += LEAD_BONUS / 2 ** rank.get(n, 9)
            if numbered:
                own = set(re.findall(r"\d+", sent))
                boost += NUMBER_BONUS if n in numbered else -NUMBER_BONUS if own and not own & numbers else 0.0
            if "?" in sent or EXERCISE.match(sent):  # also "… page 36? Be specific." (a short sentence joined on)
                boost -= QUESTION_PENALTY
            prior.append((sent, n, 0.3 * overlap + boost + (IN_HIT if in_hit else 0.0)))
        if not prior:
            return []
        # only the best SHORTLIST by that score are embedded (the first text waits for them): a sentence
        # further down would need a similarity far above the shortlist's to win
        prior = sorted(prior, key=lambda x: -x[2])[:SHORTLIST]
        q = np.asarray(self.embed.get_query_embedding(question), dtype=np.float32)
        vecs = np.asarray(self.embed.get_text_embedding_batch([p[0] for p in prior]), dtype=np.float32)
        scored = [(sent, n, float(c) + pr) for (sent, n, pr), c in zip(prior, vecs @ q)]
        scored.sort(key=lambda x: -x[2])
        chosen: list[tuple[str, int, float]] = []
        floor = scored[0][2] * keep_share if scored[0][2] > 0 else float("-inf")
        for sent, n, sc in scored:
            if sc < floor:
                break
            ws = set(sent.lower().split())
            if any(len(ws & set(c[0].lower().split())) / max(1, len(ws)) > 0.8 for c in chosen):
                continue
            chosen.append((sent, n, sc))
            if len(chosen) >= self.n:
                break
        return chosen

    def select_parts(self, question: str, sources: list[Source], keep_share: float = KEEP_SHARE) -> list[tuple[str, int, float]]:
        """``select`` per part of a two-part question (``rag.query.decompose``), so each part gets its answer."""
        parts = decompose(question)
        if len(parts) < 2:
            return self.select(question, sources, keep_share)
        chosen: list[tuple[str, int, float]] = []
        per = max(1, self.n // len(parts))
        for part in parts:
            for sent, n, sc in self.select(part, sources, keep_share)[:per]:
                if all(sent != c[0] for c in chosen):
                    chosen.append((sent, n, sc))
        return chosen

    def stream(self, question: str, sources: list[Source], figures=()) -> Iterator[str]:
        chosen = self.select_parts(question, sources)
        if not chosen:
            yield "The sources found do not contain a clear sentence answering this; see the passages below."
            return
        for i, (sent, n, _) in enumerate(chosen):
            piece = ("" if i == 0 else " ") + f"{sent} [{n}]"
            for word in re.findall(r"\S+\s*|\s+", piece):  # stream word by word
                yield word

    def reformulate(self, question: str, history: list[tuple[str, str]]) -> str:
        return fold_history(question, history)

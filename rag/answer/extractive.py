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
from ..settings import ExtractiveTuning
from ..types import Source

# an exercise prompt ("Describe some of the effects of …") does not answer a question
EXERCISE = re.compile(r"^(?:\d+[.)]\s*)?(?:describe|explain|discuss|compare|define|illustrate|list|name|give|write|"
                      r"state|show that|prove|beschreiben sie|erklären sie|zeigen sie|beweisen sie)\b", re.I)


class ExtractiveBackend:
    name = "extractive"

    def __init__(self, embed, n_sentences: int = 4, tuning: ExtractiveTuning | None = None):
        self.embed, self.n, self.t = embed, n_sentences, tuning or ExtractiveTuning()

    def select(self, question: str, sources: list[Source], keep_share: float | None = None) -> list[tuple[str, int, float]]:
        """(sentence, source n, score), best first, near-duplicates dropped; none below ``keep_share`` (default:
        the tuning's) of the best score."""
        t = self.t
        keep_share = t.keep_share if keep_share is None else keep_share
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
            boost = t.defines_bonus if define and define.search(sent) else 0.0
            if named and named & set(reference_keys(sent)):
                boost += t.named_bonus
                if caption_key(sent) in named:  # the caption itself says what the figure shows
                    boost += t.caption_bonus
            boost += t.lead_bonus / 2 ** rank.get(n, 9)
            if numbered:
                own = set(re.findall(r"\d+", sent))
                boost += t.number_bonus if n in numbered else -t.number_bonus if own and not own & numbers else 0.0
            if "?" in sent or EXERCISE.match(sent):  # also "… page 36? Be specific." (a short sentence joined on)
                boost -= t.question_penalty
            prior.append((sent, n, t.term_weight * overlap + boost + (t.in_hit if in_hit else 0.0)))
        if not prior:
            return []
        # only the best few (the shortlist) by that score are embedded (the first text waits for them): a sentence
        # further down would need a similarity far above the shortlist's to win
        prior = sorted(prior, key=lambda x: -x[2])[:t.shortlist]
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
            if any(len(ws & set(c[0].lower().split())) / max(1, len(ws)) > t.duplicate_share for c in chosen):
                continue
            chosen.append((sent, n, sc))
            if len(chosen) >= self.n:
                break
        return chosen

    def select_parts(self, question: str, sources: list[Source],
                     keep_share: float | None = None) -> list[tuple[str, int, float]]:
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

"""Extractive answers, no LLM: the sentences of the sources most relevant to the question,
each cited [n]. Relevance = cosine(question, sentence) + a share of the question's key
terms the sentence contains."""
from __future__ import annotations

import re
from typing import Iterator

import numpy as np

from ..parse.captions import caption_key, reference_keys
from ..types import Source
from .base import fold_history, key_terms

MIN_WORDS, MAX_WORDS = 5, 90


def _sentences(text: str) -> list[str]:
    from llama_index.core.node_parser.text.utils import split_by_sentence_tokenizer

    split = split_by_sentence_tokenizer()
    out = []
    paras = [piece for para in re.split(r"\n\s*\n", text) for piece in LABEL_LINE.split(para)]
    for para in paras:
        parts: list[str] = []
        for s in _join_abbreviations(para, split(para)) if para.strip() else []:
            s = " ".join(s.split())
            if parts and len(s.split()) < MIN_WORDS and caption_key(s) is None:
                parts[-1] += " " + s  # "… sei die Topologie …. Sie heißt Produkttopologie." stays one quote
            else:
                parts.append(s)
        for s in parts:
            n = len(s.split())
            letters = sum(ch.isalpha() for ch in s)
            caption = caption_key(s) is not None and n >= 2  # "Abbildung 5.1: Möbiusband" is short but whole
            if (MIN_WORDS <= n or caption) and n <= MAX_WORDS and letters >= 0.6 * len(s.replace(" ", "")):
                out.append(s)
    return out


# a numbered block's label ("Definition 10", "Beispiel 11 (…)", "Figure 2.1: …") starts a new sentence when it opens
# a line; a block label standing alone on its line ends the text before it too ("… X = R2 Definition 10\nEin
# topologischer Raum X heißt …" is two). Figure and table labels are left alone there: "… shown in Figure 3.1.\n"
_BLOCK = r"(?:Definition|Satz|Lemma|Korollar|Folgerung|Beispiel|Bemerkung|Proposition|Theorem|Corollary|Example|Remark)"
_LABEL = rf"(?:{_BLOCK}|Exercise|Aufgabe|Übung|Abbildung|Abb\.|Figure|Fig\.|Table|Tabelle|Tab\.)[ \t]+\d"
LABEL_LINE = re.compile(rf"\n(?=[ \t]*{_LABEL})|[ \t](?={_BLOCK}[ \t]+\d[\w.]*\w[ \t]*(?:\([^()\n]*\))?[ \t]*\n)")

ABBREVIATION_END = re.compile(r"(?:\b(?:Figs?|Abb|Tab|Eq|Eqs|No|Nr|vs|cf|al|ca|bzw|vgl|z\.B|e\.g|i\.e|S)\.)\s*$")


def _join_abbreviations(text: str, parts: list[str]) -> list[str]:
    """Undo splits after "Fig.", "e.g.", "vgl." and the like ("… drawn in Fig." + "2 explains …"),
    taking the joined sentence from ``text`` so that it stays a verbatim quote."""
    out: list[tuple[int, int]] = []
    cursor = 0
    for p in parts:
        start = text.find(p, cursor)
        if start < 0:  # the splitter changed the text: keep its parts as they are
            return parts
        end = cursor = start + len(p)
        prev = text[out[-1][0]:out[-1][1]] if out else ""
        if out and (ABBREVIATION_END.search(prev) or (len(prev.split()) <= 2 and caption_key(prev))):  # "Fig 2." + caption
            out[-1] = (out[-1][0], end)
        else:
            out.append((start, end))
    return [text[a:b] for a, b in out]


DEFINE_Q = re.compile(r"^\s*(?:what|who)\s+(?:is|are|was|were)\s+(?:an?\s+|the\s+)?(.+?)\s*\??\s*$|^\s*define\s+(.+?)\s*\??$", re.I)


DEFINE_Q_DE = re.compile(r"^\s*was\s+(?:ist|sind|bedeutet|versteht man unter)\s+(?:eine?[nrms]?\s+|der\s+|die\s+|das\s+|den\s+)?"
                         r"(.+?)\s*\??\s*$", re.I)
WHEN_CALLED_DE = re.compile(r"^\s*wann\s+(?:heißt|heißen|nennt man)\s+.*?(\w+)\s*\??\s*$", re.I)


# "What is a tuple in Python?" defines "tuple": a trailing "in/im/for/bei …" names the context, not the term
QUALIFIER = re.compile(r"\s+(?:in|im|in der|in den|for|within|bei|beim)\s+.+$", re.I)


def definition_term(question: str) -> str | None:
    """The term a 'What is X?' / 'Was ist X?' / 'Wann heißt … Y?' question asks to define, else None."""
    m = DEFINE_Q.match(question) or DEFINE_Q_DE.match(question)
    if m:
        term = next(g for g in m.groups() if g).strip()
        return QUALIFIER.sub("", term) or term
    m = WHEN_CALLED_DE.match(question)
    return m.group(1) if m else None


def _adjective(term: str) -> str | None:
    """"stetige Abbildung" → "stetig": the notes define it as "f heißt stetig" (German adjective + noun)."""
    m = re.match(r"([a-zäöüß]{3,}?)e[nrms]?\s+[A-ZÄÖÜ]\w+$", term)
    return m.group(1) if m else None


def definition_pattern(question: str) -> re.Pattern | None:
    """For 'What is X?' / 'Was ist X?' / 'Wann heißt … Y?' questions: a pattern matching sentences that
    define X (or call something Y)."""
    term = definition_term(question)
    if term is None:
        return None
    t = re.escape(term)
    if DEFINE_Q.match(question):
        return re.compile(rf"(^{t}\s*:|\bcalled\s+(?:an?\s+|the\s+)?{t}\b|"
                          rf"^(?:an?\s+|the\s+)?{t}\s+(?:is|are|refers to|means|contains|consists of)\b)", re.I)
    if WHEN_CALLED_DE.match(question) and not DEFINE_Q_DE.match(question):
        return re.compile(rf"\b(?:heißt|heißen|nennt man|nennen wir)\s+(?:\w+\s+)?{t}\b", re.I)
    adj = _adjective(term)
    called = rf"(?:{t}|{re.escape(adj)})" if adj else t
    return re.compile(rf"(^{t}\s*:|\b(?:heißt|heißen|nennt man|nennen wir|bezeichnet man als)\s+(?:\w+\s+)?{called}\b|"
                      rf"^(?:eine?[nrms]?\s+|der\s+|die\s+|das\s+)?{t}\s+(?:ist|sind|bezeichnet)\b)", re.I)


def defines(question: str, text: str) -> bool:
    """Whether ``text`` has a sentence defining what ``question`` asks about."""
    term = definition_term(question)
    if not term:
        return False
    low = text.lower()
    if not any(k in low for k in (term.lower(), _adjective(term)) if k):  # most passages: no splitting needed
        return False
    pat = definition_pattern(question)
    return any(pat.search(s) for s in _sentences(text))


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


def _stem(w: str) -> str:
    return re.sub(r"(ing|ed|es|s)$", "", w) if len(w) > 4 else w


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
            for sent in _sentences(s.text):
                if sent not in seen:
                    seen.add(sent)
                    cands.append((sent, s.n, sent in hit_norm))
        if not cands:
            return []
        terms = {_stem(t) for t in key_terms(question)}
        define = definition_pattern(question)
        named = set(reference_keys(question))  # "What does Figure 7-26 show?"
        rank = {s.n: i for i, s in enumerate(sources)}
        numbers = set(re.findall(r"\d+", question))
        numbered = {s.n for s in sources if numbers and numbers <= set(re.findall(r"\d+", s.text))}
        prior: list[tuple[str, int, float]] = []  # what a sentence scores besides its similarity
        for sent, n, in_hit in cands:
            if len(sent.split()) < MIN_WORDS and caption_key(sent) not in named:  # a bare caption answers only
                continue  # a question about that figure
            words = {_stem(w) for w in key_terms(sent)}
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
        """``select`` per part of a two-part question (``rag.retrieve.decompose``), so each part gets its answer."""
        from ..retrieve.decompose import decompose

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

"""Can the library answer this question? A calibrated probability from the retrieval evidence.

Features of what retrieval found (``features``), each about 0–1:
- ``top_sim``, ``top3_sim``: the best and the mean of the three best cosine similarities;
- ``coverage``: how much of the question's salient terms (weighted by IDF, so names, numbers and rare
  words count most) the three best passages contain; ``best_coverage``: the same for the best single one;
- ``unknown``: the IDF-weighted share of the question's terms that no book in the library contains at all;
- ``agreement``: how many of the five best dense hits BM25 also ranks in its five best.
A logistic model turns them into P(answerable); its weights are fitted on labelled questions
(``fit``; ``python -m rag eval calibrate``) and stored in ``answerability.json`` beside this module.
Below ``RAG_ANSWERABLE_MIN`` the answer is "not in your books", with the closest passages shown.
"""
from __future__ import annotations

import json
import math
from dataclasses import dataclass
from pathlib import Path

from ..query.subjects import NOUNS_CAPITALISED
from ..text.terms import names as question_names

FEATURES = ("top_sim", "top3_sim", "coverage", "best_coverage", "unknown", "agreement")
# measured besides (``features``), for fitting other models: how far the best passage stands out from the
# candidates' similarity floor, the best single sentence's share of the question's terms, whether the question is
# in another language than English (the embedder is English: its similarities run lower there), whether an expected
# answer type is missing ("Who …?" and no name), the share of the question's names no passage holds, whether a name
# or a non-word of the question ("Kubernetes", "zstd") is in none of the searched books
EXTRA = ("sim_margin", "sentence_coverage", "other_language", "type_missing", "name_missing", "rare_missing")
MODEL_PATH = Path(__file__).with_name("answerability.json")


def bridged(weights: dict[str, tuple[float, bool]], bridge: dict, bm25, book_ids: list[str] | None = None
            ) -> tuple[dict[str, tuple[float, bool]], dict[str, set[str]]]:
    """The question's terms with their translations (``bridge``: book language → word → translations,
    ``rag.retrieve.crosslingual``): term → the tokens that count as it in a passage (itself and its translations'),
    and a term the books lack is known, weighing as its best-known translation, when a translation is there."""
    from ..text.languages import tokenize

    members = {t: {t} for t in weights}
    weights = dict(weights)
    book_langs = set(bm25.languages.values())
    for lang, found in bridge.items():
        alts = bm25.term_weights(" ".join(t for ts in found.values() for t in ts), book_ids)  # once per language
        for word, translations in found.items():
            keys = {t for code in book_langs | {lang} for t in tokenize([word], code)[0]} & set(members)
            if not keys:
                continue
            tokens = set(tokenize([" ".join(translations)], lang)[0])
            known = [w for a, (w, ok) in alts.items() if ok and a in tokens]
            for key in keys:
                members[key] |= tokens
                if not weights[key][1] and known:
                    weights[key] = (max(known), True)
    return weights, members




def _names(query: str) -> list[str]:
    """The question's names, as written ("Docker"); in German, where every noun has a capital, not its common
    nouns: everyday ones, compounds of two ("Publikationsliste") and nouns made with a suffix ("Nummerierung"),
    ``rag.text.frequency.common_noun``. (Leaving out every noun the dictionary has, "Fourier-Transformation" and
    "Docker" among them, answered four more unanswerable questions of the three sets.)"""
    from ..text.frequency import common_noun, ordinary
    from ..text.languages import detect
    from ..text.query_terms import EVERYDAY_ZIPF

    lang = detect(query)
    found = sorted(question_names(query))
    if lang not in NOUNS_CAPITALISED:
        return found
    return [w for w in found
            if not ordinary(w.lower(), lang, EVERYDAY_ZIPF) and not common_noun(w, lang, EVERYDAY_ZIPF)]


def _name_terms(query: str, bm25, book_id: str) -> set[str]:
    """The question's names as term_weights writes them: in the question's own language and in the book's."""
    from ..text.languages import detect
    from ..text.query_terms import words

    names = " ".join(_names(query))
    return (set(words(names, detect(query))) | bm25.text_terms(names, book_id)) if names else set()


def _title_terms(query: str, title: str, bm25, book_id: str) -> set[str]:
    """A book title's words as term_weights writes them, in the question's language and in the book's."""
    from ..text.languages import detect
    from ..text.query_terms import words

    return set(words(title, detect(query))) | bm25.text_terms(title, book_id)


def unnamed(query: str, hits: list) -> list[str]:
    """The question's names (as ``name_missing`` counts them) that none of the three best ``hits`` writes, as the
    question writes them: what to tell the user the books do not mention ("Docker")."""
    import re

    texts = [f"{h.chunk.section}\n{h.chunk.text}" for h in hits[:3]]
    return [w for w in _names(query) if not any(re.search(rf"(?<!\w){re.escape(w)}", t, re.I) for t in texts)]


def compound_mentioned(word: str, query: str, mentions) -> bool:
    """Whether ``word``, a German compound the books never write whole, is two everyday words they do write
    ("Startoption": start, option — declined as "no book mentions Startoption" of the GnuCash guide): German joins
    words freely, so that is no name the books lack. A word with a capital inside ("OpenOffice") stays a name.
    ``mentions``: whether the searched books write a word."""
    from ..text.frequency import parts
    from ..text.languages import detect

    lang = detect(query)
    if lang not in NOUNS_CAPITALISED or not word[1:].islower():
        return False
    split = parts(word, lang)
    return bool(split) and all(mentions(x) for x in split)


def features(query: str, hits: list, bm25, dense_ids: list[str], bm25_ids: list[str],
             book_ids: list[str] | None = None, bridge: dict | None = None,
             titles: dict[str, str] | None = None) -> dict[str, float]:
    """``hits``: fused candidates (``Hit``s, best first, zones already left out); ``bm25``: the library's
    ``BM25Index``; ``dense_ids``/``bm25_ids``: chunk ids in each retriever's order; ``book_ids``: the
    books searched (term weights and unknown terms are counted within them); ``bridge``: the question's words'
    translations into the books' languages (``bridged``); ``titles``: book id → title of the books asked (a name
    a title holds is what that book is about, not a name its passages must write: ``name_missing``)."""
    sims = sorted((h.similarity for h in hits), reverse=True)
    top = hits[:3]
    weights = bm25.term_weights(query, book_ids) if bm25 is not None else {}
    made_up = _made_up(query, bm25) if weights else set()
    weights = {t: v for t, v in weights.items() if v[1] or t not in made_up}
    members = {t: {t} for t in weights}
    if bridge and bm25 is not None:
        weights, members = bridged(weights, bridge, bm25, book_ids)
    total = sum(w for w, _ in weights.values()) or 1.0
    unknown = sum(w for w, known in weights.values() if not known) / total
    per_hit = []
    for h in top:
        words = bm25.text_terms(h.chunk.section + "\n" + h.chunk.text, h.chunk.book_id) if bm25 is not None else set()
        per_hit.append({t for t in weights if members[t] & words})
    union = set().union(*per_hit) if per_hit else set()
    coverage = sum(weights[t][0] for t in union) / total if weights else 0.0
    best = max((sum(weights[t][0] for t in s) / total for s in per_hit), default=0.0) if weights else 0.0
    d5, b5 = set(dense_ids[:5]), set(bm25_ids[:5])
    floor = sims[4:15]
    margin = sims[0] - sum(floor) / len(floor) if sims and floor else 0.0
    sentence = 0.0
    if weights and bm25 is not None:
        from ..text.sentences import sentence_spans

        for h in top[:2]:
            for a, b in sentence_spans(h.chunk.text):
                words = bm25.text_terms(h.chunk.text[a:b], h.chunk.book_id)
                sentence = max(sentence, sum(weights[t][0] for t in weights if members[t] & words) / total)
    from ..query.kinds import expects, holds_answer_type
    from ..text.languages import detect

    # the share of the question's names ("Japan", "CUDA", "MuseScore") that none of the three best passages has:
    # a passage about currencies is no answer to "the currency of Japan"; a name in the title of a book asked is
    # left out (the Debian Reference's passages seldom write "Debian", its title does)
    names = _name_terms(query, bm25, top[0].chunk.book_id) if bm25 is not None and top else set()
    own = {h.chunk.book_id for h in top}  # the books of the best passages: their titles say what they are about
    subject = set().union(*(_title_terms(query, t, bm25, b) for b, t in (titles or {}).items() if b in own)) \
        if names else set()
    named = [t for t in weights if t in names and t not in subject]  # "unter Debian" of the Debian Reference
    name_missing = sum(1 for t in named if not any(t in s for s in per_hit)) / len(named) if named else 0.0
    rare = _rare_missing(query, weights, bm25) if bm25 is not None else 0.0
    kind = expects(query)  # "Who invented …?" needs a name in the passages, "In what year …?" a year
    missing = 1.0 if kind and not any(holds_answer_type(kind, h.chunk.text, query) for h in top) else 0.0
    return {
        "type_missing": missing, "name_missing": round(name_missing, 4), "rare_missing": rare,
        "sim_margin": round(margin, 4), "sentence_coverage": round(sentence, 4),
        "other_language": 0.0 if detect(query) == "en" else 1.0,
        "top_sim": round(sims[0], 4) if sims else 0.0,
        "top3_sim": round(sum(sims[:3]) / len(sims[:3]), 4) if sims else 0.0,
        "coverage": round(coverage, 4), "best_coverage": round(best, 4), "unknown": round(unknown, 4),
        "agreement": round(len(d5 & b5) / 5.0, 4),
    }


def _made_up(query: str, bm25) -> set[str]:
    """The terms of the example values the question makes up ("like %myop%": ``query_terms.example_values``), in
    each searched language: one no book holds is not a term the books lack."""
    from ..text.languages import detect
    from ..text.query_terms import example_values, words

    values = " ".join(example_values(query))
    return {t for lang in {detect(query), *bm25.languages.values()} for t in words(values, lang)} if values else set()


def _rare_missing(query: str, weights: dict[str, tuple[float, bool]], bm25) -> float:
    """1.0 when a term of the question that no searched book holds (nor a translation of it) is a name, a number or
    no word of its language at all ("Kubernetes", "UEFI", "zstd"): something the books never mention. A rare word
    of the language ("untrusted", "digitising") is not: the books may say it in other words. (In German, where every
    noun has a capital, a capital makes no name there: only a non-word counts.)"""
    from ..text.frequency import a_word
    from ..text.languages import detect
    from ..text.query_terms import everyday_missing, surface, words
    from ..text.terms import capitalised_inside

    own = detect(query)
    langs = [own] + sorted(set(bm25.languages.values()) - {own})
    for t, (_, known) in weights.items():
        if known:
            continue
        lang = next((code for code in langs if t in words(query, code)), own)
        if everyday_missing(query, t, lang):
            continue
        word = surface(query, t, lang)
        name = own not in NOUNS_CAPITALISED and capitalised_inside(query, word)  # not "Dois-je" after a full stop
        if not name and word.isalpha() and (a_word(word.lower(), own) is not False or _in_dictionary(word, own)):
            continue  # a word of the language, only a rare one (unknown where no large list says)
        return 1.0
    return 0.0


def _in_dictionary(word: str, lang: str) -> bool:
    """Whether the installed dictionary from ``lang`` (``rag.text.glossary``) has ``word``, as a headword, an
    inflection of one, or a compound of two ("Teillisten", "fortlaufende"): a word of the language that the
    frequency lists lack, not a name (no dictionary: False)."""
    from ..text.glossary import dictionary

    d = dictionary(lang, "en") if lang != "en" else None
    return bool(d and (d.headword(word) or (len(word) >= 8 and d.parts(word))))


@dataclass
class Model:
    weights: dict[str, float]
    bias: float
    note: str = ""

    def probability(self, f: dict[str, float]) -> float:
        z = self.bias + sum(w * f.get(k, 0.0) for k, w in self.weights.items())
        return 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, z))))

    def save(self, path: Path = MODEL_PATH) -> None:
        path.write_text(json.dumps({"weights": self.weights, "bias": self.bias, "note": self.note}, indent=1) + "\n")


def load(path: Path = MODEL_PATH) -> Model:
    d = json.loads(Path(path).read_text())
    return Model({k: float(v) for k, v in d["weights"].items()}, float(d["bias"]), d.get("note", ""))


def fit(rows: list[dict[str, float]], labels: list[bool], l2: float = 0.01, note: str = "",
        names: tuple[str, ...] = FEATURES) -> Model:
    """Logistic regression over the features ``names`` (L2-regularised, Newton's method), classes weighted so
    that a few unanswerable questions count as much as many answerable ones."""
    import numpy as np

    x = np.array([[r.get(k, 0.0) for k in names] for r in rows], dtype=np.float64)
    x = np.hstack([x, np.ones((len(x), 1))])
    y = np.array(labels, dtype=np.float64)
    pos = max(y.sum(), 1.0)
    neg = max(len(y) - y.sum(), 1.0)
    sw = np.where(y == 1, len(y) / (2 * pos), len(y) / (2 * neg))
    reg = np.full(x.shape[1], l2 * len(y))
    reg[-1] = 0.0  # the bias is not shrunk
    theta = np.zeros(x.shape[1])
    for _ in range(50):  # Newton's method (iteratively reweighted least squares)
        p = 1.0 / (1.0 + np.exp(-(x @ theta)))
        grad = x.T @ ((p - y) * sw) + reg * theta
        hess = (x * (sw * p * (1 - p))[:, None]).T @ x + np.diag(reg) + 1e-9 * np.eye(x.shape[1])
        step = np.linalg.solve(hess, grad)
        theta -= step
        if np.abs(step).max() < 1e-8:
            break
    w, b = theta[:-1], theta[-1]
    return Model({k: round(float(v), 4) for k, v in zip(names, w)}, round(float(b), 4), note)


def calibration(probabilities: list[float], correct: list[bool], edges=(0.0, 0.2, 0.4, 0.6, 0.8, 1.0)) -> list[dict]:
    """Share of correct outcomes per confidence bucket: does a confidence of 0.8 mean right 8 times in 10?"""
    out = []
    for lo, hi in zip(edges, edges[1:]):
        idx = [i for i, p in enumerate(probabilities) if lo <= p < hi or (hi == edges[-1] and p == hi)]
        out.append({"bucket": f"{lo:.1f}–{hi:.1f}", "n": len(idx),
                    "mean_confidence": round(sum(probabilities[i] for i in idx) / len(idx), 3) if idx else None,
                    "correct": round(sum(correct[i] for i in idx) / len(idx), 3) if idx else None})
    return out


_MODELS: dict[str, Model] = {}


def probability(f: dict[str, float], named_figure: float = 0.95, model_path: str = "") -> float:
    """P(answerable) under the fitted model in ``answerability.json`` (or ``model_path``; each loaded once); a
    question that names a figure the searched books have ("What does Figure 2.1 show?") is answerable whatever its
    words match (at least ``named_figure``)."""
    key = model_path or str(MODEL_PATH)
    if key not in _MODELS:
        _MODELS[key] = load(Path(key))
    return decide(_MODELS[key], f, named_figure)


def decide(model: Model, f: dict[str, float], named_figure: float = 0.95) -> float:
    """``model``'s probability, raised for a question that names a figure the books have."""
    p = model.probability(f)
    return max(p, named_figure) if f.get("named_figure") else p

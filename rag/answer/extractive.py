"""Extractive answers, no LLM: the passage of the sources that answers the question, quoted whole and in the book's
order (``passages``: the code, list items or table it introduces included), then at most two further passages of
the same book that add what the first lacks, each cited [n]. A sentence's relevance = cosine(question, sentence) +
a share of the question's key terms it contains + the stage's tuning bonuses (``ExtractiveTuning``)."""
from __future__ import annotations

import functools
import re
from dataclasses import replace
from typing import Iterator

import numpy as np

from ..query.admin import labels_asked, states
from ..query.authors import asks_authors, lists_authors, named_books
from ..text.bylines import names_people
from ..query.conclusions import asks_conclusion, concludes
from ..query.wants import holds, wants
from ..query.overview import ASKING as OVERVIEW_WORDS, asks_overview, opens_book
from ..query.decompose import decompose
from ..query.definitions import definition_pattern
from ..query.kinds import EXAMPLE_LABEL, asks_example, asks_why, classify
from ..query.followup import fold_history
from ..text.captions import caption_key, reference_keys
from ..text.labels import NAMED_STATEMENT
from ..text.literals import holds as holds_literal, intervals, symbols, verbatim as literal_words
from ..text.sentences import MIN_WORDS, quotable
from ..text.terms import key_terms, stem
from ..settings import ExtractiveTuning
from ..types import Source
from .citations import renumber
from .cues import EXERCISE, EXERCISES_SECTION, GIVES_REASON, IDIOMS, POINTER, SUPERLATIVE
from .matching import content_stems, stemmer_language, stems, translated
from .enumeration import complete
from .assembly import bridge_gaps, mid_list
from .passages import HOW_LEAD, LEAD, Passage, grow, leads_to_listing, runs_into_listing
from .subcaptions import panel_labels
from .units import by_lines, units

def names_first_book(question: str, sources: list[Source], asking: set[str] | frozenset[str] = frozenset()) -> bool:
    """Whether the question names the book of source [1] (by its title's words), or asks about "this book" when
    every source is from it — as the pipeline's byline and overview stages chose the book."""
    s = sources[0]
    one = [s.book_id] if len({x.book_id for x in sources}) == 1 else []
    return bool(named_books(question, {s.book_id: s.book_title}, one, asking=asking))


BYLINE_LINES = 4  # a title page's author lines quoted at most (a long author list is one line of names)
OVERVIEW_FIRST_WORDS = 6  # a book's account of itself starts at its first whole sentence this long (not its title)


class ExtractiveBackend:
    name = "extractive"

    def __init__(self, embed, n_sentences: int = 4, tuning: ExtractiveTuning | None = None):
        self.embed, self.n, self.t = embed, n_sentences, tuning or ExtractiveTuning()

    # --- scoring -----------------------------------------------------------------------------------------
    def score(self, question: str, sources: list[Source], cands: list[tuple[str, int, bool]]) -> dict[int, float]:
        """Candidate index → score, for the best ``shortlist`` candidates by their score without cosine
        (``cands``: (sentence, source n, lies in the matching chunk)); the rest are not scored."""
        t = self.t
        lang = stemmer_language(question)
        # "at least" is no term, there or here; nor are "die", "ein", "man" of a German question (English's function
        # words were never terms: a German or French question's real terms weighed less, and every sentence met some)
        terms = content_stems(IDIOMS.sub(" ", question), lang)
        members = translated(question, terms, lang)
        define = definition_pattern(question)
        want = wants(question)  # "In what year …?", "Who founded …?": the sentence that says it, of its subject
        ranks = bool(SUPERLATIVE.search(IDIOMS.sub(" ", question)))
        named = set(reference_keys(question))  # "What does Figure 7-26 show?"
        rank = {s.n: i for i, s in enumerate(sources)}
        sim = {s.n: s.similarity for s in sources}
        tasks = {s.n for s in sources if EXERCISES_SECTION.match(s.hit.section.rsplit(" > ", 1)[-1])}
        numbers = set(re.findall(r"\d+", question))
        numbered = {s.n for s in sources if numbers and numbers <= set(re.findall(r"\d+", s.text))}
        verbatim = {v.lower() for v in literal_words(question)}  # "/var/www/index.html", "--apt-http-proxy"
        written = symbols(question) + intervals(question)  # "//", "%*%", "|>", "(0,1)"
        prior: list[tuple[int, float]] = []  # what a sentence scores besides its similarity
        for i, (sent, n, in_hit) in enumerate(cands):
            cap = caption_key(sent)  # once per sentence: this loop runs over every candidate of every question
            if len(sent.split()) < MIN_WORDS and cap not in named and not NAMED_STATEMENT.match(sent):  # a bare
                # caption answers only
                continue  # a question about that figure (a theorem's label: the question names the theorem)
            plain = IDIOMS.sub(" ", sent)  # "to the best of our knowledge" says nothing of what is best
            words = stems(plain, lang)
            overlap = sum(1 for m in members.values() if m & words) / len(terms) if terms else 0.0
            boost = t.defines_bonus if define and define.search(sent) else 0.0
            if want and holds(want, sent, question):
                boost += t.wants_bonus
            if ranks and SUPERLATIVE.search(plain):
                boost += t.ranks_bonus
            if cap and cap not in named:
                boost -= t.caption_penalty  # "Abbildung 1.5: Beispiel einer stetigen Funktion …" defines nothing
            if named and named & set(reference_keys(sent)):
                boost += t.named_bonus
                if cap in named:  # the caption itself says what the figure shows
                    boost += t.caption_bonus
            boost += t.lead_bonus / 2 ** rank.get(n, 9) + t.hit_similarity * sim.get(n, 0.0)
            if numbered:
                own = set(re.findall(r"\d+", sent))
                boost += t.number_bonus if n in numbered else -t.number_bonus if own and not own & numbers else 0.0
            if (verbatim and any(v in sent.lower() for v in verbatim)) or any(holds_literal(sent, x) for x in written):
                boost += t.verbatim_bonus
            if POINTER.match(sent):
                boost -= t.pointer_penalty
            if "?" in sent or EXERCISE.match(sent) or n in tasks:  # also "… page 36? Be specific." (a short
                # sentence joined on), and a section of exercises
                boost -= t.question_penalty
            prior.append((i, t.term_weight * overlap + boost + (t.in_hit if in_hit else 0.0)))
        if not prior:
            return {}
        # only the best few (the shortlist) by that score are embedded (the first text waits for them): a sentence
        # further down would need a similarity far above the shortlist's to win
        prior = sorted(prior, key=lambda x: -x[1])[:t.shortlist]
        q = np.asarray(self.embed.get_query_embedding(question), dtype=np.float32)
        heading = {s.n: s.hit.section.rsplit(" > ", 1)[-1].strip() for s in sources} if t.heading_context else {}
        texts = [f"{heading[cands[i][1]]}: {cands[i][0]}" if cands[i][2] and heading.get(cands[i][1]) else cands[i][0]
                 for i, _ in prior]  # a sentence of the matching chunk read under its section's heading
        vecs = np.asarray(self.embed.get_text_embedding_batch(texts), dtype=np.float32)
        return {i: float(c) + pr for (i, pr), c in zip(prior, vecs @ q)}

    def select(
        self, question: str, sources: list[Source], keep_share: float | None = None
    ) -> list[tuple[str, int, float]]:
        """(sentence, source n, score), best first, near-duplicates dropped; none below ``keep_share`` (default:
        the tuning's) of the best score. (What ``focus`` ranks sources by.)"""
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
        scores = self.score(question, sources, cands)
        if not scores:
            return []
        scored = sorted(((cands[i][0], cands[i][1], sc) for i, sc in scores.items()), key=lambda x: -x[2])
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

    # --- passages ----------------------------------------------------------------------------------------
    def passages(self, question: str, sources: list[Source], limit: int = 3, last_answer: str = "") -> list[Passage]:
        """The passage around the best sentence, then up to ``limit - 1`` passages of the same book that answer
        as well (within the keep share of the best) and add something the earlier ones lack: a question term, or
        ``new_words`` words of their own (the chapter's definition after the glossary's one line). ``last_answer``: the
        last answer's text (whitespace-normalised) when the question follows up on it: no passage begins at a
        sentence it quoted that has none of the question's own words (tour 49: "and why is it needed?" was answered
        with the last answer's first sentence again) — unless nothing else is left to quote; a follow-up that asks why
        weighs a sentence that gives a reason (``reason_bonus``)."""
        t = self.t
        by_n = {s.n: s for s in sources}
        us = {s.n: units(s) for s in sources}
        first = sources[0] if sources else None
        if asks_authors(question):  # "Who wrote …?": the names on the title page that leads the sources
            byline = self.byline(question, sources)
            if byline:
                return [byline]
            if lists_authors(first.hit.section) and names_first_book(question, sources):
                opening = self.opening(first, us[first.n], whole=False)  # the book's own section on its authors
                if opening:
                    return [opening]
        if asks_overview(question) and first and opens_book(first.hit) \
                and names_first_book(question, sources, OVERVIEW_WORDS):
            opening = self.opening(first, us[first.n])  # its abstract, preface or introduction, put first
            if opening:
                return [opening]
        stating: set[tuple[int, int]] = set()  # (source n, unit index) of the paragraphs an admin question asks for
        labels = labels_asked(question)
        if labels:  # "Who funded the study?": the "Funding: …" paragraph is the answer
            stating = {(n, k) for n, v in us.items() for k, u in enumerate(v)
                       if u.kind == "boilerplate" and states(u.text, labels)}
            us = {n: [replace(u, kind="sentence") if u.kind == "boilerplate" else u for u in v] for n, v in us.items()}
        if asks_conclusion(question):  # "What do the authors conclude?": what a concluding section says
            stating |= {(n, k) for n, v in us.items() if concludes(by_n[n].hit.section)
                        for k, u in enumerate(v) if u.prose}
        cands: list[tuple[str, int, bool]] = []
        where: list[tuple[int, int]] = []  # (source n, unit index) of each candidate
        written = intervals(question)  # "(0,1)": a statement about it is mostly symbols ("(0, 1) ist nicht kompakt.
        for s in sources:  # Un = (¹/n, 1 −¹/n) …"), and is a candidate all the same
            hit_norm = " ".join(s.hit.text.split())
            panels = panel_labels(us[s.n])  # "(a) Kreis mit zwei Wegen" above "Abbildung 3.3: …" answers nothing
            for k, u in enumerate(us[s.n]):
                letters = sum(ch.isalpha() for ch in u.text)
                if (u.prose or (u.kind == "heading" and u.opens_paragraph)) and k not in panels \
                        and (letters >= 0.6 * len(u.text.replace(" ", ""))
                             or any(holds_literal(u.text, x) for x in written)) \
                        and len(u.text.split()) <= 120:
                    cands.append((u.text, s.n, u.text in hit_norm))
                    where.append((s.n, k))
        scores = self.score(question, sources, cands)
        lang = stemmer_language(question)
        terms = {stem(w, lang) for w in key_terms(question)}
        if last_answer:  # (one with a word of the question's own stays: "Why in the morning?" of "Water in the …")
            scores = {i: sc for i, sc in scores.items() if len(cands[i][0]) < 30 or cands[i][0] not in last_answer
                      or terms & stems(cands[i][0], lang)} or scores
            if asks_why(question):  # "and why?" names nothing of its own: a reason is what it asks for (tour
                scores = {i: sc + t.reason_bonus * bool(GIVES_REASON.search(cands[i][0]))  # 51: "Some people say
                          for i, sc in scores.items()}  # 'tuh-ple' …" after the difference of lists and tuples)
        if not scores:
            return []
        example = asks_example(question)
        how = classify(question) == "procedural"
        for i in scores:
            if where[i] in stating:  # the paragraph that states what was asked, as a definition defines
                scores[i] += t.defines_bonus
            n, k = where[i]
            if example and ((k + 1 < len(us[n]) and us[n][k + 1].kind in ("code", "table"))
                            or EXAMPLE_LABEL.match(us[n][k].text) or (k and EXAMPLE_LABEL.match(us[n][k - 1].text))):
                scores[i] += t.example_bonus  # "Show me an example.": a sentence that introduces a listing, or the
                # book's own labelled example ("Beispiel 1" and what follows it)
        order = sorted(scores, key=lambda i: -scores[i])

        def anchors(i: int) -> bool:  # a heading anchors a passage when its section follows (prose or a listing)
            n, k = where[i]
            return us[n][k].kind != "heading" or (k + 1 < len(us[n]) and (us[n][k + 1].prose or us[n][k + 1].kind
                                                                          in ("code", "table")))

        # the best sentence that can begin a passage sets the floor: a heading with nothing of its section after it
        # ("About the Live Systems Project" atop a source) had set it out of the others' reach, and nothing was quoted
        best = next((scores[i] for i in order if anchors(i)), scores[order[0]])
        floor = best * t.keep_share if best > 0 else float("-inf")
        unit_score = {where[i]: sc for i, sc in scores.items()}
        asked = content_stems(question, lang)
        chosen: list[Passage] = []
        covered: set[str] = set()
        said: set[str] = set()  # the stems of the content words already quoted
        quoted: list[str] = []  # the sentences already quoted
        taken: dict[int, list[tuple[int, int]]] = {}
        for i in order:
            if len(chosen) >= limit or scores[i] < floor:
                break
            n, k = where[i]
            if not anchors(i):
                continue  # a heading with nothing of its section after it
            if us[n][k].kind == "heading":  # the section a heading names answers: from its first sentence on
                if us[n][k + 1].kind in ("code", "table"):
                    us[n][k] = replace(us[n][k], kind="sentence")  # a listing's title introduces it, cited
                else:
                    k += 1
            if chosen and by_n[n].book_id != by_n[chosen[0].n].book_id:
                continue  # no passages stitched together from unrelated books
            if chosen and n != chosen[0].n and mid_list(us[n], k):
                continue  # a further source's passage does not begin mid-list (tour 42: "2. false si …")
            if any(a <= k <= b for a, b in taken.get(n, [])):
                continue
            anchor = scores[i]
            keep_floor = max(floor, anchor * t.keep_share)
            near = asked | content_stems(us[n][k].text, lang)  # what a lead back to the paragraph's start is about
            a, b = grow(us[n], k, lambda j, n=n: unit_score.get((n, j), float("-inf")) >= keep_floor,
                        self.n if not chosen else 2, further_listing=not chosen,
                        lead=HOW_LEAD if how and not chosen else LEAD,
                        related=lambda j, n=n, near=near: bool(content_stems(us[n][j].text, lang) & near))
            if example and b + 1 < len(us[n]) and us[n][b + 1].kind in ("code", "table"):
                b += 1  # "Show me an example.": the listing the passage stops before is the example
            elif how and not chosen and leads_to_listing(us[n], a, b):
                b += 2  # "How do I write a function?": the book's "A function is defined … of the form" + its form
            elif how and not chosen:
                b = runs_into_listing(us[n], a, b)  # "… use the cp command …" + a sentence + "$ cp … ${USBSTICK}"
            text_terms = stems(" ".join(u.text for u in us[n][a:b + 1]), lang)
            if chosen and not (terms & text_terms) - covered and len(text_terms - said) < t.new_words:
                continue  # adds nothing the answer lacks
            texts = [" ".join(u.text.split()) for u in us[n][a:b + 1]]
            if any(len(x) >= 30 and len(q) >= 30 and (q in x or x in q) for x in texts for q in quoted):
                continue  # would quote a sentence twice (overlapping windows, a heading glued to a sentence)
            quoted += texts
            chosen.append(Passage(n, us[n][a:b + 1], k - a))
            covered |= terms & text_terms
            said |= text_terms
            taken.setdefault(n, []).append((a, b))
        return complete(bridge_gaps(chosen, taken, us, t.gap_units), us, by_n)  # "four results:" 1. … 2. …

    @staticmethod
    def byline(question: str, sources: list[Source]) -> Passage | None:
        """The lines of the title page the pipeline's ``byline`` stage put first (a book's first chunk, source [1])
        that name people and are not the book's title: up to ``BYLINE_LINES`` of them, from the first such line
        on."""
        for s in sources[:1]:  # a title page the question names its book by (as the pipeline's stage chose it)
            if s.hit.chunk_index != 0 or not names_first_book(question, sources):
                continue
            people_line = functools.partial(names_people, title=s.book_title)
            us = by_lines(s, units(s), people_line)
            people = [k for k, u in enumerate(us) if u.prose and people_line(u.text)]
            if people:
                a = people[0]
                b = max(k for k in people if k - a < BYLINE_LINES)
                return Passage(s.n, us[a:b + 1], 0)
        return None

    def opening(self, s: Source, v: list, whole: bool = True) -> Passage | None:
        """The passage that opens source ``s``'s matching chunk (``v``: its units): from its first whole sentence of
        ``OVERVIEW_FIRST_WORDS`` words or more (``whole``; else from its first prose unit), as far as it reads on."""
        at = max(0, s.text.find(s.hit.text[:40]))
        k = next((i for i, u in enumerate(v) if u.prose and u.start >= at
                  and (not whole or (u.finished and len(u.text.split()) >= OVERVIEW_FIRST_WORDS))), None)
        if k is None:
            return None
        a, b = grow(v, k, lambda j: v[j].kind == "sentence", self.n)
        return Passage(s.n, v[a:b + 1], k - a)

    def answer(self, question: str, sources: list[Source]) -> str:
        """The answer's text: passages, each cited; a two-part question gets one passage per part. Cited in
        retrieval's numbers, sources untouched (``stream``, which the chat runs, numbers them in reading order)."""
        return "\n\n".join(p.render() for p in self.chosen(question, sources))

    def chosen(self, question: str, sources: list[Source], last_answer: str = "") -> list[Passage]:
        """The passages the answer quotes, in its order (``last_answer``: as for ``passages``)."""
        parts = decompose(question)
        chosen: list[Passage] = []
        if len(parts) > 1:
            by_n = {s.n: s for s in sources}
            for part in parts:
                # the parts of one question are about one subject ("… and what's the difference?"): once a part is
                # answered, the others are answered from the same book, never stitched from an unrelated one
                book = by_n[chosen[0].n].book_id if chosen else None
                for p in self.passages(part, [s for s in sources if book is None or s.book_id == book], limit=2):
                    said = {" ".join(u.text.split()) for c in chosen for u in c.units}
                    if not any(" ".join(u.text.split()) in said for u in p.units):  # one part's passage does not
                        chosen.append(p)  # repeat another's sentences (overlapping windows of one book included)
                        break
        else:
            chosen = self.passages(question, sources, last_answer=last_answer)
        return chosen

    def stream(self, question: str, sources: list[Source], figures=(), last_answer: str = "") -> Iterator[str]:
        """The answer word by word; first the sources are numbered in the order it cites them (in place, figures'
        references too: ``rag.answer.citations``); ``last_answer``: as for ``passages``."""
        chosen = self.chosen(question, sources, " ".join(last_answer.split()))
        mapping = renumber(sources, [p.n for p in chosen], list(figures))
        text = "\n\n".join(replace(p, n=mapping.get(p.n, p.n)).render() for p in chosen)
        if not text:
            yield "The sources found do not contain a clear sentence answering this; see the passages below."
            return
        for word in re.findall(r"\S+\s*|\s+", text):  # stream word by word
            yield word

    def reformulate(self, question: str, history: list[tuple[str, str]]) -> str:
        return fold_history(question, history)

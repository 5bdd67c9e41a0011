"""A question that writes out an operator ("What does the // operator do?", "%*%", "|>") or an option or path
("--no-gui", "/var/www/index.html") is answered by the passage that writes it too — which neither retriever finds
reliably: BM25 drops symbols and splits an option into words every page has, and the embedding of "operator" is
closer to every other passage about operators. So the chunks of the searched books that write it join the hits, the
most similar first, right after the best hit. An operator that no searched book writes at all ("|>" asked of a manual
older than it) is one they do not document (``unwritten``). A contents or index line that writes it is no answer
(the French Debian FAQ's contents page had been quoted for « ld: cannot find -lfoo »): zones join only when the
question asks for them, as in retrieval. An interval ("(0,1)") is found with or without a space after its comma, and a
coinage the books write in a few chunks only ("fancyhdr", ``rare_coinages``) joins the same way."""
from __future__ import annotations

from typing import Callable

from ..chunking.zones import ZONES, asks_for_zone
from ..text.literals import a_coinage, coined, holds, symbols, written_out
from ..types import Chunk, Hit


COINED_MOST = 3  # a coinage of the question ("fancyhdr") written in at most this many chunks is what it asks about


def rare_coinages(question: str, book_ids: list[str], find: Callable[[list[str], str], list[Chunk]]) -> list[str]:
    """The question's coinages (``text.literals.coined``: "Can I use fancyhdr with yathesis?") that the searched books
    write in at most ``COINED_MOST`` chunks besides their contents and index: the package the question is about, not
    the book's own name on every page. The two retrievers rank a long chunk that lists it among others low (a
    book's list of known incompatibilities, fused 13th)."""
    from ..text.languages import detect

    lang, out = detect(question), []
    for w in coined(question, lang):
        n = sum(1 for c in find(book_ids, w) if c.kind not in ZONES and holds(c.text, w))
        if 0 < n <= COINED_MOST and a_coinage(w, lang):  # (the large word lists only for a word this rare)
            out.append(w)
    return out


def with_literals(question: str, hits: list[Hit], book_ids: list[str],
                  find: Callable[[list[str], str], list[Chunk]], similarities: Callable[[list[str]], dict[str, float]],
                  top: int = 2, at: int = 1, extra: list[str] | None = None) -> list[Hit]:
    """``hits`` with up to ``top`` chunks holding one of the question's symbols, options or paths (``find(book_ids,
    token)``: the catalog's ``chunks_holding``), or of the tokens ``extra``, placed at position ``at``, unless one is
    there already."""
    wanted = written_out(question)
    wanted += [w for w in extra or () if w not in wanted]
    if not wanted or not hits:
        return hits
    have = {h.chunk.id for h in hits[:at + top]}
    zones = asks_for_zone(question)
    found = {c.id: c for s in wanted for c in find(book_ids, s) if holds(c.text, s) and (zones or c.kind not in ZONES)}
    if not found or have & set(found):
        return hits
    sims = similarities(sorted(found))
    best = sorted(found, key=lambda cid: -sims.get(cid, -1.0))[:top]
    moved = [Hit(found[cid], hits[min(at, len(hits)) - 1].score, sims.get(cid, -1.0)) for cid in best]
    chosen = set(best)
    rest = [h for h in hits if h.chunk.id not in chosen]
    return rest[:at] + moved + rest[at:]


def unwritten(question: str, book_ids: list[str], find: Callable[[list[str], str], list[Chunk]]) -> list[str]:
    """The operators the question writes out ("|>", "%%") that no chunk of ``book_ids`` writes standing alone: a
    book that explains an operator writes it. (Paths and options are left out: a question may write its own file
    name or a variant spelling of an option.)"""
    return [s for s in symbols(question) if not any(holds(c.text, s) for c in find(book_ids, s))]

"""Start-up repair: put right what a crash, a kill or an older version left in the data folder, book by book.

Run once when a library opens (``Folio``). What it does, each step on its own (one step failing does not stop
the others, and never stops the start):
- books left ``indexing`` by a crash are removed with their vectors, figures and original (``ingest.recover``);
- a ready book whose chunk rows do not add up to its count is marked failed (re-index it);
- half-written files are removed: BM25 folders without their ``folio.json`` (or ``*.tmp``), vector files without
  their ids (or the ids without the matrix), ``*.tmp`` files of the vector and page caches;
- what belongs to no book any more is removed: BM25 folders, vector files, figure folders, page caches and
  originals of book ids the catalog does not hold.
Everything it removes can be made again (a BM25 index or a vector file is rebuilt on first use), or belonged to
nothing. Files younger than ``min_age_s`` are left alone: another process may be writing them right now.
"""
from __future__ import annotations

import logging
import re
import shutil
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from ..settings import Settings
from .catalog import Catalog

log = logging.getLogger("folio.repair")
_BOOK_ID = re.compile(r"^[0-9a-f]{16}$")


@dataclass
class RepairReport:
    removed: list[str] = field(default_factory=list)  # "what (why)", one per file or folder
    recovered: list[str] = field(default_factory=list)  # book ids a crash left half-indexed, removed
    failed: dict[str, str] = field(default_factory=dict)  # book id → why it was marked failed
    errors: list[str] = field(default_factory=list)  # steps that could not run (the rest did)

    def __bool__(self) -> bool:
        return bool(self.removed or self.recovered or self.failed or self.errors)

    def summary(self) -> str:
        return (f"{len(self.recovered)} half-indexed book(s) removed, {len(self.failed)} book(s) marked failed, "
                f"{len(self.removed)} leftover file(s) removed" + (f"; {len(self.errors)} step(s) failed"
                                                                   if self.errors else ""))


def repair(catalog: Catalog, settings: Settings, store: Callable[[], object] | None = None,
           min_age_s: float = 600.0) -> RepairReport:
    """Repair the library in ``settings.data_dir``; ``store()`` gives the vector store, opened only when a
    half-indexed book's vectors must be removed."""
    report = RepairReport()
    old = time.time() - min_age_s
    for step in (_half_indexed, _short_books, _bm25_folders, _vector_files, _book_folders, _originals):
        try:
            step(catalog, settings, store, old, report)
        except Exception as e:  # noqa: BLE001 - a repair step must never stop the library from opening
            log.warning("repair step %s failed", step.__name__, exc_info=True)
            report.errors.append(f"{step.__name__}: {type(e).__name__}: {e}")
    if report:
        log.warning("start-up repair: %s", report.summary())
    return report


def _half_indexed(catalog, settings, store, old, report: RepairReport) -> None:
    from .ingest import recover

    if catalog.stale_books() and store is not None:
        report.recovered += recover(catalog, store(), settings)


def _short_books(catalog, settings, store, old, report: RepairReport) -> None:
    counts = catalog.chunk_counts()
    for b in catalog.books("ready"):
        have = counts.get(b.id, 0)
        if have != b.chunks or b.chunks == 0:
            why = (f"its chunks are incomplete ({have} of {b.chunks} in the catalog), so it cannot be searched "
                   "as it is. Re-index it (or delete it).")
            catalog.mark_failed(b.id, why)
            report.failed[b.id] = why


def _older(path: Path, old: float) -> bool:
    try:
        return path.stat().st_mtime < old
    except OSError:
        return False


def _remove(path: Path, why: str, report: RepairReport) -> None:
    if path.is_dir():
        shutil.rmtree(path, ignore_errors=True)
    else:
        path.unlink(missing_ok=True)
    report.removed.append(f"{path} ({why})")


def _known(catalog: Catalog) -> set[str]:
    return {b.id for b in catalog.books()}


def _bm25_folders(catalog, settings, store, old, report: RepairReport) -> None:
    root = settings.data_dir / "bm25"
    if not root.is_dir():
        return
    known = _known(catalog)
    for d in root.iterdir():
        if not _older(d, old):
            continue
        if d.name.endswith(".tmp"):
            _remove(d, "half-written BM25 index", report)
        elif not d.is_dir() or not (d / "folio.json").is_file():
            _remove(d, "BM25 index without its folio.json: half-written or from an older version", report)
        elif d.name.split("-", 1)[0] not in known:
            _remove(d, "BM25 index of a book no longer in the library", report)


def _vector_files(catalog, settings, store, old, report: RepairReport) -> None:
    root = settings.data_dir / "vectors"
    if not root.is_dir():
        return
    known = _known(catalog)
    for folder in (d for d in root.iterdir() if d.is_dir()):
        for f in folder.iterdir():
            if not _older(f, old):
                continue
            name = f.name
            if name.endswith(".tmp"):
                _remove(f, "half-written vector file", report)
            elif name.endswith(".ids.json"):
                if not f.with_name(name[: -len(".ids.json")] + ".npy").exists():
                    _remove(f, "vector ids without their vectors", report)
                elif name[: -len(".ids.json")] not in known:
                    _remove(f, "vector ids of a book no longer in the library", report)
            elif name.endswith(".sketch.npz"):
                if name[: -len(".sketch.npz")] not in known:
                    _remove(f, "vector sketch of a book no longer in the library", report)
            elif name.endswith(".npy"):
                if not f.with_suffix(".ids.json").exists():
                    _remove(f, "vector file without its ids (half-written)", report)
                elif f.stem not in known:
                    _remove(f, "vector file of a book no longer in the library", report)


def _book_folders(catalog, settings, store, old, report: RepairReport) -> None:
    known = _known(catalog)
    for root, what in ((settings.figures_dir, "figures"), (settings.page_cache_dir, "page images")):
        if not root.is_dir():
            continue
        for d in root.iterdir():
            if d.is_dir() and d.name not in known and _older(d, old):
                _remove(d, f"{what} of a book no longer in the library", report)
            elif d.is_dir():
                for t in d.glob("*.tmp"):
                    if _older(t, old):
                        _remove(t, f"half-written {what[:-1]}", report)


def _originals(catalog, settings, store, old, report: RepairReport) -> None:
    root = settings.uploads_dir
    if not root.is_dir():
        return
    known = _known(catalog)
    for f in root.glob("*.pdf"):
        if _BOOK_ID.match(f.stem) and f.stem not in known and _older(f, old):
            _remove(f, "original of a book no longer in the library", report)

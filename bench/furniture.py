"""Page furniture per PDF: running headers/footers/page numbers found, on how many pages, the most common
ones (digits masked), and parse time without → with detection (best of two, same process).

Usage: .venv/bin/python bench/furniture.py [PDF ...]   (default: every PDF in ../shared/eval/pdfs)
"""
from __future__ import annotations

import re
import sys
import time
from collections import Counter
from pathlib import Path

HERE = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(HERE))

import rag.parse.document as document  # noqa: E402
from rag.errors import BadDocumentError  # noqa: E402
from rag.parse import parse_file  # noqa: E402


def main(paths: list[Path]) -> None:
    detect = document._mark_furniture
    print("| PDF | pages | furniture lines (pages) | most common | parse s without → with |")
    print("|---|---|---|---|---|")
    for path in paths:
        best = {}
        book = None
        try:
            for name, mark in (("without", lambda pages, heights: pages), ("with", detect)) * 2:
                document._mark_furniture = mark
                t = time.perf_counter()
                book = parse_file(path)
                best[name] = min(best.get(name, 1e9), time.perf_counter() - t)
        except BadDocumentError as e:
            print(f"| {path.name} | | refused: {str(e)[:90]} | | |")
            continue
        finally:
            document._mark_furniture = detect
        lines = [(p.number, p.text[a:b]) for p in book.pages for a, b in p.furniture]
        common = Counter(" ".join(re.sub(r"\d+", "#", t).split()) for _, t in lines).most_common(3)
        print(f"| {path.name} | {book.page_count} | {len(lines)} ({len({n for n, _ in lines})}) | "
              + ", ".join(f"“{t}” {n}".replace("|", "\\|") for t, n in common) + f" | {best['without']:.2f} → "
                                                                                 f"{best['with']:.2f} |")


if __name__ == "__main__":
    args = [Path(a) for a in sys.argv[1:]] or sorted((HERE.parent / "shared" / "eval" / "pdfs").rglob("*.pdf"))
    main(args)

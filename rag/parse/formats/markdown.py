"""Markdown → HTML (markdown-it-py, CommonMark with tables and strikethrough, raw HTML disabled so tags in
the text stay text) → laid-out PDF. A YAML front-matter block gives the title; else the first heading."""
from __future__ import annotations

import re

from .builder import BookBuilder
from .converted import Converted
from .webpage import inline_images, title_or_heading

_FRONT = re.compile(r"\A---[ \t]*\n(.*?)\n(?:---|\.\.\.)[ \t]*\n", re.S)


def read_markdown(text: str, filename: str) -> Converted:
    from markdown_it import MarkdownIt

    title = lang = ""
    m = _FRONT.match(text)
    if m:
        for line in m.group(1).splitlines():
            key, _, value = line.partition(":")
            value = value.strip().strip("'\"")
            if key.strip().lower() == "title" and value:
                title = value
            elif key.strip().lower() in ("lang", "language") and value:
                lang = value[:35]
        text = text[m.end():]
    md = MarkdownIt("commonmark", {"html": False, "linkify": False, "typographer": False}).enable(
        ["table", "strikethrough"])
    b = BookBuilder(filename, "Markdown file")
    b.add(md.render(text), b.doc(image=inline_images(b)))
    return b.build("markdown", "md", title_or_heading(title, b, filename), lang)

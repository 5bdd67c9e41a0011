"""HTML and XHTML files → laid-out PDF. Title from ``<title>`` (else the first heading), language from
``<html lang>``. Only images embedded in the file itself (``data:image/…;base64``) are shown; every other
reference (http:, https:, //, file:, relative paths) is left out and counted, never fetched."""
from __future__ import annotations

from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import urlsplit

from .builder import BookBuilder
from .converted import Converted
from .images import Image


class _Head(HTMLParser):
    """Reads the title and language of a page and stops caring after ``<body>``."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.title, self.lang, self._in_title, self.done = "", "", False, False

    def handle_starttag(self, tag, attrs):
        if tag == "html" and not self.lang:
            self.lang = (dict(attrs).get("lang") or dict(attrs).get("xml:lang") or "").strip()[:35]
        elif tag == "title" and not self.done:
            self._in_title = True
        elif tag == "body":
            self.done = True

    def handle_endtag(self, tag):
        if tag == "title":
            self._in_title = False

    def handle_data(self, data):
        if self._in_title and not self.done:
            self.title += data


def head_info(text: str) -> tuple[str, str]:
    h = _Head()
    h.feed(text[:200_000])
    return " ".join(h.title.split()), h.lang


def inline_images(b: BookBuilder):
    """The image resolver for single files: data: URIs are shown, anything else is counted and left out."""
    def image(src: str) -> Image | None:
        if src.lower().startswith("data:"):
            return b.images.add_data_uri(src)
        scheme = urlsplit(src).scheme.lower()
        remote = scheme in ("http", "https", "ftp") or src.startswith("//")
        b.shared.left_out["remote images not fetched" if remote else "images referring to other files"] += 1
        return None
    return image


def title_or_heading(title: str, b: BookBuilder, filename: str) -> str:
    if title:
        return title
    first = next((t for lvl, t, _ in b.flow.headings if lvl == 1), "")
    return first or Path(filename).stem.replace("_", " ")


def read_html(text: str, filename: str) -> Converted:
    title, lang = head_info(text)
    b = BookBuilder(filename, "HTML file")
    b.add(text, b.doc(image=inline_images(b)))
    return b.build("html", "html", title_or_heading(title, b, filename), lang)

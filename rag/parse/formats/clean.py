"""Untrusted HTML/XHTML → the small, safe HTML subset the layout step renders.

A real HTML tokenizer (the standard library's ``html.parser``) reads the document and only a whitelist
is written back: structure (headings, paragraphs, lists, tables, figures, code), inline emphasis, and
images that ``images.ImageStore`` accepted, under generated names. Everything else is left out:
``<script>``, ``<style>``, ``<iframe>``, ``<object>``, forms, media, event-handler and style attributes,
links (``href`` is never kept) and every remote or ``file:`` reference. Character references are decoded
from the HTML table only; DTDs and their entities are never read, so nothing external is resolved or
expanded. The document's own CSS is not used; a few class hints read from it (``css.css_hints``) mark code
and hidden elements.

Output is cut into pieces of about ``Limits.piece_chars`` at block boundaries (open elements are closed
and reopened), so one enormous chapter is laid out in bounded memory.
"""
from __future__ import annotations

import html
import re
from collections import Counter
from dataclasses import dataclass, field
from html.parser import HTMLParser
from typing import Callable

from .images import Image
from .limits import LIMITS, Limits

# element -> element written (same name unless mapped); elements not listed are transparent (children kept)
BLOCKS = {"p": "p", "div": "div", "section": "div", "article": "div", "header": "div", "footer": "div",
          "main": "div", "aside": "div", "nav": "div", "center": "div", "address": "div", "hgroup": "div",
          "details": "div", "summary": "div", "blockquote": "blockquote", "figure": "div", "figcaption": "div",
          "ul": "ul", "ol": "ol", "li": "li", "dl": "dl", "dt": "dt", "dd": "dd", "pre": "pre", "listing": "pre",
          "xmp": "pre", "plaintext": "pre", "table": "table", "thead": "thead", "tbody": "tbody", "tfoot": "tfoot",
          "tr": "tr", "td": "td", "th": "th", "caption": "caption",
          **{f"h{i}": f"h{i}" for i in range(1, 7)}}
INLINES = {"em": "i", "i": "i", "cite": "i", "dfn": "i", "var": "i", "strong": "b", "b": "b", "u": "u", "ins": "u",
           "s": "s", "strike": "s", "del": "s", "sub": "sub", "sup": "sup", "small": "small", "big": "big",
           "code": "code", "tt": "code", "kbd": "code", "samp": "code", "mark": "span", "span": "span",
           "a": "span", "abbr": "span", "q": "span", "time": "span", "font": "span", "bdi": "span", "bdo": "span"}
VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "param", "source", "track",
        "wbr", "image", "keygen", "frame"}
# left out with everything inside them (active content, media, forms, metadata)
DROP = {"script", "style", "iframe", "object", "embed", "applet", "noscript", "template", "svg", "math", "canvas",
        "audio", "video", "select", "textarea", "button", "input", "head", "title", "frame", "frameset",
        "noframes", "map", "param", "source", "track", "link", "meta", "base", "form", "datalist", "output",
        "dialog", "portal", "picture", "rp", "rt"}
DROP_REASON = {"script": "scripts", "noscript": "scripts", "iframe": "embedded frames", "frame": "embedded frames",
               "frameset": "embedded frames", "object": "embedded objects", "embed": "embedded objects",
               "applet": "embedded objects", "form": "forms", "audio": "audio/video", "video": "audio/video",
               "math": "MathML formulas", "svg": "SVG drawings"}
HEADINGS = {f"h{i}" for i in range(1, 7)}
SPLIT_AFTER = {"p", "div", "li", "tr", "dd", "pre", "blockquote", "table", "ul", "ol", "dl"} | HEADINGS
CAPTION_CLASS = re.compile(r"caption|legend|figcap|bildunterschrift|legende", re.I)
PARAGRAPH_NUMBER = re.compile(r"\s*\d{1,6}\s*")
_ID_ATTR = re.compile(r' id="[^"]*"')
_BLOCK_OUT = frozenset(BLOCKS.values())
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")


@dataclass
class Shared:
    """State shared by every document of one book: counters, ids, captions, what was left out."""

    limits: Limits = LIMITS
    chars: int = 0  # text characters written
    ids: int = 0
    captions: dict[str, str] = field(default_factory=dict)  # image element id -> caption text
    left_out: Counter = field(default_factory=Counter)  # what was not rendered, by reason

    def new_id(self, prefix: str) -> str:
        self.ids += 1
        return f"{prefix}{self.ids}"


@dataclass
class Doc:
    """One document to clean: how to find its images, which ids matter, what its CSS says."""

    image: Callable[[str], Image | None]  # src attribute -> accepted image, None when not shown
    targets: dict[str, str] = field(default_factory=dict)  # own id -> layout id (table-of-contents targets)
    code_classes: frozenset = frozenset()
    hidden_classes: frozenset = frozenset()
    bold_classes: frozenset = frozenset()
    content_width: float = 340.0  # points an image may take
    content_height: float = 500.0


def _attr(attrs: list, name: str) -> str:
    for k, v in attrs:
        if k == name and v is not None:
            return v
    return ""


class Cleaner(HTMLParser):
    """Feed it HTML text (in any number of pieces); ``emit`` receives the cleaned pieces in order."""

    def __init__(self, doc: Doc, shared: Shared, emit: Callable[[str], None]):
        super().__init__(convert_charrefs=True)
        self.doc, self.shared, self.emit = doc, shared, emit
        self.buf: list[str] = []
        self.size = 0
        self.stack: list[tuple[str, str, str]] = []  # (source tag, written tag or "", written attributes)
        self.skip: list[str] = []  # the dropped element being skipped, with nesting
        self.pre = 0
        self.pre_start = False
        self.figures: list[dict] = []  # open <figure>s: their images and caption text
        self.caption_for: str | None = None  # image id a caption-class block is collecting text for
        self.caption_depth = 0
        self.caption_text: list[str] = []
        self.since_image = 10**9  # text characters written since the last image
        self.last_image = ""
        self.capture: list | None = None  # a <label> held back until we know it is only a number
        self.capture_depth = 0
        self.orphans: list[int] = []  # stack depths of open list items that are in no list (they get a bullet)
        self.after_orphan = False  # such an item closed and no text since
        self.blocks: list[str] = []  # the written block elements open, innermost last
        self.lists = 0  # open <ul>/<ol>
        self.items = 0  # open <li>

    # --- writing -------------------------------------------------------------------------------------------
    def _w(self, s: str) -> None:
        if self.capture is not None:
            self.capture.append(s)
            return
        self.buf.append(s)
        self.size += len(s)

    def _text(self, data: str) -> None:
        data = _CONTROL.sub("", data)
        if self.pre_start:
            self.pre_start = False
            if data.startswith("\r\n"):
                data = data[2:]
            elif data.startswith("\n"):
                data = data[1:]
        if not data:
            return
        if self.after_orphan and data.strip() and self.capture is None:  # (a margin number held back is no text)
            self._apart()
        self.shared.chars += len(data)
        if data.strip():
            self.since_image += len(data.strip())
        for f in self.figures:
            if f["in_caption"]:
                f["caption"].append(data)
        if self.caption_for:
            self.caption_text.append(data)
        self._w(html.escape(data, quote=False))

    def _apart(self) -> None:
        """The first text after list items that are in no list: when it opens a paragraph (not another item), a
        line's space before it, so it is not read as the last item ("• Linux 2.6 or newer." + "Note that …")."""
        self.after_orphan = False
        if not self.items and self.blocks and self.blocks[-1] in ("p", "div"):
            self._w("<br/>")

    def _open(self, tag: str, out: str, attrs: str) -> None:
        self.stack.append((tag, out, attrs))
        if out in _BLOCK_OUT:
            self.blocks.append(out)
        self.lists += out in ("ul", "ol")
        self.items += out == "li"
        if out:
            self._w(f"<{out}{attrs}>")

    def _close_top(self) -> None:
        tag, out, _ = self.stack.pop()
        if out in _BLOCK_OUT and self.blocks:
            self.blocks.pop()
        self.lists -= out in ("ul", "ol")
        self.items -= out == "li"
        if self.orphans and self.orphans[-1] == len(self.stack):
            self.orphans.pop()
            self.after_orphan = True
        if out:
            self._w(f"</{out}>")
        if tag in ("pre", "listing", "xmp", "plaintext"):
            self.pre = max(0, self.pre - 1)
        if tag == "figure" and self.figures:
            f = self.figures.pop()
            caption = " ".join("".join(f["caption"]).split())
            if caption:
                for img in f["images"]:
                    self.shared.captions.setdefault(img, caption)
        if tag == "figcaption":
            for f in self.figures[-1:]:
                f["in_caption"] = False
        if self.caption_for and len(self.stack) < self.caption_depth:
            caption = " ".join("".join(self.caption_text).split())
            if caption:
                self.shared.captions.setdefault(self.caption_for, caption)
            self.caption_for, self.caption_text = None, []
        if self.capture is not None and len(self.stack) < self.capture_depth:
            held, self.capture = self.capture, None
            text = "".join(re.sub(r"<[^>]*>", "", h) for h in held)  # our own markup, not the document's
            if not PARAGRAPH_NUMBER.fullmatch(html.unescape(text) or "x"):
                if self.after_orphan and text.strip():  # "<p><label>Note:</label> Debian …" after such a list
                    self._apart()
                for h in held:
                    self._w(h)
            else:
                self.shared.left_out["paragraph numbers in the margin"] += 1

    def _close_to(self, tag: str, barrier: set[str] = frozenset()) -> bool:
        """Close open elements down to and including the nearest ``tag``, unless a ``barrier`` comes first."""
        for i in range(len(self.stack) - 1, -1, -1):
            t = self.stack[i][0]
            if t == tag:
                while len(self.stack) > i:
                    self._close_top()
                return True
            if t in barrier:
                return False
        return False

    def _split(self) -> None:
        if self.size < self.doc_limit or self.capture is not None:
            return
        open_ = list(self.stack)
        for _, out, _ in reversed(open_):
            if out:
                self.buf.append(f"</{out}>")
        self.emit("".join(self.buf))
        self.buf = [f"<{out}{_ID_ATTR.sub('', attrs)}>" for _, out, attrs in open_ if out]  # ids stay in piece 1
        self.size = sum(map(len, self.buf))

    @property
    def doc_limit(self) -> int:
        return self.shared.limits.piece_chars

    def finish(self) -> None:
        self.close()
        while self.stack:
            self._close_top()
        if self.capture is not None:
            held, self.capture = self.capture, None
            for h in held:
                self._w(h)
        if self.buf:
            self.emit("".join(self.buf))
        self.buf, self.size = [], 0

    # --- reading -------------------------------------------------------------------------------------------
    def _anchor(self, attrs: list, tag: str) -> str:
        """The layout id of this element: its table-of-contents target, else a fresh one for headings."""
        own = _attr(attrs, "id") or (_attr(attrs, "name") if tag == "a" else "")
        if own and own in self.doc.targets:
            return self.doc.targets[own]
        return self.shared.new_id("h") if tag in HEADINGS else ""

    def _image(self, src: str) -> None:
        src = src.strip()
        if not src:
            return
        img = self.doc.image(src)
        if img is None:
            return
        w, h = img.width * 0.75, img.height * 0.75  # CSS pixels → points
        scale = min(1.0, self.doc.content_width / w, self.doc.content_height * 0.8 / h)
        iid = self.shared.new_id("g")
        self._w(f'<img id="{iid}" src="{img.name}" style="width:{w * scale:.1f}pt;height:{h * scale:.1f}pt"/>')
        for f in self.figures:
            f["images"].append(iid)
        self.since_image, self.last_image = 0, iid

    def handle_starttag(self, tag: str, attrs: list) -> None:
        if self.skip:
            if tag == self.skip[0] and tag not in VOID:
                self.skip.append(tag)
            elif tag == "image" and self.skip[0] == "svg":  # a cover picture wrapped in SVG
                self._image(_attr(attrs, "href") or _attr(attrs, "xlink:href"))
            return
        classes = set(_attr(attrs, "class").split())
        hidden = classes & self.doc.hidden_classes or "hidden" in (k for k, _ in attrs)
        if tag in DROP or hidden:
            anchor = self._anchor(attrs, tag)
            if anchor:
                self._w(f'<a id="{anchor}"></a>')
            if tag in DROP_REASON:
                self.shared.left_out[f"{DROP_REASON[tag]} (not run or shown)"] += 1
            if tag not in VOID:
                self.skip.append(tag)
            return
        if tag == "img":
            self._image(_attr(attrs, "src"))
            return
        if tag == "br":
            self._w("<br/>")
            return
        if tag == "hr":
            self._close_to("p", {"td", "th", "li", "div", "blockquote"})
            self._w("<hr/>")
            return
        if tag in VOID:
            return
        if tag in BLOCKS:
            self._implicit_close(tag)
        # a list item in no list, in a <div> or at the top (where the layout draws no marker; in a table cell or a
        # quotation it draws one): counted, not searched for, so a page of open tags costs no more per item
        orphan = tag == "li" and not self.lists and (not self.blocks or self.blocks[-1] == "div")
        out = BLOCKS.get(tag) or INLINES.get(tag) or ""
        code = classes & self.doc.code_classes
        if code and out and tag not in ("pre", "table", "tr", "td", "th", "ul", "ol", "li"):
            out = "div" if tag in BLOCKS else "code"
        anchor = self._anchor(attrs, tag)
        extra = ""
        if out and anchor:
            extra += f' id="{anchor}"'
        elif anchor:  # a target on an element we do not write: keep the place
            self._w(f'<a id="{anchor}"></a>')
        if out == "div" and code and tag in BLOCKS:
            extra += ' class="code"'
        elif out in ("p", "div") and classes & self.doc.bold_classes:
            extra += ' class="bold"'
        if tag == "figure":
            extra += ' class="figure"'
        if tag == "figcaption":
            extra += ' class="caption"'
        if out in ("td", "th"):
            for k in ("colspan", "rowspan"):
                v = _attr(attrs, k)
                if v.isdigit() and 1 < int(v) <= 100:
                    extra += f' {k}="{int(v)}"'
        if tag == "label" and self.capture is None:
            self.capture, self.capture_depth = [], len(self.stack) + 1
        self._open(tag, out, extra)
        if orphan:  # a list item outside any list (the live-manual EPUBs wrap each <li class="bullet"> in a <div>
            self.orphans.append(len(self.stack) - 1)  # of its own): laid out bare it has no marker and runs into its
            self._w("• ")  # neighbours as one paragraph ("Superuser (root) access An up-to-date version of …"); its
            # bullet is written as text
        if out == "pre":
            self.pre += 1
            self.pre_start = True
        if tag == "figure":
            self.figures.append({"images": [], "caption": [], "in_caption": False})
        elif tag == "figcaption" and self.figures:
            self.figures[-1]["in_caption"] = True
        elif (tag in BLOCKS and CAPTION_CLASS.search(" ".join(classes)) and self.since_image == 0
              and not self.figures and not self.caption_for):
            self.caption_for, self.caption_depth, self.caption_text = self.last_image, len(self.stack), []

    def _implicit_close(self, tag: str) -> None:
        if self.stack and self.stack[-1][0] == "p" and tag not in ("td", "th", "tr"):
            self._close_top()
        if tag == "li":
            self._close_to("li", {"ul", "ol"})
        elif tag in ("dt", "dd"):
            self._close_to("dd", {"dl"}) or self._close_to("dt", {"dl"})
        elif tag == "tr":
            self._close_to("tr", {"table"})
        elif tag in ("td", "th"):
            self._close_to("td", {"tr", "table"}) or self._close_to("th", {"tr", "table"})
        elif tag in ("thead", "tbody", "tfoot"):
            for t in ("thead", "tbody", "tfoot"):
                self._close_to(t, {"table"})

    def handle_endtag(self, tag: str) -> None:
        if self.skip:
            if tag == self.skip[-1]:
                self.skip.pop()
            return
        if tag in VOID:
            return
        if any(t == tag for t, _, _ in self.stack):
            self._close_to(tag)
            if tag in SPLIT_AFTER:
                self._split()
        elif tag == "p":  # a stray </p> makes an empty paragraph in HTML; a break is enough here
            self._w("<br/>")

    def handle_startendtag(self, tag: str, attrs: list) -> None:
        self.handle_starttag(tag, attrs)
        if tag not in VOID:
            self.handle_endtag(tag)

    def handle_data(self, data: str) -> None:
        if not self.skip:
            self._text(data)


def clean(chunks, doc: Doc, shared: Shared, emit: Callable[[str], None]) -> None:
    """Clean one document given as text or as an iterable of text chunks (read while the pieces already
    made leave through ``emit``, so a long chapter is never held twice)."""
    c = Cleaner(doc, shared, emit)
    for chunk in ([chunks] if isinstance(chunks, str) else chunks):
        c.feed(chunk)
    c.finish()

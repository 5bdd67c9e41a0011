"""EPUB (2 and 3) → laid-out PDF: container → OPF package → spine order, table of contents, images, metadata.

XML parts (container.xml, the OPF, the NCX, encryption.xml) are read with ``defusedxml``: DTDs and entities
are refused, so no external entity is resolved and no entity bomb expands. Content documents and the EPUB 3
navigation document are (X)HTML and go through ``clean`` (a real HTML tokenizer, whitelist output).
Spine entries are taken in order, each file once, even when the spine names it with a ``#fragment`` (MuPDF
itself refuses such books); ``linear="no"`` items (notes, answers, pop-ups) come after the reading order.
Books whose content is encrypted (DRM: Adobe ADEPT, Apple FairPlay, Readium LCP, …) are refused; font
obfuscation alone is not DRM and is accepted (the fonts are not used anyway).
"""
from __future__ import annotations

import posixpath
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlsplit

from .builder import BookBuilder, decode_stream
from .css import css_hints
from .converted import Converted
from .limits import LIMITS
from .safezip import SafeZip

XML_CAP = 16 * 2**20  # bytes of one OPF / NCX / container / encryption file
CSS_CAP = 2 * 2**20
FONT_OBFUSCATION = {"http://www.idpf.org/2008/embedding", "http://ns.adobe.com/pdf/enc#RC"}
CONTENT_TYPES = {"application/xhtml+xml", "text/html", "application/xml", "text/xml", "text/x-oeb1-document"}


def _local(tag) -> str:
    return tag.rsplit("}", 1)[-1] if isinstance(tag, str) else ""


def _xml(z: SafeZip, name: str, what: str):
    from defusedxml import DefusedXmlException
    from defusedxml.ElementTree import ParseError, fromstring

    data = z.read(name, XML_CAP)
    try:
        return fromstring(data, forbid_dtd=True, forbid_entities=True, forbid_external=True)
    except DefusedXmlException:
        raise z.bad(f"the EPUB's {what} ({name}) declares a DTD or entities, which are not read (they can make a "
                    "reader fetch files or expand without end). Re-export the book with a normal EPUB tool.") from None
    except (ParseError, ValueError) as e:
        raise z.bad(f"the EPUB's {what} ({name}) is not valid XML ({e}). The book is damaged; export or download it "
                    "again.") from None


def _check_drm(z: SafeZip, media_types: dict[str, str]) -> None:
    for name, system in (("META-INF/sinf.xml", "Apple FairPlay"), ("META-INF/license.lcpl", "Readium LCP")):
        if z.has(name):
            raise z.bad(f"the EPUB is protected by DRM ({system}); its chapters are encrypted and cannot be read. "
                        "Add a DRM-free copy of the book.")
    if not z.has("META-INF/encryption.xml"):
        return
    root = _xml(z, "META-INF/encryption.xml", "encryption list")
    locked = []
    for data in root.iter():
        if _local(data.tag) != "EncryptedData":
            continue
        algo = next((e.get("Algorithm", "") for e in data.iter() if _local(e.tag) == "EncryptionMethod"), "")
        uri = next((e.get("URI", "") for e in data.iter() if _local(e.tag) == "CipherReference"), "")
        target = posixpath.normpath(unquote(uri)) if uri else ""
        font = media_types.get(target, "").startswith(("font/", "application/font", "application/vnd.ms-opentype",
                                                       "application/x-font")) or target.lower().endswith(
            (".otf", ".ttf", ".woff", ".woff2"))
        if algo in FONT_OBFUSCATION and font:
            continue  # font obfuscation (IDPF/Adobe): not DRM
        locked.append(target or "?")
    if locked:
        system = "Adobe ADEPT" if z.has("META-INF/rights.xml") else "encrypted content"
        raise z.bad(f"the EPUB is protected by DRM ({system}: {len(locked)} file(s) encrypted, e.g. {locked[0]!r}); "
                    "it cannot be read. Add a DRM-free copy of the book.")


class _NavReader(HTMLParser):
    """The ``<nav epub:type="toc">`` of an EPUB 3 navigation document: (depth, title, href) per link."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.entries: list[tuple[int, str, str]] = []
        self.navs: list[list] = []  # (is toc, entries)
        self.in_nav = 0
        self.depth = 0
        self.href: str | None = None
        self.text: list[str] = []
        self.skip = 0

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "nav":
            self.in_nav += 1
            self.navs.append([(a.get("epub:type") or a.get("role") or "").lower() in ("toc", "doc-toc"), []])
        elif tag in ("script", "style"):
            self.skip += 1
        elif self.in_nav and tag == "ol":
            self.depth += 1
        elif self.in_nav and tag == "a":
            self.href, self.text = a.get("href") or "", []

    def handle_endtag(self, tag):
        if tag == "nav" and self.in_nav:
            self.in_nav -= 1
        elif tag in ("script", "style"):
            self.skip = max(0, self.skip - 1)
        elif self.in_nav and tag == "ol":
            self.depth = max(0, self.depth - 1)
        elif self.in_nav and tag == "a" and self.href is not None:
            title = " ".join("".join(self.text).split())
            if self.navs and title and self.href:
                self.navs[-1][1].append((max(self.depth, 1), title, self.href))
            self.href = None

    def handle_data(self, data):
        if self.href is not None and not self.skip:
            self.text.append(data)

    def toc(self) -> list[tuple[int, str, str]]:
        tocs = [e for is_toc, e in self.navs if is_toc and e]
        return tocs[0] if tocs else next((e for _, e in self.navs if e), [])


def _ncx_toc(root) -> list[tuple[int, str, str]]:
    out: list[tuple[int, str, str]] = []

    def walk(el, depth):
        for child in el:
            if _local(child.tag) != "navPoint":
                continue
            label = next((" ".join("".join(t.itertext()).split()) for t in child.iter() if _local(t.tag) == "text"), "")
            src = next((c.get("src", "") for c in child if _local(c.tag) == "content"), "")
            if label and src:
                out.append((depth, label, src))
            walk(child, depth + 1)

    nav_map = next((e for e in root.iter() if _local(e.tag) == "navMap"), None)
    if nav_map is not None:
        walk(nav_map, 1)
    return out


def read_epub(data: bytes, filename: str) -> Converted:
    z = SafeZip(data, filename, "EPUB")
    if not z.has("META-INF/container.xml"):
        raise z.bad("the EPUB has no META-INF/container.xml, so its chapters cannot be found. The book is damaged "
                    "or not an EPUB; export or download it again.")
    container = _xml(z, "META-INF/container.xml", "container")
    opf_path = next((e.get("full-path", "") for e in container.iter() if _local(e.tag) == "rootfile"
                     and e.get("full-path")), "")
    opf_path = posixpath.normpath(unquote(opf_path)) if opf_path else ""
    if not opf_path or not z.has(opf_path):
        raise z.bad(f"the EPUB's container names a package file that is not in the book ({opf_path or 'none'}). "
                    "The book is damaged; export or download it again.")
    opf = _xml(z, opf_path, "package file")

    def inside(href: str, rel_to: str) -> tuple[str, str]:
        parts = urlsplit(href)
        if parts.scheme or parts.netloc:
            return "", ""
        path = unquote(parts.path)
        name = posixpath.normpath(posixpath.join(posixpath.dirname(rel_to), path)) if path else rel_to
        return name, unquote(parts.fragment)

    title = language = ""
    manifest: dict[str, tuple[str, str, str]] = {}  # id -> (archive name, media type, properties)
    spine: list[tuple[str, bool]] = []
    ncx_id = ""
    for el in opf.iter():
        t = _local(el.tag)
        if t == "title" and not title:
            title = " ".join("".join(el.itertext()).split())
        elif t == "language" and not language:
            language = "".join(el.itertext()).strip()[:35]
        elif t == "item" and el.get("id") is not None:
            name, _ = inside(el.get("href", ""), opf_path)
            manifest.setdefault(el.get("id"), (name, el.get("media-type", ""), el.get("properties", "")))
        elif t == "spine":
            ncx_id = el.get("toc", "")
        elif t == "itemref":
            spine.append((el.get("idref", ""), el.get("linear", "yes").strip().lower() != "no"))
    media_types = {name: mt for name, mt, _ in manifest.values()}
    _check_drm(z, media_types)

    order: list[str] = []
    later: list[str] = []
    skipped_types = 0
    for idref, linear in spine:
        if idref not in manifest:
            continue
        name, mt, _ = manifest[idref]
        if not z.has(name):
            continue
        if mt not in CONTENT_TYPES and not name.lower().endswith((".xhtml", ".html", ".htm")):
            skipped_types += 1
            continue
        if name not in order and name not in later:
            (order if linear else later).append(name)
    order += [n for n in later if n not in order]
    if not order:
        raise z.bad("the EPUB's spine lists no readable chapters (XHTML). The book is damaged or holds only "
                    "images; it cannot be indexed.")
    if len(order) > LIMITS.documents:
        raise z.bad(f"the EPUB has {len(order):,} chapter files; the limit is {LIMITS.documents:,}.")

    # table of contents: EPUB 3 navigation document, else the NCX
    toc: list[tuple[int, str, str, str]] = []  # (level, title, file, fragment)
    nav = next((n for n, _, props in manifest.values() if "nav" in props.split() and z.has(n)), "")
    if nav:
        reader = _NavReader()
        for chunk in decode_stream(z.stream(nav, XML_CAP)):
            reader.feed(chunk)
        toc = [(lvl, t, *inside(h, nav)) for lvl, t, h in reader.toc()]
    if not toc:
        ncx = manifest.get(ncx_id, ("",))[0] or next((n for n, mt, _ in manifest.values()
                                                       if mt == "application/x-dtbncx+xml"), "")
        if ncx and z.has(ncx):
            toc = [(lvl, t, *inside(src, ncx)) for lvl, t, src in _ncx_toc(_xml(z, ncx, "table of contents"))]

    b = BookBuilder(filename, "EPUB")
    starts = {name: b.shared.new_id("d") for name in order}
    targets: dict[str, dict[str, str]] = {}
    outline: list[tuple[int, str, str]] = []
    for level, text, name, frag in toc:
        if name not in starts:
            continue
        eid = targets.setdefault(name, {}).setdefault(frag, b.shared.new_id("t")) if frag else starts[name]
        outline.append((level, text, eid))

    code, hidden, bold = set(), set(), set()
    for name, mt, _ in manifest.values():
        if mt == "text/css" and z.has(name) and z.size(name) <= CSS_CAP:
            c, h, b_ = css_hints(z.read(name, CSS_CAP).decode("utf-8", "replace"))
            code, hidden, bold = code | c, hidden | h, bold | b_

    for name in order:
        def image(src: str, name=name):
            inner = z.resolve(name, src)
            if inner is None:
                scheme = urlsplit(src).scheme.lower()
                remote = scheme in ("http", "https", "ftp") or src.startswith("//")
                b.shared.left_out["remote images not fetched" if remote
                                  else "images missing from the book or outside it"] += 1
                return None
            if z.size(inner) > b.images.limits.image_bytes:
                b.images.skipped["image too large"] += 1
                return None
            return b.images.add(inner, z.read(inner, b.images.limits.image_bytes))

        doc = b.doc(image=image, targets=targets.get(name, {}), code_classes=frozenset(code),
                    hidden_classes=frozenset(hidden), bold_classes=frozenset(bold - code))
        b.add(decode_stream(z.stream(name)), doc, new_page=True, start_id=starts[name])
    if skipped_types:
        b.shared.left_out["spine items that are not XHTML"] += skipped_types
    return b.build("epub", "epub", title or Path(filename).stem.replace("_", " "), language, outline)

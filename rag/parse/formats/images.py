"""Images a book carries (EPUB/DOCX archive entries, data: URIs in HTML): checked, sized, named for layout.

Only PNG, JPEG and GIF are laid out. Dimensions come from the file header before anything is decoded, so
a small file that claims a huge canvas (a pixel bomb) is skipped, not decompressed. Each accepted image is
added once to the MuPDF ``Archive`` the layout reads from, under a generated name: the book's own paths
never reach MuPDF, so nothing outside the archive can be loaded.
"""
from __future__ import annotations

import base64
import binascii
import struct
from collections import Counter
from dataclasses import dataclass, field

from .limits import LIMITS, Limits


@dataclass(frozen=True)
class Image:
    name: str  # name in the layout archive
    width: int  # pixels
    height: int


def _png(b: bytes):
    if b[:8] == b"\x89PNG\r\n\x1a\n" and b[12:16] == b"IHDR" and len(b) >= 24:
        return "png", *struct.unpack(">II", b[16:24])
    return None


def _gif(b: bytes):
    if b[:6] in (b"GIF87a", b"GIF89a") and len(b) >= 10:
        return "gif", *struct.unpack("<HH", b[6:10])
    return None


def _jpeg(b: bytes):
    if b[:2] != b"\xff\xd8":
        return None
    i = 2
    while i + 9 < len(b):
        if b[i] != 0xFF:
            return None
        marker = b[i + 1]
        if marker in (0xD8, 0x01) or 0xD0 <= marker <= 0xD7:
            i += 2
            continue
        seg = struct.unpack(">H", b[i + 2:i + 4])[0]
        if 0xC0 <= marker <= 0xCF and marker not in (0xC4, 0xC8, 0xCC):  # start of frame
            h, w = struct.unpack(">HH", b[i + 5:i + 9])
            return "jpeg", w, h
        i += 2 + seg
    return None


def sniff_image(b: bytes) -> tuple[str, int, int] | None:
    """(kind, width, height) from the header of a PNG, JPEG or GIF; None for anything else."""
    for f in (_png, _jpeg, _gif):
        r = f(b)
        if r:
            return r
    return None


@dataclass
class ImageStore:
    """The book's accepted images, the layout archive holding them, and why others were skipped."""

    limits: Limits = LIMITS
    images: dict[str, Image] = field(default_factory=dict)  # key (archive path or data-URI digest) -> image
    skipped: Counter = field(default_factory=Counter)  # reason -> count
    archive: object = None

    def __post_init__(self):
        import pymupdf

        self.archive = pymupdf.Archive()

    def add(self, key: str, data: bytes) -> Image | None:
        if key in self.images:
            return self.images[key]
        if len(data) > self.limits.image_bytes:
            self.skipped["image too large"] += 1
            return None
        head = sniff_image(data)
        if head is None:
            self.skipped["image format not shown (only PNG, JPEG, GIF)"] += 1
            return None
        kind, w, h = head
        if w <= 0 or h <= 0 or w * h > self.limits.image_pixels:
            self.skipped["image dimensions refused"] += 1
            return None
        img = Image(f"i{len(self.images)}.{kind}", w, h)
        self.archive.add((data, img.name))
        self.images[key] = img
        return img

    def add_data_uri(self, uri: str) -> Image | None:
        """An image embedded as ``data:image/…;base64,…`` (HTML, Markdown): inside the file, so it may be shown."""
        head, _, payload = uri.partition(",")
        if not head.lower().startswith("data:image/") or ";base64" not in head.lower():
            self.skipped["data URI that is not a base64 image"] += 1
            return None
        if len(payload) > self.limits.image_bytes * 4 // 3 + 4:
            self.skipped["image too large"] += 1
            return None
        try:
            data = base64.b64decode(payload, validate=False)
        except (binascii.Error, ValueError):
            self.skipped["broken data URI"] += 1
            return None
        import hashlib

        return self.add("data:" + hashlib.sha256(data).hexdigest(), data)

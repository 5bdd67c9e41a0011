"""Read a ZIP archive (EPUB, DOCX) that may be hostile: limits checked before decompressing, reads capped.

``SafeZip`` refuses, with a ``BadDocumentError`` that says why, archives that are damaged, encrypted, have
too many entries, claim too much uncompressed data or compress suspiciously well (ZIP bombs), or hold names
that climb out of the archive. ``read`` streams an entry and stops at its declared size and at the caps,
so a header that lies about sizes cannot make it allocate more.
"""
from __future__ import annotations

import io
import posixpath
import zipfile
import zlib

from ...errors import BadDocumentError
from .limits import LIMITS, Limits

CHUNK = 1 << 20


def _mb(n: int) -> str:
    return f"{n / 2**20:.0f} MB"


class SafeZip:
    def __init__(self, data: bytes, filename: str, what: str, limits: Limits = LIMITS):
        self.filename, self.what, self.limits = filename, what, limits
        try:
            self.zf = zipfile.ZipFile(io.BytesIO(data))
            infos = self.zf.infolist()
        except (zipfile.BadZipFile, OSError, ValueError, EOFError) as e:
            raise self.bad(f"the {what} is damaged: its ZIP directory cannot be read ({e}). Export or download it "
                           "again.") from None
        if len(infos) > limits.zip_entries:
            raise self.bad(f"the {what} holds {len(infos):,} files; the limit is {limits.zip_entries:,}. It is not "
                           "a normal book file.")
        total = 0
        self.infos: dict[str, zipfile.ZipInfo] = {}
        for i in infos:
            if i.flag_bits & 0x1:
                raise self.bad(f"the {what} is encrypted (password-protected ZIP). Remove the password and upload "
                               "it again.")
            name = i.filename
            if name.startswith("/") or ".." in name.split("/") or "\\" in name or "\x00" in name:
                raise self.bad(f"the {what} holds a file with an unsafe name ({name[:80]!r}). It is damaged or "
                               "crafted; it is not read.")
            if i.compress_type not in (zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED):
                raise self.bad(f"the {what} uses a compression method EPUB and Word files do not use "
                               f"(method {i.compress_type} for {name[:80]!r}). Re-save it with a normal program.")
            self._check_sizes(name, i.file_size, i.compress_size)
            total += i.file_size
            self.infos[name] = i
        if total > limits.zip_total:
            raise self.bad(f"the {what} unpacks to {_mb(total)}; the limit is {_mb(limits.zip_total)}. Split the "
                           "book or remove large media from it.")

    def bad(self, reason: str) -> BadDocumentError:
        return BadDocumentError(self.filename, reason)

    def _check_sizes(self, name: str, size: int, packed: int) -> None:
        lim = self.limits
        if size > lim.zip_entry:
            raise self.bad(f"the {self.what} holds a file of {_mb(size)} ({name[:80]!r}); the limit for one file is "
                           f"{_mb(lim.zip_entry)}.")
        if size > lim.zip_ratio_floor and size > lim.zip_ratio * max(packed, 1):
            raise self.bad(f"the {self.what} holds a file that unpacks {size / max(packed, 1):.0f}× its packed size "
                           f"({name[:80]!r}), like a ZIP bomb; it is not unpacked.")

    def names(self) -> list[str]:
        return list(self.infos)

    def has(self, name: str) -> bool:
        return name in self.infos

    def size(self, name: str) -> int:
        return self.infos[name].file_size

    def stream(self, name: str, cap: int | None = None):
        """Yield the entry's bytes in chunks, never more than its declared size nor ``cap``."""
        info = self.infos.get(name)
        if info is None:
            raise self.bad(f"the {self.what} lacks {name!r}, which it refers to. It is incomplete or damaged.")
        limit = min(info.file_size, cap if cap is not None else self.limits.zip_entry)
        if info.file_size > limit:
            raise self.bad(f"{name!r} in the {self.what} is {_mb(info.file_size)}; the limit is {_mb(limit)}.")
        done = 0
        try:
            with self.zf.open(info) as f:
                while True:
                    block = f.read(min(CHUNK, limit - done + 1))
                    if not block:
                        break
                    done += len(block)
                    if done > limit:  # more data than the header declared: stop at once
                        raise self.bad(f"{name!r} in the {self.what} holds more data than its header says. The file "
                                       "is damaged or crafted; it is not read.")
                    yield block
        except (zipfile.BadZipFile, zlib.error, OSError, EOFError, ValueError, NotImplementedError) as e:
            raise self.bad(f"{name!r} in the {self.what} is damaged and cannot be unpacked ({e}). Export or "
                           "download the file again.") from None

    def read(self, name: str, cap: int | None = None) -> bytes:
        return b"".join(self.stream(name, cap))

    def resolve(self, base: str, href: str) -> str | None:
        """The archive name that ``href`` (relative to entry ``base``, fragment and query removed, %-escapes
        decoded) names, or None when it points outside the archive or nowhere."""
        from urllib.parse import unquote, urlsplit

        parts = urlsplit(href)
        if parts.scheme or parts.netloc or href.startswith("//"):
            return None  # http:, https:, file:, data:, //host — never inside the archive
        path = unquote(parts.path)
        if not path:
            return None
        joined = posixpath.normpath(posixpath.join(posixpath.dirname(base), path)) if not path.startswith("/") \
            else posixpath.normpath(path.lstrip("/"))
        if joined.startswith("../") or joined == "..":
            return None
        return joined if joined in self.infos else None

"""Errors a user can act on. Pages show ``str(err)``; anything else is a bug and stays loud."""
from __future__ import annotations


class RagError(Exception):
    """Base: the message says what happened and what to do."""


class BadDocumentError(RagError):
    """A file that cannot be indexed (corrupt, encrypted, empty, image-only, not a PDF, too large)."""

    def __init__(self, filename: str, reason: str):
        self.filename = filename
        self.reason = reason
        super().__init__(f"{filename}: {reason}")


class EmbeddingMismatchError(RagError):
    """Vectors on disk were made by another embedding model than the one configured."""


class BackendError(RagError):
    """The answer backend (LLM server) failed or cannot be reached."""


class StoreError(RagError):
    """The vector store cannot be reached or opened."""


class NotFoundError(RagError):
    """A book, chunk or session id that does not exist."""

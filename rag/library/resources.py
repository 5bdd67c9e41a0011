"""The heavy objects a library runs on — settings, catalog, vector store, embedder, BM25 indexes — built once
per process and lazily (a page renders before the model loads), or passed in (tests and a second library that
shares a loaded embedder). Never mutated after construction; per-request settings are copies."""
from __future__ import annotations

import threading

from ..settings import Settings
from .bm25_cache import BM25Cache
from .catalog import Catalog


class Resources:
    def __init__(self, settings: Settings, *, embed=None, store=None, catalog: Catalog | None = None,
                 bm25: BM25Cache | None = None):
        self.settings = settings
        settings.data_dir.mkdir(parents=True, exist_ok=True)
        self.catalog = catalog or Catalog(settings.catalog_path)
        self.bm25 = bm25 or BM25Cache(settings.data_dir / "bm25")
        self._embed, self._store = embed, store
        self._lock = threading.RLock()

    @property
    def embed(self):
        """The embedding model (``rag.embed``), made on first use."""
        if self._embed is None:
            with self._lock:
                if self._embed is None:
                    from ..embed import make_embedder

                    self._embed = make_embedder(self.settings)
        return self._embed

    @property
    def loaded_embed(self):
        """The embedding model if it has been made, else None (never makes it)."""
        return self._embed

    @property
    def store(self):
        """The vector store (``rag.library.vectors``), opened on first use."""
        if self._store is None:
            with self._lock:
                if self._store is None:
                    from ..embed import EMBED_DIMS
                    from .vectors import VectorStore

                    s = self.settings
                    dim = EMBED_DIMS.get(s.embed_model) or self.embed.dimension
                    self._store = VectorStore(s, s.embed_model, dim, fetch=self.catalog.chunks_at)
        return self._store

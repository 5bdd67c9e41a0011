"""Query-time context: book type (``doctype``), per-hit windows or parents (``windows``), and assembly into
numbered sources within a budget (``assemble``). The question's type comes from ``rag.query.kinds``."""
from .assemble import ContextBuilder, build_sources, format_sources
from .doctype import DOC_TYPES, guess as guess_doc_type

__all__ = ["ContextBuilder", "build_sources", "format_sources", "DOC_TYPES", "guess_doc_type"]

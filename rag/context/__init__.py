"""Query-time context: question type (``querytype``), book type (``doctype``), per-hit windows or
parents (``windows``), and assembly into numbered sources within a budget (``assemble``)."""
from .assemble import ContextBuilder, build_sources, format_sources
from .doctype import DOC_TYPES, guess as guess_doc_type
from .querytype import QUERY_TYPES, classify as classify_question

__all__ = ["ContextBuilder", "build_sources", "format_sources", "DOC_TYPES", "guess_doc_type", "QUERY_TYPES",
           "classify_question"]

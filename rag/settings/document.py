"""docs/settings.md: every setting, tuning numbers included, with its default and meaning — generated from the
fields' descriptions (``python -m rag settings``), so the document cannot drift from the code."""
from __future__ import annotations

from pydantic import BaseModel


def _rows(model: type[BaseModel], prefix: str) -> list[str]:
    rows = []
    for name, field in model.model_fields.items():
        if isinstance(field.default, BaseModel):
            rows += _rows(type(field.default), f"{prefix}{name.upper()}__")
        else:
            rows.append(f"| `{prefix}{name.upper()}` | `{field.default}` | {field.description} |")
    return rows


def settings_table() -> str:
    """Markdown table of every setting, tuning numbers included (docs/settings.md is generated from it)."""
    return "\n".join(["| env var | default | meaning |", "|---|---|---|"] + _rows(_settings(), "RAG_"))


def settings_document() -> str:
    """docs/settings.md: every setting with its default and meaning (``python -m rag settings`` prints it)."""
    return ("# Settings\n\nEnvironment variables with the prefix `RAG_`, read once by\n"
            "`rag/settings/`. Chunk settings (`RAG_CHUNKER`, `RAG_CHUNK_SIZE`, `RAG_CHUNK_OVERLAP`, "
            "`RAG_SENTENCE_OVERLAP`,\n"
            "`RAG_SEMANTIC_PERCENTILE`, `RAG_PARENT_SIZE`, `RAG_EMBED_CONTEXT`) apply when a book is added or "
            "re-indexed;\n"
            "everything else applies to the next question. `RAG_TUNING__…` are the query stages' tuning numbers, one\n"
            "group per stage; `python -m rag eval qa … --config tuning.extractive.in_hit=0.2` sweeps one (dotted "
            "names).\n"
            "This file is generated: `python -m rag settings > docs/settings.md`.\n\n" + settings_table() + "\n")


def _settings() -> type[BaseModel]:
    from . import Settings

    return Settings

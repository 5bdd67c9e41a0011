"""Optional: a vision model describes each figure at ingest (off unless ``RAG_FIGURE_VISION_MODEL`` is set).

Talks to Ollama's OpenAI-compatible ``/v1/chat/completions`` (any server of that API that takes
``image_url`` content works) with the figure's PNG as a data URI. The paragraph is stored with
the figure and indexed with its caption; a failure is counted in the ingest report, never fatal.
"""
from __future__ import annotations

import base64

PROMPT = ("Describe this figure from a book in one short paragraph: what it shows, its parts and labels, "
          "and what it is meant to explain. Caption: {caption}")


def describe(png: bytes, caption: str, base_url: str, model: str, timeout: float) -> str:
    import httpx

    url = base_url.rstrip("/") + "/v1/chat/completions"
    body = {"model": model, "temperature": 0, "max_tokens": 200, "messages": [{"role": "user", "content": [
        {"type": "text", "text": PROMPT.format(caption=caption or "(none)")},
        {"type": "image_url", "image_url": {"url": "data:image/png;base64," + base64.b64encode(png).decode()}},
    ]}]}
    r = httpx.post(url, json=body, timeout=timeout)
    r.raise_for_status()
    return " ".join((r.json()["choices"][0]["message"]["content"] or "").split())[:1200]


def describe_all(figures, images: list[bytes], settings, progress=None) -> dict:
    """Fill ``figure.description`` for each figure; returns {"written": n, "failed": m, "error": first error}."""
    out = {"written": 0, "failed": 0, "error": ""}
    for i, (f, png) in enumerate(zip(figures, images)):
        try:
            f.description = describe(png, f.caption, settings.ollama_base_url, settings.figure_vision_model,
                                     settings.llm_timeout_s)
            out["written"] += bool(f.description)
        except Exception as e:  # the figure stays, without a description
            out["failed"] += 1
            out["error"] = out["error"] or f"{type(e).__name__}: {e}"[:200]
        if progress:
            progress(i + 1, len(figures))
    return out

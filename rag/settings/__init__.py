"""One settings object for the whole pipeline (env prefix ``RAG_``); its tuning groups are in ``tuning``, the
generated docs/settings.md in ``document``.

Every field is documented here and in the README's settings table. Build it once
(``Settings()``); pages and the CLI pass per-request overrides with
``settings.model_copy(update=...)`` instead of mutating it.
"""
from __future__ import annotations

from pathlib import Path
from typing import Literal

from pydantic import BaseModel, Field
from pydantic_settings import BaseSettings, SettingsConfigDict

from .tuning import (  # noqa: F401  (the tuning groups are part of the settings' interface)
    AnswerTuning, ExtractiveTuning, FigureTuning, RetrieveTuning, Tuning, WindowTuning)

AnswerBackendName = Literal["extractive", "openai", "ollama"]
ChunkerName = Literal["paragraph", "sentence", "token", "semantic", "section", "hierarchical"]
CHUNK_KEYS = ("chunker", "chunk_size", "chunk_overlap", "sentence_overlap", "semantic_percentile", "parent_size",
              "embed_context", "embed_headings")


# bump when the same settings cut different chunks (3: running headers/footers kept out of chunk text;
# 4: contents/index/references/copyright chunks tagged; 5: ruled tables as Markdown rows, kept whole; scans OCR'd;
# 6: ligatures expanded; 7: administrative sections (funding, competing interests, acknowledgements) tagged,
# section headings may be embedded with the chunk; 8: sentences split by rag.text.split, not NLTK's Punkt; 9:
# superscript digits kept as superscripts, 1×10⁵ not 1×105; 10: a book Folio laid out keeps the hyphen a line ends
# with, --apt-ftp-proxy not -apt-ftp-proxy; 11: a spacing accent after its letter joined to it, Sélambarom not
# Se´lambarom, and a code line the layout wrapped inside a path joined back; 16: a page whose only glyphs without
# Unicode are symbols set one by one (music notes) keeps its text instead of OCR, a hyphen set high stays a
# hyphen; 17: a page break inside a sentence is no paragraph break for the chunkers, also when its lines hold
# parentheses or the next page's first word carries punctuation, and an outline entry's section starts at its heading,
# not at its page's running header; 18: a bold sentence or a bold line of twelve words or more is no heading, and a
# symbol font's bullets and TeX's tall-bracket pieces are the characters they draw, not Private Use Area boxes; 19:
# a block's blank lines no longer hide its heading lines, a block's first lines set larger than the rest are
# headings and paragraphs of their own, "Chapter 2" over its name is one heading, and the book's title is no
# section around the book; a paper's
# title-and-byline chunk and its affiliations are front matter; music notation (staff lines and note glyphs without
# Unicode) is a figure, and its glyphs leave the text; 20: an EPUB's list item outside any list is laid out as a
# bulleted item, not run into its neighbours and the paragraph after them as one paragraph; 23: Folio's own
# dehyphenation; 24: a typewriter line MuPDF split at its runs of spaces is one line with those spaces; 25: a page's
# first line a little lower, its middle within 8.5 % of the page's height, is a running header: gnuplot's; 26: a code
# listing inside a figure's region stays in the running text; 27: TeX's maths fonts without a character map read as the
# characters their glyphs draw, "⋃", "∑", "≤", not "�"; 28: a shell variable in prose, "${USBSTICK}", does not keep a
# sentence a page break cuts in two pieces; 29: a French contents page ("Table des matières", "Sommaire") and one whose
# section numbers, titles and page numbers MuPDF reads as separate lines are contents, not text; 30: a music example's
# lyrics, a syllable a line under its notes, are the example's words, not the page's, and the tips of a TeX horizontal
# brace read "╰╮╭╯", not "�"; 31: a bold line under a music example, "See also", is the page's heading, no lyric; 32:
# such glyphs whose codes MuPDF reads with spaces between them, an overbrace's "z }| {", are lined up with them; 33:
# a page's first or last line holding a bare number that keeps step with the pages is its page number, wherever the
# margin sets it; 34: a text line repeated at one height on 30 % of the pages a little above the bottom band is a
# footer: Gutenprint's "40  Gutenprint 5.2 User's Manual  06/01/2012"), so adding a book again re-makes its chunks
# instead of keeping the old ones
CHUNKING_VERSION = 34


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_prefix="RAG_", extra="ignore", env_nested_delimiter="__")

    # --- storage -----------------------------------------------------------
    data_dir: Path = Field(Path("data"), description="Folder for runtime state: catalog.db, chroma/, uploads/, "
                                                     "figures/, pages/ (page image cache).")
    chroma_host: str | None = Field(None, description="Chroma server host; when set, use HttpClient instead of the "
                                                      "embedded PersistentClient.")
    chroma_port: int = Field(8000, description="Chroma server port (with RAG_CHROMA_HOST).")
    max_upload_mb: int = Field(200, description="Largest file accepted (PDF, EPUB, Word, HTML, Markdown, text), in MB.")

    # --- embedding ---------------------------------------------------------
    embed_model: str = Field("all-MiniLM-L6-v2", description="Embedding model name; 'all-MiniLM-L6-v2' loads the "
                                                             "offline packaged copy, anything else is a local "
                                                             "sentence-transformers path.")
    embed_batch_size: int = Field(32, description="Chunks per embedding batch (torch backend; ONNX batches by length, "
                                                  "up to 2,048 word-pieces).")
    embed_backend: Literal["auto", "onnx", "torch"] = Field("auto", description="'onnx': ONNX Runtime on an int8 "
                                                                                "export of the model (made once from "
                                                                                "the local model, cached in "
                                                                                "RAG_MODEL_CACHE_DIR; no torch in the "
                                                                                "app process); 'torch': "
                                                                                "sentence-transformers, the reference; "
                                                                                "'auto': onnx, falling back to torch "
                                                                                "when the export fails or does not "
                                                                                "match the reference (mean cosine < "
                                                                                "0.99).")
    embed_threads: int = Field(0, ge=0, le=256, description="CPU threads the embedder uses; 0 = all cores.")
    embed_cache_file: Path | None = Field(None, description="The embedding cache (vectors by model and text: "
                                          "re-indexing embeds nothing twice); empty: data_dir/embed_cache.db. The "
                                          "Evaluate page's own library shares the main one.")
    model_cache_dir: Path | None = Field(None, description="Folder for exported models (the ONNX embedder); empty: "
                                                           "<RAG_DATA_DIR>/models.")

    # --- chunking (decided at ingest; changing them needs a re-index) -------
    chunker: ChunkerName = Field("paragraph", description="Default chunking strategy for new books (each book can have "
                                                          "its own, chosen at upload or re-index): 'paragraph' "
                                                          "(paragraph→sentence packing), 'sentence' (whole sentences, "
                                                          "overlap in sentences), 'token' (fixed word-piece windows), "
                                                          "'semantic' (breaks where sentence embeddings drift), "
                                                          "'section' (sections first, code and tables whole), "
                                                          "'hierarchical' (parents made of small children; context "
                                                          "decided at query time).")
    chunk_size: int = Field(200, ge=32, le=250, description="Max word-pieces per chunk (children, for 'hierarchical'); "
                                                            "all-MiniLM-L6-v2 reads at most 256 including 2 special "
                                                            "tokens.")
    chunk_overlap: int = Field(0, ge=0, le=100, description="Word-pieces shared by consecutive chunks ('paragraph', "
                                                            "'token'); 0 because context is widened at query time.")
    sentence_overlap: int = Field(1, ge=0, le=5, description="Sentences repeated at the start of the next chunk "
                                                             "('sentence').")
    semantic_percentile: float = Field(90.0, ge=50.0, le=99.9, description="'semantic': a chunk ends where the "
                                                                           "distance between neighbouring sentences is "
                                                                           "above this percentile of the section's "
                                                                           "distances.")
    embed_context: int = Field(0, ge=0, le=200, description="Word-pieces of surrounding section text embedded with "
                                                            "each chunk (half before, half after); the chunk alone is "
                                                            "still what is retrieved and shown. 0 = the chunk's text "
                                                            "only.")
    embed_headings: int = Field(0, ge=0, le=4, description="The last this many parts of a chunk's section path ('Usage "
                                                           "notes > Numerical limitations') embedded with it; 0 = "
                                                           "none. Shown and retrieved text is unchanged.")
    parent_size: int = Field(1024, ge=64, le=4096, description="'hierarchical': max word-pieces of a parent.")

    # --- retrieval (query time; no re-index needed) -------------------------
    retrieval_mode: Literal["hybrid", "dense", "bm25"] = Field("hybrid", description="'hybrid' fuses dense and BM25 "
                                                                                     "(RAG_FUSION: convex by default, "
                                                                                     "or RRF); 'dense' or 'bm25' uses "
                                                                                     "one of them (for comparisons).")
    retrieve_k: int = Field(25, ge=1, le=100, description="Candidates taken from each of dense and BM25 before fusion "
                                                         "(chosen leave-one-book-out over 16 books: 25).")
    dense_exact_max: int = Field(250_000, ge=0, description="Searched chunks up to which the dense search is an exact "
                                                          "dot product with every vector; above it, a similarity "
                                                          "estimated from each book's sketch (RAG_DENSE_SKETCH_DIMS) "
                                                          "picks RAG_DENSE_CANDIDATES chunks, re-scored exactly.")
    dense_candidates: int = Field(5_000, ge=10, description="Chunks re-scored exactly when the dense search goes by "
                                                             "sketches (more than RAG_DENSE_EXACT_MAX chunks).")
    dense_sketch_dims: int = Field(128, ge=8, description="Dimensions of a book's sketch: its vectors' coordinates on "
                                                          "their principal axes, for the first step of a large "
                                                          "library's dense search.")
    fusion: Literal["convex", "rrf"] = Field("convex", description="How dense and BM25 scores are fused: 'convex' = "
                                                                   "RAG_FUSION_ALPHA × cosine + (1 − alpha) × BM25, "
                                                                   "each normalised by its theoretical minimum and the "
                                                                   "question's best candidate (Bruch et al. 2023); "
                                                                   "'rrf' = reciprocal rank fusion.")
    fusion_alpha: float = Field(0.75, ge=0.0, le=1.0, description="Weight of the dense score in convex fusion (chosen "
                                                                  "on SciFact train queries: 0.75).")
    translate_words: bool = Field(True, description="A question in another language than a searched book is also "
                                                    "searched for its words' translations, from an installed FreeDict "
                                                    "dictionary (Debian's dict-freedict-deu-eng, -fra-eng, …; none: "
                                                    "off).")
    rerank_model: str = Field("", description="Local folder of a sentence-transformers CrossEncoder that re-orders the "
                                              "best fused candidates (none is packaged; empty: off).")
    rerank_top_n: int = Field(20, ge=2, le=100, description="How many fused candidates the cross-encoder re-orders "
                                                            "(RAG_RERANK_MODEL set).")
    rrf_k: int = Field(60, ge=1, description="Reciprocal-rank-fusion constant k (RAG_FUSION=rrf).")
    similarity_threshold: float = Field(0.30, ge=-1.0, le=1.0, description="Minimum cosine similarity (query vs chunk) "
                                                                           "for a chunk below the fused best "
                                                                           "min_chunks to count as relevant; if none "
                                                                           "passes, the answer is 'not found'.")
    answerable_min: float = Field(0.7, ge=0.0, le=1.0, description="At or above this calibrated probability that the "
                                                                   "books answer the question "
                                                                   "(rag/retrieve/answerability.py: similarities, how "
                                                                   "much of the question's rare words the best "
                                                                   "passages and one sentence hold, words no book has, "
                                                                   "dense/BM25 agreement, the answer type it asks for) "
                                                                   "the answer is given plainly; below it, see "
                                                                   "RAG_LIKELY_MIN.")
    prefer_subject_books: bool = Field(True, description="A question that names a subject some books are about and "
                                                         "others only mention ('a Python function', 'in LaTeX', "
                                                         "'Octave') searches the books about it.")
    answerability_model: str = Field("", description="A fitted answerability model (JSON, `eval calibrate --write-to`) "
                                                     "instead of the shipped rag/retrieve/answerability.json; `eval qa "
                                                     "--lobo` uses one per held-out book.")
    likely_min: float = Field(0.45, ge=0.0, le=1.0, description="Between this and RAG_ANSWERABLE_MIN the best passage "
                                                               "is shown as the likely answer with a plain "
                                                               "low-confidence label; below it the answer is 'not in "
                                                               "your books' with the closest passages (0.45: "
                                                               "chosen by leave-one-book-out, `eval calibrate`, "
                                                               "docs/evaluation.md).")
    min_chunks: int = Field(2, ge=1, le=50, description="Once one chunk passes the similarity threshold, the fused "
                                                        "best this many are kept whatever their similarity (fusion "
                                                        "often ranks them on exact words the dense model misses); "
                                                        "further chunks must pass.")
    max_chunks: int = Field(10, ge=1, le=50, description="Keep at most this many chunks after fusion and filtering.")
    language: Literal["", "en", "de", "fr", "es", "it", "nl", "pt", "vi"] = Field(
        "",
        description="Language of every "
        "book for BM25 "
        "(stemming, stopwords) and OCR; empty: detect each book's language from its text.",
    )
    ocr: bool = Field(True, description="Read scanned pages (no text layer, or fonts without Unicode) with Tesseract "
                                        "when it is installed; false: leave them unread (said at upload).")

    # --- context assembly ---------------------------------------------------
    context_mode: Literal["adaptive", "fixed"] = Field("adaptive", description="'adaptive': each hit's window (or "
                                                                               "parent) is sized from the question "
                                                                               "type, the book type and the hit's "
                                                                               "place in its section, neighbours below "
                                                                               "RAG_NEIGHBOUR_MIN_SIMILARITY dropped; "
                                                                               "'fixed': RAG_WINDOW chunks each side.")
    window: int = Field(1, ge=0, le=10, description="Neighbour chunks added on each side of a hit ('fixed' mode; the "
                                                    "most 'adaptive' adds is twice this + 1).")
    neighbour_min_similarity: float = Field(0.15, ge=-1.0, le=1.0, description="'adaptive': a neighbour less similar "
                                                                               "to the question than this ends the "
                                                                               "window on its side.")
    context_budget_tokens: int = Field(2000, ge=200, le=32000, description="Word-piece budget for all sources sent to "
                                                                           "the answerer.")

    # --- answering ----------------------------------------------------------
    answer_backend: AnswerBackendName = Field("extractive", description="'extractive' (offline, no LLM), 'openai' (any "
                                                                        "OpenAI-compatible server) or 'ollama'.")
    extractive_sentences: int = Field(4, ge=1, le=12, description="Sentences the extractive answerer quotes.")
    llm_focus: bool = Field(True, description="LLM backends read only the sources holding a sentence that answers "
                                              "(scored as the extractive answerer scores them, within 80 % of the "
                                              "best), best first, at least 3; false = every retrieved source in fused "
                                              "order.")
    llm_base_url: str = Field("http://127.0.0.1:8080/v1", description="OpenAI-compatible base URL (vLLM, llama.cpp "
                                                                      "server, LM Studio…).")
    llm_model: str = Field("local-model", description="Model name sent to the OpenAI-compatible server.")
    llm_api_key: str = Field("not-needed", description="API key for the OpenAI-compatible server.")
    ollama_base_url: str = Field("http://127.0.0.1:11434", description="Ollama server URL (its OpenAI-compatible /v1 "
                                                                       "API is used).")
    ollama_model: str = Field("llama3.2", description="Ollama model name.")
    llm_temperature: float = Field(0.1, ge=0.0, le=2.0, description="Sampling temperature for LLM backends.")
    llm_max_tokens: int = Field(512, ge=16, le=8192, description="Max tokens an LLM answer may generate.")
    llm_timeout_s: float = Field(120.0, gt=0, description="Seconds to wait for the LLM server.")
    history_turns: int = Field(3, ge=0, le=10, description="Previous turns used to reformulate a follow-up question.")

    # --- figures and citations ---------------------------------------------
    max_figures: int = Field(3, ge=0, le=12, description="Most figures shown under an answer (0 = none).")
    figure_min_similarity: float = Field(0.45, ge=-1.0, le=1.0, description="A figure not linked to a cited source is "
                                                                            "shown only when its "
                                                                            "caption/labels/context are at least this "
                                                                            "similar to the question and to the "
                                                                            "answer, in a book the answer cites.")
    figure_vision_model: str = Field("", description="Ollama vision model (e.g. llava, qwen2.5vl) that writes a "
                                                     "one-paragraph description of each figure at ingest, indexed with "
                                                     "its caption; empty = off. Uses RAG_OLLAMA_BASE_URL.")
    slow_answer_ms: float = Field(3000.0, gt=0, description="An answer taking longer than this (ms) is flagged slow on "
                                                            "the Metrics page.")
    low_similarity: float = Field(0.4, ge=-1.0, le=1.0, description="An answer whose sources' average similarity is "
                                                                    "below this is flagged low-similarity.")
    page_image_zoom: float = Field(1.5, ge=0.5, le=4.0, description="Zoom of rendered page images (1.0 = 72 dpi).")

    # --- tuning numbers of the query stages ------------------------------
    tuning: Tuning = Field(Tuning(), description="Tuning numbers of the query stages (see the table below); "
                                                 "RAG_TUNING__EXTRACTIVE__IN_HIT=0.2 sets one.")

    # --- paths derived from data_dir -----------------------------------------
    @property
    def catalog_path(self) -> Path:
        return self.data_dir / "catalog.db"

    @property
    def chroma_path(self) -> Path:
        return self.data_dir / "chroma"

    @property
    def uploads_dir(self) -> Path:
        return self.data_dir / "uploads"

    @property
    def embed_cache_path(self) -> Path:
        return self.embed_cache_file or self.data_dir / "embed_cache.db"

    @property
    def model_cache_path(self) -> Path:
        return self.model_cache_dir or self.data_dir / "models"

    @property
    def figures_dir(self) -> Path:
        return self.data_dir / "figures"

    @property
    def page_cache_dir(self) -> Path:
        return self.data_dir / "pages"

    def chunking_config(self) -> dict:
        """What made a book's chunks; stored with each book."""
        return {**{k: getattr(self, k) for k in CHUNK_KEYS}, "v": CHUNKING_VERSION}

    def same_chunking(self, stored: dict) -> bool:
        """Whether a book's stored chunking equals this one (keys it predates count as their defaults;
        chunks made by an older chunking version are re-made)."""
        fields = type(self).model_fields
        return (stored.get("v", 1) >= CHUNKING_VERSION
                and all(stored.get(k, fields[k].default) == getattr(self, k) for k in CHUNK_KEYS))


def with_overrides(settings: Settings, overrides: dict | None) -> Settings:
    """Per-request settings: a cheap copy for plain keys (the chat's sidebar, every question), ``updated`` (checked)
    when a tuning number is among them."""
    if not overrides:
        return settings
    if any("." in k for k in overrides):
        return updated(settings, overrides)
    return settings.model_copy(update=overrides)


def field_of(key: str):
    """The pydantic field a (dotted) setting name names, else None."""
    model, field = Settings, None
    for part in key.split("."):
        if model is None:
            return None
        field = model.model_fields.get(part)
        if field is None:
            return None
        model = type(field.default) if isinstance(field.default, BaseModel) else None
    return field


def updated(settings: Settings, overrides: dict) -> Settings:
    """``settings`` with ``overrides`` applied and checked; a dotted key sets a tuning number
    ("tuning.extractive.in_hit": 0.2, "tuning.windows.budget.factual": 500)."""
    flat = {k: v for k, v in overrides.items() if "." not in k}
    data = settings.model_dump()
    data.update(flat)
    for key, value in overrides.items():
        if "." in key:
            *path, last = key.split(".")
            node = data
            for part in path:
                if not isinstance(node, dict) or part not in node:
                    raise ValueError(f"'{key}' is not a setting")
                node = node[part]
            if not isinstance(node, dict) or last not in node:
                raise ValueError(f"'{key}' is not a setting")
            node[last] = value
    return Settings.model_validate(data)


from .document import settings_document, settings_table  # noqa: E402,F401  (python -m rag settings)

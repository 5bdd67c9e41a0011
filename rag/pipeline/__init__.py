"""The pipeline: the stages a question goes through (``stages``), run in order and timed (``runner``):

    reformulate → scope → retrieve → neighbourhood → sub_questions → definition → named_figures → editions
    → admin → decide → expand → focus → figures  |  answer (streamed) → check

``Pipeline.run`` runs them over a ``Run`` (what each stage reads and writes) up to a stage; ``Folio.ask`` streams
the answer from a full run, ``Folio.evidence`` stops after ``decide``, and the inspector's probe shows a full run —
so what the probe shows is what the chat does. A stage that has nothing to do for a question leaves the run as it
is and returns False (a one-part question has no sub-questions); such stages are left out of the trace.
"""
from __future__ import annotations

from .runner import EMPTY_LIBRARY, NO_WORDS, AnswerStream, Pipeline, context_report
from .run import Run
from .stages import STAGE_NAMES

__all__ = ["AnswerStream", "EMPTY_LIBRARY", "NO_WORDS", "Pipeline", "Run", "STAGE_NAMES", "context_report"]

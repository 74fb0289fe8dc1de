"""What a trec_eval evaluation is asked for: its judgment formats and its errors."""

from __future__ import annotations

from typing import Literal, get_args

from ..._base.errors import ParameterError

__all__ = ["JUDGMENTS", "Judgments", "TrecEvalError"]

# -R: plain qrels, qrels with judgment groups, preferences, or qrels read as preferences
Judgments = Literal["qrels", "qrels_jg", "prefs", "qrels_prefs"]
JUDGMENTS: tuple[str, ...] = get_args(Judgments)


class TrecEvalError(ParameterError):
    """A request trec_eval refuses: an unknown measure, bad parameters, a measure the
    judgments cannot give. ``status`` is the exit status trec_eval refuses it with."""

    def __init__(self, message: str, status: int):
        super().__init__(message)
        self.status = status

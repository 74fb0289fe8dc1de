"""Warnings to the user about their data: one per problem per call, at the caller's line.

Every public function warns through :func:`warn_user`: the warning names the first frame
outside ranklens (the user's line, however deep in ranklens the problem was found), and a
message said twice in one call is said once. :func:`per_problem` merges the messages that
differ only in the run they name into one naming every run.
"""

from __future__ import annotations

import os
import sys
import warnings
from collections.abc import Iterable

from .errors import RanklensWarning

__all__ = ["per_problem", "users_level", "warn_user"]

# the ranklens package's folder: frames there are ranklens's own
_PACKAGE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def _ours(filename: str) -> bool:
    # a relative sys.path entry gives relative file names
    return os.path.abspath(filename).startswith(_PACKAGE + os.sep)


def users_level() -> int:
    """The ``stacklevel`` that makes a warning issued by :func:`warn_user` name the first
    frame outside ranklens (the last frame when every one is ranklens's own)."""
    frame, level = sys._getframe(2), 2  # warn_user's caller, seen from warnings.warn
    while frame.f_back is not None and _ours(frame.f_code.co_filename):
        frame, level = frame.f_back, level + 1
    return level


def warn_user(messages: str | Iterable[str],
              category: type[Warning] = RanklensWarning) -> None:
    """Issue each of ``messages`` once (in order, repeats dropped) as a ``category``
    warning pointing at the caller's line, outside ranklens."""
    said = list(dict.fromkeys([messages] if isinstance(messages, str) else messages))
    if said:
        level = users_level()
        for message in said:
            warnings.warn(message, category, stacklevel=level)


def per_problem(notes: Iterable[tuple[str, str]]) -> list[str]:
    """``(run label, message)`` pairs as one message per problem: the messages that read
    alike but for the run they name (``the run (a)``, ``the run (b)``) become one naming
    every run (``the runs (a, b)``), where the first of them stood.

    Examples
    --------
    >>> per_problem([("a", "1 queries of the run (a) are odd"),
    ...              ("b", "1 queries of the run (b) are odd"), ("b", "b is late")])
    ['1 queries of the runs (a, b) are odd', 'b is late']
    """
    groups: dict[str, list[str]] = {}
    for label, message in notes:
        key = message.replace(f"({label})", "(\0)") if f"({label})" in message else message
        runs = groups.setdefault(key, [])
        if label not in runs:
            runs.append(label)
    out = []
    for key, runs in groups.items():
        if "\0" not in key:
            out.append(key)
        elif len(runs) == 1:
            out.append(key.replace("\0", runs[0]))
        else:
            out.append(key.replace("the run (\0)", "the runs (\0)")
                       .replace("\0", ", ".join(runs)))
    return out

"""The ``columns=`` keyword of the functions that take run files (``evaluate``, ``compare``,
``report``, ``agreement``, ``fuse``, ``pool``): the run paths among the arguments read as
headerless files with those columns, each named as a path is
(:mod:`~ranklens._ingest.io._run_names`); the columns are checked by :func:`load_run`."""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from typing import Any

from ..._base.errors import ParameterError
from ._load import load_run
from ._run_names import name_runs

__all__ = ["Columns", "with_columns"]

#: the keyword's type: ``"qid,docid,score"`` or ``("qid", "docid", "score")``
Columns = str | Sequence[str] | None


def _path(run: Any) -> bool:
    return isinstance(run, (str, os.PathLike))


def with_columns(runs: Any, columns: Columns) -> Any:
    """``runs`` (one run, a list or tuple of runs, or a mapping ``{name: run}``) with each
    path read with ``columns``; the rest as given. ``columns=None``: ``runs`` unchanged.

    Raises
    ------
    ParameterError
        ``columns`` given but no run is a path (it names the columns of run files).
    """
    if columns is None:
        return runs
    if _path(runs):
        return load_run(runs, columns=columns)
    if isinstance(runs, (list, tuple)) and any(map(_path, runs)):
        return [r if n is None else load_run(r, name=n, columns=columns)
                for r, n in zip(runs, name_runs(runs), strict=True)]
    if isinstance(runs, Mapping) and any(map(_path, runs.values())):
        return {k: load_run(r, name=str(k), columns=columns) if _path(r) else r
                for k, r in runs.items()}
    raise ParameterError("the 'columns' option names the columns of headerless run files; "
                         "no run was given as a path (leave out columns=)")

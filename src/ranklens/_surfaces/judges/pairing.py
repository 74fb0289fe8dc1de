"""The judges' labels side by side: loaded, put on one grade scale, joined on (query, doc).

Agreement is measured over the pairs both judges judged (an inner join, as UMBRELA re-judges
the human pairs). The pairs one judge has and the other lacks are counted and listed, never
dropped silently. Grades must be integers on one scale: judges whose highest grades differ
(0-3 against 0-4) are refused unless a mapping or the common scale is given. The scale is
every integer from the lowest grade to the highest, so a grade nobody used still counts in
the weighted kappas' distances.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np
import polars as pl

from ..._base.errors import InputError, ParameterError
from .umbrela import PREFIX, umbrela_qrels

__all__ = ["Joined", "Judged", "judged"]

KEYS = ["query_id", "doc_id"]


@dataclass(frozen=True)
class Joined:
    """Pairs judged by every judge named: query codes, each judge's grade positions."""

    query_ids: tuple[str, ...]
    queries: np.ndarray
    positions: tuple[np.ndarray, ...]


@dataclass(frozen=True)
class Judged:
    """Each judge's labels (``query_id, doc_id, grade``) and the common grade scale."""

    frames: dict[str, pl.DataFrame]
    grades: np.ndarray

    def join(self, names: list[str]) -> Joined:
        """The pairs every judge of ``names`` judged, in (query, doc) order."""
        both = self.frames[names[0]].rename({"grade": names[0]})
        for name in names[1:]:
            both = both.join(self.frames[name].rename({"grade": name}), on=KEYS)
        both = both.sort(KEYS)
        query_ids, queries = np.unique(both["query_id"].to_numpy(), return_inverse=True)
        if not len(both):
            raise ParameterError(f"judges {', '.join(map(repr, names))} share no judged "
                                 "(query, doc) pair; agreement is measured on the pairs all "
                                 "of them judged")
        positions = tuple(np.searchsorted(self.grades, both[n].to_numpy()).astype(np.int64)
                          for n in names)
        return Joined(tuple(str(q) for q in query_ids), queries.astype(np.int64), positions)

    def alone(self, name: str, other: str) -> pl.DataFrame:
        """The pairs ``name`` judged and ``other`` did not (``query_id, doc_id, grade``)."""
        return self.frames[name].join(self.frames[other], on=KEYS, how="anti").sort(KEYS)


def _scale(name: str, grades: pl.Series, mapping: Mapping[Any, Any] | None) -> pl.Series:
    if mapping:
        grades = grades.replace_strict({float(k): float(v) for k, v in mapping.items()},
                                       default=grades)
    if (grades != grades.round()).any():
        bad = grades.filter(grades != grades.round())[0]
        raise InputError(f"judge {name!r} gives the grade {bad:g}; agreement needs integer "
                         "grades (map them with the 'mapping' option, --map)")
    return grades.cast(pl.Int64)


def _known(option: str, flag: str, named: Mapping[str, Any], judges: Mapping[str, Any]) -> None:
    unknown = sorted(set(named) - set(judges))
    if unknown:
        raise ParameterError(f"the '{option}' option ({flag}) names {unknown[0]!r}, no judge; "
                             f"the judges are {', '.join(judges)}")


def judged(judgments: Mapping[str, Any], grades: list[int] | None = None,
           mapping: Mapping[str, Mapping[Any, Any]] | None = None,
           columns: Mapping[str, str] | None = None) -> Judged:
    """Load every judge's labels (a headerless file by its ``columns``, as
    ``load_qrels(columns=...)`` reads it) and check that they share one grade scale."""
    from ..._ingest.io._load import load_qrels

    mapping, columns = dict(mapping or {}), dict(columns or {})
    _known("mapping", "--map", mapping, judgments)
    _known("columns", "--columns", columns, judgments)
    frames = {}
    for name, given in judgments.items():
        spec = columns.get(name, "")
        if spec.startswith(PREFIX):  # UMBRELA's outputs, joined by position with its requests
            given, spec = umbrela_qrels(given, spec[len(PREFIX):]), ""
        frame = load_qrels(given, columns=spec or None).frame
        twice = frame.filter(frame.select(KEYS).is_duplicated())
        if len(twice):
            raise InputError(f"judge {name!r} labels query {twice['query_id'][0]!r} doc "
                             f"{twice['doc_id'][0]!r} twice; keep one label per pair")
        frames[name] = frame.select(*KEYS, grade=_scale(name, frame["relevance"],
                                                        mapping.get(name)))
    observed = {n: sorted(set(f["grade"].to_list())) for n, f in frames.items()}
    if grades is None:
        tops = {n: g[-1] for n, g in observed.items() if g}
        if len(set(tops.values())) > 1:
            (a, ta), (b, tb) = sorted(tops.items(), key=lambda kv: kv[1])[::len(tops) - 1]
            raise ParameterError(
                f"judges {a!r} (top grade {ta}) and {b!r} (top grade {tb}) use different "
                f"scales; map one onto the other (mapping={{{b!r}: {{{tb}: {ta}}}}}, --map "
                f"{b}:{tb}={ta}) or give the common scale (grades=..., --grades)")
        # every grade between the lowest and highest: kappa's weights follow positions
        given = set().union(*observed.values())
        grades = list(range(min(given), max(given) + 1)) if given else []
    outside = {n: sorted(set(g) - set(grades)) for n, g in observed.items()}
    for name, extra in outside.items():
        if extra:
            raise ParameterError(f"judge {name!r} gives grade {extra[0]}, outside the scale "
                                 f"{list(grades)}; map it (--map {name}:{extra[0]}=G) or "
                                 "widen --grades")
    if len(grades) < 2:
        raise ParameterError(f"agreement needs a scale of two grades or more; got {grades}; "
                             "give the scale (grades=[0, 1], --grades 0,1)")
    return Judged(frames, np.array(sorted(grades), dtype=np.int64))

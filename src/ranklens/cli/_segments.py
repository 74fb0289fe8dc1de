"""``--segments FILE`` or ``--segments derived:BY`` with ``--segment-edges``: the groups of
queries of ``evaluate``, ``compare`` and ``report``."""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any, TypeVar

import click

from ._options import refuse, stacked

__all__ = ["measures_context", "segment_groups", "segments_options"]

F = TypeVar("F", bound=Callable[..., Any])

#: How ``--segments`` names a derived grouping (``derived:relevant``).
DERIVED_PREFIX = "derived:"


def segments_options(what: str) -> Callable[[F], F]:
    """``--segments`` (``what``: what the command writes or adds per group) and
    ``--segment-edges``."""
    return stacked(
        click.option(
            "--segments", type=str, default=None, metavar="FILE|derived:BY",
            help=f"{what} per group of queries. FILE: 'query_id group' lines. "
                 "derived:relevant (relevant judgments per query), derived:train (a user's "
                 "--train interactions) or derived:query_length:FILE (words per "
                 "'query_id text' line)."),
        click.option(
            "--segment-edges", type=str, default=None, metavar="E1,E2,...",
            help="Range starts of a derived count: 2,5 gives the groups <2, 2-4 and >=5 "
                 "[default: the counts' terciles]."))


def segment_groups(segments: str | None, edges: str | None, qrels: str | None,
                   context: dict[str, str]) -> Any:
    """The groups ``--segments`` names: its file, or ``{query_id: group}`` derived (from
    QRELS, ``--train`` or a query file); None without ``--segments``."""
    from .._surfaces.derived_groups import DERIVED, derived_groups

    derived = segments is not None and segments.startswith(DERIVED_PREFIX)
    if edges is not None and not derived:
        raise click.UsageError("--segment-edges bins a derived count; give --segments "
                               "derived:BY too")
    if segments is None:
        return None
    if not derived:
        if not os.path.isfile(segments):
            raise click.UsageError(f"--segments {segments}: no such file; give a file of "
                                   f"'query_id group' lines or {DERIVED_PREFIX}BY")
        return segments
    by, _, source = segments[len(DERIVED_PREFIX):].partition(":")
    refuse((by not in DERIVED or (by == "query_length") != bool(source),
            f"--segments {segments}: expected derived:relevant, derived:train or "
            "derived:query_length:FILE"),
           (by != "query_length" and qrels is None,
            f"--segments {segments} reads QRELS; not with --pairs"),
           (by == "train" and "train" not in context,
            f"--segments {segments} counts --train interactions; give --train FILE"),
           (bool(source) and not os.path.isfile(source),
            f"--segments {segments}: no such file {source}"))
    try:
        bins = None if edges is None else [int(e) for e in edges.split(",")]
        if bins is not None and bins != sorted(set(bins)):
            raise ValueError
    except ValueError:
        raise click.UsageError(f"--segment-edges needs increasing integers such as 2,5; "
                               f"got {edges}") from None
    queries = None
    if by == "train":  # a judged user without training interactions counts 0 (cold start)
        from .._ingest.io._load import load_qrels

        queries = load_qrels(qrels).frame["query_id"].unique().to_list()
    sources = {"relevant": qrels, "train": context.get("train"), "query_length": source}
    return derived_groups(by, sources[by], edges=bins, queries=queries)


def measures_context(context: dict[str, str], segments: str | None) -> dict[str, str]:
    """The tables left for the measures: ``--train`` only groups with ``derived:train``."""
    return {k: v for k, v in context.items()
            if k != "train" or segments != DERIVED_PREFIX + "train"}


def refuse_writing_over_groups(output: str | None, segments: str | None,
                               *files: str | None) -> None:
    """Refuse ``-o`` on the ``--segments`` file (or derived:query_length's) or ``files``."""
    from .._base.outputs import refuse_overwriting_inputs

    path = None if segments is None else segments.split(DERIVED_PREFIX + "query_length:")[-1]
    refuse_overwriting_inputs(output, [path, *files])


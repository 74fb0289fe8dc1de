"""The report's beyond-accuracy panel: what the runs recommend against what the catalogue holds.

Given the training interactions (``train=``), the report evaluates :data:`PANEL` at the depth
of its grade panel (``top_k``) beside the requested measures, and sorts the catalogue's items
by popularity (distinct training users, ties by item id) into :data:`BANDS` bands of equal
size, from the most popular down: each run's share of top-k recommendations per band is drawn
against the catalogue's own share (1/BANDS each), so a run that only shows best-sellers puts
all its bars in the first band. Recommended items outside the catalogue get a band of their
own (counted, never dropped).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import polars as pl

from ..._ingest.io._load import load_run
from ..._ingest.item_tables import head_by_share
from ..._model.items import ItemContext
from ..._results.results import Results

__all__ = ["BANDS", "OUTSIDE", "PANEL", "BeyondData", "beyond_measures", "collect_beyond"]

#: Popularity bands of the catalogue (deciles).
BANDS = 10
#: The band of recommended items the catalogue lacks.
OUTSIDE = "outside the catalogue"
#: The panel's measures, as patterns of the report's top_k (as collect.CURVES): coverage,
#: its spread, popularity, long-tail share, novelty.
PANEL = ("Coverage@{k}", "Gini@{k}", "ARP@{k}", "APLT@{k}", "Novelty@{k}")
#: The short head's share of the user-item pairs (Elliot's rule, APLT's default ``head``).
HEAD_SHARE = 0.8


@dataclass(frozen=True)
class BeyondData:
    """The beyond-accuracy panel's numbers (one column per run, as in ReportData).

    Attributes
    ----------
    k : the depth read (the report's ``top_k``).
    measures : the panel's measures at k.
    aggregates : measure -> each run's value.
    bands : band labels, the most popular first (then :data:`OUTSIDE` when a run
        recommends an item the catalogue lacks).
    shares : ``(bands, runs)`` share of each run's top-k recommendations in each band.
    catalogue_shares : each band's share of the catalogue's items (0 for OUTSIDE).
    catalogue_size : the catalogue's items.
    catalogue_popularity : the mean popularity (distinct training users) of a catalogue item.
    catalogue_tail : the catalogue's share of long-tail items (the group ``tail`` when
        groups are given, else Elliot's rule as APLT applies it).
    """

    k: int
    measures: tuple[str, ...]
    aggregates: dict[str, np.ndarray]
    bands: tuple[str, ...]
    shares: np.ndarray
    catalogue_shares: np.ndarray
    catalogue_size: int
    catalogue_popularity: float
    catalogue_tail: float


def beyond_measures(k: int) -> list[str]:
    """The panel's measures at depth ``k``."""
    return [pattern.format(k=k) for pattern in PANEL]


def _band_of(context: ItemContext) -> np.ndarray:
    """Each item's popularity band (by number; -1 outside the catalogue)."""
    inside = np.flatnonzero(context.catalogue)
    order = inside[np.lexsort((context.universe[inside].astype(str),
                               -context.users[inside]))]
    band = np.full(context.universe.size, -1, dtype=np.int64)
    for b, members in enumerate(np.array_split(order, BANDS)):
        band[members] = b
    return band


def _top_items(run: Any, query_ids: Sequence[str], k: int, ties: str) -> pl.Series:
    """The item ids of every top k of ``run`` over ``query_ids`` (the judged users), in the
    order of the report's tie policy (``input``: the given order; else score descending,
    then item id descending, as trec_eval)."""
    frame = load_run(run).frame.filter(pl.col("query_id").is_in(list(query_ids)))
    if ties == "input":
        frame = frame.sort(["query_id", "order"])
    else:
        frame = frame.sort(["query_id", "score", "doc_id"], descending=[False, True, True])
    return frame.group_by("query_id", maintain_order=True).head(k)["doc_id"]


def _catalogue_tail(context: ItemContext) -> float:
    inside = context.catalogue
    if not inside.any():
        return float("nan")
    if context.groups_given:
        if "tail" not in context.group_names:
            return float("nan")
        tail = context.group == context.group_names.index("tail")
    else:
        tail = ~head_by_share(context.universe, context.users.astype(np.float64), HEAD_SHARE)
    return float(tail[inside].mean())


def collect_beyond(results: Results, runs: Sequence[Any], context: ItemContext,
                   k: int) -> BeyondData:
    """The panel's numbers for ``runs`` (as given, in ``results``' run order)."""
    band = _band_of(context)
    ties = str(results.conventions[0].get("ties", "docid"))
    counts = np.zeros((BANDS + 1, len(runs)), dtype=np.int64)
    for j, run in enumerate(runs):
        codes = context.codes(_top_items(run, results.query_ids.tolist(), k, ties))
        where = np.where(codes >= 0, band[np.maximum(codes, 0)], -1)
        # -1 (no table names the item, or outside the catalogue) counts in the last row
        counts[:, j] = np.bincount(np.where(where < 0, BANDS, where), minlength=BANDS + 1)
    shares = counts / np.maximum(counts.sum(axis=0, keepdims=True), 1)
    size = int(context.catalogue.sum())
    in_band = np.bincount(band[band >= 0], minlength=BANDS)
    labels = [f"{b + 1}" for b in range(BANDS)]
    labels[0], labels[-1] = "1 (most popular)", f"{BANDS} (least popular)"
    keep = BANDS + 1 if counts[BANDS].any() else BANDS
    names = beyond_measures(k)
    return BeyondData(
        k=k, measures=tuple(names),
        aggregates={m: results.aggregates(m) for m in names},
        bands=tuple([*labels, OUTSIDE][:keep]), shares=shares[:keep],
        catalogue_shares=np.append(in_band / max(size, 1), 0.0)[:keep],
        catalogue_size=size,
        catalogue_popularity=float(context.users[context.catalogue].mean()) if size
        else float("nan"),
        catalogue_tail=_catalogue_tail(context))

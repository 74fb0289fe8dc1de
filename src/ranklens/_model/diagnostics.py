"""What an alignment found besides the aligned arrays: the queries it left out, and why."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from typing import Any

__all__ = ["Diagnostics"]


@dataclass(frozen=True)
class Diagnostics:
    """The queries an alignment (or a block of one) did not evaluate as given.

    Attributes
    ----------
    missing_queries : judged queries absent from the run, sorted.
    ignored_queries : run queries without judgments, sorted.
    empty_rankings : evaluated queries given with an empty ranking, sorted (what
        ``empty_ranking`` reads).
    queries_ranked, queries_judged_ranked : the queries that retrieved anything, and that
        retrieved a judged document (None: not counted, as an alignment alone does not).
    """

    missing_queries: tuple[str, ...] = ()
    ignored_queries: tuple[str, ...] = ()
    empty_rankings: tuple[str, ...] = ()
    queries_ranked: int | None = None
    queries_judged_ranked: int | None = None

    @classmethod
    def of(cls, missing: Iterable[str], ignored: Iterable[str],
           empty_rankings: Iterable[str] = ()) -> Diagnostics:
        """An alignment's diagnostics (each list kept in the order given)."""
        return cls(tuple(missing), tuple(ignored), tuple(empty_rankings))

    def counted(self, ranked: int, judged_ranked: int | None) -> Diagnostics:
        """These diagnostics with the counts of the aligned queries."""
        return replace(self, queries_ranked=ranked, queries_judged_ranked=judged_ranked)

    @classmethod
    def concat(cls, parts: Sequence[Diagnostics]) -> Diagnostics:
        """The diagnostics of blocks of disjoint queries, as one (the counts only when
        every block has them)."""
        def joined(name: str) -> tuple[str, ...]:
            return tuple(sorted(q for p in parts for q in getattr(p, name)))

        def total(name: str) -> int | None:
            counts = [getattr(p, name) for p in parts]
            return None if any(c is None for c in counts) else sum(counts)

        return cls(joined("missing_queries"), joined("ignored_queries"),
                   joined("empty_rankings"), total("queries_ranked"),
                   total("queries_judged_ranked"))

    def to_dict(self) -> dict[str, Any]:
        """The public form (``Result.diagnostics``): lists, ``empty_rankings`` only when
        there are any, the counts only when counted."""
        out: dict[str, Any] = {"missing_queries": list(self.missing_queries),
                               "ignored_queries": list(self.ignored_queries)}
        if self.empty_rankings:
            out["empty_rankings"] = list(self.empty_rankings)
        for name in ("queries_ranked", "queries_judged_ranked"):
            if getattr(self, name) is not None:
                out[name] = getattr(self, name)
        return out

"""The one way every result type gives its per-query values.

``per_query(measure)`` is ``{query_id: value}``: every query of the object's query axis, in
its order, a query on the axis without a value (left out by a policy, absent from one of
the runs or pairs) mapping to NaN, never dropped. What a value is depends on the type:

=====================  ============================================  =========================
type                   ``per_query(measure)[query_id]``              ``to_polars()`` rows
=====================  ============================================  =========================
``Result``             the measure's value (float)                   query
``Results``            ``{run: value}``                              run and query
``Agreement``          the measure's value (float)                   query
``AgreementMatrix``    ``{(run_a, run_b): value}``                   pair and query
``Residual``           ``(if non-relevant, if relevant)``            query
``Comparison``         ``{(system, baseline): difference}``          measure and pair
``PairComparison``     the difference, system - baseline (float)     query
``RankCorrelation``    none: it orders systems, not queries          system
=====================  ============================================  =========================

``to_pandas`` is ``to_polars`` as a pandas frame, with the same arguments, on every type;
it needs pandas and not pyarrow (:mod:`ranklens._base.pandas_frames`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING, Any, ClassVar

if TYPE_CHECKING:
    import numpy as np
    import pandas as pd

__all__ = ["SHOWN", "Frames", "Shown", "by_query", "listed"]

#: names a repr lists; a count stands for the rest
SHOWN = 20


def listed(names: Sequence[str], sep: str = ", ") -> str:
    """The first :data:`SHOWN` of ``names`` joined, then how many more (a bounded repr)."""
    more = f"{sep}... {len(names) - SHOWN} more" if len(names) > SHOWN else ""
    return sep.join(names[:SHOWN]) + more


class Shown:
    """A notebook's HTML table of a result, the conventions or settings in force below."""

    #: writes the object's HTML table, or None: set by the renderers, a layer above
    #: (``ranklens._surfaces``); None before them (nothing shown but the repr)
    html_writer: ClassVar[Callable[[Any], str | None] | None] = None

    def _repr_html_(self) -> str | None:
        """The object as a small HTML table in a notebook, the conventions in force below."""
        writer = type(self).html_writer
        return None if writer is None else writer(self)


class Frames(Shown):
    """``to_pandas``, from the type's own ``to_polars``; a notebook's HTML table."""

    def to_pandas(self, *args: Any, **kwargs: Any) -> pd.DataFrame:
        """:meth:`to_polars` as a pandas DataFrame, with the same arguments (needs pandas,
        not pyarrow)."""
        from .._base.pandas_frames import to_pandas

        return to_pandas(self.to_polars(*args, **kwargs))  # type: ignore[attr-defined]


def by_query(query_ids: Iterable[str] | np.ndarray, values: Iterable[Any] | np.ndarray
             ) -> dict[str, Any]:
    """``{query_id: value}`` in the order given (arrays as Python numbers)."""
    ids = query_ids.tolist() if hasattr(query_ids, "tolist") else list(query_ids)
    got = values.tolist() if hasattr(values, "tolist") else list(values)
    return dict(zip(ids, got, strict=True))

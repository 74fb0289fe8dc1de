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

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import numpy as np
    import pandas as pd

__all__ = ["Frames", "by_query"]


class Frames:
    """``to_pandas``, from the type's own ``to_polars``."""

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

"""The metrics of one held-out item's rank R among n items: what sampled evaluation
(``ranklens.sampled``) estimates. Recall@k is 1 within the top k, nDCG@k ``1 / log2(R + 1)``
there, AP (and RR) ``1 / R``, AUC ``(n - R) / (n - 1)``."""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from typing import Any

import numpy as np

from .._base.errors import ParameterError

__all__ = ["MEASURES", "metric"]

#: the metrics of one held-out item's rank R among n items (k: the cutoff)
MEASURES: dict[str, Callable[[np.ndarray, Any, float], np.ndarray]] = {
    "Recall": lambda r, n, k: (r <= k).astype(np.float64),
    "nDCG": lambda r, n, k: (r <= k) / np.log2(r + 1.0),
    "AP": lambda r, n, k: 1.0 / r,
    "AUC": lambda r, n, k: (n - r) / (n - 1.0),
}


def metric(name: str) -> tuple[str, float]:
    """The metric ``name`` spells (``Recall@10``, ``nDCG@10``, ``AP``, ``AUC``) and its
    cutoff (inf without one); ParameterError listing the ones there are.

    Examples
    --------
    >>> metric("nDCG@10"), metric("AUC")
    (('nDCG', 10.0), ('AUC', inf))
    """
    found = re.fullmatch(r"(Recall|nDCG)@([1-9][0-9]*)|(AP|AUC)", name.strip())
    if found is None:
        raise ParameterError(f"the sampled metric {name!r} is not one ranklens corrects; give "
                             "Recall@k, nDCG@k, AP or AUC (one held-out item: HR@k is Recall@k, "
                             "RR is AP)")
    if found.group(3):
        return found.group(3), math.inf
    return found.group(1), float(found.group(2))

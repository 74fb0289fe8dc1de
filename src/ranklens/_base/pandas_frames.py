"""polars frames as pandas frames, with or without pyarrow.

``polars.DataFrame.to_pandas`` needs pyarrow, which ``pip install ranklens pandas`` does not
bring: without it the columns go through NumPy (what pandas itself would make of them:
strings as pandas' default string dtype, integers with a missing value as floats).
"""

from __future__ import annotations

import importlib.util
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import pandas as pd
    import polars as pl

__all__ = ["has_pyarrow", "to_pandas"]


def has_pyarrow() -> bool:
    """Whether pyarrow can be imported (without importing it)."""
    try:
        return importlib.util.find_spec("pyarrow") is not None
    except (ImportError, ValueError):  # a finder refusing it, a half-imported module
        return False


def to_pandas(frame: pl.DataFrame) -> pd.DataFrame:
    """``frame`` as a pandas DataFrame: polars' own conversion when pyarrow is installed,
    else column by column through NumPy."""
    if has_pyarrow():
        return frame.to_pandas()
    import pandas as pd

    return pd.DataFrame({name: pd.Series(frame[name].to_numpy(), name=name)
                         for name in frame.columns}, columns=frame.columns)

"""The rules every qrels and run column obeys, whichever way the table was built.

Ids are strings (integer ids become their decimal strings), relevance and scores float64,
no value is missing, relevance is finite and no score is NaN. Loaders and the ``Qrels`` /
``Run`` constructors apply the same rules, so a table behaves the same however it was made.
"""

from __future__ import annotations

from .._base.errors import InputError
from .._base.lazy import polars as pl

__all__ = ["GRADE_RANGE", "MAX_GRADE", "check_relevance", "check_scores", "ids", "no_nulls",
           "numeric", "shared_keys", "twice_error"]

#: The largest relevance grade, in magnitude: the largest float64 below 2**63, so every
#: grade casts to int64 and sums of gains over any ranking stay far from overflow (a grade
#: near 1e308 made DCG infinite, and nDCG NaN). TREC grades beyond it are read as it, as
#: trec_eval's ``atol`` saturates at C's long range.
MAX_GRADE = 2.0**63 - 1024
#: :data:`MAX_GRADE` in words, for messages
GRADE_RANGE = "between -2**63 and 2**63"


def shared_keys(frame: pl.DataFrame, *keys: str) -> pl.DataFrame:
    """The rows of ``frame`` whose ``keys`` another row shares (none: an empty frame)."""
    return frame.filter(frame.select(pl.struct(*keys).is_duplicated()).to_series())


def twice_error(twice: pl.DataFrame, what: str, fix: str, source: str) -> InputError:
    """The InputError naming the first of the rows ``twice`` (:func:`shared_keys`) by
    ``what`` (a format of its columns' reprs), counting them and saying ``fix``."""
    row = {k: repr(v) for k, v in twice.row(0, named=True).items()}
    return InputError(f"{what.format(**row)} ({twice.height} rows are involved); {fix}",
                      source=source)


def _at(row: int, message: str, source: str) -> InputError:
    return InputError(f"row {row}: {message}", source=source, row=row)


def ids(series: pl.Series, source: str = "<frame>") -> pl.Series:
    """``series`` as string ids: strings as they are, integers (and whole floats, as pandas
    makes of integer columns) as their decimal strings; InputError for anything else."""
    if series.dtype == pl.String:
        return series
    if series.dtype.is_nested() or series.dtype == pl.Object:
        raise InputError(f"column {series.name!r}: expected ids (strings or integers), "
                         f"got {series.dtype}", source=source)
    if series.dtype.is_float():
        # pandas turns integer ids into floats on the way (1 -> 1.0): compare them as the
        # integers they are, or "1.0" would silently match nothing in a TREC file's "1"
        whole = series.is_null() | ((series.abs() < 2.0**63) & (series.round(0) == series))
        if not whole.all():
            row = int((~whole).arg_true()[0])
            raise _at(row, f"column {series.name!r} holds ids as floats and "
                      f"{series[row]} is not an integer id", source)
        series = series.cast(pl.Int64)
    return series.cast(pl.String)


def numeric(series: pl.Series, what: str, source: str) -> pl.Series:
    """``series`` as float64 (booleans as 0/1, numeric strings parsed); InputError naming
    the first row that is not a number."""
    if series.dtype == pl.Float64:
        return series
    if series.dtype == pl.Boolean:
        series = series.cast(pl.Int8)
    if series.dtype.is_nested() or series.dtype.is_temporal() or series.dtype == pl.Object:
        raise InputError(f"column {series.name!r}: expected a numeric {what}, got "
                         f"{series.dtype}", source=source)
    if not series.dtype.is_numeric():
        cast = series.cast(pl.Float64, strict=False)
        bad = cast.is_null() & series.is_not_null()
        if bad.any():
            row = int(bad.arg_true()[0])
            raise _at(row, f"expected a numeric {what}, got {series[row]!r}", source)
        series = cast
    return series.cast(pl.Float64)


def no_nulls(df: pl.DataFrame, source: str) -> None:
    """InputError naming the first row and column with a missing value, if any."""
    for name in df.columns:
        if not df[name].null_count():
            continue
        row = int(df[name].is_null().arg_true()[0])
        raise _at(row, f"missing value in column {name!r}", source)


def check_scores(score: pl.Series, source: str) -> None:
    """InputError naming the first NaN score, if any (NaN has no place in a ranking)."""
    nan = score.is_nan()
    if nan.any():
        row = int(nan.arg_true()[0])
        raise _at(row, "expected a numeric score, got NaN", source)


def check_relevance(relevance: pl.Series, source: str) -> None:
    """InputError naming the first relevance that is not finite, or beyond
    :data:`MAX_GRADE` in magnitude, if any."""
    bad = ~relevance.is_finite()
    if bad.any():
        row = int(bad.arg_true()[0])
        raise _at(row, f"expected a finite relevance, got {relevance[row]}", source)
    huge = relevance.abs() > MAX_GRADE
    if huge.any():
        row = int(huge.arg_true()[0])
        raise _at(row, f"expected a relevance grade {GRADE_RANGE}, got "
                       f"{relevance[row]:g}", source)

"""Adapters from in-memory forms (nested dicts, pandas / polars / Arrow frames) to tables."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Mapping
from itertools import chain, islice
from typing import Any, NoReturn

import numpy as np

from ..._base.errors import InputError
from ..._base.lazy import polars as pl
from ..columns import check_scores, ids, no_nulls, numeric
from ..tables import Qrels, ReaderHints, Run, per_row, query_blocks, table_schema

__all__ = ["ALIASES", "find_column", "frame_to_qrels", "frame_to_run", "mapping_to_qrels",
           "mapping_to_run", "read_frame", "require_column"]

#: Accepted column names, canonical name first; matched case-insensitively and without a
#: RecBole type suffix (``user_id:token``). Recommender exports: Surprise (``uid``, ``iid``,
#: ``r_ui``, ``est``), Microsoft Recommenders (``userID``, ``itemID``), RecTools
#: (``weight``), LensKit (``user``, ``item``, ``rating``).
ALIASES: dict[str, tuple[str, ...]] = {
    "query_id": ("query_id", "qid", "query", "topic", "topic_id", "user_id", "user",
                 "userid", "uid"),
    "doc_id": ("doc_id", "docid", "docno", "doc", "item_id", "item", "id", "itemid", "iid",
               "pid"),
    "relevance": ("relevance", "rel", "label", "grade", "judgment", "judgement", "target",
                  "rating", "r_ui", "weight"),
    "score": ("score", "sim", "similarity", "prediction", "pred", "preds", "est"),
    # a subtopic judgment's (ir_measures keeps it in ``iteration``)
    "subtopic": ("subtopic", "subtopic_id", "intent", "aspect", "iteration", "iter"),
}


#: query id columns that make a recommender's table: its messages say users and items
_USER_COLUMNS = ("user_id", "user", "userid", "uid")

#: columns an interactions frame may hold besides its ids (implicit feedback)
_TIME_COLUMNS = ("timestamp", "time", "ts", "datetime")


def plain_name(column: str) -> str:
    """``column`` lowered, without a RecBole type suffix (``rating:float``: ``rating``)."""
    return column.lower().split(":", 1)[0]


def find_column(columns: list[str], aliases: tuple[str, ...]) -> str | None:
    """The column named by the first of ``aliases`` found (compared as :func:`plain_name`)."""
    lowered = {plain_name(c): c for c in columns}
    return next((lowered[a] for a in aliases if a in lowered), None)


def require_column(columns: list[str], key: str, source: str,
                   aliases: Mapping[str, tuple[str, ...]] = ALIASES,
                   what: str = "expected") -> str:
    """The column holding ``key`` (under any alias); InputError naming the columns (``what``:
    who expects it) if none."""
    found = find_column(columns, aliases[key])
    if found is None:
        raise InputError(f"{what} a {key!r} column (or one of {', '.join(aliases[key][1:])}"
                         f"), found columns {columns}", source=source)
    return found


def read_frame(obj: Any, what: str, source: str | None = None) -> pl.DataFrame:
    """:func:`to_polars`'s frame of ``obj``; an InputError saying ``what`` cannot be read
    from an ``obj`` that is none."""
    df = to_polars(obj)
    if df is None:
        raise InputError(f"cannot read {what} from a {type(obj).__name__}", source=source)
    return df


def to_polars(obj: Any) -> pl.DataFrame | None:
    """A polars DataFrame from polars, pandas, Arrow or any ``__arrow_c_stream__`` object."""
    if isinstance(obj, pl.DataFrame):
        return obj
    if isinstance(obj, pl.LazyFrame):
        return obj.collect()
    module = type(obj).__module__
    if module.startswith("pandas"):
        import pandas as pd

        if isinstance(obj, pd.DataFrame):
            # a named index (df.set_index(["qid", "docno"])) holds id columns: keep it
            named = any(n is not None for n in obj.index.names)
            return _from_pandas(obj.reset_index(drop=not named))
    if hasattr(obj, "__arrow_c_stream__") or module.startswith("pyarrow"):
        return pl.DataFrame(obj)
    return None


def _from_pandas(frame: Any) -> pl.DataFrame:
    """A pandas frame as polars, with or without pyarrow: polars converts numpy-backed
    columns itself but needs pyarrow for every pandas extension dtype, and pandas 3's default
    string dtype is one (with Python storage when pyarrow is absent). When polars cannot
    convert the frame, it goes column by column: strings with Python storage, categoricals,
    the nullable numbers (``Int64``, ``Float64``, ``boolean``) and object columns through
    NumPy / Python, the rest as polars converts them. An object column mixing value types
    (``[1, "d2"]``) is an InputError naming the column and the types."""
    names = [str(name) for name in frame.columns]
    repeated = sorted(name for name, n in Counter(names).items() if n > 1)
    if repeated:
        raise InputError(f"the pandas frame has more than one column named {repeated[0]!r}",
                         source="<pandas frame>")
    try:  # every column numpy-backed, or pyarrow installed: polars converts the frame
        return pl.from_pandas(frame)
    except Exception:  # pyarrow absent (ImportError), ArrowInvalid, ...: column by column
        pass
    if not names:
        return pl.DataFrame()
    return pl.DataFrame([_series_from_pandas(frame.iloc[:, i], name)
                         for i, name in enumerate(names)])


def _series_from_pandas(series: Any, name: str) -> pl.Series:
    """One pandas column as a polars Series (see :func:`_from_pandas`)."""
    import pandas as pd

    dtype = series.dtype
    if isinstance(dtype, pd.StringDtype) and dtype.storage == "python":
        values = series.to_numpy(dtype=object, na_value=None)
        return pl.Series(name, values, dtype=pl.String)
    if isinstance(dtype, pd.CategoricalDtype):
        # the categories as a column of their own (strings, integers, ...), then picked by
        # code: integer categories stay integer ids; code -1 is a missing value
        categories = _series_from_pandas(pd.Series(dtype.categories), name)
        codes = pl.Series(series.cat.codes.to_numpy(), dtype=pl.Int64)
        return categories.gather(codes.set(codes < 0, None)).alias(name)
    if isinstance(dtype, _masked_dtypes()):
        # nullable numbers and booleans: NumPy values and the mask; NaN is missing too, as
        # polars makes of a NumPy float column (nan_to_null)
        missing = series.isna().to_numpy(dtype=bool)
        numpy_dtype = np.dtype(dtype.numpy_dtype)  # type: ignore[attr-defined]
        fill = False if numpy_dtype.kind == "b" else 0
        out = pl.Series(name, series.to_numpy(dtype=numpy_dtype, na_value=fill),
                        nan_to_null=True)
        return out.set(pl.Series(missing), None) if missing.any() else out
    try:
        return pl.from_pandas(series.to_frame(name)).to_series()
    except Exception:  # pyarrow's ArrowInvalid / ArrowTypeError, or pyarrow absent
        pass
    if isinstance(dtype, pd.DatetimeTZDtype):  # (a time column) as UTC, through NumPy
        naive = series.dt.tz_convert("UTC").dt.tz_localize(None)
        return pl.from_pandas(naive.to_frame(name)).to_series().dt.replace_time_zone("UTC")
    if isinstance(dtype, np.dtype) and dtype.kind == "O":
        objects = _objects(series, name)
        if objects is not None:
            return objects
        kinds = sorted({type(v).__name__ for v in series.tolist()})
        raise InputError(f"column {name!r} mixes value types ({', '.join(kinds)}); "
                         "expected one type per column (convert it, e.g. with "
                         ".astype(str) for ids)", source="<pandas frame>") from None
    from ..._base.pandas_frames import has_pyarrow

    needs = "" if has_pyarrow() else " without pyarrow"
    raise InputError(f"column {name!r}: cannot convert pandas dtype {dtype}{needs} (convert "
                     "it, e.g. with .astype(str) for ids)", source="<pandas frame>") from None


def _objects(series: Any, name: str) -> pl.Series | None:
    """An object column as polars would make it through pyarrow (polars without pyarrow
    refuses most): one type of value, numbers mixing ints and floats as floats, None / NaN /
    pd.NA missing; None if the values mix types."""
    import pandas as pd

    values = [None if v is None or v is pd.NA or (isinstance(v, (float, np.floating))
                                                  and np.isnan(v)) else v
              for v in series.tolist()]
    if all(v is None for v in values):
        return pl.Series(name, values, dtype=pl.String)
    try:
        return pl.Series(name, values, strict=True)
    except Exception:  # e.g. ints and floats, or values of different kinds
        pass
    if all(v is None or (isinstance(v, (int, float, np.integer, np.floating))
                         and not isinstance(v, (bool, np.bool_))) for v in values):
        try:
            return pl.Series(name, values, dtype=pl.Float64, strict=False)
        except Exception:
            return None
    return None


def _masked_dtypes() -> tuple[type, ...]:
    """pandas' nullable (masked) dtypes: integers, floats and booleans."""
    import pandas as pd

    return (pd.Int8Dtype, pd.Int16Dtype, pd.Int32Dtype, pd.Int64Dtype, pd.UInt8Dtype,
            pd.UInt16Dtype, pd.UInt32Dtype, pd.UInt64Dtype, pd.Float32Dtype, pd.Float64Dtype,
            pd.BooleanDtype)


def frame_to_qrels(obj: Any, source: str = "<qrels frame>") -> Qrels:
    """Qrels from a frame whose columns go by any of :data:`ALIASES`' names (checked by
    the ``Qrels`` constructor: ids, numbers, missing values, finite relevance). Without a
    relevance column and nothing but the ids (and a time column) every row is relevant
    (implicit feedback: user-item interactions)."""
    df = read_frame(obj, "qrels", source)
    if [plain_name(c) for c in df.columns] == ["query-id", "corpus-id", "score"]:
        # BEIR's qrels/<split>.tsv header: only in this shape is a ``score`` column the grade
        df = df.rename(dict(zip(df.columns, ("query_id", "doc_id", "relevance"), strict=True)))
    q, d = (require_column(df.columns, key, source) for key in ("query_id", "doc_id"))
    # implicit feedback (user, item interactions and at most their time): a listed pair is
    # relevant, grade 1; any other column may be an unrecognised relevance column
    others = [c for c in df.columns if c not in (q, d) and plain_name(c) not in _TIME_COLUMNS]
    r = require_column(df.columns, "relevance", source) if others else None
    relevance = (numeric(df[r], "relevance", source) if r is not None
                 else pl.Series(np.ones(df.height)))
    # converted here, where errors can name the caller's columns
    return Qrels(pl.DataFrame({"query_id": ids(df[q], source), "doc_id": ids(df[d], source),
                               "relevance": relevance}), source,
                 integer_query_ids=df[q].dtype.is_integer() and df.height > 0,
                 hints=ReaderHints(users=plain_name(q) in _USER_COLUMNS,
                                   rating_note=_rating_note(r, relevance, source)))


#: relevance columns that hold ratings (a star scale) rather than grades
_RATINGS = ("rating", "r_ui")


def _rating_note(column: str | None, rating: pl.Series, source: str) -> str | None:
    """The warning that a star scale is read as grades (1 star relevant at rel=1), or None."""
    if column is None or plain_name(column) not in _RATINGS:
        return None
    levels = rating.filter(rating >= 1).unique()
    if levels.len() <= 2:
        return None
    top = int(levels.max())
    return (f"{source}: column {column!r} is read as the relevance grade, so every rating "
            f"of 1 or more counts as relevant at the default rel=1; pass rel={top - 1} "
            f"(--rel {top - 1}) to count only ratings of {top - 1} and up")


def frame_to_run(obj: Any, source: str = "<run frame>", name: str = "run") -> Run:
    """A run from a frame whose columns go by any of :data:`ALIASES`' names (checked by
    the ``Run`` constructor: ids, numbers, missing values, NaN scores)."""
    df = read_frame(obj, "a run", source)
    q, d, s = (require_column(df.columns, key, source) for key in ("query_id", "doc_id", "score"))
    # converted here, where errors can name the caller's columns
    docs, queries = df[d], df[q]
    hints = ReaderHints(users=plain_name(q) in _USER_COLUMNS)
    if docs.dtype.is_integer() and queries.dtype.is_integer() and docs.len() \
            and docs.min() >= 0 and docs.max() < 2**32:  # type: ignore[operator]
        # integer ids stay numbers: doc ids held as UInt32 (as the TREC reader holds them),
        # query ids written out once per block of rows
        score = numeric(df[s], "score", source)
        no_nulls(pl.DataFrame([queries.alias("query_id"), docs.alias("doc_id"),
                               score.alias("score")]), source)
        check_scores(score, source)
        block_ids, lengths = query_blocks(queries)
        # (NumPy's cast: the range is checked above)
        run = Run.from_blocks(ids(block_ids, source), lengths,
                              pl.Series(docs.to_numpy().astype(np.uint32)),
                              score.to_numpy(), source, name, hints=hints)
    else:
        run = Run(pl.DataFrame({"query_id": ids(df[q], source), "doc_id": ids(df[d], source),
                                "score": numeric(df[s], "score", source)}), source, name,
                  hints=hints)
    rank_col = next((c for c in df.columns if plain_name(c) == "rank"), None)
    if rank_col:
        # the rank column is informational (trec_eval ignores it, ties="input" follows the
        # rows' order), but a column that is no number at all is refused
        numeric(df[rank_col], "rank", source)
    return run


class _Flat:
    """A ``{query: {doc: value}}`` mapping as columns: query ids once per query with their
    row counts (repeated by NumPy, not Python), doc ids and values once per row, each
    column made in one pass over the rankings (no per-row Python work of ours)."""

    def __init__(self, mapping: Mapping[Any, Any], source: str, what: str) -> None:
        queries: list[Any] = []
        counts: list[int] = []
        for qid, docs in mapping.items():
            if type(docs) is not dict and not isinstance(docs, Mapping):
                raise InputError(
                    f"query {qid!r}: expected a mapping of doc id to {what}, "
                    f"got {type(docs).__name__}",
                    source=source,
                )
            queries.append(qid)
            counts.append(len(docs))
        self._rankings: list[Mapping[Any, Any]] = list(mapping.values())
        self.docs: list[Any] = list(chain.from_iterable(self._rankings))
        self.queries = _strings(queries)
        self.ends = np.cumsum(np.asarray(counts, dtype=np.int64))
        self.source, self.what = source, what

    def query_column(self) -> pl.Series:
        return per_row(self.queries, np.diff(self.ends, prepend=0))

    def where(self, row: int) -> str:
        q = self.queries[int(np.searchsorted(self.ends, row, side="right"))]
        return f"query {q!r}, doc {str(self.docs[row])!r}"

    def _values(self) -> Iterator[Any]:
        return chain.from_iterable(docs.values() for docs in self._rankings)

    def numbers(self) -> np.ndarray:
        try:  # straight from the rankings: no list of the values
            arr = np.fromiter(self._values(), dtype=np.float64, count=len(self.docs))
        except (TypeError, ValueError, OverflowError):
            self._refuse(list(self._values()))
        if arr.size and np.isnan(arr).any():
            i = int(np.flatnonzero(np.isnan(arr))[0])
            value = next(islice(self._values(), i, None))
            found = "None" if value is None else "NaN"
            raise InputError(f"{self.where(i)}: expected a numeric {self.what}, got {found}",
                             source=self.source)
        return arr

    def _refuse(self, vals: list[Any]) -> NoReturn:
        """InputError naming the first value that is not a number (a sequence as a value,
        ``[1]`` or ``np.array([1])``, included)."""
        for i, v in enumerate(vals):
            try:
                if np.ndim(v) != 0:
                    raise TypeError(v)
                float(v)
            except (TypeError, ValueError, OverflowError):
                raise InputError(
                    f"{self.where(i)}: expected a numeric {self.what}, got {v!r}",
                    source=self.source,
                ) from None
        raise InputError(f"expected numeric {self.what} values", source=self.source)


def _strings(values: list[Any]) -> pl.Series:
    """Ids as a String column; anything that is not already a str goes through ``str()``."""
    return _exact_strings(values)[0]


def _exact_strings(values: list[Any]) -> tuple[pl.Series, bool]:
    """:func:`_strings` of ``values``, and whether every value was a str already (distinct
    values then stay distinct: no two become one string through ``str()``)."""
    try:
        out = pl.Series(values, dtype=pl.String, strict=True)
    except Exception:  # ints, tuples, ...: polars refuses them in a String column
        out = None
    if out is None or out.null_count():
        return pl.Series([str(v) for v in values], dtype=pl.String), False
    return out, True


def mapping_to_qrels(mapping: Mapping[Any, Any], source: str = "<qrels dict>") -> Qrels:
    flat = _Flat(mapping, source, "relevance")
    rel = flat.numbers()
    if not np.isfinite(rel).all():
        i = int(np.flatnonzero(~np.isfinite(rel))[0])
        raise InputError(f"{flat.where(i)}: expected a finite relevance, got {rel[i]}",
                         source=source)
    frame = pl.DataFrame({"query_id": flat.query_column(), "doc_id": _strings(flat.docs),
                          "relevance": rel}, schema=table_schema("relevance"))
    integer = bool(mapping) and all(isinstance(q, (int, np.integer)) and not isinstance(q, bool)
                                    for q in mapping)
    # each query's judgments are one block of rows: where blocks start is known here, not
    # found again by comparing the ids
    new = np.zeros(frame.height, dtype=bool)
    new[flat.ends[:-1][flat.ends[:-1] < frame.height]] = True
    new[:1] = True
    return Qrels(frame, source, integer_query_ids=integer,
                 hints=ReaderHints(block_starts=pl.Series(new)))


def mapping_to_run(mapping: Mapping[Any, Any], source: str = "<run dict>",
                   name: str = "run") -> Run:
    flat = _Flat(mapping, source, "score")
    score = flat.numbers()
    # each query's docs are one block of rows: its id is stored once, never per row
    lengths = np.diff(flat.ends, prepend=0)
    present = np.flatnonzero(lengths)
    # {"q": {}} is an empty ranking of q, not an absent q: it is scored (ranx scores it 0)
    empty = tuple(flat.queries.gather(np.flatnonzero(lengths == 0)).to_list())
    block_ids = flat.queries if present.size == lengths.size else flat.queries.gather(present)
    docs, exact = _exact_strings(flat.docs)
    # a mapping's keys are distinct: as strings already, each ranking lists a doc once
    return Run.from_blocks(block_ids, lengths[present], docs, score, source, name, empty,
                           hints=ReaderHints(distinct_docs=exact))

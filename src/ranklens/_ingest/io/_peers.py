"""Other evaluation libraries' objects as tables, recognised without importing them.

* ranx's ``Qrels`` and ``Run`` (classes of those names from a ``ranx`` module): their
  ``.qrels`` / ``.run`` attribute is a ``{query: {doc: value}}`` mapping (numba typed
  dicts), read as any nested mapping; a run keeps ranx's scores and ranx's ``name``.
* rows with fields, as ir_measures and ir_datasets give them: an iterable (a list, a
  generator such as ``dataset.qrels_iter()``) whose first element has the attributes
  ``query_id, doc_id, relevance`` (qrels: ``ir_measures.Qrel``, ir_datasets' ``TrecQrel``)
  or ``query_id, doc_id, score`` (a run: ``ir_measures.ScoredDoc``); any namedtuple with
  those fields will do, and other fields (``iteration``) are ignored.
* ``"irds:<dataset-id>"`` for qrels: ``ir_datasets.load(id).qrels_iter()``, imported only
  then.

Nothing here imports ranx, ir_measures or ir_datasets until such an input is read, so
``import ranklens`` stays light and every peer stays optional.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Iterator, Mapping
from typing import Any

from ..._base.errors import InputError
from ..._base.lazy import polars as pl
from ..tables import Qrels, Run
from ._frames import _strings, frame_to_qrels, frame_to_run, mapping_to_qrels, mapping_to_run

__all__ = ["IRDS_PREFIX", "irds_qrels", "is_ranx_run", "is_row_run", "peer_qrels", "peer_run"]

#: ``"irds:msmarco-passage/dev/small"``: that ir_datasets dataset's qrels
IRDS_PREFIX = "irds:"

_QREL_FIELDS = ("query_id", "doc_id", "relevance")
_RUN_FIELDS = ("query_id", "doc_id", "score")


def _is_ranx(obj: Any, name: str) -> bool:
    cls = type(obj)
    return (cls.__name__ == name and cls.__module__.split(".")[0] == "ranx"
            and isinstance(getattr(obj, name.lower(), None), Mapping))


def is_ranx_run(obj: Any) -> bool:
    """Whether ``obj`` is a ranx ``Run`` (a run in itself, not several)."""
    return _is_ranx(obj, "Run")


def _is_row(obj: Any) -> bool:
    """Whether ``obj`` looks like one row with fields (a namedtuple, or an object with a
    ``query_id`` attribute), as opposed to a run or a ranking."""
    if isinstance(obj, (str, bytes, Mapping)):
        return False
    if isinstance(obj, tuple) and hasattr(type(obj), "_fields"):
        return True
    # a row's query id is one id; a table's (a Run's column, a frame's) is many
    return isinstance(getattr(obj, "query_id", None), (str, int))


def is_row_run(obj: Any) -> bool:
    """Whether a list or tuple is one run's rows (its first element a row with fields)
    rather than several runs."""
    return isinstance(obj, (list, tuple)) and bool(obj) and _is_row(obj[0])


def _fields_of(row: Any) -> list[str]:
    fields = getattr(type(row), "_fields", None)
    if isinstance(fields, tuple):
        return list(fields)
    return sorted(k for k in getattr(row, "__dict__", {}) if not k.startswith("_"))


def _rows(given: Any, fields: tuple[str, str, str], what: str
          ) -> tuple[str, dict[str, list[Any]]] | None:
    """The three columns of an iterable of rows with ``fields``, with a source naming the
    rows' type; None when ``given`` is no iterable of rows (its first element has no
    fields). A generator is read once: its first element is put back in front."""
    if isinstance(given, (str, bytes, Mapping)) or not isinstance(given, Iterable):
        return None
    it: Iterator[Any] = iter(given)
    try:
        first = next(it)
    except StopIteration:
        if isinstance(given, (list, tuple)):  # [] is refused as before
            return None
        # an exhausted (or empty) generator: no rows
        return f"<empty {type(given).__name__}>", {f: [] for f in fields}
    except TypeError:
        return None
    if not _is_row(first):
        return None
    source = f"<{type(first).__name__} rows>"
    missing = [f for f in fields if not hasattr(first, f)]
    if missing:
        raise InputError(
            f"cannot read {what} from rows of {type(first).__name__}: expected the fields "
            f"{', '.join(fields)}, found {', '.join(_fields_of(first)) or 'none'} "
            f"(missing {', '.join(missing)})", source=source)
    columns: dict[str, list[Any]] = {f: [] for f in fields}
    lists = [columns[f] for f in fields]
    for row, item in enumerate(itertools.chain((first,), it)):
        try:
            for f, column in zip(fields, lists, strict=True):
                column.append(getattr(item, f))
        except AttributeError:
            raise InputError(
                f"row {row} (counting from 0): expected the fields {', '.join(fields)} as in "
                f"the first row ({type(first).__name__}), got {type(item).__name__} "
                f"{item!r:.60}",
                source=source) from None
    return source, columns


def _frame(columns: dict[str, list[Any]], value: str) -> pl.DataFrame:
    """The columns as a frame: ids as polars reads them (strings, or integers when every
    id is one), else as their ``str()``; the values as given (checked by the reader)."""
    out: dict[str, pl.Series] = {}
    for name, values in columns.items():
        if name == value:
            try:
                out[name] = pl.Series(name, values, strict=False)
            except Exception:  # values of no single type: the reader names the row
                out[name] = pl.Series(name, values, dtype=pl.Object)
            continue
        try:
            series = pl.Series(name, values, strict=True)
        except Exception:
            series = _strings(values).alias(name)
        if not (series.dtype == pl.String or series.dtype.is_integer()):
            series = _strings(values).alias(name)
        out[name] = series
    return pl.DataFrame(out, schema={n: s.dtype for n, s in out.items()}) if out else \
        pl.DataFrame()


def irds_qrels(given: str) -> Qrels:
    dataset_id = given[len(IRDS_PREFIX):]
    source = given
    try:
        import ir_datasets  # type: ignore[import-not-found,unused-ignore]
    except ImportError:
        raise InputError(f"reading qrels from {given!r} needs the ir_datasets package, "
                         "which is not installed (pip install ir_datasets)",
                         source=source) from None
    try:
        dataset = ir_datasets.load(dataset_id)
    except KeyError as exc:
        raise InputError(f"ir_datasets has no dataset {dataset_id!r}: {exc}",
                         source=source) from None
    if not dataset.has_qrels():
        raise InputError(f"the ir_datasets dataset {dataset_id!r} has no qrels",
                         source=source)
    found = _rows(dataset.qrels_iter(), _QREL_FIELDS, "qrels")
    if found is None:  # pragma: no cover - ir_datasets' qrels are namedtuples
        raise InputError("expected qrels rows with the fields query_id, doc_id, relevance",
                         source=source)
    return frame_to_qrels(_frame(found[1], "relevance"), source)


def peer_qrels(given: Any) -> Qrels | None:
    """``given`` as qrels when it is a peer's form (see the module), else None."""
    if isinstance(given, str):
        return irds_qrels(given) if given.startswith(IRDS_PREFIX) else None
    if _is_ranx(given, "Qrels"):
        name = getattr(given, "name", None)
        return mapping_to_qrels(given.qrels, f"<ranx Qrels {name!r}>" if name else
                                "<ranx Qrels>")
    found = _rows(given, _QREL_FIELDS, "qrels")
    if found is None:
        return None
    source, columns = found
    return frame_to_qrels(_frame(columns, "relevance"), source)


def peer_run(given: Any, name: str | None) -> Run | None:
    """``given`` as a run named ``name`` (else ranx's name, else "run") when it is a
    peer's form, else None."""
    if is_ranx_run(given):
        ranx_name = getattr(given, "name", None)
        ranx_name = ranx_name if isinstance(ranx_name, str) and ranx_name else None
        source = f"<ranx Run {ranx_name!r}>" if ranx_name else "<ranx Run>"
        return mapping_to_run(given.run, source, name or ranx_name or "run")
    found = _rows(given, _RUN_FIELDS, "a run")
    if found is None:
        return None
    source, columns = found
    return frame_to_run(_frame(columns, "score"), source, name or "run")

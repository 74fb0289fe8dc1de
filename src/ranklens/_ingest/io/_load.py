"""One ``load_qrels`` and one ``load_run`` that dispatch on what they are given."""

from __future__ import annotations

import io
import json
from collections.abc import Callable, Mapping, Sequence
from functools import partial
from pathlib import Path
from typing import Any, Literal, TypeVar, overload

import numpy as np

from ..._base.errors import InputError, ParameterError
from ..._base.lazy import polars as pl
from ..._base.warn import warn_user
from ..tables import Qrels, Run, SubtopicQrels
from ._frames import frame_to_qrels, frame_to_run, mapping_to_qrels, mapping_to_run, to_polars
from ._lines import located
from ._peers import IRDS_PREFIX, irds_qrels, peer_qrels, peer_run
from ._subtopics import read_ndeval_qrels, subtopic_qrels_from_frame, subtopic_qrels_from_mapping
from .headerless import column_names, is_msmarco_run, read_headerless_qrels, read_headerless_run
from .trec.files import read_bytes
from .trec.qrels import read_trec_qrels
from .trec.run import read_trec_run

__all__ = ["at_file_row", "bad_text_line", "data_line_numbers", "infinite_notice", "load_qrels",
           "load_run", "strip_compression", "text_columns", "text_table", "unreadable"]

_T = TypeVar("_T")

_COLUMNAR = (".parquet", ".pq", ".csv", ".tsv", ".jsonl", ".ndjson", ".arrow", ".feather")


def strip_compression(name: str) -> str:
    """``name`` without a compression suffix (``.gz``, ``.bz2``, ``.xz``)."""
    for ext in (".gz", ".bz2", ".xz"):
        if name.endswith(ext):
            return name[: -len(ext)]
    return name


def _columnar(path: str) -> pl.DataFrame | None:
    """A frame for files whose extension names a columnar format, else None."""
    name = strip_compression(path.lower())
    if not name.endswith(_COLUMNAR):
        return None
    kind = name.rsplit(".", 1)[-1]
    if kind in _TEXT_KINDS:
        return text_table(read_bytes(path), kind, path)
    try:
        return pl.read_ipc(path) if kind in ("arrow", "feather") else pl.read_parquet(path)
    except Exception as exc:
        raise unreadable(path, kind, exc) from exc


def text_table(raw: bytes, kind: str, path: str, shift: int = 0) -> pl.DataFrame:
    """The bytes of a CSV/TSV (read as :func:`text_columns`) or JSON Lines ``kind`` file as
    a frame; an error names the line of ``path`` (``shift`` lines come before ``raw``)."""
    try:
        if kind in ("jsonl", "ndjson"):
            return pl.read_ndjson(io.BytesIO(raw))
        return text_columns(pl.read_csv(io.BytesIO(raw), separator="\t" if kind == "tsv"
                                        else ",", infer_schema=False))
    except Exception as exc:
        found = bad_text_line(raw, kind)
        if found is not None:
            raise InputError(found[1], source=path, line=found[0] + shift) from exc
        raise unreadable(path, kind, exc) from exc


def unreadable(path: str, kind: str, exc: Exception) -> InputError:
    """The error of a file that its ``kind``'s reader refused: polars' words, on one line."""
    text = " ".join(str(exc).split())
    return InputError(f"cannot read as {kind}: {text[:300]}", source=path)


_TEXT_KINDS = ("csv", "tsv", "jsonl", "ndjson")

#: a decimal integer written as Python and polars write one (no sign but "-", no leading
#: zero, at most 18 digits so it fits int64): exactly the text its integer prints back as
_CANONICAL_INTEGER = r"^-?(?:0|[1-9][0-9]{0,17})$"


def text_columns(frame: pl.DataFrame) -> pl.DataFrame:
    """A CSV/TSV read as text, each column an integer where every value is one written
    canonically; every other column stays text (numbers in it are parsed where the column
    is read as a number). Type inference would read the ids "007" and "7" as the same
    integer, and "1.50" as 1.5."""
    integer = [name for name in frame.columns
               if frame[name].null_count() < frame.height
               and bool(frame[name].str.contains(_CANONICAL_INTEGER).all(ignore_nulls=True))]
    return frame.with_columns(pl.col(integer).cast(pl.Int64)) if integer else frame


def bad_text_line(raw: bytes, kind: str) -> tuple[int, str] | None:
    """The first line of a CSV/TSV or JSON Lines file that explains why it does not parse
    (a JSON syntax error, a row with more or fewer fields than the header), or None."""
    import csv

    try:
        lines = raw.decode("utf-8").split("\n")
    except UnicodeDecodeError as exc:
        return raw[:exc.start].count(b"\n") + 1, "invalid UTF-8 text"
    if kind in ("jsonl", "ndjson"):
        for number, line in enumerate(lines, 1):
            if not line.strip():
                continue
            try:
                json.loads(line)
            except ValueError as exc:
                return number, f"not valid JSON: {exc}"
        return None
    dialect = "excel-tab" if kind == "tsv" else "excel"
    width = None
    for number, fields in enumerate(csv.reader((x.rstrip("\r") for x in lines), dialect), 1):
        if not fields:
            continue
        if width is None:
            width = len(fields)
        elif len(fields) != width:
            return number, (f"expected {width} fields (as in the header), got {len(fields)}")
    return None


def data_line_numbers(raw: bytes, kind: str) -> list[int]:
    """The file line each data row of a CSV/TSV (after the header) or JSON Lines file starts
    on, as polars reads them: a blank line is a row of a CSV (of missing values), not of
    JSON Lines; a quoted CSV field may span lines."""
    import csv

    if kind not in ("csv", "tsv"):
        return [i for i, line in enumerate(raw.split(b"\n"), 1) if line.strip()]
    text = io.StringIO(raw.decode("utf-8", errors="replace"), newline="")
    reader = csv.reader(text, "excel-tab" if kind == "tsv" else "excel")
    starts: list[int] = []
    end = 0  # the line the previous record ended on
    for _ in reader:
        starts.append(end + 1)
        end = reader.line_num
    return starts[1:]


def at_file_row(path: str, row: int, detail: str) -> InputError:
    """:func:`located`'s place of a row of a columnar file's table: its line, or the row
    counted from 1 for a binary format."""
    kind = strip_compression(path.lower()).rsplit(".", 1)[-1]
    if kind in _TEXT_KINDS:
        numbers = data_line_numbers(read_bytes(path), kind)
        if row < len(numbers):
            return InputError(detail, source=path, line=numbers[row])
    return InputError(f"row {row + 1} (counting from 1): {detail}", source=path)


@overload
def load_qrels(qrels: Any, *, kind: Literal["relevance"] = "relevance",
               columns: str | Sequence[str] | None = None) -> Qrels: ...


@overload
def load_qrels(qrels: Any, *, kind: Literal["subtopic"],
               columns: str | Sequence[str] | None = None) -> SubtopicQrels: ...


def load_qrels(qrels: Any, *, kind: Literal["relevance", "subtopic"] = "relevance",
               columns: str | Sequence[str] | None = None) -> Qrels | SubtopicQrels:
    """Turn any supported qrels form into a :class:`Qrels` table (or, with
    ``kind="subtopic"``, a :class:`SubtopicQrels` table).

    Parameters
    ----------
    qrels : Qrels, str, Path, Mapping or DataFrame
        A TREC qrels file (optionally gzip/bz2/xz compressed; ``-`` is standard input), a
        CSV/TSV/Parquet/JSON Lines file with ``query_id, doc_id, relevance`` columns, a
        nested mapping ``{query_id: {doc_id: relevance}}``, or a pandas / polars / Arrow
        frame with those columns (aliases such as ``qid``, ``docno``, ``rel`` accepted).
        Other libraries' forms too: a ranx ``Qrels``, an iterable of rows with the fields
        ``query_id, doc_id, relevance`` (``ir_measures.Qrel``, ir_datasets'
        ``qrels_iter()``, any such namedtuple), or ``"irds:<dataset-id>"``, that
        ir_datasets dataset's qrels (needs ir_datasets installed).
    columns : str or sequence of str, optional
        A headerless file's columns, in order: ``"qid,docid,rel"`` (any column name
        a frame may use; ``_`` skips a column). Without a relevance column every row is
        relevant.
    kind : {"relevance", "subtopic"}, default "relevance"
        ``"subtopic"``: subtopic judgments for the diversity measures (alpha-nDCG, ERR-IA,
        NRBP, P-IA, S-recall): an ``ndeval`` file (``topic subtopic doc grade``, the TREC
        Web track's; its four columns look like a TREC qrels file's, hence this explicit
        kind), a columnar file or frame with a ``subtopic`` column (or ``subtopic_id``,
        ``intent``, ``aspect``, ``iteration``), or ``{query: {subtopic: {doc: grade}}}``.

    Examples
    --------
    >>> load_qrels({"q1": {"d1": 1, "d2": 0}})
    Qrels('<qrels dict>', 1 queries, 2 judgments)

    Notes
    -----
    The judgments are indexed as they are loaded (queries in trec_eval's order, doc-id
    hashes, each query's judgments by grade), so no evaluation redoes that work.
    """
    if kind == "subtopic":
        return _read_subtopic_qrels(qrels)
    if kind != "relevance":
        raise ParameterError(f"the 'kind' option of load_qrels must be one of relevance, "
                             f"subtopic; got {kind!r}")
    if isinstance(qrels, SubtopicQrels):
        raise InputError("these are subtopic judgments (a SubtopicQrels): pass "
                         "kind='subtopic', or take their documents() for plain judgments",
                         source=qrels.source)
    if isinstance(qrels, Qrels):
        return qrels
    roles = column_names(columns)
    if roles is not None and isinstance(qrels, (str, Path)):
        return read_headerless_qrels(qrels, roles)
    # its index (query numbering, hashes) is built by the data model on first use
    return _read_qrels(qrels)


def _read_subtopic_qrels(qrels: Any) -> SubtopicQrels:
    if isinstance(qrels, SubtopicQrels):
        return qrels
    if isinstance(qrels, Qrels):
        raise InputError("these judgments were loaded without subtopics (a Qrels); load the "
                         "file again with load_qrels(path, kind='subtopic')",
                         source=qrels.source)
    return _read(qrels, "subtopic qrels", "{query: {subtopic: {doc: grade}}}",
                 text_file=read_ndeval_qrels, file_frame=subtopic_qrels_from_frame,
                 mapping=subtopic_qrels_from_mapping, frame=subtopic_qrels_from_frame)


def _read_qrels(qrels: Any) -> Qrels:
    if isinstance(qrels, str) and qrels.startswith(IRDS_PREFIX):
        return irds_qrels(qrels)
    return _read(qrels, "qrels", "{query: {doc: relevance}}", text_file=read_trec_qrels,
                 file_frame=frame_to_qrels, mapping=mapping_to_qrels, frame=frame_to_qrels,
                 peer=peer_qrels)


def _read(given: Any, what: str, nested: str, *, text_file: Callable[[str], _T],
          file_frame: Callable[[pl.DataFrame, str], _T], mapping: Callable[[Mapping], _T],
          frame: Callable[[Any], _T], peer: Callable[[Any], _T | None] | None = None) -> _T:
    """``given`` read by the reader its form calls for: a path by ``file_frame(frame,
    path)`` when its extension names a columnar format, else by ``text_file(path)``; a
    mapping by ``mapping``; a DataFrame by ``frame``; another library's object (ranx's,
    rows with fields: see ``_peers``) by ``peer``. ``what`` and ``nested`` (the mapping's
    shape) word the error for anything else."""
    if isinstance(given, (str, Path)):
        path = str(given)
        columns = _columnar(path)
        if columns is None:
            return text_file(path)
        return located(partial(file_frame, columns, path), partial(at_file_row, path))
    if isinstance(given, Mapping):
        return mapping(given)
    if to_polars(given) is not None:
        return frame(given)
    if peer is not None:
        found = peer(given)
        if found is not None:
            return found
    others = ", a ranx object, rows with fields (query_id, doc_id, ...)" if peer else ""
    raise InputError(
        f"cannot read {what} from a {type(given).__name__}; expected a file path, "
        f"a {nested} mapping{others} or a DataFrame"
    )


def load_run(run: Any, *, name: str | None = None,
             columns: str | Sequence[str] | None = None) -> Run:
    """Turn any supported run form into a :class:`Run` table.

    Parameters
    ----------
    run : Run, str, Path, Mapping or DataFrame
        A TREC run file (optionally compressed; ``-`` is standard input), a
        CSV/TSV/Parquet/JSON Lines file with ``query_id, doc_id, score`` columns, a nested
        mapping ``{query_id: {doc_id: score}}``, or a frame with those columns. Other
        libraries' forms too: a ranx ``Run`` (its scores, and its name), or an iterable of
        rows with the fields ``query_id, doc_id, score`` (``ir_measures.ScoredDoc``).
    name : str, optional
        The run's name; defaults to a TREC file's tag, a ranx run's name or ``"run"``.
    columns : str or sequence of str, optional
        A headerless file's columns, in order: ``"qid,docid,score"``, ``"qid,docid,rank"``,
        ``"qid,_,docid,rank,score,_"`` (``_`` skips a column). Without a score the rank
        orders the rows (rank 1 first), else the file's order. A file of three fields whose
        third is an integer is read as an MS MARCO run (``qid pid rank``) without it.

    Notes
    -----
    The run is ranked as it is loaded (by query, score descending, ties by doc id
    descending, as trec_eval does), so each evaluation of it only matches judgments and
    computes measures. The run holds everything evaluation reads (every row's doc id,
    score and query): nothing reads its file again, and it behaves the same whichever
    judgments it is evaluated against. A :class:`Run` given back as is keeps whatever work
    it already holds.

    Examples
    --------
    >>> load_run({"q1": {"d1": 2.0, "d2": 1.0}})
    Run('<run dict>', 1 queries, 2 rows)
    """
    if isinstance(run, Run):
        return run
    return _warn_infinite(_read_run(run, name, column_names(columns)))


def _warn_infinite(run: Run, label: str | None = None) -> Run:
    """Say when scores are infinite: 1e999 and 1e400 both read as inf, and tie. The run is
    named ``label`` (the name it was given), else by its source."""
    # a finite sum has no infinite term (NaN scores are refused when read)
    infinite = 0 if np.isfinite(run.score.sum()) else int(np.isinf(run.score).sum())
    if infinite:
        warn_user(infinite_notice(label if label is not None else run.source, infinite))
    return run


def infinite_notice(source: str, infinite: int) -> str:
    """The warning of ``infinite`` infinite scores in the run ``source``."""
    return (f"{source}: {infinite} score{' is' if infinite == 1 else 's are'} infinite "
            "(beyond float64's range, such as 1e400, or inf itself); infinite scores of one "
            "sign tie with each other")


def _read_run(run: Any, name: str | None, columns: tuple[str, ...] | None = None) -> Run:
    if isinstance(run, (str, Path)) and (columns is not None or is_msmarco_run(run)):
        return read_headerless_run(run, columns, name)
    if isinstance(run, (str, Path)) and strip_compression(str(run)).endswith(".jsonl"):
        from .rag.answers import jsonl_run_kind, read_answers, read_requests

        # AG/RAG answers and ragnarok requests: known by their first record's keys
        kind = jsonl_run_kind(str(run))
        if kind is not None:
            return (read_answers(run, name=name).run if kind == "answers"
                    else read_requests(run, name=name or "requests"))
    return _read(
        run, "a run", "{query: {doc: score}}",
        text_file=lambda path: read_trec_run(path, name=name),
        file_frame=lambda frame, path: frame_to_run(frame, path, name or Path(path).name),
        mapping=lambda given: mapping_to_run(given, name=name or "run"),
        frame=lambda given: frame_to_run(given, name=name or "run"),
        peer=lambda given: peer_run(given, name))

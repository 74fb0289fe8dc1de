"""``ranklens trec_eval``: trec_eval 10.0's command line and output, computed by ranklens.

Options are parsed as trec_eval parses them (getopt: ``-M100``, ``-mP.5,10``, ``-l2``).
Measures are marked by name or nickname, printed in trec_eval's table order, with its
names (``P_5``, ``iprec_at_recall_0.10``, ``utility_2,-1,0,0``) and formats. Standard
measures come from the registry; the preference and judgment-group measures (``-R prefs``,
``-R qrels_prefs``, ``-R qrels_jg``) live in ``_trec_prefs`` and ``_trec_jg``.
Deliberate differences from trec_eval are listed in docs/trec_eval.md.
"""

from __future__ import annotations

import getopt
import math
import re
import warnings
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from .._errors import InputError, MeasureError, RanklensWarning
from .._measures import REGISTRY, Measure, MeasureDef
from .._tables import Qrels, Run
from ._trec_table import (
    INTEGER,
    JG,
    NICKNAMES,
    NO_PER_QUERY,
    NO_SUMMARY,
    ORDER,
    PREFS,
)

__all__ = ["Column", "TrecEvalError", "run_trec_eval"]

USAGE = (
    "Usage: ranklens trec_eval [-h] [-q] [-c] [-n] [-l <num>] [-m <measure>] [-M <num>]\n"
    "       [-N <num>] [-J] [-R <rel_format>] [-T <results_format>] [-Z <zscore_file>]\n"
    "       rel_info_file results_file\n"
)
_SHORT = "hvqm:cl:nD:JN:M:R:T:oZ:"
_LONG = ["help", "version", "query_eval_wanted", "measure=", "complete_rel_info_wanted",
         "level_for_rel=", "nosummary", "Debug_level=", "Judged_docs_only",
         "Number_docs_in_coll=", "Max_retrieved_per_topic=", "Rel_info_format=",
         "Results_format=", "Output_old_results_format", "Zscore="]
_REL_FORMATS = ("qrels", "qrels_jg", "prefs", "qrels_prefs")
BOGUS_DOC = "ceci_nest_pas_un_docno"  # trec_eval's ranking for a topic absent from the run
MISSING_ZSCORE = -1000000.0


class TrecEvalError(Exception):
    """A trec_eval usage problem: the message and trec_eval's exit status."""

    def __init__(self, message: str, status: int):
        super().__init__(message)
        self.status = status


@dataclass
class Options:
    per_query: bool = False
    complete: bool = False
    summary: bool = True
    rel: int = 1
    depth: int | None = None
    collection_size: int = 0
    judged_only: bool = False
    rel_format: str = "qrels"
    zscores: str | None = None
    marks: tuple[str, ...] = ()
    params: tuple[tuple[str, str], ...] = ()
    help: bool = False


@dataclass
class Column:
    """One printed measure: its trec_eval name, per-query values and how it is summarised.

    ``agg`` is ``mean``, ``sum``, ``gmean`` (values are stored as log(max(v, 1e-5)), as
    trec_eval stores them), ``count`` (num_q) or ``none`` (relstring).
    """

    name: str
    te: str
    values: list[Any]
    agg: str


def atol(text: str) -> int:
    """C ``atol``: the longest leading integer, 0 if there is none."""
    m = re.match(r"\s*([+-]?\d+)", text)
    return int(m.group(1)) if m else 0


def atof(text: str) -> float:
    """C ``atof``: the longest leading decimal number, 0.0 if there is none."""
    m = re.match(r"\s*([+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?)", text)
    return float(m.group(1)) if m else 0.0


def parse_args(argv: Sequence[str]) -> tuple[Options, str, str]:
    """trec_eval's getopt parsing: options may be glued (``-M100``) and follow the files."""
    try:
        opts, rest = getopt.gnu_getopt(list(argv), _SHORT, _LONG)
    except getopt.GetoptError as exc:
        raise TrecEvalError(f"{exc}\n{USAGE}", 1) from None
    o = Options()
    marks: list[str] = []
    params: list[tuple[str, str]] = []
    for flag, value in opts:
        if flag in ("-h", "--help"):
            o.help = True
        elif flag in ("-v", "--version"):
            raise TrecEvalError("trec_eval version 10.0 (ranklens drop-in)", 0)
        elif flag in ("-q", "--query_eval_wanted"):
            o.per_query = True
        elif flag in ("-m", "--measure"):
            name, dot, param = value.partition(".")
            if dot:
                if not param:
                    raise TrecEvalError(f"improper measure in parameter '{name}'; "
                                        f"illegal measure '{value}'", 1)
                params.append((name, param))
            marks.append(name)
        elif flag in ("-c", "--complete_rel_info_wanted"):
            o.complete = True
        elif flag in ("-l", "--level_for_rel"):
            o.rel = atol(value)
        elif flag in ("-n", "--nosummary"):
            o.summary = False
        elif flag in ("-J", "--Judged_docs_only"):
            o.judged_only = True
        elif flag in ("-N", "--Number_docs_in_coll"):
            o.collection_size = atol(value)
        elif flag in ("-M", "--Max_retrieved_per_topic"):
            o.depth = max(atol(value), 0)
        elif flag in ("-R", "--Rel_info_format"):
            o.rel_format = value
        elif flag in ("-T", "--Results_format"):
            if value != "trec_results":
                raise TrecEvalError(f"illegal retrieval results format '{value}' "
                                    "(only trec_results is supported)", 2)
        elif flag in ("-Z", "--Zscore"):
            o.zscores = value
        # -D (debug level) and -o (obsolete) are accepted and ignored
    o.marks = tuple(marks) or ("official",)
    o.params = tuple(params)
    if o.help:
        return o, "", ""
    if len(rest) != 2:
        raise TrecEvalError(f"expected two files (qrels and run), got {len(rest)}\n{USAGE}", 1)
    if o.rel_format not in _REL_FORMATS:
        raise TrecEvalError(f"illegal rel_format '{o.rel_format}'; expected one of "
                            + ", ".join(_REL_FORMATS), 2)
    return o, rest[0], rest[1]


def marked_measures(o: Options) -> list[tuple[str, str | None]]:
    """(trec_eval name, parameter string or None) of every marked measure, in table order."""
    marked: set[str] = set()
    unknown: list[str] = []
    for mark in o.marks:
        if mark in NICKNAMES:
            marked.update(NICKNAMES[mark])
        elif mark in ORDER:
            marked.add(mark)
        else:
            unknown.append(mark)
    if unknown:
        from .._names import suggest

        raise TrecEvalError("; ".join(
            f"illegal measure '{u}'; did you mean {suggest(u)}?" for u in unknown), 1)
    first: dict[str, str] = {}
    for name, param in o.params:
        first.setdefault(name, param)  # trec_eval uses the first -m parameters of a measure
    return [(name, first.get(name)) for name in ORDER if name in marked]


# -- registry lookup ------------------------------------------------------------------------
def _indexes() -> tuple[dict[str, MeasureDef], dict[str, MeasureDef]]:
    plain: dict[str, MeasureDef] = {}
    cut: dict[str, MeasureDef] = {}
    for defn in REGISTRY.values():
        if defn.trec:
            plain.setdefault(defn.trec, defn)
        if defn.trec_cut:
            cut.setdefault(defn.trec_cut, defn)
    return plain, cut


def _cutoff_name(te: str, defn: MeasureDef, c: float) -> str:
    if defn.cutoff == "float":
        return f"{te}_{c:3.2f}"
    return f"{te}_{int(c)}"


def _cutoffs(te: str, defn: MeasureDef, param: str | None) -> list[float]:
    if param is None:
        return sorted(defn.trec_cutoffs)
    pieces = param.split(",")
    if defn.cutoff == "float":
        values = sorted(atof(p) for p in pieces)
    else:
        values = sorted(float(atol(p)) for p in pieces)
        if any(v <= 0 for v in values):
            raise TrecEvalError(f"negative cutoff detected in '{te}.{param}'; "
                                f"cannot initialize measure '{te}'", 2)
    if len(set(values)) != len(values):
        raise TrecEvalError(f"duplicate cutoffs detected in '{te}.{param}'; "
                            f"cannot initialize measure '{te}'", 2)
    return values


_LEVEL = re.compile(r"^[+-]?[0-9]+$")


def _with_params(te: str, defn: MeasureDef, param: str) -> Measure:
    """A plain measure with trec_eval parameters: ``L=G`` gains, ``p=0.95``, or numbers."""
    kinds = {p.name: p.kind for p in defn.params}
    values: dict[str, Any] = {}
    pieces = [p for p in param.split(",") if p != ""]
    try:
        if any("=" in p for p in pieces):
            gains = []
            for piece in pieces:
                key, eq, value = piece.partition("=")
                if not eq or not value:
                    raise TrecEvalError(f"malformed pair parameters in '{param}'; "
                                        f"cannot initialize measure '{te}'", 2)
                if _LEVEL.match(key):
                    gains.append((float(key), atof(value)))
                elif key in kinds:
                    values[key] = atof(value) if kinds[key] == "float" else value
            if gains:
                if "gain" not in kinds:
                    raise TrecEvalError(f"'{te}' takes no gain parameters", 2)
                values["gain"] = tuple(sorted(gains))
        else:
            floats_param = next((p for p in defn.params if p.kind == "floats"), None)
            float_params = [p for p in defn.params if p.kind == "float"]
            int_params = [p for p in defn.params if p.kind == "int" and p.name != "rel"]
            if floats_param is not None:
                values[floats_param.name] = tuple(atof(p) for p in pieces)
            elif float_params and len(pieces) <= len(float_params):
                if te == "utility" and len(pieces) != len(float_params):
                    raise TrecEvalError(f"utility needs {len(float_params)} parameters, "
                                        f"got '{param}'", 4)
                for p, text in zip(float_params, pieces, strict=False):
                    values[p.name] = atof(text)
            elif int_params and len(pieces) == 1:
                values[int_params[0].name] = atol(pieces[0])
            elif defn.cutoff == "int" and len(pieces) == 1:
                return Measure(defn.name, (), atol(pieces[0]))
            else:
                raise TrecEvalError(f"cannot use parameters '{param}' for '{te}'; "
                                    f"cannot initialize measure '{te}'", 2)
        return Measure(defn.name, tuple(values.items()))
    except MeasureError as exc:
        raise TrecEvalError(f"cannot initialize measure '{te}': {exc}", 2) from None


def engine_columns(marked: list[tuple[str, str | None]]) -> list[tuple[str, str, Measure]]:
    """(printed name, trec_eval name, Measure) for every marked registry measure."""
    plain, cut = _indexes()
    out: list[tuple[str, str, Measure]] = []
    for te, param in marked:
        if te in cut and plain.get(te) is cut[te] and len(cut[te].trec_cutoffs) == 1:
            # one-value measures whose parameter is a length (relstring.20): the name gets
            # the raw parameter only when one is given, as trec_eval prints it
            defn = cut[te]
            lengths = _cutoffs(te, defn, param)
            if len(lengths) != 1:
                raise TrecEvalError(f"'{te}' takes one parameter, got '{param}'", 2)
            out.append((te if param is None else f"{te}_{param}", te,
                        Measure(defn.name, (), lengths[0])))
        elif te in cut:
            defn = cut[te]
            for c in _cutoffs(te, defn, param):
                out.append((_cutoff_name(te, defn, c), te, Measure(defn.name, (), c)))
        elif te in plain:
            defn = plain[te]
            if param is None:
                out.append((te, te, Measure(defn.name)))
            else:
                out.append((f"{te}_{param}", te, _with_params(te, defn, param)))
    return out


# -- evaluation ------------------------------------------------------------------------------
def _add_bogus(qrels: Qrels, run: Run) -> tuple[Run, set[str]]:
    """Give each judged topic absent from the run trec_eval's one-document bogus ranking."""
    import polars as pl

    judged = set(qrels.frame["query_id"].unique().to_list())
    present = set(run.block_ids.unique().to_list())
    missing = sorted(judged - present)
    if not missing:
        return run, set()
    extra = pl.DataFrame({
        "query_id": missing,
        "doc_id": [BOGUS_DOC] * len(missing),
        "score": [0.0] * len(missing),
        "rank": [0] * len(missing),
    }, schema={"query_id": pl.String, "doc_id": pl.String, "score": pl.Float64,
               "rank": pl.Int64})
    base = run.frame.drop("order")
    frame = pl.concat([base, extra.select(base.columns)], how="vertical")
    frame = frame.with_columns(pl.int_range(pl.len(), dtype=pl.Int64).alias("order"))
    return Run(frame, run.source, run.name), set(missing)


def warn_left_out(missing: list[str], o: Options, source: str) -> None:
    """Without -c, judged topics absent from the run are left out (trec_eval 9's rule; 10.0
    exits with status 4 instead): say so on stderr, keep stdout trec_eval's."""
    if missing and not o.complete:
        warnings.warn(
            f"{len(missing)} judged topics are absent from the run ({source}) and were left "
            f"out of the averages; pass -c to score them 0: {sorted(missing)[:5]}"
            + (" ..." if len(missing) > 5 else ""),
            RanklensWarning, stacklevel=2,
        )


def _is_reset(name: str) -> bool:
    # trec_eval's clean-up after a bogus ranking compares the *printed* names
    return name in ("num_ret", "utility", "relstring", "rbp_resid") or name.startswith("unj")


def evaluate_columns(
    qrels: Qrels, run: Run, o: Options, specs: list[tuple[str, str, Measure]]
) -> tuple[list[str], list[Column]]:
    """Per-query values of the registry measures, with trec_eval's -c handling."""
    from .._evaluate import evaluate

    bogus: set[str] = set()
    if o.complete:
        run, bogus = _add_bogus(qrels, run)
    measures: list[Measure] = []
    seen: set[str] = set()
    for _, _, m in specs:
        if str(m) not in seen:
            seen.add(str(m))
            measures.append(m)
    if not measures:
        measures = [Measure("NumQ")]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RanklensWarning)
        result = evaluate(
            qrels, run, measures, rel=o.rel, missing="zero" if o.complete else "skip",
            depth=o.depth, judged_only=o.judged_only, collection_size=o.collection_size,
        )
    qids = [str(q) for q in result.query_ids.tolist()]
    warn_left_out(result.diagnostics.get("missing_queries", []), o, run.source)
    is_bogus = [q in bogus for q in qids]
    columns: list[Column] = []
    for name, te, m in specs:
        key = str(m)
        defn = m.definition
        if key in result.text_values:
            vals: list[Any] = [str(v) for v in result.text_values[key]]
            agg = "none"
        else:
            vals = [float(v) for v in result.query_values[key]]
            agg = defn.aggregate
            if agg == "gmean":
                vals = [math.log(max(v, 1e-5)) for v in vals]
        if _is_reset(name):
            vals = [("" if agg == "none" else 0.0) if b else v
                    for v, b in zip(vals, is_bogus, strict=True)]
        if te == "num_q":
            agg = "count"
        columns.append(Column(name, te, vals, agg))
    return qids, columns


def summary_value(col: Column, nq: int) -> float:
    """trec_eval's summary: sequential double sums, then one division (or exp for gm_)."""
    if col.agg == "count":
        return float(nq)
    total = 0.0
    for v in col.values:
        total += v
    if col.agg == "sum":
        return total
    if nq == 0:
        return 0.0
    if col.agg == "gmean":
        return math.exp(total / nq)
    return total / nq


# -- z scores -------------------------------------------------------------------------------
def read_zscores(path: str) -> dict[tuple[str, str], tuple[float, float]]:
    """``qid measure mean stddev`` lines."""
    from .._io._trec import read_bytes

    table: dict[tuple[str, str], tuple[float, float]] = {}
    text = read_bytes(path).decode("utf-8", errors="replace")
    for lineno, line in enumerate(text.splitlines(), 1):
        fields = line.split()
        if not fields:
            continue
        if len(fields) != 4:
            raise InputError(f"expected 4 fields (query measure mean stddev), got "
                             f"{len(fields)}", source=path, line=lineno)
        table[(fields[0], fields[1])] = (atof(fields[2]), atof(fields[3]))
    if not table:
        raise InputError("file is empty, expected zscore lines", source=path)
    return table


def apply_zscores(qids: list[str], columns: list[Column],
                  table: dict[tuple[str, str], tuple[float, float]]) -> None:
    known_q = {q for q, _ in table}
    for col in columns:
        if col.agg == "none":
            continue
        for i, q in enumerate(qids):
            entry = table.get((q, col.name)) if q in known_q else None
            v = col.values[i]
            if entry is None:
                col.values[i] = MISSING_ZSCORE
            elif entry[1]:
                col.values[i] = (v - entry[0]) / entry[1]
            else:
                col.values[i] = 0.0 if v == entry[0] else MISSING_ZSCORE


# -- printing -------------------------------------------------------------------------------
def _fmt(col: Column, value: Any, zscore: bool) -> str:
    if col.agg == "none":
        return f"'{value}'"
    if col.te in INTEGER and not zscore:
        return str(int(value))
    if isinstance(value, float) and math.isnan(value):
        return "  -nan"  # glibc prints the NaN of 0/0 with its sign bit set
    return f"{value:6.4f}"


def format_output(qids: list[str], columns: list[Column], run_name: str, o: Options,
                  complete_num_rel: float | None) -> str:
    z = o.zscores is not None
    lines: list[str] = []

    def row(col: Column, qid: str, value: Any) -> None:
        prefix = "" if col.agg == "none" or not z else "Z"  # trec_eval prints "Z%-22s"
        lines.append(f"{prefix}{col.name:<22}\t{qid}\t{_fmt(col, value, z)}")

    if o.per_query:
        for i, q in enumerate(qids):
            for col in columns:
                if col.te not in NO_PER_QUERY:
                    row(col, q, col.values[i])
    if o.summary:
        for col in columns:
            if col.te == "runid":
                lines.append(f"{'runid':<22}\tall\t{run_name}")
                continue
            if col.te in NO_SUMMARY:
                continue
            value = summary_value(col, len(qids))
            if col.te == "num_rel" and complete_num_rel is not None:
                value = complete_num_rel
            row(col, "all", value)
    return "".join(line + "\n" for line in lines)


Producer = Callable[..., tuple[list[str], list[Column]]]


def run_trec_eval(argv: Sequence[str]) -> str:
    """Everything ``trec_eval argv`` prints on standard output."""
    from .._io._load import load_qrels, load_run

    o, qrels_path, run_path = parse_args(argv)
    if o.help:
        return USAGE
    marked = marked_measures(o)
    if o.rel_format in ("prefs", "qrels_prefs"):
        from ._trec_prefs import prefs_columns

        run = load_run(run_path)
        qids, columns = prefs_columns(qrels_path, run, o, marked)
        run_name = run.name
    elif o.rel_format == "qrels_jg":
        from ._trec_jg import jg_columns

        run = load_run(run_path)
        qids, columns = jg_columns(qrels_path, run, o, marked)
        run_name = run.name
    else:
        bad = [te for te, _ in marked if te in PREFS or te in JG]
        if bad:
            raise TrecEvalError(f"measure '{bad[0]}' needs -R prefs, qrels_prefs or "
                                "qrels_jg judgments", 4)
        qrels = load_qrels(qrels_path)
        run = load_run(run_path)
        specs = engine_columns(marked)
        qids, columns = evaluate_columns(qrels, run, o, specs)
        present = {te for te, _ in marked}
        columns = _with_specials(present, columns, len(qids))
        run_name = run.name
    complete_num_rel = None
    if o.complete and o.rel_format == "qrels":
        frame = load_qrels(qrels_path).frame
        complete_num_rel = float((frame["relevance"] > 0).sum())
    if o.zscores is not None:
        apply_zscores(qids, columns, read_zscores(o.zscores))
    return format_output(qids, columns, run_name, o, complete_num_rel)


def _with_specials(present: set[str], columns: list[Column], nq: int) -> list[Column]:
    """Put runid first (it has no values) when it was marked."""
    out = []
    if "runid" in present:
        out.append(Column("runid", "runid", [], "none"))
    out.extend(columns)
    if "num_q" in present and not any(c.te == "num_q" for c in columns):
        out.insert(1 if out and out[0].te == "runid" else 0,
                   Column("num_q", "num_q", [1.0] * nq, "count"))
    return out


def order_columns(columns: list[Column]) -> list[Column]:
    """Columns in trec_eval's table order (stable within one measure)."""
    rank = {name: i for i, name in enumerate(ORDER)}
    return sorted(columns, key=lambda c: rank.get(c.te, len(rank)))


def per_query_array(values: list[float]) -> np.ndarray:
    return np.asarray(values, dtype=np.float64)

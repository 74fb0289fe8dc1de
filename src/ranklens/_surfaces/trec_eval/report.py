"""``trec_eval``: trec_eval 10.0's evaluation as a Python call, and the report it returns."""

from __future__ import annotations

import contextlib
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..._base.errors import DuplicateError, ParameterError
from ..._ingest.io._load import load_qrels, load_run
from ..._results.per_query import Shown, listed
from ..render.model import Cell, Row, Table, label
from ..render.model import Column as Column_
from .columns import Column, measure_columns, registry_columns
from .options import JUDGMENTS, Judgments, TrecEvalError
from .output import trec_eval_text
from .prefs import prefs_columns
from .qrels_jg import jg_columns
from .summary import ZScores, apply_zscores, read_zscores, summary_value
from .table import JG, NO_SUMMARY, PREFS, select_measures

__all__ = ["TrecEvalReport", "trec_eval"]


@dataclass(frozen=True, repr=False)
class TrecEvalReport(Shown):
    """What trec_eval computes for one run: per-topic and summary values, and its output.

    Attributes
    ----------
    run_name : str
        The run's tag (what trec_eval prints for ``runid``).
    query_ids : tuple of str
        The evaluated topics, in trec_eval's order.
    columns : tuple of Column
        One per printed measure (``P_5``, ``P_10`` ...), in trec_eval's table order.
    zscores : bool
        Whether the values are z-scores (``-Z``).
    """

    run_name: str
    query_ids: tuple[str, ...]
    columns: tuple[Column, ...] = field(repr=False)
    zscores: bool = False
    overrides: Mapping[str, float] = field(default_factory=dict, repr=False)

    def __repr__(self) -> str:
        body = listed([f"{n}={text}" for n, text, _ in self._shown()])
        return f"<TrecEvalReport {self.run_name}: {body} over {len(self.query_ids)} topics>"

    def _shown(self) -> list[tuple[str, str, float]]:
        # as trec_eval prints them: counts whole, the rest to 4 places
        at = self.summary
        return [(c.name, f"{at[c.name]:.0f}" if c.integer else f"{at[c.name]:.4f}", at[c.name])
                for c in self.columns if c.name in at]

    def table(self) -> Table:
        """The ``all`` lines: one row per measure (a notebook shows it)."""
        return Table((Column_("measure", "left"), Column_("value")),
                     tuple(Row((label(n), Cell(text, v))) for n, text, v in self._shown()))

    @property
    def names(self) -> list[str]:
        """The printed measure names, in output order (``runid`` excluded)."""
        return [c.name for c in self.columns if c.te != "runid"]

    @property
    def per_query(self) -> dict[str, dict[str, Any]]:
        """``{measure: {topic: value}}`` for the measures trec_eval prints per topic (``-q``)."""
        return {c.name: dict(zip(self.query_ids, c.values, strict=True))
                for c in self.columns if c.per_query and c.te != "runid"}

    @property
    def summary(self) -> dict[str, float]:
        """``{measure: value}`` of the ``all`` lines (text measures such as relstring have
        none; ``runid`` is :attr:`run_name`)."""
        return {c.name: self.overrides.get(c.te, summary_value(c, len(self.query_ids)))
                for c in self.columns if c.te != "runid" and c.te not in NO_SUMMARY}

    def text(self, *, per_query: bool = False, summary: bool = True) -> str:
        """trec_eval's standard output, byte for byte.

        Parameters
        ----------
        per_query : bool, default False
            Print each topic's values first (``-q``).
        summary : bool, default True
            Print the ``all`` lines (``-n`` turns them off).
        """
        return trec_eval_text(self.query_ids, self.columns, self.run_name,
                              per_query=per_query, summary=summary, zscores=self.zscores,
                              overrides=self.overrides)


def trec_eval(qrels: Any, run: Any, measures: str | Iterable[str] = ("official",), *,
              judgments: Judgments = "qrels", complete: bool = False, depth: int | None = None,
              judged_only: bool = False, rel: int = 1, collection_size: int = 0,
              zscores: str | Path | ZScores | None = None) -> TrecEvalReport:
    """Evaluate a run exactly as trec_eval 10.0 does, options named after its flags.

    Parameters
    ----------
    qrels : path, mapping, DataFrame or Qrels
        The judgments. For ``judgments="qrels"`` anything :func:`ranklens.evaluate` takes;
        for the other formats a file (``-`` is standard input).
    run : path, mapping, DataFrame or Run
        The ranked results.
    measures : str or iterable of str, default ("official",)
        What ``-m`` takes: names (``map``), nicknames (``all_trec``) or names with
        parameters (``P.5,10``, ``ndcg.1=3,2=9``). Printed in trec_eval's table order.
    judgments : {"qrels", "qrels_jg", "prefs", "qrels_prefs"}, default "qrels"
        The judgments' format (``-R``).
    complete : bool, default False
        Score judged topics absent from the run on an empty ranking (``-c``); otherwise
        they are left out, with a :class:`~ranklens.RanklensWarning`.
    depth : int, optional
        Evaluate the top ``depth`` documents of each ranking only (``-M``).
    judged_only : bool, default False
        Drop unjudged documents from the rankings first (``-J``).
    rel : int, default 1
        The least relevance level that counts as relevant (``-l``).
    collection_size : int, default 0
        The number of documents in the collection (``-N``), for utility measures.
    zscores : path or mapping, optional
        ``(topic, measure) -> (mean, stddev)``, or a file of ``topic measure mean stddev``
        lines (``-Z``): every per-topic value becomes its z-score.

    Returns
    -------
    TrecEvalReport
        Per-topic values, summary values and :meth:`TrecEvalReport.text`.

    Raises
    ------
    TrecEvalError
        A measure or option trec_eval refuses (``.status`` is its exit status).
    InputError
        Malformed judgments or run.

    Examples
    --------
    >>> from ranklens import trec_eval
    >>> qrels = {"q1": {"d1": 1, "d2": 0}, "q2": {"d3": 1}}
    >>> run = {"q1": {"d1": 2.0, "d2": 1.0}, "q2": {"d4": 1.0}}
    >>> report = trec_eval(qrels, run, ["map", "P.1"])
    >>> report.summary
    {'map': 0.5, 'P_1': 0.5}
    >>> report.text().splitlines()
    ['map                   \\tall\\t0.5000', 'P_1                   \\tall\\t0.5000']
    """
    if judgments not in JUDGMENTS:
        raise TrecEvalError(f"illegal rel_format '{judgments}'; expected one of "
                            + ", ".join(JUDGMENTS), 2)
    for option, value in (("depth", depth), ("rel", rel), ("collection_size", collection_size)):
        if value is not None and (isinstance(value, bool) or not isinstance(value, int)):
            raise ParameterError(f"the {option!r} option must be an integer, got {value!r}")
    requests = [measures] if isinstance(measures, str) else list(measures)
    if not requests:
        raise ParameterError("the 'measures' argument is empty; name at least one measure "
                             "or nickname, such as 'official'")
    selected = select_measures(requests)
    overrides: dict[str, float] = {}
    with _duplicates_refused():
        if judgments in ("prefs", "qrels_prefs"):
            loaded = load_run(run)
            qids, columns = prefs_columns(qrels, loaded, selected,
                                          qrels_format=judgments == "qrels_prefs",
                                          complete=complete, depth=depth)
        elif judgments == "qrels_jg":
            loaded = load_run(run)
            qids, columns = jg_columns(qrels, loaded, selected, complete=complete, rel=rel,
                                       depth=depth, judged_only=judged_only)
        else:
            bad = [te for te, _ in selected if te in PREFS or te in JG]
            if bad:
                raise TrecEvalError(f"measure '{bad[0]}' needs -R prefs, qrels_prefs or "
                                    "qrels_jg judgments", 4)
            table = load_qrels(qrels)
            loaded = load_run(run)
            specs = measure_columns(selected)
            qids, columns = registry_columns(table, loaded, specs, complete=complete, rel=rel,
                                             depth=depth, judged_only=judged_only,
                                             collection_size=collection_size)
            if complete:
                # trec_eval's -c summary of num_rel counts every relevant judgment
                overrides["num_rel"] = float((table.frame["relevance"] > 0).sum())
    columns = _with_counts(selected, columns, len(qids))
    if zscores is not None:
        table_z = read_zscores(zscores) if isinstance(zscores, (str, Path)) else zscores
        columns = apply_zscores(qids, columns, table_z)
    return TrecEvalReport(loaded.name, tuple(qids), tuple(columns),
                          zscores is not None, overrides)


#: how ranklens.trec_eval's duplicate errors end: it has no 'duplicates' option (nor has
#: trec_eval), so the hint names the function that has one
DUPLICATES_HINT = ("trec_eval refuses it too: remove the duplicate, or keep its first "
                   "occurrence with ranklens.evaluate(..., duplicates='first')")


@contextlib.contextmanager
def _duplicates_refused() -> Iterator[None]:
    """A duplicate document's error, with :data:`DUPLICATES_HINT` for its hint."""
    try:
        yield
    except DuplicateError as exc:
        exc.detail = (f"document {exc.doc_id!r} appears more than once for query "
                      f"{exc.query_id!r} in the {exc.what}; {DUPLICATES_HINT}")
        exc.args = ((f"{exc.source}: " if exc.source is not None else "") + exc.detail,)
        raise


def _with_counts(selected: list[tuple[str, str | None]], columns: list[Column],
                 num_q: int) -> list[Column]:
    """runid first when selected (it has no values), then num_q when no measure gave it."""
    marked = {te for te, _ in selected}
    out: list[Column] = []
    if "runid" in marked:
        out.append(Column("runid", "runid", (), "none", per_query=False))
    if "num_q" in marked and not any(c.te == "num_q" for c in columns):
        out.append(Column("num_q", "num_q", (1.0,) * num_q, "count", integer=True,
                          per_query=False))
    out.extend(columns)
    return out

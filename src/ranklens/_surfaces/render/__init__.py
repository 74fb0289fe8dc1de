"""Results and comparisons as text: tables, JSON Lines, CSV, ...

Rendering is kept apart from the results and from the command line, so that every format
can be tested at a fixed width without a terminal. Everything rendered is first turned into
one neutral :class:`~.model.Table` (columns, rows of cells with their marks, notes), and one
module per format writes any table:

``model``       the table: columns, rows, cells (text shown, value written, marks), notes
``results``     Result objects as tables (:mod:`ranklens._surfaces.compare.render` does comparisons)
``text``        ``table``: plain aligned text
``terminal``    ``table`` on a terminal: a rich table, best values in bold
``markdown``    ``markdown``: a pipe table
``latex``       ``latex``: a booktabs ``tabular``
``delimited``   ``csv`` / ``tsv``: values at full precision
``jsonl``       ``jsonl``: one object per row
``trec``        ``trec``: trec_eval's rows, ``%-22s\\t%s\\t%6.4f``, a ``runid`` row per run
``formats``     which module writes which format

For results, each run becomes one row (systems side by side); with ``per_query`` every
query of every run gets a row too, and the aggregate row's query is ``all``. ``jsonl``
writes one ``{"run", "query", "measure", "value"}`` object per value; ``csv``/``tsv`` a
header ``run,query,<measures...>``; the human formats (table, markdown, latex) name the
conventions in force, and call the query column ``user`` for a recommender's results.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Literal, get_args

from ..._base.errors import ParameterError
from ..._results.interval import IntervalRequest
from ..._results.result import Result
from ..._results.results import Results, results_of
from .formats import write, write_lines
from .model import Table
from .results import convention_line, grid_records, grid_table, results_grid

if TYPE_CHECKING:
    from rich.table import Table as RichTable

__all__ = ["FORMATS", "Format", "convention_line", "render", "render_lines", "rich_table"]

#: The output formats of :func:`render`.
Format = Literal["table", "jsonl", "csv", "tsv", "markdown", "latex", "trec"]
FORMATS: tuple[str, ...] = get_args(Format)


def render(results: Result | Results | Sequence[Result], format: Format = "table", *,
           per_query: bool = False, run_names: Sequence[str] | None = None,
           ci: float | None = None, ci_method: str = "t", seed: int = 0,
           n_resamples: int = 9999) -> str:
    """Render results as text in one of :data:`FORMATS`.

    Parameters
    ----------
    results : Result, Results or sequence of Result
        One result per run, all with the same measures.
    format : {"table", "jsonl", "csv", "tsv", "markdown", "latex", "trec"}, default "table"
        ``table``: aligned plain text; ``jsonl``: one ``{"run", "query", "measure",
        "value"}`` object per line (NaN as null); ``csv``/``tsv``: full precision;
        ``markdown``: a pipe table; ``latex``: a booktabs tabular; ``trec``: trec_eval's
        rows. The human formats (table, markdown, latex) end with the conventions in force.
    per_query : bool, default False
        Also write one row per query (the aggregate row's query is ``all``).
    run_names : sequence of str, optional
        Names shown for the runs (default: each result's ``run_name``).
    ci : float, optional
        A confidence level (e.g. 0.95): each mean gets the bounds of its interval over
        queries (:meth:`Result.interval`), as columns ``<measure> low`` and ``<measure>
        high`` (``low`` and ``high`` fields in ``jsonl``) on the aggregate rows. Not with
        ``trec``.
    ci_method : {"t", "bootstrap"}, default "t"
        The interval (``bootstrap``: percentile, drawn from ``seed``, ``n_resamples``
        resamples).
    seed, n_resamples : int
        The bootstrap's seed and resamples.

    Returns
    -------
    str
        The rendered text, ending with a newline.

    Raises
    ------
    ParameterError
        An unknown format, no results, results of different measures, or as many run
        names as results not given.

    Examples
    --------
    >>> import ranklens
    >>> r = ranklens.evaluate({"q": {"a": 1}}, {"q": {"a": 1.0, "b": 2.0}}, ["P@1", "RR"])
    >>> print(ranklens.render(r, "csv"), end="")
    run,query,P@1,RR
    run,all,0.0,0.5
    """
    return write(_results_table(results, format, per_query, run_names, ci, ci_method, seed,
                                n_resamples), format)


def render_lines(results: Result | Results | Sequence[Result], format: Format = "table", *,
                 per_query: bool = False, run_names: Sequence[str] | None = None,
                 ci: float | None = None, ci_method: str = "t", seed: int = 0,
                 n_resamples: int = 9999) -> Iterator[str]:
    """:func:`render`'s text in pieces, made as they are consumed: per-query rows are never
    all held (the table format measures its columns on the values first). Everything is
    checked before the first piece is made; joined, the pieces are :func:`render`'s text.

    Examples
    --------
    >>> import ranklens
    >>> r = ranklens.evaluate({"q": {"a": 1}}, {"q": {"a": 1.0, "b": 2.0}}, ["RR"])
    >>> list(render_lines(r, "csv", per_query=True))
    ['run,query,RR\\n', 'run,q,0.5\\n', 'run,all,0.5\\n']
    """
    return write_lines(_results_table(results, format, per_query, run_names, ci, ci_method,
                                      seed, n_resamples), format)


def _results_table(results: Result | Results | Sequence[Result], format: str,
                   per_query: bool, run_names: Sequence[str] | None, ci: float | None,
                   ci_method: str, seed: int, n_resamples: int) -> Table:
    """The table :func:`render` writes in ``format``, checked."""
    seq = results_of(results)
    if format not in FORMATS:
        raise ParameterError(f"unknown format {format!r}; expected one of {', '.join(FORMATS)}")
    request = _request(ci, ci_method, seed, n_resamples)
    if request is not None and format == "trec":
        raise ParameterError("intervals (ci) are not written in the trec format, whose rows "
                             "are trec_eval's; use another format")
    grid = results_grid(seq, run_names, per_query, request)
    if format == "jsonl":
        return grid_records(grid)
    # the machine formats name the query of every row, the aggregate's too, and keep their
    # field names whatever the inputs; the human ones say "user" for a recommender's
    machine = format in ("csv", "tsv", "trec")
    table = grid_table(grid, query_column=per_query or machine,
                       query_label="query" if machine else seq[0].vocabulary.query)
    notes = (convention_line(seq), *((request.describe(),) if request else ()))
    if format in ("table", "markdown"):
        table = replace(table, notes=notes)
    elif format == "latex":
        table = replace(table, comment="; ".join(notes))
    return table


def _request(ci: float | None, method: str, seed: int,
             n_resamples: int) -> IntervalRequest | None:
    """The intervals asked for (None: none), checked."""
    return None if ci is None else IntervalRequest(ci, method, seed, n_resamples)


def rich_table(results: Result | Results | Sequence[Result], *, per_query: bool = False,
               run_names: Sequence[str] | None = None, title: str | None = None,
               ci: float | None = None, ci_method: str = "t", seed: int = 0,
               n_resamples: int = 9999) -> RichTable:
    """The ``table`` format as a :class:`rich.table.Table` (best value per column in bold;
    ``ci`` and the rest as :func:`render`)."""
    from .terminal import rich_table as terminal_table

    seq = results_of(results)
    request = _request(ci, ci_method, seed, n_resamples)
    table = grid_table(results_grid(seq, run_names, per_query, request),
                       query_column=per_query, best=True, query_label=seq[0].vocabulary.query)
    notes = (convention_line(seq), *((request.describe(),) if request else ()))
    return terminal_table(replace(table, notes=notes), title=title)

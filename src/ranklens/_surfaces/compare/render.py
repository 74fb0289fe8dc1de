"""The comparison as text: a table of means with significance marks, or one row per pair.

A comparison is turned into the neutral table of :mod:`ranklens._surfaces.render.model`, which the
format modules of :mod:`ranklens._surfaces.render` write, as they write results.

``table``, ``markdown`` and ``latex`` show one row per run and one column per measure, the
mean, and a mark on each significant difference. Against a baseline: ``▲`` / ``▼`` after a
run significantly above / below it. All pairs: each run has a letter, and a run's cell
lists the letters of the runs it is significantly above (so the direction is where the
letter stands). Below the table: the test, correction, alpha, n, permutations and seed
(:mod:`.notes`). ``csv``, ``tsv`` and ``jsonl`` have one row per comparison with every
field (intervals, effect size, wins/ties/losses, p and adjusted p) and the settings; with
``details`` the human formats show those rows too, rounded (:func:`detail_table`).
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from ..._base.validate import Choice, check
from ..render.best import tie_key
from ..render.formats import write
from ..render.model import DOWN, UP, Cell, Column, Row, Table, label
from .notes import TEST_NAMES, footer

if TYPE_CHECKING:
    from .comparison import ComparisonData as Comparison

__all__ = ["COMPARE_FORMATS", "comparison_records", "comparison_table", "detail_table",
           "letters", "render_comparison"]

COMPARE_FORMATS = ("table", "markdown", "latex", "csv", "tsv", "jsonl")


def letters(count: int) -> list[str]:
    """Run labels a, b, ..., z, aa, ab, ... (plain ASCII: no missing superscript glyph)."""
    out = []
    for i in range(count):
        label = ""
        i += 1
        while i:
            i, r = divmod(i - 1, 26)
            label = chr(ord("a") + r) + label
        out.append(label)
    return out


def _marks(cmp: Comparison, measure: str, run: str, labels: dict[str, str]) -> str:
    """A cell's marks: a symbol against a baseline, else the letters of the runs it beats."""
    if cmp.baseline is not None:
        if run == cmp.baseline:
            return ""
        direction = cmp.direction(measure, run, cmp.baseline)
        return UP if direction > 0 else DOWN if direction < 0 else ""
    return "".join(labels[other] for other in cmp.run_names
                   if other != run and cmp.direction(measure, run, other) > 0)


def _best(cmp: Comparison, measure: str, digits: int) -> set[str]:
    """The runs whose mean, as shown, is the best of the measure (means equal to 12
    significant digits, :func:`~ranklens._surfaces.render.best.tie_key`, round alike)."""
    shown = {run: round(tie_key(v), digits) for run, v in cmp.means[measure].items()
             if not math.isnan(v)}
    if not shown:
        return set()
    best = (min if measure in cmp.lower_is_better else max)(shown.values())
    return {run for run, v in shown.items() if v == best}


def comparison_table(cmp: Comparison, *, paper: bool = False) -> Table:
    """One row per run, one marked column per measure (the means), the settings as notes.

    ``paper``: the LaTeX version: three decimals, the title ``Run``, and a comment naming
    the test and what the document needs.
    """
    digits = 3 if paper else 4
    labels = dict(zip(cmp.run_names, letters(len(cmp.run_names)), strict=True))
    best = {m: _best(cmp, m, digits) for m in cmp.measures}
    columns = (Column("Run" if paper else "run", "left"),
               *(Column(m, marked=True) for m in cmp.measures))
    rows = []
    for run in cmp.run_names:
        head = run if cmp.baseline is not None else f"({labels[run]}) {run}"
        cells = [label(head)]
        for m in cmp.measures:
            mean = cmp.means[m][run]
            text = "NaN" if math.isnan(mean) else f"{mean:.{digits}f}"
            cells.append(Cell(text, mean, marks=_marks(cmp, m, run, labels),
                              strong=run in best[m]))
        rows.append(Row(tuple(cells)))
    return _table(cmp, columns, rows, paper)


def _table(cmp: Comparison, columns: tuple[Column, ...], rows: list[Row],
           paper: bool) -> Table:
    """The table, the settings as its notes (``paper``: and a LaTeX comment naming the test
    and what the document needs)."""
    comment = (f"ranklens compare: {TEST_NAMES[cmp.test]}, correction {cmp.correction}, "
               f"alpha {cmp.alpha:g}, seed {cmp.seed}; needs \\usepackage{{booktabs}}"
               if paper else "")
    return Table(columns, tuple(rows), notes=tuple(footer(cmp)), comment=comment)


def comparison_records(cmp: Comparison) -> Table:
    """One row per comparison: every field of :class:`PairComparison` and the settings."""
    dicts = cmp.to_dicts()
    columns = tuple(Column(name) for name in dicts[0]) if dicts else ()
    rows = tuple(Row(tuple(Cell("" if v is None else str(v), v) for v in d.values()))
                 for d in dicts)
    return Table(columns, rows)


def _number(value: object, digits: int) -> str:
    """A float of the detail table, fixed-point (``nan``, ``inf`` as such)."""
    if not isinstance(value, float):
        return "nan"
    if math.isnan(value) or math.isinf(value):
        return str(value)
    return f"{value:.{digits}f}"


def _p(value: object, digits: int) -> str:
    """A p-value: fixed-point, in scientific notation below what the digits can show
    (``3.2e-09``, not ``0.0000``; a p that underflowed to 0 is ``0.0e+00``)."""
    if isinstance(value, float) and 0 <= value < 10.0 ** -digits:
        return f"{value:.1e}"
    return _number(value, digits)


#: The detail table's columns: (title, field of :func:`comparison_records`, align left).
DETAIL_COLUMNS = (("measure", "measure"), ("system", "system"), ("baseline", "baseline"),
                  ("n", "n"), ("difference", "difference"), ("interval", "ci_low"),
                  ("d_z", "effect_size"), ("W/T/L", "wins"), ("p", "p_value"),
                  ("p adj", "p_adjusted"), ("significant", "significant"))


def detail_table(cmp: Comparison, *, paper: bool = False) -> Table:
    """One row per comparison, as the human formats show it: the measure, the two runs, n,
    the mean difference and its interval, the effect size d_z, wins/ties/losses, p and
    adjusted p, and whether it is significant (with the mark of its direction).

    It reads the records ``csv`` and ``jsonl`` write (:func:`comparison_records`); the
    settings are the notes, as under the table of means. ``paper``: three decimals and a
    LaTeX comment naming the test.
    """
    digits = 3 if paper else 4
    columns = tuple(Column(title, "left" if title in ("measure", "system", "baseline")
                           else "right", marked=title == "significant",
                           count=title == "n") for title, _ in DETAIL_COLUMNS)
    rows = []
    for record in cmp.to_dicts():
        value = record.get  # a field of comparison_records' row
        interval = f"[{_number(value('ci_low'), digits)}, {_number(value('ci_high'), digits)}]"
        cells = [label(str(value("measure"))), label(str(value("system"))),
                 label(str(value("baseline"))), Cell(str(value("n")), value("n")),
                 Cell(_number(value("difference"), digits), value("difference")),
                 label(interval), Cell(_number(value("effect_size"), 2), value("effect_size")),
                 label(f"{value('wins')}/{value('ties')}/{value('losses')}"),
                 *(Cell(_p(value(f), digits), value(f)) for f in ("p_value", "p_adjusted"))]
        significant = bool(value("significant"))
        direction = value("direction")
        marks = (UP if direction == 1 else DOWN if direction == -1 else "") \
            if significant else ""
        cells.append(Cell("yes" if significant else "no", significant, marks=marks))
        rows.append(Row(tuple(cells)))
    return _table(cmp, columns, rows, paper)


def render_comparison(cmp: Comparison, fmt: str = "table", *,
                      details: bool = False) -> str:
    """Render a :class:`Comparison` in one of :data:`COMPARE_FORMATS`.

    ``details``: in ``table``, ``markdown`` and ``latex``, one row per comparison
    (:func:`detail_table`) instead of the means with marks; ``csv``, ``tsv`` and ``jsonl``
    always have one row per comparison.

    Examples
    --------
    >>> import ranklens
    >>> qrels = {f"q{i}": {"a": 1} for i in range(6)}
    >>> runs = {"base": {f"q{i}": {"x": 1.0} for i in range(6)},
    ...         "new": {f"q{i}": {"a": 1.0} for i in range(6)}}
    >>> cmp = ranklens.compare(qrels, runs, ["P@1"], baseline="base", test="randomization")
    >>> for line in render_comparison(cmp, "table").splitlines()[:4]:
    ...     print(line)
    run   P@1
    ----  --------
    base  0.0000
    new   1.0000 ▲
    """
    check("format", fmt, Choice(COMPARE_FORMATS))
    if fmt in ("csv", "tsv", "jsonl"):
        return write(comparison_records(cmp), fmt)
    make = detail_table if details else comparison_table
    return write(make(cmp, paper=fmt == "latex"), fmt)

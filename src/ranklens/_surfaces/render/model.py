"""The table every format writes: columns, rows of cells, and the sentences around them.

Results (:mod:`.results`) and comparisons (:mod:`ranklens._surfaces.compare.render`) are turned into
a :class:`Table`; each format module writes any table. A cell has two faces: ``text``, what
the human formats (plain text, Markdown, LaTeX, a terminal) show, numbers rounded and marks
beside them; and ``value``, what the machine formats (CSV, TSV, JSON Lines, trec_eval's rows)
write, typed and at full precision.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import Generic, Literal, TypeVar

__all__ = ["DOWN", "UP", "Cell", "Column", "Lazy", "Row", "Table", "Value", "label"]

T = TypeVar("T")

#: A value as the machine formats write it (None: no value, an empty CSV field).
Value = str | int | float | bool | None

#: The marks of a value significantly above / below a baseline; every format writes them
#: its own way (LaTeX as math arrows).
UP, DOWN = "\u25b2", "\u25bc"


@dataclass(frozen=True)
class Column:
    """One column: its title and how its cells are laid out.

    Attributes
    ----------
    title : the header.
    align : ``"left"`` for names (runs, queries), ``"right"`` for numbers.
    marked : the cells carry marks after their number: plain text then aligns the column
        left, so that the numbers start together and the marks hang to the right.
    count : the values are counts: the delimited formats and trec_eval's rows write ``3``,
        not ``3.0``.
    """

    title: str
    align: Literal["left", "right"] = "right"
    marked: bool = False
    count: bool = False


@dataclass(frozen=True)
class Cell:
    """One cell: the text shown and the value written.

    Attributes
    ----------
    text : as the human formats show it (``0.1235``, ``nan``, a run's name).
    value : as the machine formats write it (``0.12345678901234``, None for NaN in JSON).
    marks : letters, :data:`UP` or :data:`DOWN`, shown after ``text``.
    strong : the best value of its column: bold where a format has bold that leaves the
        text as it is (LaTeX, a terminal), not in plain text or Markdown.
    """

    text: str
    value: Value
    marks: str = ""
    strong: bool = False

    @property
    def shown(self) -> str:
        """``text`` with its marks after a space (``0.4123 ▲``), as plain text shows it."""
        return f"{self.text} {self.marks}" if self.marks else self.text


def label(text: str) -> Cell:
    """A cell that names something (a run, a query): the same text shown and written."""
    return Cell(text, text)


@dataclass(frozen=True)
class Row:
    """One row of cells, one per column; ``aggregate`` marks a run's row over all queries
    (told apart by this flag, never by a query id: a query may be named ``all``)."""

    cells: tuple[Cell, ...]
    aggregate: bool = False


@dataclass(frozen=True)
class Lazy(Generic[T]):
    """Items made anew on each pass by ``make``: per-query rows are streamed to the output,
    never all held at once (a writer may pass twice, as plain text does for its widths)."""

    make: Callable[[], Iterator[T]]

    def __iter__(self) -> Iterator[T]:
        return self.make()


@dataclass(frozen=True)
class Table:
    """Columns, rows, and the sentences that go with them.

    Attributes
    ----------
    columns, rows : the grid; every row has one cell per column (``rows``: a tuple, or a
        :class:`Lazy` that makes them on each pass).
    widths : the widest shown text of each column, when the rows' maker finds it cheaper
        than a pass over the rows (plain text's widths; None: measured on the rows).
    notes : sentences under the table (the conventions, the settings of a test), in the
        human formats.
    comment : a line for the source of a document only (LaTeX's ``%`` comment).
    """

    columns: tuple[Column, ...]
    rows: Iterable[Row]
    notes: tuple[str, ...] = ()
    comment: str = ""
    widths: Callable[[], list[int]] | None = None

    @property
    def titles(self) -> list[str]:
        """The header: every column's title."""
        return [c.title for c in self.columns]

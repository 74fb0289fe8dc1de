"""The ``latex`` format: a booktabs ``tabular``, best values bold, marks as superscripts."""

from __future__ import annotations

from .model import DOWN, UP, Cell, Table

__all__ = ["escape", "render"]

_SPECIAL = {
    "\\": r"\textbackslash{}", "&": r"\&", "%": r"\%", "$": r"\$", "#": r"\#", "_": r"\_",
    "{": r"\{", "}": r"\}", "~": r"\textasciitilde{}", "^": r"\textasciicircum{}",
}
_MATH = {UP: r"\uparrow", DOWN: r"\downarrow"}


def escape(text: str) -> str:
    """``text`` with LaTeX's special characters escaped (``a_b & c`` -> ``a\\_b \\& c``)."""
    return "".join(_SPECIAL.get(ch, ch) for ch in text)


def _prose(text: str) -> str:
    """A note's sentence: escaped, with ``<`` and the marks written as math."""
    return "".join(f"${_MATH[ch]}$" if ch in _MATH else "$<$" if ch == "<" else
                   _SPECIAL.get(ch, ch) for ch in text)


def _cell(cell: Cell) -> str:
    text = escape(cell.text)
    if cell.strong:
        text = f"\\textbf{{{text}}}"
    if cell.marks:
        text += "$^{" + "".join(_MATH.get(ch, ch) for ch in cell.marks) + "}$"
    return text


def render(table: Table) -> str:
    """``table`` as a booktabs ``tabular`` (needs ``\\usepackage{booktabs}``).

    The comment comes first as a ``%`` line; the notes follow the tabular in small type.

    Examples
    --------
    >>> from ranklens._surfaces.render.model import UP, Cell, Column, Row, Table, label
    >>> t = Table((Column("Run", "left"), Column("AP_x", marked=True)),
    ...           (Row((label("a&b"), Cell("0.250", 0.25, marks=UP, strong=True))),),
    ...           notes=("p < 0.05",))
    >>> print(render(t), end="")
    \\begin{tabular}{lr}
    \\toprule
    Run & AP\\_x \\\\
    \\midrule
    a\\&b & \\textbf{0.250}$^{\\uparrow}$ \\\\
    \\bottomrule
    \\end{tabular}
    \\par\\smallskip{\\footnotesize p $<$ 0.05}
    """
    spec = "".join("l" if c.align == "left" else "r" for c in table.columns)
    lines = [f"% {table.comment}"] if table.comment else []
    lines += [f"\\begin{{tabular}}{{{spec}}}", "\\toprule",
              " & ".join(escape(t) for t in table.titles) + r" \\", "\\midrule"]
    lines += [" & ".join(_cell(c) for c in row.cells) + r" \\" for row in table.rows]
    lines += ["\\bottomrule", "\\end{tabular}"]
    if table.notes:
        lines.append("\\par\\smallskip{\\footnotesize "
                     + " ".join(_prose(n) for n in table.notes) + "}")
    return "\n".join(lines) + "\n"

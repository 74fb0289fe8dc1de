"""LaTeX text escaping, shared by the result and comparison renderers."""

from __future__ import annotations

__all__ = ["escape"]

_SPECIAL = {
    "\\": r"\textbackslash{}", "&": r"\&", "%": r"\%", "$": r"\$", "#": r"\#", "_": r"\_",
    "{": r"\{", "}": r"\}", "~": r"\textasciitilde{}", "^": r"\textasciicircum{}",
}


def escape(text: str) -> str:
    """``text`` with LaTeX's special characters escaped (``a_b & c`` -> ``a\\_b \\& c``)."""
    return "".join(_SPECIAL.get(ch, ch) for ch in text)

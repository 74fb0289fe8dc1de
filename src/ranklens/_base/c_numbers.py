"""C's ``atol`` and ``atof``: how trec_eval reads a number out of a measure parameter or a
file field (the longest leading number, 0 when there is none).

A module of its own, below ingest and the measures, because both read numbers this way:
the measures' parameter parser (``P.5,10``) and the TREC line readers.

>>> c_atol("10abc"), c_atol("x"), c_atof(" 0.5e1x"), c_atof("")
(10, 0, 5.0, 0.0)
"""

from __future__ import annotations

import re

__all__ = ["c_atof", "c_atol"]

_C_INT = re.compile(r"[ \t\n\r\x0b\x0c]*([+-]?[0-9]+)")
_C_FLOAT = re.compile(r"[ \t\n\r\x0b\x0c]*([+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?)")


def c_atol(text: str) -> int:
    """C ``atol``: the longest leading integer, 0 if there is none (trec_eval's reading)."""
    m = _C_INT.match(text)
    return int(m.group(1)) if m else 0


def c_atof(text: str) -> float:
    """C ``atof``: the longest leading decimal number, 0.0 if there is none."""
    m = _C_FLOAT.match(text)
    return float(m.group(1)) if m else 0.0

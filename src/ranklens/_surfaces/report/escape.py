"""Escaping for the two places text from the inputs lands in the report: HTML and JSON.

Query ids, document ids and run names come from the user's files and may hold markup. In
HTML they are escaped with :func:`html.escape`; in the JSON embedded in ``<script
type="application/json">`` blocks, ``<``, ``>`` and ``&`` are written as ``\\u003c``,
``\\u003e`` and ``\\u0026``, so no ``</script>`` or ``<!--`` can end or change the block
(``json.dumps`` alone lets ``</script>`` through), while ``JSON.parse`` reads the same text.
"""

from __future__ import annotations

import html
import json
import math
from typing import Any

__all__ = ["finite", "html_text", "script_json"]

_UNSAFE = {"<": "\\u003c", ">": "\\u003e", "&": "\\u0026"}


def html_text(value: object) -> str:
    """``value`` as HTML text (quotes escaped too, so it is also safe in an attribute).

    >>> html_text("<img src=x onerror=alert(1)>")
    '&lt;img src=x onerror=alert(1)&gt;'
    """
    return html.escape(str(value), quote=True)


def finite(value: float) -> float | None:
    """A float for JSON: None (``null``) for NaN and infinities, which JSON cannot hold."""
    return value if math.isfinite(value) else None


def script_json(value: Any) -> str:
    """Compact JSON of ``value`` that is safe inside a ``<script>`` element.

    Raises ``ValueError`` on NaN or infinity (convert them with :func:`finite` first): a
    browser's ``JSON.parse`` rejects them.

    >>> script_json({"q": "</script><b>&"})
    '{"q":"\\\\u003c/script\\\\u003e\\\\u003cb\\\\u003e\\\\u0026"}'
    """
    text = json.dumps(value, ensure_ascii=False, allow_nan=False, separators=(",", ":"))
    for char, escaped in _UNSAFE.items():
        text = text.replace(char, escaped)
    return text

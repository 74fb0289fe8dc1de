"""What every self-contained HTML page shares: escaping, the vendored Vega-Lite bundles and
their schema.

Escaping covers the two places text from the inputs lands in a page: HTML and JSON.

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
from importlib import resources
from typing import Any

__all__ = ["SCHEMA", "VENDORED", "finite", "html_text", "script_json", "vendored_js"]

SCHEMA = "https://vega.github.io/schema/vega-lite/v6.json"
#: The bundles, in load order (vega-lite needs vega, vega-embed needs both).
VENDORED = ("vega.min.js", "vega-lite.min.js", "vega-embed.min.js")

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


def vendored_js() -> list[str]:
    """The text of the three bundles, in load order."""
    base = resources.files("ranklens._surfaces.report") / "vendor"
    texts = [(base / name).read_text(encoding="utf-8") for name in VENDORED]
    for name, text in zip(VENDORED, texts, strict=True):
        # inlined in <script>: a closing tag inside would end the element early
        if "</script" in text.lower():
            raise RuntimeError(f"the vendored {name} contains '</script' and cannot be inlined")
    return texts

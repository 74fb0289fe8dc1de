"""The HTML report: ``ranklens.report`` and ``ranklens report``.

Layers: :mod:`.collect` evaluates the curves beside the requested measures and keeps plain
numbers; :mod:`.specs` turns them into Vega-Lite specs (plain dicts); :mod:`.marks` asks for
the summary's significance marks; :mod:`.page` assembles one self-contained HTML file with
the vendored JS bundles (``vendor/``, refreshed by ``scripts/refresh_vega.py``).
"""

from __future__ import annotations

from .build import report

__all__ = ["report"]

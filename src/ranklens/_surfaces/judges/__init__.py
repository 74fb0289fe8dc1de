"""Can these judgments be trusted? Agreement between judges, and leaderboard survival.

``pairing``      labels loaded, put on one scale, joined on (query, doc)
``statistics``   kappa, alpha, Fleiss' kappa, shift, from confusion/coincidence matrices
``labels``       each judge against the reference, every judge together; bootstrap intervals
``leaderboard``  orderings and significance decisions under each judge
``report``       the report, as text and JSON Lines
``page``         the report as one HTML page (Vega-Lite charts)
``api``          :func:`judges`
"""

from __future__ import annotations

from .api import JudgesReport, judges

__all__ = ["JudgesReport", "judges"]

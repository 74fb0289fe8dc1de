"""Run-vs-run measures: how alike two rankings of the same queries are, without judgments.

:mod:`.measures` holds their registry, :mod:`.values` their values and names
(``RBO(p=0.9)``, ``Overlap@10``), :mod:`.rankings` turns two runs into the pairs of
rankings the kernels read, :mod:`.rbo` and :mod:`.sets` are the kernels, :mod:`.api` is
``ranklens.agreement``.
"""

from __future__ import annotations

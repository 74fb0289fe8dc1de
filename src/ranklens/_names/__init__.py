"""Measure names: every spelling a measure goes by, and the one parser that reads them.

The spellings themselves are declared by each measure in the registry (its canonical name,
``aliases``, ``variants``, ``trec``, ``trec_cut``); this package reads them. Modules:

- :mod:`.index`: the one index of spellings (canonical names, aliases and variants;
  trec_eval's names), built once from the registry, with one rule for collisions;
- :mod:`.canonical`: the grammar ``Name(param=value,...)@k`` and the measure it builds,
  recording which parameters a name writes;
- :mod:`.trec`: trec_eval's spellings of one measure (``map``, ``P_5``, ``ndcg_1=3,2=9``);
- :mod:`.peers`: other libraries' spellings (ranx's ``map@100-l2``);
- :mod:`.parse`: the order the spellings are tried in, :func:`parse_measure`;
- :mod:`.lists`: trec_eval's spellings of several measures (``P_5,10``, ``official``),
  and :func:`parse_measures`, which reads them.

Layering: this package imports :mod:`ranklens._measures` and never the reverse; trec_eval's
output order and nicknames stay in :mod:`ranklens._measures._trec_table`, the data both
this package and :mod:`ranklens._surfaces.trec_eval` read.
"""

from __future__ import annotations

from .._measures._registry import suggest
from .lists import expand_trec_lists, parse_measures
from .parse import all_names, parse_measure, read, written_params

__all__ = ["all_names", "expand_trec_lists", "parse_measure", "parse_measures", "read",
           "suggest", "written_params"]

"""Coverage@k: the share of the item catalogue that the top k of all users recommends.

``Coverage@k = |distinct catalogue items in any top k| / |catalogue|``, a catalogue-level
value (the counts of recommended items are merged over every query, then finished once).
The catalogue is ``items=`` when given, else the items of ``train=``. Recommended items
outside the catalogue are counted in a warning and not covered. ``normalize=false`` gives
the count of items instead of the share (RecTools' ``CatalogCoverage`` default, Elliot's
``ItemCoverage``). Conventions (docs/beyond-accuracy.md):

* ``rectools``: ``CatalogCoverage(normalize=True)``, every distinct recommended item (in
  the catalogue or not) over the catalogue size;
* ``recbole``: ``ItemCoverage``, every distinct recommended item over the number of items
  plus one (RecBole counts its padding item id 0 among its items);
* ``recommenders``: ``catalog_coverage``, every distinct recommended item over the distinct
  items of the training interactions.
"""

from __future__ import annotations

from .._model.items import ItemContext, ItemCounts
from ._beyond import (
    catalogue_size,
    convention,
    in_catalogue,
    normalize,
    register_beyond,
    top_counts,
)
from ._registry import Measure


def _coverage(counts: ItemCounts, m: Measure, context: ItemContext) -> float:
    style = m.get("convention")
    distinct = float(counts.item_ids.size if style != "ranklens"
                     else in_catalogue(counts, context).sum())
    if not m.get("normalize"):
        return distinct
    if style == "recommenders":
        return distinct / max(int((context.rows > 0).sum()), 1)
    n = catalogue_size(context, m)
    return distinct / (n + 1 if style == "recbole" else n)


register_beyond("Coverage", "catalogue coverage: distinct catalogue items in any top k over the "
                "catalogue size (catalogue-level; RecTools CatalogCoverage, RecBole ItemCoverage, "
                "Microsoft Recommenders catalog_coverage)",
                params=(convention(("ranklens", "rectools", "recbole", "recommenders"),
                                   "ranklens (catalogue items only), rectools, recbole (size + 1), "
                                   "recommenders (over the training items)"),
                        normalize(True, "a share of the catalogue (false: the number of items)")),
                aggregate="catalogue",
                # peers' names read as their definitions
                variants=(("catalogcoverage", (("convention", "rectools"),)),
                          ("itemcoverage", (("convention", "recbole"),)),
                          ("catalog_coverage", (("convention", "recommenders"),))),
                # recommenders' divides by the items of the training interactions
                needs=lambda m: ("catalogue", "train") if m.get("convention") == "recommenders"
                else ("catalogue",), item_tally=top_counts, finish_items=_coverage)

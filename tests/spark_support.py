"""What the Spark tests share: the measures ranklens.spark evaluates."""

from __future__ import annotations

from ranklens._measures import REGISTRY


def spark_measures() -> list[str]:
    """Every registered measure at its defaults, plus cutoffs (text measures included; not
    the diversity measures, which read subtopic judgments: refused on the driver; nor the
    beyond-accuracy ones, which read an item context Spark does not take yet)."""
    names: list[str] = []
    for name, defn in REGISTRY.items():
        if defn.subtopics or defn.family == "beyond":
            continue
        if not defn.cutoff_required:
            names.append(name)
        if defn.cutoff == "int":
            names += [f"{name}@1", f"{name}@5"]
        elif defn.cutoff == "float":
            names += [f"{name}@0.5"]
    return names

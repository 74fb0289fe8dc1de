"""Each peer's own ranking of a run's lines, reproduced in ranklens, for the agreement check.

Where a peer's value differs from ranklens's default (trec_eval's) value, the difference has
been one of three causes, each a ranking of tied or nearly tied scores, never a measure's
definition:

``float32``    pytrec_eval (and the measures ir_measures hands to it) holds scores as 32-bit
               floats: scores that differ past float32's ~7 significant digits tie there and
               are then ordered by doc id descending, as trec_eval orders ties.
``docid-asc``  ir_measures computes ``RR@10`` with its MS MARCO provider, which sorts by score
               and then by doc id *ascending*.
``ranx``       ranx sorts each query's scores with numba's (unstable) quicksort, which leaves
               tied documents in an order that is neither the input's nor the doc ids'.

For each, this module ranks the run's lines as the peer does and evaluates that ranking with
ranklens (``ties="input"`` where the peer's order is given as the input order): a peer agrees
when its values equal these to 1e-9. The ranx order is read back from ranx itself (the
``Run`` it builds from the file), not re-implemented.

    python benchmarks/peer_orders.py TOOL QRELS MEASURES RUN... > values.json

(``MEASURES`` comma-separated ranklens names; one JSON object per run, in order.) It runs as a
child process: the peer's imports and the run's rows stay out of the benchmark's parent.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Literal

if TYPE_CHECKING:
    import polars as pl

HERE = Path(__file__).resolve().parent

#: per peer: the ranking of each ranklens measure compared with ("*": every other one)
ORDERS: dict[str, dict[str, str]] = {
    "pytrec_eval": {"*": "float32"},
    "ir_measures": {"*": "float32", "RR@10": "docid-asc"},
    "ranx": {"*": "ranx"},
}

#: what each ranking is, for the benchmark's notes
DESCRIBE = {
    "float32": "scores rounded to 32-bit floats, then trec_eval's order (ties by doc id "
               "descending)",
    "docid-asc": "ties by doc id ascending (ir_measures' MS MARCO provider, its RR@10)",
    "ranx": "ties in the order ranx's numba quicksort leaves them (read back from ranx, given "
            "to ranklens with ties='input')",
}


def own_order(tool: str) -> str:
    """How ``tool``'s rankings differ from trec_eval's, in words (one line)."""
    return "; ".join(f"{'other measures' if m == '*' else m}: {DESCRIBE[o]}"
                     for m, o in ORDERS[tool].items())


def agree_label(entry: dict, digits: int) -> str:
    """The agreement cell of a compared tool (``agree``, ``agree_own_order``,
    ``max_abs_diff``): yes, yes in the peer's own ranking of ties, or no."""
    diff = f"{entry['max_abs_diff']:.{digits}e}"
    if entry["agree"]:
        return "yes"
    if entry.get("agree_own_order"):
        return f"yes in its own ranking of ties ({diff} in trec_eval's)"
    return f"no ({diff})"


def reference(tool: str, qrels: Path, runs: tuple[Path, ...] | list[Path],
              measures: list[str]) -> list[dict[str, float]]:
    """ranklens's values of ``measures`` on each run ranked as ``tool`` ranks it."""
    out = subprocess.run([sys.executable, str(Path(__file__)), tool, str(qrels),
                          ",".join(measures), *map(str, runs)],
                         capture_output=True, text=True, check=True)
    return json.loads(out.stdout)


def _ranked(order: str, run: Path, frame: pl.DataFrame
            ) -> tuple[pl.DataFrame, Literal["docid", "input"]]:
    """The run's rows (``frame``, read from ``run``) ranked as ``order`` says, and the tie
    policy that keeps that ranking."""
    import polars as pl

    if order == "ranx":
        import ranx

        # ranx's Run keeps each query's documents in the order its sort left them
        by_ranx = ranx.Run.from_file(str(run), kind="trec").run
        rows = [(q, d, s) for q, docs in by_ranx.items() for d, s in docs.items()]
        by_ranx_frame = pl.DataFrame(rows, schema={"query_id": pl.String,
                                                   "doc_id": pl.String, "score": pl.Float64},
                                     orient="row")
        return by_ranx_frame, "input"
    if order == "float32":
        return frame.with_columns(pl.col("score").cast(pl.Float32).cast(pl.Float64)), "docid"
    if order == "docid-asc":
        ranked = frame.sort(["query_id", "score", "doc_id"], descending=[False, True, False])
        return ranked, "input"
    raise ValueError(f"unknown order {order!r}")


def _values(tool: str, qrels: Path, run: Path, measures: list[str]) -> dict[str, float]:
    import ranklens

    orders = ORDERS[tool]
    wanted: dict[str, list[str]] = {}
    for m in measures:
        wanted.setdefault(orders.get(m, orders["*"]), []).append(m)
    # read once, whatever the number of orders (ranx's is read back from ranx instead)
    frame = ranklens.load_run(run).frame.select("query_id", "doc_id", "score")
    values: dict[str, float] = {}
    for order, names in wanted.items():
        ranked, ties = _ranked(order, run, frame)
        values.update(dict(ranklens.evaluate(qrels, ranked, names, ties=ties,
                                             missing="zero")))
    return values


def main() -> None:
    tool, qrels, measures, *runs = sys.argv[1:]
    names = measures.split(",")
    print(json.dumps([_values(tool, Path(qrels), Path(r), names) for r in runs]))


if __name__ == "__main__":
    main()

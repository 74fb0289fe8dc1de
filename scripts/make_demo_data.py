"""Generate the small data set behind ``ranklens demo`` (deterministic; output is committed).

Forty queries, each with a pool of 120 documents of which 30 are judged on a 0-3 scale;
two systems rank the whole pool from the same hidden relevance with different amounts
of noise, so ``dense`` is clearly better than ``bm25`` but not on every query.

    python scripts/make_demo_data.py            # rewrites src/ranklens/data/demo*
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

SEED = 20260422
N_QUERIES = 40
POOL = 120
JUDGED = 30
DEPTH = 50
OUT = Path(__file__).resolve().parent.parent / "src" / "ranklens" / "data"


def main() -> None:
    rng = np.random.default_rng(SEED)
    qrels_lines: list[str] = []
    runs: dict[str, list[str]] = {"bm25": [], "dense": []}
    noise = {"bm25": 1.8, "dense": 1.0}
    for q in range(1, N_QUERIES + 1):
        qid = f"q{q:02d}"
        docs = [f"doc{q:02d}-{i:03d}" for i in range(POOL)]
        # hidden relevance: a few strongly relevant documents, a long weak tail
        hidden = rng.gamma(shape=0.8, scale=1.0, size=POOL)
        # judgments come from a pool: the 20 most relevant documents plus 10 at random
        top = np.argsort(-hidden)[:20]
        rest = rng.choice(np.setdiff1d(np.arange(POOL), top), size=JUDGED - 20, replace=False)
        judged = np.sort(np.concatenate([top, rest]))
        cuts = np.quantile(hidden[judged], [0.55, 0.8, 0.93])
        for i in judged:
            grade = int(np.searchsorted(cuts, hidden[i], side="right"))
            qrels_lines.append(f"{qid} 0 {docs[i]} {grade}")
        for name, sigma in noise.items():
            score = hidden + rng.normal(0.0, sigma, size=POOL)
            order = np.argsort(-score, kind="stable")[:DEPTH]
            for rank, i in enumerate(order, 1):
                runs[name].append(f"{qid} Q0 {docs[i]} {rank} {score[i]:.4f} {name}")
    OUT.mkdir(parents=True, exist_ok=True)
    (OUT / "demo.qrels").write_text("\n".join(qrels_lines) + "\n", encoding="ascii")
    for name, lines in runs.items():
        (OUT / f"demo-{name}.run").write_text("\n".join(lines) + "\n", encoding="ascii")
    print(f"wrote {len(qrels_lines)} judgments and 2 runs of {len(runs['bm25'])} lines to {OUT}")


if __name__ == "__main__":
    main()

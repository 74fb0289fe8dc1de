"""Generate the small recommender data set bundled with ranklens (deterministic; committed).

A catalogue of 300 items whose popularity falls off as a power law, 100 users with training
interactions drawn from it, one held-out test item per user (the judgments), and two
recommenders ranking 10 unseen items per user: ``popular`` (the most popular items the user
has not seen, the same list for almost everyone) and ``personal`` (items near the user's
taste in an 8-dimensional embedding space, with a little popularity). The catalogue's
``group`` column is ``head`` for the fewest most popular items holding 80% of the training
interactions and ``tail`` for the others (the long tail of APLT@k).

    python scripts/make_demo_recs.py     # rewrites src/ranklens/data/demo-recs*
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

SEED = 20261127
N_ITEMS = 300
N_USERS = 100
DIM = 8
PER_USER = 12  # mean training interactions per user
DEPTH = 10
OUT = Path(__file__).resolve().parent.parent / "src" / "ranklens" / "data"


def main() -> None:
    rng = np.random.default_rng(SEED)
    items = [f"i{j:03d}" for j in range(N_ITEMS)]
    users = [f"u{u:03d}" for u in range(N_USERS)]
    embeddings = rng.normal(size=(N_ITEMS, DIM))
    embeddings /= np.linalg.norm(embeddings, axis=1, keepdims=True)
    appeal = 1.0 / np.arange(1, N_ITEMS + 1) ** 0.9  # item j's popularity, a power law
    taste = rng.normal(size=(N_USERS, DIM))
    train_lines: list[str] = []
    qrels_lines: list[str] = []
    runs: dict[str, list[str]] = {"popular": [], "personal": []}
    seen_all: list[np.ndarray] = []
    for u in range(N_USERS):
        # a user picks items by popularity times taste (softmax over the embedding score)
        weight = appeal * np.exp(1.5 * embeddings @ taste[u] / np.linalg.norm(taste[u]))
        n = 1 + int(rng.poisson(PER_USER - 1))
        picked = rng.choice(N_ITEMS, size=n + 1, replace=False, p=weight / weight.sum())
        seen, held_out = np.sort(picked[:n]), int(picked[n])
        seen_all.append(seen)
        train_lines += [f"{users[u]} {items[j]}" for j in seen]
        qrels_lines.append(f"{users[u]} 0 {items[held_out]} 1")
    counts = np.bincount(np.concatenate(seen_all), minlength=N_ITEMS)
    for u in range(N_USERS):
        unseen = np.setdiff1d(np.arange(N_ITEMS), seen_all[u])
        direction = embeddings[seen_all[u]].mean(axis=0)
        scores = {"popular": counts[unseen].astype(float),
                  "personal": embeddings[unseen] @ direction + 0.02 * np.log1p(counts[unseen])}
        for name, score in scores.items():
            # ties by item id, so the lists are the same on every machine
            order = np.lexsort((unseen, -score))[:DEPTH]
            runs[name] += [f"{users[u]} Q0 {items[unseen[i]]} {rank} {score[i]:.4f} {name}"
                           for rank, i in enumerate(order, 1)]
    # the short head: the fewest most popular items holding 80% of the interactions
    by_count = np.lexsort((np.arange(N_ITEMS), -counts))
    head_size = int(np.searchsorted(np.cumsum(counts[by_count]), 0.8 * counts.sum())) + 1
    group = np.full(N_ITEMS, "tail", dtype=object)
    group[by_count[:head_size]] = "head"
    OUT.mkdir(parents=True, exist_ok=True)
    (OUT / "demo-recs.qrels").write_text("\n".join(qrels_lines) + "\n", encoding="ascii")
    (OUT / "demo-recs-train.txt").write_text("\n".join(train_lines) + "\n", encoding="ascii")
    (OUT / "demo-recs-items.tsv").write_text(
        "item_id\tgroup\n" + "".join(f"{i}\t{g}\n" for i, g in zip(items, group, strict=True)),
        encoding="ascii")
    (OUT / "demo-recs-embeddings.txt").write_text("".join(
        f"{i} {' '.join(f'{x:.3f}' for x in row)}\n"
        for i, row in zip(items, embeddings, strict=True)), encoding="ascii")
    for name, lines in runs.items():
        (OUT / f"demo-recs-{name}.run").write_text("\n".join(lines) + "\n", encoding="ascii")
    print(f"wrote {len(train_lines)} training interactions of {N_USERS} users, {N_ITEMS} items "
          f"({head_size} in the head), 2 runs of {DEPTH} per user to {OUT}")


if __name__ == "__main__":
    main()

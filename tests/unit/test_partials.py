"""One assembly: blocks of queries computed apart and merged as partials give the whole
evaluation's values (bit for bit where they keep their values), and the policies are
checked once, on the merged counts."""

from __future__ import annotations

import json
import math
import random

import numpy as np
import pytest

import ranklens
from ranklens import InputError
from ranklens._pipeline.assemble import assemble, finish
from ranklens._pipeline.compute import compute
from ranklens._pipeline.partials import Partial, merge, partial_of
from ranklens._pipeline.plan import make_plan

MEASURES = ["AP", "nDCG@10", "P@5", "RR", "gm_map", "NumRel", "GAUC", "relstring"]


def _data(seed: int) -> tuple[dict, dict]:
    rng = random.Random(seed)
    qrels: dict = {}
    run: dict = {}
    for i in range(40):
        q = f"q{i:02d}"
        where = rng.choice(["both"] * 6 + ["qrels", "run"])
        if where != "run":
            qrels[q] = {f"d{d}": rng.randint(0, 2) for d in rng.sample(range(30), 8)}
        if where != "qrels":
            run[q] = {f"d{d}": rng.randint(0, 6) / 3 for d in rng.sample(range(30), 12)}
    return qrels, run


def _blocks(qrels: dict, run: dict, n: int, seed: int) -> list[tuple[dict, dict]]:
    rng = random.Random(seed)
    owner = {q: rng.randrange(n) for q in {*qrels, *run}}
    return [({q: v for q, v in qrels.items() if owner[q] == b},
             {q: v for q, v in run.items() if owner[q] == b}) for b in range(n)]


def _partials(plan, blocks, keep_values: bool) -> list[Partial]:
    out = []
    for q, r in blocks:
        if not q:  # a block without judgments: only its run queries count (ignored)
            out.append(Partial(ignored=ranklens._pipeline.partials.Ids.of(r),
                               tallies={} if not keep_values else None))
            continue
        per_query = compute(plan, ranklens.load_qrels(q), ranklens.load_run(r), block=True)
        out.append(partial_of(plan, per_query, keep_values=keep_values))
    return out


@pytest.mark.parametrize("empty", ["zero", "skip", "one"])
@pytest.mark.parametrize("missing", ["zero", "skip"])
@pytest.mark.parametrize("blocks", [1, 3, 8])
def test_merged_blocks_give_the_whole(blocks: int, missing: str, empty: str) -> None:
    qrels, run = _data(blocks)
    plan = make_plan(MEASURES, missing=missing, empty=empty)
    whole = assemble(plan, compute(plan, ranklens.load_qrels(qrels), ranklens.load_run(run)),
                     "run")
    parts = [p for p in _partials(plan, _blocks(qrels, run, blocks, blocks), True)
             if p.values is not None]
    kept = merge(plan, parts)
    random.Random(0).shuffle(parts)
    merged = assemble(plan, merge(plan, parts), "run")
    assert kept.values is not None
    assert merged.query_ids.tolist() == whole.query_ids.tolist()
    for name in MEASURES:
        # values kept: trec_eval's left-to-right sums, bit for bit
        assert merged[name] == whole[name] or (math.isnan(merged[name])
                                               and math.isnan(whole[name])), name
        np.testing.assert_array_equal(merged.query_values[name], whole.query_values[name])
    # tallies only (as Spark buckets send): the exact sum rounded once
    exact = merge(plan, [Partial.from_json(json.loads(json.dumps(p.to_json())))
                         for p in _partials(plan, _blocks(qrels, run, blocks, blocks),
                                            False)])
    totals = finish(plan, exact, run_source="<run>", qrels_source="<qrels>")
    for name in MEASURES:
        want, got = whole[name], totals.aggregates[name]
        assert got == pytest.approx(want, rel=1e-12, nan_ok=True), name


def test_the_policies_are_checked_on_the_merged_counts() -> None:
    plan = make_plan(["AP"], missing="error")
    # each block alone misses a query the other has: only the merge can tell
    a = compute(plan, ranklens.load_qrels({"q1": {"d": 1}}), ranklens.load_run(
        {"q2": {"d": 1.0}}), block=True)
    b = compute(plan, ranklens.load_qrels({"q2": {"d": 1}}), ranklens.load_run(
        {"q1": {"d": 1.0}}), block=True)
    merged = merge(plan, [partial_of(plan, a), partial_of(plan, b)])
    with pytest.raises(InputError, match="share no query"):
        finish(plan, merged, run_source="<run>", qrels_source="<qrels>")
    whole_error = make_plan(["AP"], empty="error", missing="zero")
    c = compute(whole_error, ranklens.load_qrels({"q1": {"d": 0}}),
                ranklens.load_run({"q1": {"d": 1.0}}))
    with pytest.raises(InputError, match=r"1 queries have no relevant judgment \(rel >= 1\) "
                                         r"for AP, e.g. \['q1'\]"):
        finish(whole_error, partial_of(whole_error, c), run_source="r", qrels_source="q")


def test_merge_needs_parts() -> None:
    with pytest.raises(ranklens.ParameterError, match="nothing to merge"):
        merge(make_plan(["AP"]), [])


def test_a_block_without_judgments_and_without_tallies_merges() -> None:
    # test_merged_blocks_give_the_whole makes such a block when its hash-seeded split
    # leaves one without judgments
    plan = make_plan(["AP"])
    judged = compute(plan, ranklens.load_qrels({"q1": {"d": 1}}),
                     ranklens.load_run({"q1": {"d": 1.0}}), block=True)
    alone = Partial(ignored=ranklens._pipeline.partials.Ids.of(["q9"]), tallies={})
    merged = merge(plan, [alone, partial_of(plan, judged, keep_values=False)])
    totals = finish(plan, merged, run_source="<run>", qrels_source="<qrels>")
    assert totals.aggregates["AP"] == 1.0
    assert totals.diagnostics["ignored_count"] == 1

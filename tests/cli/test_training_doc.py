"""docs/training.md's fragments of larger programs run here, each given what the page says
is yours: a torch model and its validation loader, a torch.distributed process group (one
process, gloo), and the shards of a process pool (the block run as a script)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from cli.test_doc_examples import BLOCKS_NOT_RUN, ROOT, python_blocks  # tests/cli

import ranklens

PAGE = "docs/training.md"


def block(line: int) -> str:
    text = dict(python_blocks(PAGE))[line]
    assert f"{PAGE}:{line}" in BLOCKS_NOT_RUN  # run here, not by test_doc_examples
    return text


def fragments() -> list[int]:
    return [int(key.split(":")[1]) for key in BLOCKS_NOT_RUN if key.startswith(PAGE)]


def _scores_and_labels(seed: int) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    return rng.random((4, 12)), rng.integers(0, 3, (4, 12))


def test_every_fragment_of_the_page_runs_here() -> None:
    loop, dist, pool = fragments()
    assert "val_loader" in block(loop) and "all_gather_object" in block(dist)
    assert "ProcessPoolExecutor" in block(pool)


def test_the_torch_validation_loop(capsys: pytest.CaptureFixture[str]) -> None:
    torch = pytest.importorskip("torch")
    batches = [_scores_and_labels(seed) for seed in range(3)]
    # the model scores each candidate by its one feature: the scores themselves
    val_loader = [{"features": torch.tensor(s).unsqueeze(-1), "labels": torch.tensor(y),
                   "query_id": torch.arange(4) + 4 * i} for i, (s, y) in enumerate(batches)]
    model = torch.nn.Flatten(start_dim=1)
    exec(block(fragments()[0]), {"model": model, "val_loader": val_loader})
    expected = ranklens.evaluate_arrays(np.vstack([y for _, y in batches]), ["nDCG@10", "R@100"],
                                        scores=np.vstack([s for s, _ in batches]))
    printed = capsys.readouterr().out.split()
    assert [float(v) for v in printed] == pytest.approx(
        [expected["nDCG@10"], expected["R@100"]], abs=1e-12)


def test_the_distributed_gather(tmp_path: Path) -> None:
    torch = pytest.importorskip("torch")
    dist = torch.distributed
    if not dist.is_available():
        pytest.skip("this torch build has no torch.distributed")
    scores, labels = _scores_and_labels(7)
    acc = ranklens.Accumulator(["nDCG@10"])
    acc.update(scores, labels, indexes=np.arange(4))
    dist.init_process_group("gloo", init_method=f"file://{tmp_path / 'store'}", rank=0,
                            world_size=1)
    try:
        names: dict[str, Any] = {"acc": acc}
        exec(block(fragments()[1]), names)
    finally:
        dist.destroy_process_group()
    assert names["result"]["nDCG@10"] == acc.compute()["nDCG@10"]


def test_the_process_pool(tmp_path: Path) -> None:
    shards = [[(*_scores_and_labels(seed), np.arange(4) + 4 * seed)] for seed in range(3)]
    script = tmp_path / "pool_example.py"
    given = "import numpy as np\nshards = " + repr([[tuple(a.tolist() for a in part)
                                                      for part in shard] for shard in shards])
    script.write_text(given + "\n" + block(fragments()[2]), "utf-8")
    done = subprocess.run([sys.executable, str(script)], capture_output=True, text=True,
                          cwd=ROOT, timeout=300)
    assert done.returncode == 0, done.stderr
    labels = np.vstack([part[1] for shard in shards for part in shard])
    scores = np.vstack([part[0] for shard in shards for part in shard])
    expected = ranklens.evaluate_arrays(labels, ["nDCG@10"], scores=scores)["nDCG@10"]
    assert float(done.stdout) == pytest.approx(expected, abs=1e-12)

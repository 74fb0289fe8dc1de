"""``ranklens measures``, ``ranklens demo``, the progress spinner and the entry points."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from cli_support import run, run_subprocess

from ranklens._measures import REGISTRY
from ranklens.cli import _progress
from ranklens.cli._demo import demo_files


def test_measures_lists_every_registered_measure(capsys: pytest.CaptureFixture[str]):
    r = run(["measures"], capsys)
    assert r.code == 0
    blocks = [b for b in r.out.split("\n\n") if b.strip()]
    names = [b.splitlines()[0].split("[")[0].split("@")[0] for b in blocks]
    from ranklens._surfaces.agreement.measures import AGREEMENT

    assert names == list(REGISTRY) + list(AGREEMENT)


def test_measures_lists_the_run_vs_run_measures(capsys: pytest.CaptureFixture[str]):
    r = run(["measures", "rbo"], capsys)
    assert r.code == 0, r.err
    block = r.out.split("\n\n")[0]
    assert block.startswith("RBO[@k]\n") and "- p=0.9: " in block and "- form=ext: " in block
    assert "ranklens agree" in block


def test_measures_shows_names_params_and_definition(capsys: pytest.CaptureFixture[str]):
    r = run(["measures", "ndcg"], capsys)
    block = next(b for b in r.out.split("\n\n") if b.startswith("nDCG[@k]"))
    defn = REGISTRY["nDCG"]
    assert defn.doc in block
    assert "trec_eval: ndcg, ndcg_cut_5, ndcg_cut_10, ndcg_cut_15, ..." in block
    assert "- gain=linear: " in block and "- discount=log2: " in block
    assert all("ndcg" in b.lower().split("\n    - ")[0] for b in r.out.split("\n\n") if b)


def test_measures_filter_without_match(capsys: pytest.CaptureFixture[str]):
    r = run(["measures", "qqqzzz"], capsys)
    assert r.code == 2
    assert r.err.startswith("ranklens: error: no measure matches 'qqqzzz'")


def test_demo_prints_table_explanation_and_command(capsys: pytest.CaptureFixture[str]):
    r = run(["demo"], capsys)
    assert r.code == 0, r.err
    lines = r.out.splitlines()
    assert lines[0].split() == ["run", "nDCG@10", "AP", "RR@10", "P@10", "R@100", "R@1000"]
    assert [line.split()[0] for line in lines[2:4]] == ["bm25", "dense"]
    assert "averaged over the 40" in r.out.replace("\n", " ")
    assert "ranklens evaluate QRELS RUN" in r.out


def test_demo_data_is_graded_with_forty_queries():
    qrels, runs = demo_files()
    rows = [line.split() for line in qrels.read_text().splitlines()]
    assert len({r[0] for r in rows}) == 40
    assert {r[3] for r in rows} == {"0", "1", "2", "3"}
    assert set(runs) == {"bm25", "dense"}


def test_demo_data_regenerates_identically(tmp_path: Path):
    """The committed files are exactly what the deterministic generator writes."""
    script = Path(__file__).resolve().parents[2] / "scripts" / "make_demo_data.py"
    source = script.read_text().replace(
        'OUT = Path(__file__).resolve().parent.parent / "src" / "ranklens" / "data"',
        f"OUT = Path({str(tmp_path)!r})")
    assert source != script.read_text()
    gen = tmp_path / "gen.py"
    gen.write_text(source)
    subprocess.run([sys.executable, str(gen)], check=True, capture_output=True)
    qrels, runs = demo_files()
    assert (tmp_path / "demo.qrels").read_bytes() == qrels.read_bytes()
    for name, path in runs.items():
        assert (tmp_path / f"demo-{name}.run").read_bytes() == path.read_bytes()


def test_evaluate_jsonl_on_demo_data(capsys: pytest.CaptureFixture[str]):
    qrels, runs = demo_files()
    r = run(["evaluate", str(qrels), str(runs["bm25"]), str(runs["dense"]), "--per-query",
             "--format", "jsonl"], capsys)
    rows = [json.loads(line) for line in r.out.splitlines()]
    assert rows and all(set(row) == {"run", "query", "measure", "value"} for row in rows)
    assert {row["run"] for row in rows} == {"demo-bm25", "demo-dense"}
    assert len([row for row in rows if row["query"] == "all"]) == 2 * 6
    assert len(rows) == 2 * 6 * 41


def test_progress_spinner_only_on_a_terminal(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                             capsys: pytest.CaptureFixture[str]):
    big = tmp_path / "big.run"
    big.write_bytes(b"x" * 2048)
    monkeypatch.setattr(_progress, "BIG_FILE", 1024)
    with _progress.loading([str(big)]):  # stderr is captured: not a terminal
        pass
    assert capsys.readouterr().err == ""
    with _progress.loading([str(big)], force=True):
        pass
    err = capsys.readouterr().err
    assert "Reading big.run" in err
    small = tmp_path / "small.run"
    small.write_bytes(b"x")
    with _progress.loading([str(small), "-"], force=True):
        pass
    assert capsys.readouterr().err == ""


def test_python_dash_m_and_help():
    proc = run_subprocess(["--help"])
    assert proc.returncode == 0
    out = proc.stdout.decode()
    for command in ("evaluate", "trec_eval", "measures", "demo"):
        assert command in out


def test_import_ranklens_does_not_load_click_or_rich():
    code = "import sys, ranklens; print(sorted(m for m in ('click', 'rich') if m in sys.modules))"
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, check=True)
    assert proc.stdout.decode().strip() == "[]"


def test_console_script(tmp_path: Path):
    """The installed ``ranklens`` script is the same command (skipped when not installed)."""
    import shutil

    exe = shutil.which("ranklens")
    if exe is None:
        pytest.skip("the ranklens console script is not installed")
    proc = subprocess.run([exe, "demo", "--format", "csv"], capture_output=True, timeout=120)
    assert proc.returncode == 0, proc.stderr.decode()
    assert proc.stdout.decode().splitlines()[0] == "run,query,nDCG@10,AP,RR@10,P@10,R@100,R@1000"


@pytest.mark.parametrize("args", [["demo"], ["measures"]])
def test_a_reader_that_stops_early_is_no_error(args: list[str]) -> None:
    # `ranklens demo | head -1`: the pipe closes before the output is written
    proc = subprocess.Popen([sys.executable, "-m", "ranklens", *args], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE)
    assert proc.stdout is not None and proc.stderr is not None
    proc.stdout.read(1)
    proc.stdout.close()
    err = proc.stderr.read().decode()
    assert proc.wait(timeout=60) == 0, err
    assert "Traceback" not in err

"""Id-list (RAG) inputs: mappings of ranked ids and gold ids, JSON Lines records, the example."""

from __future__ import annotations

import json
import math
from importlib import resources
from pathlib import Path

import pytest

import ranklens
from ranklens import InputError, ParameterError

EXAMPLE = Path(str(resources.files("ranklens") / "data" / "rag_example.jsonl"))


def test_id_lists_equal_the_dict_form() -> None:
    retrieved = {"q1": ["a", "b", "c", "d"], "q2": ["x", "y"]}
    relevant = {"q1": {"b", "d", "z"}, "q2": ["y"]}
    names = ["AP", "RR", "R@2", "P@2", "nDCG@3"]
    got = ranklens.evaluate(*ranklens.from_pairs(relevant, retrieved), names)
    qrels = {"q1": {"b": 1, "d": 1, "z": 1}, "q2": {"y": 1}}
    run = {"q1": {"a": 4.0, "b": 3.0, "c": 2.0, "d": 1.0}, "q2": {"x": 2.0, "y": 1.0}}
    want = ranklens.evaluate(qrels, run, names)
    for name in names:
        assert got.per_query(name) == want.per_query(name)
    assert got["AP"] == pytest.approx(((1 / 2 + 2 / 4) / 3 + 1 / 2) / 2, abs=1e-15)


def test_grades_and_the_list_order_is_the_ranking() -> None:
    # ids that sort against the list order: ties cannot reorder an id list
    retrieved = {"q": ["z", "a", "m"]}
    relevant = {"q": {"a": 2, "m": 1, "q": 3}}
    r = ranklens.evaluate(*ranklens.from_pairs(relevant, retrieved), ["DCG@3", "RR"])
    assert r["RR"] == 0.5
    assert r["DCG@3"] == pytest.approx(2 / math.log2(3) + 1 / 2, abs=1e-15)


def test_duplicate_retrieved_ids() -> None:
    retrieved = {"q": ["a", "a", "b"]}
    with pytest.raises(InputError, match=r"'a' is retrieved twice \(positions 1 and 2\)"):
        ranklens.from_pairs({"q": ["a"]}, retrieved)
    qrels, run = ranklens.from_pairs({"q": ["a"]}, retrieved, duplicates="first")
    r = ranklens.evaluate(qrels, run, ["AP", "nDCG", "P@2", "NumRet"])
    # Spark RankingMetrics counts the repeat and reports AP 2.0; dropped here, AP stays 1
    assert (r["AP"], r["nDCG"], r["P@2"], r["NumRet"]) == (1.0, 1.0, 0.5, 2.0)
    with pytest.raises(ParameterError, match="duplicates"):
        ranklens.from_pairs({"q": ["a"]}, retrieved, duplicates="keep")


def test_empty_gold_is_an_empty_query_not_a_dropped_one() -> None:
    retrieved = {"q1": ["a", "b"], "q2": ["c"]}
    relevant = {"q1": ["a"], "q2": []}
    tables = ranklens.from_pairs(relevant, retrieved)
    assert ranklens.evaluate(*tables, ["RR"])["RR"] == 0.5
    assert ranklens.evaluate(*tables, ["RR"], empty="skip")["RR"] == 1.0
    assert ranklens.evaluate(*tables, ["RR"], empty="one")["RR"] == 1.0
    assert ranklens.evaluate(*tables, ["NumQ"], empty="skip")["NumQ"] == 2.0
    with pytest.raises(InputError, match="no relevant judgment"):
        ranklens.evaluate(*tables, ["RR"], empty="error")


def test_bad_id_lists() -> None:
    with pytest.raises(InputError, match="must be a list in rank order"):
        ranklens.from_pairs({"q": ["a"]}, {"q": "abc"})
    with pytest.raises(InputError, match="empty id"):
        ranklens.from_pairs({"q": ["a"]}, {"q": ["a", ""]})
    with pytest.raises(InputError, match="numeric grade"):
        ranklens.from_pairs({"q": {"a": "high"}}, {"q": ["a"]})
    with pytest.raises(InputError, match="mapping of query id"):
        ranklens.from_pairs([["a"]], {"q": ["a"]})  # type: ignore[arg-type]


def _write(tmp_path: Path, records: list[object]) -> Path:
    path = tmp_path / "pairs.jsonl"
    path.write_text("\n".join(json.dumps(r) for r in records) + "\n", encoding="utf-8")
    return path


def test_jsonl_aliases(tmp_path: Path) -> None:
    path = _write(tmp_path, [
        {"query_id": "q1", "retrieved": ["a", "b"], "relevant": ["b"]},
        {"id": "q2", "retrieved_ids": ["c", "d"], "gold_ids": ["c"]},
        {"question": "what is q3?", "contexts": ["e", "f"], "expected_ids": {"f": 2}},
    ])
    r = ranklens.evaluate(*ranklens.load_pairs(path), ["RR"])
    assert r.per_query("RR") == {"q1": 0.5, "q2": 1.0, "what is q3?": 0.5}


def test_jsonl_errors_name_the_line(tmp_path: Path) -> None:
    path = _write(tmp_path, [{"query_id": "q1", "retrieved": ["a"], "relevant": ["a"]},
                             {"query_id": "q2", "retrieved": ["a", "a"], "relevant": []}])
    with pytest.raises(InputError, match=r"pairs.jsonl:2: query 'q2': id 'a' is retrieved "):
        ranklens.load_pairs(path)
    assert len(ranklens.load_pairs(path, duplicates="first")[1]) == 2
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"query_id": "q1", "retrieved": [], "relevant": []}\n{oops\n')
    with pytest.raises(InputError, match=r"bad.jsonl:2: not valid JSON"):
        ranklens.load_pairs(bad)
    path = _write(tmp_path, [{"query_id": "q1", "relevant": ["a"]}])
    with pytest.raises(InputError, match=r"pairs.jsonl:1: record has no 'retrieved' field"):
        ranklens.load_pairs(path)
    path = _write(tmp_path, [{"query_id": "q1", "retrieved": [], "relevant": []},
                             {"query_id": "q1", "retrieved": [], "relevant": []}])
    with pytest.raises(InputError, match=r"query 'q1' appears in two records \(line 1\)"):
        ranklens.load_pairs(path)


def _oracle(path: Path, k: int) -> dict[str, dict[str, float]]:
    """RR, R@k, P@k and AP@k straight from the records, written independently."""
    out: dict[str, dict[str, float]] = {"RR": {}, f"R@{k}": {}, f"P@{k}": {}, f"AP@{k}": {}}
    for line in path.read_text(encoding="utf-8").splitlines():
        rec = json.loads(line)
        gold = rec["relevant"]
        relevant = {g for g in gold if (gold[g] >= 1 if isinstance(gold, dict) else True)}
        ranked = rec["retrieved"]
        hits = [d in relevant for d in ranked]
        first = next((i + 1 for i, h in enumerate(hits) if h), None)
        q = rec["query_id"]
        out["RR"][q] = 1 / first if first else 0.0
        top = hits[:k]
        out[f"R@{k}"][q] = sum(top) / len(relevant) if relevant else 0.0
        out[f"P@{k}"][q] = sum(top) / k
        precisions = [sum(top[: i + 1]) / (i + 1) for i, h in enumerate(top) if h]
        out[f"AP@{k}"][q] = sum(precisions) / len(relevant) if relevant else 0.0
    return out


def test_bundled_rag_example() -> None:
    qrels, run = ranklens.load_pairs(EXAMPLE)
    assert 15 <= len({*run.frame["query_id"]}) <= 25
    oracle = _oracle(EXAMPLE, 3)
    r = ranklens.evaluate(qrels, run, list(oracle))
    for name, per_query in oracle.items():
        got = r.per_query(name)
        assert got.keys() == per_query.keys()
        for q, value in per_query.items():
            assert got[q] == pytest.approx(value, abs=1e-15), (name, q)


def _cli(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    from ranklens.cli import main

    with pytest.raises(SystemExit) as exc:
        main(args)
    captured = capsys.readouterr()
    code = exc.value.code
    return (code if isinstance(code, int) else 1), captured.out, captured.err


def test_cli_evaluate_pairs(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _cli(["evaluate", "--pairs", str(EXAMPLE), "-m", "RR", "-m", "R@3",
                         "--format", "jsonl"], capsys)
    assert code == 0
    rows = {(r["query"], r["measure"]): r["value"] for r in map(json.loads, out.splitlines())}
    oracle = _oracle(EXAMPLE, 3)
    for name in ("RR", "R@3"):
        values = list(oracle[name].values())
        assert rows[("all", name)] == pytest.approx(math.fsum(values) / len(values), abs=1e-15)
    code, _, err = _cli(["evaluate", "--pairs", str(EXAMPLE), "qrels.txt"], capsys)
    assert code == 2
    assert "--pairs replaces QRELS and RUNS" in err


def test_cli_pairs_duplicates_and_convention(tmp_path: Path,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    path = _write(tmp_path, [{"query_id": "q", "retrieved": ["a", "b", "a", "c"],
                              "relevant": ["c", "x", "y", "z"]}])
    code, _, err = _cli(["evaluate", "--pairs", str(path), "-m", "AP@3"], capsys)
    assert code != 0
    assert "retrieved twice" in err and "--duplicates first" in err
    code, out, _ = _cli(["evaluate", "--pairs", str(path), "-m", "AP@3", "--duplicates",
                         "first", "--convention", "kaggle", "--format", "jsonl"], capsys)
    assert code == 0
    row = json.loads(out.splitlines()[0])
    assert row["value"] == pytest.approx((1 / 3) / 3, abs=1e-15)  # c at rank 3, min(3, 4)


def _pairs_file(path: Path, records: list[dict]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    return path


def _two_systems(tmp_path: Path) -> tuple[Path, Path]:
    a = _pairs_file(tmp_path / "a.jsonl", [
        {"query_id": "q1", "retrieved": ["c1", "c2"], "relevant": ["c2"]},
        {"query_id": "q2", "retrieved": ["c5"], "relevant": {"c5": 2}},
    ])
    b = _pairs_file(tmp_path / "b.jsonl", [
        {"query_id": "q1", "retrieved": ["c2", "c1"], "relevant": ["c2"]},
    ])
    return a, b


@pytest.mark.parametrize("command", ["evaluate", "compare"])
def test_several_pairs_files_are_several_systems(tmp_path: Path, command: str,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    a, b = _two_systems(tmp_path)
    extra = ["--test", "sign", "--format", "csv"] if command == "compare" else [
        "--format", "csv"]
    code, out, err = _cli([command, "--pairs", str(a), "--pairs", str(b), "-m", "RR",
                           "--missing", "zero", *extra], capsys)
    assert code == 0, err
    if command == "evaluate":
        rows = [line.split(",") for line in out.splitlines()]
        # b skipped q2 (judged in a): scored 0 under --missing zero
        assert rows[1:] == [[a.stem, "all", "0.75"], [b.stem, "all", "0.5"]]
    else:
        assert f"{b.stem},{a.stem}," in out  # system, baseline: named by their file names


def test_pairs_files_that_judge_a_question_differently_are_refused(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    a, _ = _two_systems(tmp_path)
    b = _pairs_file(tmp_path / "b.jsonl", [
        {"query_id": "q1", "retrieved": ["c2"], "relevant": ["c1"]}])
    code, _, err = _cli(["compare", "--pairs", str(a), "--pairs", str(b), "-m", "RR"], capsys)
    assert code != 0
    assert err.strip() == (f"ranklens: error: {b}: question 'q1' has other gold ids or grades "
                           f"here than in {a}; expected the same judgments in every --pairs "
                           "file")


def test_report_reads_pairs_files(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    a, b = _two_systems(tmp_path)
    out = tmp_path / "r.html"
    code, _, err = _cli(["report", "--pairs", str(a), "--pairs", str(b), "-m", "RR",
                         "--missing", "zero", "--max-k", "5", "-o", str(out)], capsys)
    assert code == 0, err
    assert out.read_text(encoding="utf-8").startswith("<!DOCTYPE html>")

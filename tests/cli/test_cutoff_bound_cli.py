"""Rank cutoffs are bounded by one named bound, 2**31 - 1, in Python and on the command
line: ``evaluate``, ``trec_eval`` and ``agree`` alike (issue 39: ``P@99999999999999999999``
was evaluated, ``trec_eval -m P.999999999999999999999`` printed ``P_1000000000000000000000``).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from tests.cli_support import one_error, run, write

import ranklens

BOUND = "must be at most 2147483647 (2**31 - 1)"


@pytest.fixture
def files(tmp_path: Path) -> tuple[str, str]:
    q = write(tmp_path / "qrels.txt", "q1 0 d1 1\nq1 0 d2 0\n")
    r = write(tmp_path / "run.txt", "q1 Q0 d1 1 2.0 r\nq1 Q0 d2 2 1.0 r\n")
    return str(q), str(r)


@pytest.mark.parametrize(("spelled", "shown"), [
    ("P@99999999999999999999", "got 99999999999999999999"),
    ("P@2147483648", "got 2147483648"),
    ("ndcg_cut.1e30", "got 1e+30"),
    ("nDCG@1e30", "got 1e+30"),
    ("P_99999999999", "got 99999999999"),
    ("P.999999999999999999999", "got 999999999999999999999"),
])
def test_evaluate_refuses_a_cutoff_past_the_bound(files: tuple[str, str], spelled: str,
                                                  shown: str,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(ranklens.MeasureError,
                       match=r"must be at most 2147483647 .*" + re.escape(shown)):
        ranklens.evaluate(*files, [spelled])
    out = run(["evaluate", *files, "-m", spelled], capsys)
    assert out.code == 2 and out.out == ""
    message = one_error(out.err)
    assert BOUND in message and shown in message


def test_the_bound_itself_is_read(files: tuple[str, str]) -> None:
    value = ranklens.evaluate(*files, ["P@2147483647"])["P@2147483647"]
    assert value == pytest.approx(1 / 2147483647)  # one relevant document in the depth


@pytest.mark.parametrize("spelled", ["P.999999999999999999999", "P.5,2147483648"])
def test_trec_eval_refuses_a_cutoff_past_the_bound(files: tuple[str, str], spelled: str,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    out = run(["trec_eval", "-m", spelled, *files], capsys)
    assert out.code == 2 and out.out == ""  # no float's digits as a measure name
    assert BOUND in one_error(out.err)


def test_agree_and_evaluate_share_the_bound(files: tuple[str, str],
                                            capsys: pytest.CaptureFixture[str]) -> None:
    out = run(["agree", files[1], files[1], "-m", "Overlap@2147483648"], capsys)
    assert out.code == 2 and BOUND in one_error(out.err)

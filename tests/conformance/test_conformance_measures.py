"""Every number of trec_eval 10.0's plain-qrels expected outputs, reproduced through the API.

Each row ``name<TAB>qid<TAB>value`` of an expected file becomes one test case (file, measure,
query), evaluated with :func:`ranklens.evaluate` under the options of the file's trec_eval
command line (README of the conformance folder: -c => missing="zero", -M => depth,
-l => rel) and compared as trec_eval prints it (``%6.4f``; integers for num_*; the run tag for
runid; the quoted string for relstring). Row names are trec_eval names and go through
:func:`ranklens.parse_measure` unchanged, including the ones carrying raw parameters
(``utility_2,-1,0,0``, ``ndcg_1=3,2=9,4=4.5``, ``11pt_avg_.25,.5,.75``, ``relstring_20``).

The preference (``-R prefs``/``qrels_prefs``), judgment-group (``-R qrels_jg``) and z-score
(``-Z``) outputs are not plain qrels evaluations; the CLI's byte-identical tests cover them.
"""

from __future__ import annotations

import functools
import warnings
from pathlib import Path
from typing import Any, NamedTuple

import pytest
from conftest import conformance_root

import ranklens
from ranklens import RanklensWarning, Result


class Case(NamedTuple):
    qrels: str
    run: str
    options: dict[str, Any]


# expected file -> inputs and the evaluate() options equivalent to its command line
CASES: dict[str, Case] = {
    "out.test": Case("qrels.test", "results.test", {}),
    "out.test#with-comments": Case("qrels.test.with-comments", "results.test", {}),
    "out.comment.test": Case("qrels.comment.test", "results.comment.test", {}),
    "out.test.a": Case("qrels.test", "results.test", {}),
    "out.test.aq": Case("qrels.test", "results.test", {}),
    "out.test.aqc": Case("qrels.test", "results.trunc", {"missing": "zero"}),
    "out.test.aqcM": Case("qrels.test", "results.trunc", {"missing": "zero", "depth": 100}),
    "out.test.aql": Case("qrels.rel_level", "results.test", {"rel": 2}),
    "out.test.meas_params": Case("qrels.test", "results.test", {}),
}

# Integer-valued measures trec_eval prints with %ld.
INTEGER = {"num_q", "num_ret", "num_rel", "num_rel_ret", "num_nonrel_judged_ret"}


def _rows(path: Path) -> list[tuple[str, str, str]]:
    rows = []
    for line in path.read_text().splitlines():
        name, qid, value = line.split("\t")
        rows.append((name.strip(), qid, value))
    return rows


def _params() -> list[Any]:
    folder = conformance_root() / "trec_eval"
    out = []
    for key in CASES:
        path = folder / key.split("#")[0]
        if not path.is_file():
            # collected anyway so that the trec_dir fixture skips (or fails under CI)
            out.append(pytest.param(key, "", "", "", id=f"{key}-missing"))
            continue
        for name, qid, value in _rows(path):
            out.append(pytest.param(key, name, qid, value, id=f"{key}|{name}|{qid}"))
    return out


@functools.cache
def _evaluate(folder: str, key: str) -> Result:
    case = CASES[key]
    names = sorted({name for name, _, _ in _rows(Path(folder) / key.split("#")[0])} - {"runid"})
    options = {"missing": "error", **case.options}
    with warnings.catch_warnings():
        # results.comment.test ranks 270 topics without judgments; trec_eval ignores them too
        warnings.simplefilter("ignore", RanklensWarning)
        return ranklens.evaluate(Path(folder) / case.qrels, Path(folder) / case.run, names,
                                 **options)


@pytest.mark.parametrize(("key", "name", "qid", "expected"), _params())
def test_value(trec_dir: Path, key: str, name: str, qid: str, expected: str) -> None:
    result = _evaluate(str(trec_dir), key)
    if name == "runid":
        assert result.run_name == expected
        return
    if name.startswith("relstring"):
        got = dict(zip(result.query_ids.tolist(), result.text_values[name], strict=True))[qid]
        assert f"'{got}'" == expected
        return
    # With -c, trec_eval's summary num_rel counts qrels entries > 0 over all topics, ignoring
    # -l (research/trec_eval.md section 4). Both -c files here use -l 1, where that count
    # equals the sum of per-query R that ranklens reports, so no special case is needed; a
    # -c -l2 file would differ (ranklens always sums R at the rel level in force).
    value = result[name] if qid == "all" else result.per_query(name)[qid]
    if name in INTEGER:
        assert int(value) == int(expected)
    else:
        assert f"{value:6.4f}" == expected

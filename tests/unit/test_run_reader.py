"""The block-wise TREC run reader, and the ranked order of runs whose queries are blocks.

Plain run files are parsed a block of lines at a time and keep a query id once per block of
rows; runs written query by query with scores descending are ranked without sorting. Both
must agree exactly with the line parser and with the general (sorting) path.
"""

from __future__ import annotations

import itertools
import sys
import warnings
from pathlib import Path

import numpy as np
import polars as pl
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import ranklens
from ranklens import InputError, Run, load_run
from ranklens._ingest.io.trec import files, run_parts, small, tokens
from ranklens._ingest.io.trec import run as trec_run
from ranklens._model.ranking import run_index


@pytest.fixture
def small_blocks(monkeypatch: pytest.MonkeyPatch) -> None:
    """Blocks of a few lines, so every test file spans many of them."""
    monkeypatch.setattr(files, "BLOCK", 96)
    monkeypatch.setattr(run_parts, "SLICE", 7)  # pairs of bytes across the checked slices


def _line_parser_rows(path: Path) -> list[tuple[str, str, float]]:
    cols, _ = tokens.line_run(path.read_bytes(), str(path))
    return list(zip(cols["query_id"], cols["doc_id"], cols["score"], strict=True))


def _rows(run: Run) -> list[tuple[str, str, float]]:
    return list(run.frame.select("query_id", "doc_id", "score").iter_rows())


def _run_text(seed: int, *, extras: bool) -> str:
    rng = np.random.default_rng(seed)
    lines = []
    for q in rng.permutation(9):
        depth = int(rng.integers(1, 30))
        scores = np.sort(rng.integers(0, 8, size=depth))[::-1] / 4  # many ties
        for rank, s in enumerate(scores, 1):
            doc = f"doc{int(rng.integers(0, 10**int(rng.integers(1, 6))))}-{rank}"
            lines.append(f"q{q} Q0 {doc} {rank} {s} tag{seed}")
            if extras and rng.random() < 0.05:
                lines.append("" if rng.random() < 0.5 else "# a comment line")
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("extras", [False, True])
def test_blocks_read_like_the_line_parser(tmp_path: Path, small_blocks: None, seed: int,
                                          extras: bool) -> None:
    path = tmp_path / "run.txt"
    path.write_text(_run_text(seed, extras=extras))
    run = load_run(path)
    assert _rows(run) == _line_parser_rows(path)
    assert run.name == f"tag{seed}"
    # a query continued over a block boundary stays one block of rows
    ids = run.block_ids.to_list()
    assert all(a != b for a, b in itertools.pairwise(ids))
    assert int(run.block_lengths.sum()) == len(run)


def test_score_array_grows_past_its_estimate(tmp_path: Path, small_blocks: None) -> None:
    # long lines first: the size estimated from the first block is far too small
    long = [f"q1 Q0 {'x' * 60}{i} {i} {100 - i} t" for i in range(5)]
    short = [f"q2 Q0 d{i} {i} {50 - i / 8} t" for i in range(400)]
    path = tmp_path / "run.txt"
    path.write_text("\n".join(long + short) + "\n")
    run = load_run(path)
    assert len(run) == 405
    assert run.score.tolist() == [row[2] for row in _line_parser_rows(path)]


def test_a_bad_line_in_a_later_block_is_reported(tmp_path: Path, small_blocks: None) -> None:
    good = [f"q1 Q0 d{i} {i} {9 - i / 100} t" for i in range(40)]
    path = tmp_path / "run.txt"
    path.write_text("\n".join([*good, "q1 Q0 dx 41 0.5", *good]) + "\n")
    with pytest.raises(InputError) as err:
        load_run(path)
    assert err.value.line == 41
    assert "expected at least 6 fields" in str(err.value)


@pytest.mark.parametrize("line", ["q1  d9 1 0.5 t", "q1 Q0 d9  0.5 t"])
def test_an_empty_iter_or_rank_field_is_not_read_as_data(tmp_path: Path, line: str) -> None:
    # two separators in a row: polars would see an empty field, trec_eval a short line
    path = tmp_path / "run.txt"
    path.write_text(f"q1 Q0 d1 1 0.9 t\n{line}\n")
    with pytest.raises(InputError, match="expected at least 6 fields"):
        load_run(path)


def _damaged(fields: list[str]) -> list[str]:
    """One line's fields written every irregular way: a field emptied or dropped, blanks
    doubled, leading or trailing, other line ends, extra fields."""
    out = []
    for i in range(len(fields)):
        out.append(" ".join([*fields[:i], "", *fields[i + 1:]]))  # emptied: two blanks
        out.append(" ".join(fields[:i] + fields[i + 1:]))  # dropped: a short line
        out.append(" ".join(fields[:i]) + "  " + " ".join(fields[i:]))  # blank doubled
    line = " ".join(fields)
    out += [f" {line}", f"{line} ", f"{line}  ", f"{line} extra", f"{line} x y", f"{line}\r",
            f"{line} \r", "", " ", "#  comment  line", f"{line}\n"]
    return out


def _outcome(read: object) -> tuple[str, object]:
    try:
        return "rows", read()  # type: ignore[operator]
    except InputError as exc:
        return "error", (exc.line, str(exc))


@pytest.mark.parametrize("pad", range(8))
def test_two_blanks_are_seen_wherever_they_fall(tmp_path: Path, small_blocks: None,
                                                pad: int) -> None:
    # the blanks land at every offset of the checked slices (7 bytes in this test)
    path = tmp_path / "run.txt"
    path.write_text(f"q1 Q0 d{'x' * pad} 1 0.9 t\nq1  d9 1 0.5 t\n")
    with pytest.raises(InputError, match="expected at least 6 fields") as err:
        load_run(path)
    assert err.value.line == 2


@pytest.mark.parametrize("line", _damaged(["q1", "Q0", "d9", "7", "0.5", "t"]))
@pytest.mark.parametrize("where", ["first", "middle", "last"])
def test_irregular_lines_read_like_the_line_parser(tmp_path: Path, small_blocks: None,
                                                   line: str, where: str) -> None:
    # a block whose lines are regular skips parsing the iter and rank columns: a damaged
    # line anywhere must still be read (or reported) exactly as the line parser does
    good = [f"q1 Q0 d{i} {i} {9 - i / 100} t" for i in range(30)]
    at = {"first": 0, "middle": 15, "last": 30}[where]
    path = tmp_path / "run.txt"
    path.write_text("\n".join([*good[:at], line, *good[at:]]) + "\n")
    fast = _outcome(lambda: _rows(load_run(path)))
    slow = _outcome(lambda: _line_parser_rows(path))
    assert fast == slow


def test_a_line_longer_than_a_block(tmp_path: Path, small_blocks: None) -> None:
    path = tmp_path / "run.txt"
    path.write_text(f"q1 Q0 d1 1 2 t\nq1 Q0 {'d' * 300} 2 1 t\nq2 Q0 d3 1 5 t\n")
    assert _rows(load_run(path)) == _line_parser_rows(path)


def test_no_newline_in_the_tail_of_a_block(tmp_path: Path,
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    # the first block's last 64 KiB hold no line end (it is cut at an earlier one); the long
    # line is then longer than a block, which the line parser reads
    monkeypatch.setattr(files, "BLOCK", 70_000)
    short = "".join(f"q1 Q0 d{i} {i} {50 - i} t\n" for i in range(40))
    path = tmp_path / "run.txt"
    path.write_text(f"{short}q1 Q0 {'x' * 80_000} 41 1 t\nq2 Q0 d1 1 1 t")  # no final newline
    assert _rows(load_run(path)) == _line_parser_rows(path)


def test_non_integer_ranks_are_read(tmp_path: Path, small_blocks: None) -> None:
    path = tmp_path / "run.txt"
    path.write_text("".join(f"q1 Q0 d{i} r{i} {1 - i / 10} t\n" for i in range(10)))
    assert _rows(load_run(path)) == _line_parser_rows(path)


# -- the ranked order of grouped runs ---------------------------------------------------------
@st.composite
def grouped_runs(draw: st.DrawFn) -> list[tuple[str, str, float]]:
    """Rows of a run written query by query, scores non-increasing, ties likely."""
    nq = draw(st.integers(1, 8))
    same_depth = draw(st.booleans())
    depth = draw(st.integers(1, 12))
    rows = []
    for q in draw(st.permutations(range(nq))):
        n = depth if same_depth else draw(st.integers(1, 12))
        docs = draw(st.lists(st.integers(0, 30), min_size=n, max_size=n, unique=True))
        scores = sorted(draw(st.lists(st.integers(-3, 3), min_size=n, max_size=n)),
                        reverse=True)
        rows += [(f"q{q}", f"d{d}", s / 2) for d, s in zip(docs, scores, strict=True)]
    return rows


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(grouped_runs(), st.sampled_from(["docid", "input"]), st.randoms(use_true_random=False))
def test_grouped_runs_rank_like_the_sorting_path(rows: list, ties: str, rnd: object) -> None:
    grouped_frame = pl.DataFrame(rows, schema=["query_id", "doc_id", "score"], orient="row")
    # the same rows with the queries interleaved (each query's rows keep their order, so
    # ties broken by input order stay the same): the general path has to sort them
    labels = [q for q, _, _ in rows]
    rnd.shuffle(labels)  # type: ignore[attr-defined]
    queues: dict[str, list] = {}
    for row in rows:
        queues.setdefault(row[0], []).append(row)
    mixed = [queues[q].pop(0) for q in labels]
    mixed_frame = pl.DataFrame(mixed, schema=["query_id", "doc_id", "score"], orient="row")
    grouped = run_index(Run(grouped_frame), ties)
    general = run_index(Run(mixed_frame), ties)
    # queries are numbered in the run's order where each is one block, else sorted: the
    # rankings of each query must be the same either way
    assert grouped.query_ids.to_list() == list(dict.fromkeys(q for q, _, _ in rows))
    mixed_ids = mixed_frame["query_id"].to_list()
    one_block_each = len(list(itertools.groupby(mixed_ids))) == len(set(mixed_ids))
    want = list(dict.fromkeys(mixed_ids)) if one_block_each else sorted(set(mixed_ids))
    assert general.query_ids.to_list() == want
    assert _rankings(grouped, grouped_frame) == _rankings(general, mixed_frame)


def _rankings(index: object, frame: pl.DataFrame) -> dict[str, list[tuple]]:
    """Each query's ranked rows, and that every key is its row's (query code, doc) key."""
    from ranklens._model.keys import PairKeys

    src = index.src.astype(np.int64)  # type: ignore[attr-defined]
    code, offsets = index.code, index.offsets  # type: ignore[attr-defined]
    doc_hash = frame["doc_id"].hash(0).to_numpy()[src]
    keys = PairKeys.hashed(offsets.size - 1).of(code, doc_hash)
    assert np.array_equal(index.keys, keys)  # type: ignore[attr-defined]
    out = {}
    for c, q in enumerate(index.query_ids.to_list()):  # type: ignore[attr-defined]
        assert (code[offsets[c]:offsets[c + 1]] == c).all()
        out[q] = frame[src[offsets[c]:offsets[c + 1]]].rows()
    return out


@pytest.mark.parametrize("same_depth", [True, False])
def test_duplicates_found_within_a_query_only(same_depth: bool) -> None:
    run = {f"q{q}": {f"d{i}": 10.0 - i for i in range(6 if same_depth else 4 + q)}
           for q in range(5)}
    qrels = {q: {"d1": 1} for q in run}
    # the same doc in every query is no duplicate
    assert ranklens.evaluate(qrels, run, ["P@5"])["P@5"] == pytest.approx(0.2)
    frame = ranklens.load_run(run).frame.drop("order")
    dup = pl.concat([frame, pl.DataFrame({"query_id": ["q3"], "doc_id": ["d2"],
                                          "score": [-1.0]})])
    dup = dup.sort("query_id", maintain_order=True)
    with pytest.raises(InputError, match="'d2' appears more than once for query 'q3'"):
        ranklens.evaluate(qrels, Run(dup), ["P@5"])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ranklens.RanklensWarning)
        kept = ranklens.evaluate(qrels, Run(dup), ["P@5"], duplicates="first")
    assert kept["P@5"] == pytest.approx(0.2)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 30), st.lists(st.integers(-2, 2), min_size=1,
                                                        max_size=8)),
                min_size=1, max_size=6, unique_by=lambda b: b[0]),
       st.booleans(), st.booleans())
def test_ranking_without_sorting_matches_the_sort(blocks: list, by_doc: bool,
                                                  ascending: bool) -> None:
    # query numbers with gaps (queries absent from the run), ties within blocks, and
    # sometimes a block not in score order (then the sort must be taken)
    from ranklens._model.ranking import _sorted_order, full_src, rank_rows

    # the ranker numbers queries densely (0 to nq - 1), keeping their order
    codes = np.unique([c for c, _ in blocks], return_inverse=True)[1]
    lengths = np.array([len(scores) for _, scores in blocks], dtype=np.int64)
    q = np.repeat(codes, lengths).astype(np.int64)
    s = np.array([x / 2 for _, scores in blocks for x in sorted(scores, reverse=not ascending)])
    tiebreak = (pl.Series([f"d{(7 * i) % 5}" for i in range(q.size)]) if by_doc
                else pl.Series(np.arange(q.size)))
    offsets, moves = rank_rows(codes, lengths, len(blocks), s, tiebreak.gather, by_doc)
    perm = full_src(q.size, moves)
    sq = np.repeat(np.arange(len(blocks)), np.diff(offsets))
    want, want_q = _sorted_order(q, s, tiebreak.gather, by_doc, None)
    assert perm.tolist() == want.tolist()
    assert sq.tolist() == want_q.tolist()


@pytest.fixture
def block_reader(monkeypatch: pytest.MonkeyPatch, small_blocks: None) -> None:
    """Every file through the block reader (none read as a small file), in small blocks."""
    monkeypatch.setattr(small, "SMALL_BYTES", -1)


def _numeric_run_text(seed: int, odd: str | None = None, at: int = 0) -> str:
    """A run whose doc ids are numbers (many tied scores, so ties are broken by the ids'
    text: "9" before "100" before "10"); ``odd`` replaces the doc id of line ``at``."""
    rng = np.random.default_rng(seed)
    lines = []
    for q in range(6):
        docs = rng.choice([0, 1, 9, 10, 99, 100, 101, 4294967295, *range(200, 240)],
                          size=int(rng.integers(5, 25)), replace=False)
        scores = np.sort(rng.integers(0, 4, size=docs.size))[::-1] / 2
        lines += [f"q{q} Q0 {d} {r} {s} t" for r, (d, s) in enumerate(zip(docs, scores,
                                                                          strict=True), 1)]
    if odd is not None:
        fields = lines[at].split(" ")
        fields[2] = odd
        lines[at] = " ".join(fields)
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("seed", range(4))
def test_numeric_doc_ids_are_held_as_numbers_and_given_back_as_text(
        tmp_path: Path, block_reader: None, seed: int) -> None:
    path = tmp_path / "run.txt"
    path.write_text(_numeric_run_text(seed))
    run = load_run(path)
    assert run._doc_id.dtype == pl.UInt32  # 4 bytes a row
    assert _rows(run) == _line_parser_rows(path)
    assert run.doc_id.dtype == pl.String
    rows = np.array([3, 0, len(run) - 1])
    assert run.doc_ids_at(rows).to_list() == [_line_parser_rows(path)[i][1] for i in rows]
    # ranked and matched as the same run given as text: ties broken by the ids' bytes
    qrels = {f"q{q}": {str(d): int(d) % 3 for d in (1, 9, 10, 100, 4294967295, 205)}
             for q in range(6)}
    as_text = Run(run.frame.select("query_id", "doc_id", "score"))
    measures = ["AP", "nDCG@5", "P@3", "RR", "R@10"]
    for ties in ("docid", "input", "docid_ascending"):
        assert np.array_equal(run_index(run, ties).src, run_index(as_text, ties).src)
    for ties in ("docid", "input", "average"):
        a = ranklens.evaluate(qrels, run, measures, ties=ties).to_polars()
        b = ranklens.evaluate(qrels, as_text, measures, ties=ties).to_polars()
        assert a.equals(b)


@pytest.mark.parametrize("odd", ["007", "00", "+5", "4294967296", "04294967295", "-1", "d1",
                                 "\u0663", "1e3"])
@pytest.mark.parametrize("at", [0, 60])
def test_doc_ids_not_written_as_numbers_stay_as_written(tmp_path: Path, block_reader: None,
                                                        odd: str, at: int) -> None:
    # in the first block or a later one (the numbers read so far then turn into text)
    path = tmp_path / "run.txt"
    path.write_text(_numeric_run_text(1, odd, at), encoding="utf-8")
    run = load_run(path)
    assert run._doc_id.dtype == pl.String
    assert _rows(run) == _line_parser_rows(path)
    assert odd in run.doc_id.to_list()


def test_blocks_handed_over_keep_doc_ids_as_text(tmp_path: Path) -> None:
    # a chunked evaluation's blocks: their doc ids are written to chunks as text
    path = tmp_path / "run.txt"
    path.write_text(_numeric_run_text(2))
    run = trec_run.read_trec_run(path, data=path.read_bytes())
    assert run._doc_id.dtype == pl.String
    assert _rows(run) == _line_parser_rows(path)


@pytest.mark.parametrize("kind", ["run", "qrels"])
@pytest.mark.parametrize("blocks", [1, 3])
def test_the_heap_is_trimmed_after_a_file_of_several_blocks(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, kind: str, blocks: int) -> None:
    calls: list[int] = []
    monkeypatch.setattr(small, "SMALL_BYTES", -1)
    monkeypatch.setattr(files, "malloc_trim", lambda: calls.append)
    path = tmp_path / kind
    if kind == "run":
        path.write_text(_numeric_run_text(3))
    else:
        path.write_text("".join(f"q{i % 7} 0 d{i} {i % 3}\n" for i in range(200)))
    monkeypatch.setattr(files, "BLOCK", path.stat().st_size // blocks + 1)
    table = load_run(path) if kind == "run" else ranklens.load_qrels(path)
    assert len(table) > 0
    # only where the platform's C library has the call (glibc)
    expected = [0] if blocks > 1 and sys.platform.startswith("linux") else []
    assert calls == expected


@pytest.mark.parametrize("at", [None, 0, 60])
def test_numeric_doc_ids_with_the_next_block_parsed_ahead(tmp_path: Path, block_reader: None,
                                                         at: int | None) -> None:
    # jobs > 1: a block may be parsed for numbers after the run has turned to text
    from ranklens._base.threads import using

    path = tmp_path / "run.txt"
    path.write_text(_numeric_run_text(4, None if at is None else "007", at or 0))
    with using(2):
        run = load_run(path)
    assert run._doc_id.dtype == (pl.UInt32 if at is None else pl.String)
    assert _rows(run) == _line_parser_rows(path)


def test_a_block_is_not_held_while_the_next_is_read(tmp_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    # the reader's suspended frame lets go of the block it handed over: only the caller's
    # reference keeps it while the next one is read
    path = tmp_path / "run.txt"
    path.write_text(_numeric_run_text(5))
    blocks = files.read_blocks(str(path), 200)
    first = next(blocks)
    held = sys.getrefcount(first)  # (the reader's frame's reference counted, if it holds one)
    during: list[int] = []
    end = files.line_end

    def spied(*args: int) -> int:  # called before the next block is read
        during.append(sys.getrefcount(first))
        return end(*args)

    monkeypatch.setattr(files, "line_end", spied)
    assert len(next(blocks)) > 0
    blocks.close()
    assert during == [held - 1]


def test_blocks_parsed_ahead_are_smaller(tmp_path: Path, block_reader: None,
                                         monkeypatch: pytest.MonkeyPatch) -> None:
    from ranklens._base.threads import using

    path = tmp_path / "run.txt"
    path.write_text(_numeric_run_text(6))
    monkeypatch.setattr(files, "BLOCK", path.stat().st_size // 3 + 1)
    sizes: dict[int, list[int]] = {1: [], 2: []}
    parsed = run_parts.RunParts.parsed
    rows = {}
    for n in (1, 2):
        def spied(self: run_parts.RunParts, data: bytes, n: int = n) -> pl.DataFrame | None:
            sizes[n].append(len(data))
            return parsed(self, data)

        monkeypatch.setattr(run_parts.RunParts, "parsed", spied)
        with using(n):
            rows[n] = _rows(load_run(path))
    assert sum(sizes[1]) == sum(sizes[2]) == path.stat().st_size
    assert max(sizes[2]) <= files.BLOCK // trec_run.AHEAD_PARTS < max(sizes[1])
    assert rows[1] == rows[2] == _line_parser_rows(path)

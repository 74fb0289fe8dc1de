"""The benchmark data sets beyond the generator's presets, each written once to the cache.

Real data comes from ``realdata/`` in the shared folder (``$RANKLENS_SHARED_DIR`` or
``../shared`` next to the repository; gzipped there, written uncompressed here so every tool
reads the same plain files):

``dl19``        TREC DL 2019 passage: the RepLLaMA run (1000 per topic, 43k lines, 3-decimal
                scores) with its qrels (9,260 judgments).
``dl19-ties``   the same run with its scores rounded to 2 decimals, so whole groups of
                documents tie (about 10 distinct scores per topic, ~100 documents each);
                lines kept in file order.
``robust1``     one TREC 2003 Robust run (InexpC2, 100k lines) with the 128k judgments.
``robust13``    all 13 Robust runs concatenated, query ids prefixed by run (``<run>_<qid>``),
                the qrels repeated with the same prefixes: 1.11M lines, 1.67M judgments.
``robust13x4``  that again four times (``<copy>_<run>_<qid>``): 4.4M lines, 6.7M judgments.
``robust17``    17 run files against the plain Robust qrels: the 13 real runs plus 4 made from
                InexpC2, MU03rob01, SABIR03BASE and THUIRr0301 by adding seeded Gaussian
                noise (1% of the run's score spread) to the scores and shuffling the lines
                (seed 17): 1.51M lines in all.

Generator variants (the shared generator cannot change; its output is post-processed here):
``judged`` judgments per query (10^2-10^3: the generator's own ``--judged``), ``shuffle``
(lines in a seeded random order), ``tabs`` (tab separators) and ``ties`` (scores rounded to
that many decimals). ``doubled`` makes the 2x of any workload: two copies with query ids
prefixed ``d0_`` and ``d1_``.
"""

from __future__ import annotations

import gzip
import json
import os
import random
import shutil
import subprocess
import sys
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent


def robust_qrels() -> Path:
    return realdata("robust03", "robust03_qrels.txt.gz")


ROBUST_RUNS = ("InexpC2", "MU03rob01", "NLPR03vb10", "SABIR03BASE", "THUIRr0301", "UIUC03Rd1",
               "VTcdhgp1", "aplrob03a", "humR03dc", "pircRBa1", "rutcor03100", "uic0301",
               "uwmtCR0")


@dataclass(frozen=True)
class Workload:
    """One qrels file and the run files evaluated against it."""

    name: str
    qrels: Path
    runs: tuple[Path, ...]

    @property
    def run(self) -> Path:
        return self.runs[0]


def shared_dir() -> Path:
    return Path(os.environ.get("RANKLENS_SHARED_DIR", HERE.parent.parent / "shared"))


def realdata(*parts: str) -> Path:
    path = shared_dir().joinpath("realdata", *parts)
    if not path.exists():
        sys.exit(f"real data not found at {path} (set RANKLENS_SHARED_DIR)")
    return path


def build(folder: Path, stamp: object, make: Callable[[Path], None]) -> Path:
    """Run ``make(tmp)`` once for ``stamp`` and move the result to ``folder``: a partial
    folder left by an interrupted build is never taken for a finished one."""
    marker = folder / "params.json"
    if marker.exists() and json.loads(marker.read_text()) == stamp:
        return folder
    tmp = folder.with_name(f".{folder.name}.partial")
    shutil.rmtree(tmp, ignore_errors=True)
    tmp.mkdir(parents=True)
    print(f"writing {folder.name} ...", flush=True)
    make(tmp)
    (tmp / "params.json").write_text(json.dumps(stamp))
    shutil.rmtree(folder, ignore_errors=True)
    tmp.rename(folder)
    return folder


def gunzip_lines(path: Path) -> list[bytes]:
    with gzip.open(path, "rb") as f:
        return f.read().splitlines(keepends=True)


def prefixed(lines: Iterable[bytes], prefix: bytes) -> Iterable[bytes]:
    """The lines with ``prefix`` before the query id (the first field)."""
    return (prefix + line for line in lines)


def write_lines(path: Path, chunks: Iterable[Iterable[bytes]]) -> None:
    with open(path, "wb") as f:
        for chunk in chunks:
            f.writelines(chunk)


# -- real data ---------------------------------------------------------------------------
def dl19(cache: Path, ties: int | None = None) -> Workload:
    name = "dl19" if ties is None else "dl19-ties"

    def make(out: Path) -> None:
        write_lines(out / "qrels.txt", [gunzip_lines(realdata("dl", "qrels.dl19-passage.txt.gz"))])
        lines = gunzip_lines(realdata("dl", "dl19.REP_LLAMA.run.gz"))
        write_lines(out / "run1.txt", [lines if ties is None else round_scores(lines, ties)])

    folder = build(cache / name, {"v": 1, "ties": ties}, make)
    return Workload(name, folder / "qrels.txt", (folder / "run1.txt",))


def robust1(cache: Path) -> Workload:
    def make(out: Path) -> None:
        write_lines(out / "qrels.txt", [gunzip_lines(robust_qrels())])
        write_lines(out / "run1.txt", [gunzip_lines(realdata("robust03", "input.InexpC2.gz"))])

    folder = build(cache / "robust1", {"v": 1}, make)
    return Workload("robust1", folder / "qrels.txt", (folder / "run1.txt",))


def robust13(cache: Path, copies: int = 1) -> Workload:
    """The 13 Robust runs as one file, query ids prefixed by run (and by copy when
    ``copies`` > 1), with the qrels repeated under the same prefixes."""
    name = "robust13" if copies == 1 else f"robust13x{copies}"

    def make(out: Path) -> None:
        qrels = gunzip_lines(robust_qrels())
        runs = {r: gunzip_lines(realdata("robust03", f"input.{r}.gz")) for r in ROBUST_RUNS}
        heads = [b"" if copies == 1 else f"{c}_".encode() for c in range(copies)]
        write_lines(out / "qrels.txt", [prefixed(qrels, h + f"{r}_".encode())
                                        for h in heads for r in ROBUST_RUNS])
        write_lines(out / "run1.txt", [prefixed(runs[r], h + f"{r}_".encode())
                                       for h in heads for r in ROBUST_RUNS])

    folder = build(cache / name, {"v": 1, "copies": copies}, make)
    return Workload(name, folder / "qrels.txt", (folder / "run1.txt",))


def robust17(cache: Path) -> Workload:
    """17 run files against the Robust qrels: 13 real, 4 perturbed copies."""
    extra = ("InexpC2", "MU03rob01", "SABIR03BASE", "THUIRr0301")  # 100k lines each

    def make(out: Path) -> None:
        write_lines(out / "qrels.txt", [gunzip_lines(robust_qrels())])
        for r in ROBUST_RUNS:
            write_lines(out / f"{r}.run", [gunzip_lines(realdata("robust03", f"input.{r}.gz"))])
        rng = random.Random(17)
        for r in extra:
            write_lines(out / f"{r}-noisy.run",
                        [perturbed(gunzip_lines(realdata("robust03", f"input.{r}.gz")), rng,
                                   f"{r}-noisy")])

    folder = build(cache / "robust17", {"v": 2}, make)
    runs = [folder / f"{r}.run" for r in ROBUST_RUNS] + [folder / f"{r}-noisy.run" for r in extra]
    return Workload("robust17", folder / "qrels.txt", tuple(runs))


def perturbed(lines: list[bytes], rng: random.Random, tag: str) -> list[bytes]:
    """Scores plus Gaussian noise of 1% of the run's score spread; lines shuffled."""
    rows = [line.split() for line in lines]
    scores = [float(r[4]) for r in rows]
    sd = 0.01 * ((max(scores) - min(scores)) or 1.0)
    out = [b"%s Q0 %s %s %s %s\n" % (r[0], r[2], r[3], repr(s + rng.gauss(0.0, sd)).encode(),
                                      tag.encode())
           for r, s in zip(rows, scores, strict=True)]
    rng.shuffle(out)
    return out


# -- generator variants and doubling -----------------------------------------------------
def round_scores(lines: list[bytes], decimals: int) -> list[bytes]:
    out = []
    for line in lines:
        f = line.split()
        f[4] = b"%.*f" % (decimals, float(f[4]))
        out.append(b" ".join(f) + b"\n")
    return out


def variant(cache: Path, base: Workload, *, shuffle: bool = False, tabs: bool = False,
            ties: int | None = None, seed: int = 13) -> Workload:
    """``base`` post-processed: lines shuffled (seeded), tab separators, scores rounded."""
    parts = [base.name] + (["shuffled"] if shuffle else []) + (["tabs"] if tabs else []) + (
        [f"ties{ties}"] if ties is not None else [])
    name = "-".join(parts)

    def transform(lines: list[bytes], is_run: bool) -> list[bytes]:
        if ties is not None and is_run:
            lines = round_scores(lines, ties)
        if tabs:
            lines = [b"\t".join(line.split()) + b"\n" for line in lines]
        if shuffle:
            lines = list(lines)
            random.Random(seed).shuffle(lines)
        return lines

    def make(out: Path) -> None:
        write_lines(out / "qrels.txt", [transform(base.qrels.read_bytes().splitlines(True), False)])
        for i, run in enumerate(base.runs):
            write_lines(out / f"run{i + 1}.txt",
                        [transform(run.read_bytes().splitlines(True), True)])

    stamp = {"v": 1, "base": str(base.qrels), "shuffle": shuffle, "tabs": tabs, "ties": ties,
             "seed": seed, "size": [base.qrels.stat().st_size, base.run.stat().st_size]}
    folder = build(cache / name, stamp, make)
    runs = tuple(folder / f"run{i + 1}.txt" for i in range(len(base.runs)))
    return Workload(name, folder / "qrels.txt", runs)


def doubled(cache: Path, base: Workload) -> Workload:
    """Two copies of ``base`` with query ids prefixed ``d0_`` and ``d1_``: twice the
    queries, judgments and lines, each query the same as before."""
    def make(out: Path) -> None:
        with open(out / "qrels.txt", "wb") as f:
            lines = base.qrels.read_bytes().splitlines(True)
            for h in (b"d0_", b"d1_"):
                f.writelines(prefixed(lines, h))
        for i, run in enumerate(base.runs):
            with open(out / f"run{i + 1}.txt", "wb") as f:
                lines = run.read_bytes().splitlines(True)
                for h in (b"d0_", b"d1_"):
                    f.writelines(prefixed(lines, h))

    stamp = {"v": 1, "base": str(base.qrels),
             "size": [base.qrels.stat().st_size, base.run.stat().st_size]}
    folder = build(cache / f"{base.name}-2x", stamp, make)
    runs = tuple(folder / f"run{i + 1}.txt" for i in range(len(base.runs)))
    return Workload(f"{base.name} 2x", folder / "qrels.txt", runs)


def generated(cache: Path, name: str, args: list[str]) -> Workload:
    """A data set of the shared generator (one run), written once."""
    gen = shared_dir() / "bench" / "make_trec_data.py"
    if not gen.exists():
        sys.exit(f"data generator not found at {gen} (set RANKLENS_SHARED_DIR)")

    def make(out: Path) -> None:
        subprocess.run([sys.executable, str(gen), *args, "--runs", "1", "--out", str(out)],
                       check=True)

    folder = cache / name
    # the presets' folders hold the generator's arguments alone (run.py's format)
    marker = folder / "params.json"
    if not (marker.exists() and json.loads(marker.read_text()) == args):
        build(folder, args, make)
    return Workload(name, folder / "qrels.txt", (folder / "run1.txt",))


def count_lines(path: Path) -> int:
    with open(path, "rb") as f:
        return sum(chunk.count(b"\n") for chunk in iter(lambda: f.read(1 << 24), b""))


# -- Parquet copies ----------------------------------------------------------------------
def parquet(cache: Path, base: Workload) -> Workload:
    """``base``'s TREC files as Parquet (``query_id, doc_id, relevance`` and ``query_id,
    doc_id, score``; ids as strings, grades as integers, scores as doubles), written once
    to ``<name>-parquet`` by polars' streaming engine (``scan_csv`` to ``sink_parquet``), so
    recsys x30 is converted without holding it in memory."""
    import polars as pl

    def convert(src: Path, dst: Path, columns: dict[str, pl.DataType],
                keep: list[str]) -> None:
        with open(src, "rb") as f:
            sep = "\t" if b"\t" in f.readline() else " "
        (pl.scan_csv(src, separator=sep, has_header=False, schema=columns)
         .select(keep).sink_parquet(dst))

    qrels_columns = {"query_id": pl.String(), "iteration": pl.String(), "doc_id": pl.String(),
                     "relevance": pl.Int64()}
    run_columns = {"query_id": pl.String(), "q0": pl.String(), "doc_id": pl.String(),
                   "rank": pl.Int64(), "score": pl.Float64(), "tag": pl.String()}

    def make(out: Path) -> None:
        convert(base.qrels, out / "qrels.parquet", qrels_columns,
                ["query_id", "doc_id", "relevance"])
        for i, run in enumerate(base.runs):
            convert(run, out / f"run{i + 1}.parquet", run_columns,
                    ["query_id", "doc_id", "score"])

    stamp = {"v": 1, "base": str(base.qrels),
             "size": [base.qrels.stat().st_size, *(r.stat().st_size for r in base.runs)]}
    folder = build(cache / f"{base.name}-parquet", stamp, make)
    runs = tuple(folder / f"run{i + 1}.parquet" for i in range(len(base.runs)))
    return Workload(f"{base.name} parquet", folder / "qrels.parquet", runs)


# -- copies (beyond the generator's query ids) ---------------------------------------------
#: the shared generator draws its query ids from 1.1M without replacement
GENERATOR_QUERY_IDS = 1_100_000


def copies(cache: Path, base: Workload, k: int, name: str) -> Workload:
    """``k`` copies of ``base``, copy ``i``'s query ids moved up by ``i`` times the
    generator's id range (copy 0 as it is): k times the queries, judgments and lines, each
    query's values as in ``base`` (recsys x30 is x10 three times: the generator cannot draw
    3M query ids). The ids stay integers, as the generator's would be (a text prefix such
    as ``c1_`` made x30 a different shape: text query ids and 3.25x x10's bytes), and stay
    distinct: the generator draws them below :data:`GENERATOR_QUERY_IDS`. Streamed by
    polars (every column read and written as the text it is), never whole in memory."""
    import polars as pl

    def prefixed_file(src: Path, dst: Path) -> None:
        with open(dst, "wb") as out, open(src, "rb") as f:
            shutil.copyfileobj(f, out, 1 << 26)
        with open(src) as f:
            width = len(f.readline().split())
        lines = pl.scan_csv(src, separator=" ", has_header=False,
                            schema={f"c{j}": pl.String for j in range(width)})
        ids = pl.col("c0").cast(pl.Int64, strict=True)
        # checked once: every copy moves the same ids
        assert lines.select(ids.max()).collect().item() < GENERATOR_QUERY_IDS
        for i in range(1, k):
            part = dst.with_name(dst.name + ".part")
            (lines.with_columns((ids + i * GENERATOR_QUERY_IDS).cast(pl.String).alias("c0"))
             .sink_csv(part, separator=" ", include_header=False, quote_style="never"))
            with open(dst, "ab") as out, open(part, "rb") as f:
                shutil.copyfileobj(f, out, 1 << 26)
            part.unlink()

    def make(out: Path) -> None:
        prefixed_file(base.qrels, out / "qrels.txt")
        for i, run in enumerate(base.runs):
            prefixed_file(run, out / f"run{i + 1}.txt")

    stamp = {"v": 3, "base": str(base.qrels), "copies": k,
             "size": [base.qrels.stat().st_size, *(r.stat().st_size for r in base.runs)]}
    folder = build(cache / name, stamp, make)
    runs = tuple(folder / f"run{i + 1}.txt" for i in range(len(base.runs)))
    return Workload(name, folder / "qrels.txt", runs)

"""Every example of README.md and of the docs pages in ``DOCS`` runs.

The examples are read from the files, never copied here: a new example that does not run
fails this module. Python blocks (```python) run in order, per file, in one namespace, after a
small preamble that defines what the README's blocks take as given (``other_run``, the array
inputs, a subtopic qrels file). Shell blocks (```bash, and untagged blocks with ``ranklens``
lines) run each ``ranklens`` command in process, in a fresh temporary folder holding the
files the command names, made from the bundled demo data (``ranklens demo``'s files). A
command shown with ``$`` and its output must print that output. A line of a shell block that
is not a ``ranklens`` command (pip, pytest, ruff) must be listed in ``NOT_RUN`` with the reason.

Other pages' blocks get what their text names as given (``GIVEN``) and the files their string
literals name; a doctest block runs its statements. A page with code blocks that is not in
``DOCS`` must be in ``PAGES_NOT_RUN`` with the reason (another test runs it, or it holds no
example), and a fragment of a larger program in ``BLOCKS_NOT_RUN``: test_every_page_is_run.
"""

from __future__ import annotations

import gzip
import os
import re
import shlex
import shutil
from pathlib import Path
from typing import Any

import pytest
from cli_support import run

import ranklens

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "src" / "ranklens" / "data"
DOCS = ("README.md", "docs/tour.md", "docs/cli.md", "docs/agreement.md", "docs/results.md",
        "docs/segments.md", "docs/judges.md", "docs/rag-inputs.md", "docs/rag-measures.md",
        "docs/recsys-protocols.md", "docs/ko/index.md", "docs/ko/measures.md", "docs/ko/rag.md",
        "docs/ko/recommender.md", "docs/index.md", "docs/start/trec.md",
        "docs/start/recommender.md", "docs/start/rag.md", "docs/start/training.md",
        "docs/start/big-data.md", "docs/start/which-measure.md", "docs/diversity.md",
        "docs/fusion.md", "docs/scale.md", "docs/report.md", "docs/compare.md",
        "docs/conventions.md", "docs/beyond-accuracy.md", "docs/trec_eval.md", "docs/training.md")

#: Pages with code blocks that this module does not run, and why (test_every_page_is_run).
PAGES_NOT_RUN = {
    "docs/architecture.md": "contributors' page: a folder tree and the layer list, no example",
    "docs/benchmarks.md": "contributors' page: multi-minute benchmark commands and their output",
    "docs/citing.md": "the citation file's text (YAML), not an example",
    "docs/rag.md": "its walkthrough runs in order in tests/cli/test_rag_doc.py",
    "docs/spark.md": "runs in tests/spark/test_spark_doc.py, on a Spark session (slow tier)",
}

#: Python blocks ("page:line") that are fragments of a larger program, and why they do not run.
BLOCKS_NOT_RUN = {
    # run by tests/cli/test_training_doc.py, given what the page says is the reader's
    "docs/training.md:78": "a torch validation loop: model and val_loader are the reader's",
    "docs/training.md:125": "needs a torch.distributed process group",
    "docs/training.md:138": "a process pool, which imports the block's file: run as a script",
}

#: The README, the tour its examples moved to and the input forms' summary: their blocks take
#: the preamble as given.
README_PAGES = ("README.md", "docs/tour.md", "docs/conventions.md")

#: What other pages' blocks take as given: inputs named in the text before the block.
GIVEN: dict[str, dict[str, Any]] = {
    "docs/conventions.md": {"qrels": "demo.qrels", "run": "demo-bm25.run"},
    "docs/compare.md": {"qrels": "demo.qrels", "bm25": "demo-bm25.run",
                        "dense": "demo-dense.run", "hybrid": "hybrid.run"},
    # one row per query, one column per candidate
    "docs/training.md": {"scores": [[0.9, 0.1, 0.5], [0.2, 0.8, 0.3]],
                         "labels": [[1, 0, 0], [0, 0, 1]]},
}

#: trec_eval's own test files (the conformance folder) that docs/trec_eval.md reads.
TREC_EVAL_FILES = ("qrels.test", "results.trunc")

#: Shell lines (or ``&&`` parts) that are not ranklens commands, and why they do not run here.
NOT_RUN = {
    "pip install .": "installs the package (pip, network); the venv running the tests has it",
    "pip install ranklens": "installs the package from the registry (pip, network)",
    'pip install -e ".[test]"': "installs the test dependencies (pip, network)",
    "python -m pytest": "the whole test suite, which holds this test",
    "python -m pytest -q -p no:cacheprovider": "the whole test suite as CI runs it (.ci/run)",
    "python -m ruff check src tests": "the linter; CI runs it (.ci/run)",
    "python -m mypy": "the type checker; tests/unit/test_typing.py runs mypy",
}

#: Untagged blocks that only show ranklens's messages (no command) are not examples; the
#: synopsis block's lines have placeholders (QRELS, RUN): each line's subcommand is run with
#: --help instead.
SYNOPSIS_FIRST_LINE = ("ranklens evaluate QRELS RUN [RUN ...]", "ranklens trec_eval [-q]")

#: Run files by their order in a command: the first is BM25's, the second the dense run's,
#: the third a fusion of the two.
RUN_SOURCES = ("demo-bm25.run", "demo-dense.run")

#: Input names of the recommender examples and the bundled file each one stands for.
RECSYS_INPUTS = {"test.qrels": "demo-recs.qrels", "reco.run": "demo-recs-personal.run",
                 "train.tsv": "demo-recs-train.txt", "items.txt": "demo-recs-items.tsv",
                 "embeddings.txt": "demo-recs-embeddings.txt"}

OUTPUT_OPTIONS = {"-o", "--output"}


def blocks(name: str, root: Path = ROOT) -> list[tuple[int, str, str]]:
    """(line number, language, text) of every fenced block of the file."""
    found = []
    lines = (root / name).read_text("utf-8").splitlines()
    i = 0
    while i < len(lines):
        match = re.match(r"^```(\w*)\s*$", lines[i])
        if match:
            start, body = i + 2, []  # the line number of the first line inside
            i += 1
            while not lines[i].startswith("```"):
                body.append(lines[i])
                i += 1
            found.append((start, match.group(1), "\n".join(body) + "\n"))
        i += 1
    return found


def python_blocks(name: str) -> list[tuple[int, str]]:
    return [(line, text) for line, lang, text in blocks(name) if lang == "python"]


def shell_commands(name: str) -> list[tuple[int, str, str | None]]:
    """(line number, command, expected output or None) of every shell example."""
    commands: list[tuple[int, str, str | None]] = []
    for line, lang, text in blocks(name):
        # join a command's lines ending in one backslash (LaTeX output ends rows in two)
        rows = re.sub(r"(?<!\\)\\\n\s*", "", text).splitlines()
        if lang not in ("bash", "sh", "shell", "console", ""):
            continue
        if lang == "" and not any(r.startswith(("ranklens ", "$ ")) for r in rows):
            continue  # messages, not commands
        if lang == "" and rows[0].startswith(SYNOPSIS_FIRST_LINE):
            for offset, row in enumerate(rows):
                if row.startswith("ranklens "):  # not a synopsis' continuation line
                    commands.append((line + offset, synopsis_help(row), None))
            continue
        if any(r.startswith("$ ") for r in rows):  # a command and what it prints
            for offset, row in enumerate(rows):
                if row.startswith("$ "):
                    out = []
                    for after in rows[offset + 1:]:
                        if after.startswith("$ "):
                            break
                        out.append(after)
                    commands.append((line + offset, row[2:], "\n".join(out).rstrip("\n")))
            continue
        for offset, row in enumerate(rows):
            if row.strip() and not row.lstrip().startswith("#"):
                commands.append((line + offset, row, None))
    return commands


def synopsis_help(row: str) -> str:
    words = row.split()
    return "ranklens --version" if words[1].startswith("--") else f"ranklens {words[1]} --help"


def examples(kind: str) -> list[Any]:
    params = []
    for name in DOCS:
        if kind == "python":
            if python_blocks(name):
                params.append(pytest.param(name, id=name))
        else:
            for line, command, expected in shell_commands(name):
                params.append(pytest.param(name, line, command, expected, id=f"{name}:{line}"))
    return params


def fused_run(path: Path) -> None:
    """A third system: the demo runs' scores summed per (query, doc)."""
    scores: dict[tuple[str, str], float] = {}
    for source in RUN_SOURCES:
        for row in (DATA / source).read_text("utf-8").splitlines():
            query, _, doc, _, score, _ = row.split()
            scores[query, doc] = scores.get((query, doc), 0.0) + float(score)
    lines = []
    for query in sorted({q for q, _ in scores}):
        ranked = sorted(((s, d) for (q, d), s in scores.items() if q == query), reverse=True)
        lines += [f"{query} Q0 {doc} {rank} {score:.4f} fused"
                  for rank, (score, doc) in enumerate(ranked[:50], 1)]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def make_input(path: Path, runs_so_far: int) -> bool:
    """Write the input file the example names; True when it is a run."""
    path.parent.mkdir(parents=True, exist_ok=True)
    if path.name == "train.tsv":  # a table with a header: the bundled pairs under one
        rows = (DATA / RECSYS_INPUTS[path.name]).read_text("utf-8").replace(" ", "\t")
        path.write_text("user_id\titem_id\n" + rows, encoding="utf-8")
        return False
    if (DATA / path.name).is_file() or path.name in RECSYS_INPUTS:
        shutil.copyfile(DATA / RECSYS_INPUTS.get(path.name, path.name), path)
        return path.suffix == ".run"
    plain = path.name.removesuffix(".gz")
    is_run = "qrels" not in plain
    if plain.endswith(".jsonl"):
        shutil.copyfile(DATA / "rag_example.jsonl", path)
        return False
    if is_run and runs_so_far >= len(RUN_SOURCES):
        fused_run(path)
        return True
    source = DATA / (RUN_SOURCES[runs_so_far] if is_run else "demo.qrels")
    data = source.read_bytes()
    path.write_bytes(gzip.compress(data) if path.name.endswith(".gz") else data)
    return is_run


def prepare(args: list[str], cwd: Path, tmp_path: Path) -> list[str]:
    """Create the files ARGS reads in CWD; point absolute /tmp outputs into TMP_PATH."""
    runs = 0
    prepared = []
    previous = ""
    for arg in args:
        if arg.startswith("/tmp/"):
            arg = str(tmp_path / arg.removeprefix("/tmp/"))
        elif previous not in OUTPUT_OPTIONS and not arg.startswith("-"):
            path = arg.split("=", 1)[1] if "=" in arg else arg
            if re.search(r"\.(run|txt|tsv|qrels|jsonl|gz)$", path) and not (cwd / path).exists():
                runs += make_input(cwd / path, runs)
        prepared.append(arg)
        previous = arg
    return prepared


@pytest.mark.parametrize(("doc", "line", "command", "expected"), examples("shell"))
def test_shell_example_runs(doc: str, line: int, command: str, expected: str | None,
                            tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                            capsys: pytest.CaptureFixture[str]) -> None:
    cwd = tmp_path / "work"
    cwd.mkdir()
    ran = 0
    for part in (p.strip() for p in command.split("&&")):
        part_clean = part.split(" #", 1)[0].strip()
        if part_clean in NOT_RUN:
            continue
        words = shlex.split(part, comments=True)
        if words[0] == "cd":
            cwd = cwd / words[1]
            cwd.mkdir(parents=True, exist_ok=True)
            continue
        assert words[0] == "ranklens", (
            f"{doc}:{line}: {part!r} is neither a ranklens command nor listed in NOT_RUN")
        args = prepare(words[1:], cwd, tmp_path)
        monkeypatch.chdir(cwd)
        out = run(args, capsys)
        assert out.code == 0, f"{doc}:{line}: {part!r} exited {out.code}: {out.err}"
        rows = re.search(r"# rows (.+)$", part)  # the comment names the output's rows
        for name in rows.group(1).split(", ") if rows else ():
            assert re.search(rf"^{re.escape(name)}\b", out.out, flags=re.MULTILINE), (
                f"{doc}:{line}: no row {name!r} in the output:\n{out.out}")
        if expected is not None:
            assert out.out.rstrip("\n") == expected, f"{doc}:{line}: output differs"
        ran += 1
    if ran == 0:
        cd = "a cd: the next command's files are made in its folder"
        reasons = "; ".join(NOT_RUN.get(p.split(" #", 1)[0].strip(), cd)
                            for p in command.split("&&"))
        pytest.skip(f"{doc}:{line}: not a ranklens command: {reasons}")


def readme_preamble(cwd: Path) -> dict[str, Any]:
    """What the README's blocks assume besides their own lines."""
    import numpy as np

    (cwd / "web.ndeval.qrels").write_text(
        "q1 1 d1 1\nq1 1 d2 0\nq1 2 d3 1\nq1 2 d1 0\nq2 1 d7 1\nq2 2 d5 1\n", encoding="utf-8")
    return {
        "ranklens": ranklens,
        # a second system on the first block's queries
        "other_run": {"q1": {"d3": 0.7, "d1": 0.6, "d2": 0.1}, "q2": {"d7": 2.0, "d5": 0.5}},
        # a recommender's top-k hit matrix and each user's count of relevant items
        "hits": np.array([[1, 0, 1, 0, 0, 0, 0, 0, 0, 0], [0, 0, 0, 1, 0, 0, 0, 0, 0, 0]]),
        "n_rel": np.array([3, 1]),
        # scikit-learn's y_true, y_score
        "y_true": np.array([[0, 1, 2, 0, 1], [1, 0, 0, 0, 0]]),
        "y_score": np.array([[0.1, 0.9, 0.8, 0.3, 0.2], [0.2, 0.5, 0.1, 0.4, 0.3]]),
        # torchmetrics' flat preds, target, indexes
        "preds": np.array([0.9, 0.2, 0.6, 0.4, 0.8, 0.1]),
        "target": np.array([1, 0, 1, 0, 0, 1]),
        "indexes": np.array([0, 0, 0, 1, 1, 1]),
        # RAG: gold ids and retrieved ids per question
        "gold": {"q1": ["kb3"], "q2": ["kb1", "kb7"]},
        "retrieved": {"q1": ["kb1", "kb3", "kb4"], "q2": ["kb7", "kb2", "kb1"]},
    }


#: Imports that are no peer: ranklens, and the frame libraries the test extra installs.
NOT_PEERS = {"ranklens", "pandas", "polars"}


def imported_peers(text: str) -> list[str]:
    """The modules a block imports but ranklens and frames (ranx, ir_measures: peers)."""
    modules = [name.split(" as ")[0].strip()
               for names in re.findall(r"^import (.+)$", text, flags=re.MULTILINE)
               for name in names.split(",")]
    return [module for module in modules if module not in NOT_PEERS]


@pytest.mark.parametrize("doc", examples("python"))
def test_python_examples_run(doc: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The blocks in order, but those importing a peer library (ranx...): the fast tier."""
    run_blocks(doc, tmp_path, monkeypatch, with_peers=False)


@pytest.mark.parametrize("doc", examples("python"))
def test_python_examples_with_peers_run(doc: str, tmp_path: Path,
                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """Every block in order (slow: ranx compiles its numba kernels on first use)."""
    for _, text in python_blocks(doc):
        for module in imported_peers(text):
            pytest.importorskip(module)
    run_blocks(doc, tmp_path, monkeypatch, with_peers=True)


def run_blocks(doc: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
               with_peers: bool) -> None:
    monkeypatch.chdir(tmp_path)
    # the bundled demo files, under the names `ranklens demo` gives them: blocks read them
    for name in ("demo.qrels", "demo-llm.qrels", *RUN_SOURCES):
        shutil.copyfile(DATA / name, tmp_path / name)
    for path in DATA.glob("demo-recs*"):  # docs/recsys-protocols.md reads them
        shutil.copyfile(path, tmp_path / path.name)
    scope = readme_preamble(tmp_path) if doc in README_PAGES else {"ranklens": ranklens}
    scope.update(GIVEN.get(doc, {}))
    make_named_inputs(repr(GIVEN.get(doc, {})), tmp_path)
    for line, text in python_blocks(doc):
        if (not with_peers and imported_peers(text)) or f"{doc}:{line}" in BLOCKS_NOT_RUN:
            continue  # run by test_python_examples_with_peers_run, or a fragment
        if text.startswith(">>> "):  # a doctest: its statements run, its outputs are shown
            text = "".join(row[4:] + "\n" for row in text.splitlines()
                           if row.startswith((">>> ", "... ")))
        make_named_inputs(text, tmp_path)
        try:
            exec(compile(text, f"{doc}:{line}", "exec"), scope)
        except Exception as exc:  # name the block that failed
            raise AssertionError(f"{doc}, the python block at line {line} failed: "
                                 f"{type(exc).__name__}: {exc}") from exc


def make_named_inputs(text: str, cwd: Path) -> None:
    """Write the files a Python block names in string literals, as shell examples get them."""
    runs = 0
    for name in re.findall(r"[\"']([\w.-]+\.(?:run|txt|tsv|qrels|jsonl|gz|test|trunc))[\"']", text):
        if (cwd / name).exists():
            continue
        if name in TREC_EVAL_FILES:
            folder = Path(os.environ.get("RANKLENS_CONFORMANCE_DIR", ROOT.parent / "shared"
                                         / "conformance")) / "trec_eval"
            if not (folder / name).is_file():
                pytest.skip(f"{name}: no trec_eval conformance folder at {folder}")
            shutil.copyfile(folder / name, cwd / name)
        else:
            runs += make_input(cwd / name, runs)


def test_examples_are_found() -> None:
    """The discovery sees the files' examples (a broken parser would run nothing)."""
    assert len(python_blocks("README.md")) >= 2
    assert len(shell_commands("README.md")) >= 4
    assert len(python_blocks("docs/tour.md")) >= 8
    assert len(shell_commands("docs/tour.md")) >= 10
    assert len(shell_commands("docs/cli.md")) >= 10
    assert len(python_blocks("docs/agreement.md")) >= 4
    assert len(shell_commands("docs/agreement.md")) >= 5


def pages_not_run(root: Path) -> set[str]:
    """The pages under ROOT with a code block that are neither in DOCS nor in PAGES_NOT_RUN."""
    pages = ["README.md", *(p.relative_to(root).as_posix() for p in (root / "docs").rglob("*.md"))]
    return {page for page in pages if blocks(page, root)} - set(DOCS) - set(PAGES_NOT_RUN)


def test_every_page_is_run(tmp_path: Path) -> None:
    """A new page with an example fails here until DOCS runs it or PAGES_NOT_RUN says why."""
    assert pages_not_run(ROOT) == set()
    assert not set(DOCS) & set(PAGES_NOT_RUN)
    assert all(blocks(page) for page in PAGES_NOT_RUN), "an exception for a page without blocks"
    assert all(int(key.rsplit(":", 1)[1]) in dict(python_blocks(key.rsplit(":", 1)[0]))
               for key in BLOCKS_NOT_RUN), "an exception for a block that moved or went"
    (tmp_path / "docs").mkdir()
    (tmp_path / "README.md").write_text("No example.\n", encoding="utf-8")
    (tmp_path / "docs" / "new.md").write_text("```python\nimport ranklens\n```\n", "utf-8")
    assert pages_not_run(tmp_path) == {"docs/new.md"}


#: docs/cli.md's ``--columns`` examples: the field each column name takes from a TREC run line.
TREC_FIELDS = {"qid": 0, "_": 1, "docid": 2, "rank": 3, "score": 4}


def test_columns_examples_read_as_the_trec_run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    """Each headerless layout, cut from the BM25 run, evaluates as the run itself."""
    monkeypatch.chdir(tmp_path)
    text = next(t for _, lang, t in blocks("docs/cli.md") if lang == "text" and "--columns" in t)
    rows = [line.split() for line in (DATA / RUN_SOURCES[0]).read_text("utf-8").splitlines()]
    shutil.copyfile(DATA / "demo.qrels", tmp_path / "qrels.txt")
    values = re.compile(r"\d\.\d{4}")  # the table's values; its run column names the file
    want = values.findall(run(["evaluate", "qrels.txt", str(DATA / RUN_SOURCES[0])], capsys).out)
    assert len(want) == 6, want  # the default measures' values
    commands = text.splitlines()
    for command in commands:
        words = shlex.split(command, comments=True)
        fields = [TREC_FIELDS[name] for name in words[words.index("--columns") + 1].split(",")]
        (tmp_path / words[3]).write_text(
            "".join(" ".join(row[i] for i in fields) + "\n" for row in rows), encoding="utf-8")
        out = run(words[1:], capsys)
        assert (out.code, values.findall(out.out)) == (0, want), f"docs/cli.md: {command}"
    assert len(commands) == 3

"""Run names from file paths: the one rule every surface (``evaluate``, ``compare``,
``report``, the command line, a Python list of paths) names runs by.

A path is named by its file name without the directory, without a compression suffix
(:data:`COMPRESSION`: ``.gz``, ``.bz2``, ``.xz``) and then without one format suffix
(:data:`FORMATS`: ``.run``, ``.trec``, ``.txt``, ``.tsv``, ``.csv``, ``.parquet``,
``.jsonl``, ...), both matched case-insensitively: ``runs/dl19.BM25.run.gz`` is
``dl19.BM25``, ``dense.tsv`` is ``dense``, ``bm25`` stays ``bm25``. A name the stripping
would leave empty (``.run``) keeps its suffixes.

Names are unique. When two paths would share a name, each of them is named by the shortest
trailing part of its path (directories joined with ``/``, the file name stripped as above)
that no other of the colliding paths ends with: ``a/bm25.run`` and ``b/bm25.run`` are
``a/bm25`` and ``b/bm25``; ``x/a/bm25.run``, ``y/a/bm25.run`` and ``b/bm25.run`` are
``x/a/bm25``, ``y/a/bm25`` and ``b/bm25``. A path no trailing part tells apart that way
(it differs from another only by its suffixes: ``bm25.run``, ``bm25.tsv``; or it ends
another: ``a/bm25.run``, ``bm25.run.gz``) takes the shortest trailing part with its suffixes
kept (``bm25.run``, ``bm25.tsv``; ``bm25.run.gz``); a path given twice gets its position
(``bm25#1``, ``bm25#3``), the rule for runs named by their TREC tag.
Standard input (``-``) is named ``-``.

Anything else (a mapping, a DataFrame, a :class:`~ranklens._ingest.tables.Run`) gets no name here
(``None``): it is named by its TREC tag when loaded.
"""

from __future__ import annotations

import os
import re
from collections.abc import Sequence
from typing import Any

__all__ = ["COMPRESSION", "FORMATS", "name_runs", "path_name", "positions"]

#: Compression suffixes dropped first (those the readers decompress).
COMPRESSION = (".gz", ".bz2", ".xz")
#: Format suffixes dropped next (at most one).
FORMATS = (".run", ".runs", ".trec", ".res", ".txt", ".tsv", ".csv", ".parquet", ".pq",
           ".jsonl", ".ndjson", ".json", ".arrow", ".feather")


def _strip(file_name: str) -> str:
    """``file_name`` without one compression suffix and then one format suffix."""
    name = file_name
    for suffixes in (COMPRESSION, FORMATS):
        ext = next((e for e in suffixes if name.lower().endswith(e)), "")
        name = name[: len(name) - len(ext)]
    return name or file_name


def _parts(path: str) -> list[str]:
    """The components of ``path``, ``/`` and the platform's separators alike, without
    empty and ``.`` ones."""
    separators = r"[/\\]" if os.sep == "\\" else "/"
    return [p for p in re.split(separators, path) if p not in ("", ".")]


def path_name(path: str | os.PathLike[str]) -> str:
    """The name of one run file: its file name without directory and suffixes."""
    text = os.fspath(path)
    parts = _parts(text)
    return _strip(parts[-1]) if parts else text


def _trail(parts: list[str], k: int, strip: bool) -> str:
    tail = parts[-k:]
    last = _strip(tail[-1]) if strip else tail[-1]
    return "/".join([*tail[:-1], last])


def _shortest(group: list[list[str]], strip: bool) -> list[str | None]:
    """For each path of ``group``, its shortest trailing part that no other path of the
    group ends with (None when it has none: it is a trailing part of another)."""
    out: list[str | None] = []
    for i, parts in enumerate(group):
        found = None
        for k in range(1, len(parts) + 1):
            mine = _trail(parts, k, strip)
            if all(_trail(other, k, strip) != mine
                   for j, other in enumerate(group) if j != i):
                found = mine
                break
        out.append(found)
    return out


def positions(names: Sequence[str], which: Sequence[bool] | None = None) -> list[str]:
    """``names`` with ``#position`` (1-based) added to each name shared by another, among
    the names ``which`` marks (default: all)."""
    marked = which if which is not None else [True] * len(names)
    return [f"{n}#{i}" if m and names.count(n) > 1 else n
            for i, (n, m) in enumerate(zip(names, marked, strict=True), 1)]


def name_runs(runs: Sequence[Any]) -> list[str | None]:
    """A unique name for each path among ``runs`` (a ``str`` or ``os.PathLike``), None for
    every other run; the rule is the module's."""
    paths = {i: os.fspath(r) for i, r in enumerate(runs) if isinstance(r, (str, os.PathLike))}
    names: dict[int, str] = {i: path_name(p) for i, p in paths.items()}
    for base in sorted(set(names.values())):
        group = [i for i in names if names[i] == base]
        if len(group) < 2:
            continue
        split = [_parts(paths[i]) or [paths[i]] for i in group]
        stripped = _shortest(split, strip=True)
        whole = _shortest(split, strip=False)
        for i, s, w in zip(group, stripped, whole, strict=True):
            names[i] = s if s is not None else w if w is not None else base
    # a path given twice, or a longer name equal to another's: the position decides
    taken = list(names.values())
    final: list[str | None] = [None] * len(runs)
    for i, name in names.items():
        final[i] = f"{name}#{i + 1}" if taken.count(name) > 1 else name
    return final

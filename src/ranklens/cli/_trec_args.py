"""``ranklens trec_eval``'s command line: trec_eval 10.0's options, parsed as it parses them.

Options are read as trec_eval's getopt reads them (``-M100``, ``-mP.5,10``, ``-l2``, options
after the files); the evaluation and its output are ``ranklens._surfaces.trec_eval``'s.
Deliberate differences from trec_eval are listed in docs/trec_eval.md.
"""

from __future__ import annotations

import getopt
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from importlib import resources
from typing import Any, cast

from .._base.c_numbers import c_atol
from .._surfaces.trec_eval import Judgments, TrecEvalError, trec_eval

__all__ = ["HELP", "USAGE", "Command", "TrecEvalError", "parse_args", "run_trec_eval"]

USAGE = (
    "Usage: ranklens trec_eval [-h] [-q] [-c] [-n] [-l <num>] [-m <measure>] [-M <num>]\n"
    "       [-N <num>] [-J] [-R <rel_format>] [-T <results_format>] [-Z <zscore_file>]\n"
    "       rel_info_file results_file\n"
)
#: What ``ranklens trec_eval -h`` prints: the usage, then every option.
HELP = USAGE + (resources.files("ranklens.cli") / "trec_eval_help.txt").read_text(
    encoding="utf-8")
_SHORT = "hvqm:cl:nD:JN:M:R:T:oZ:"
_LONG = ["help", "version", "query_eval_wanted", "measure=", "complete_rel_info_wanted",
         "level_for_rel=", "nosummary", "Debug_level=", "Judged_docs_only",
         "Number_docs_in_coll=", "Max_retrieved_per_topic=", "Rel_info_format=",
         "Results_format=", "Output_old_results_format", "Zscore="]


@dataclass
class Command:
    """A parsed command line: the files, what to print, and :func:`trec_eval`'s options."""

    qrels: str = ""
    run: str = ""
    per_query: bool = False  # -q
    summary: bool = True  # -n turns it off
    help: bool = False
    measures: list[str] = field(default_factory=list)
    judgments: str = "qrels"
    complete: bool = False
    depth: int | None = None
    judged_only: bool = False
    rel: int = 1
    collection_size: int = 0
    zscores: str | None = None


#: the field of :class:`Command` each flag sets, and how it reads its value
_SETS: dict[str, tuple[str, Callable[[str], Any]]] = {
    "h": ("help", lambda _: True), "q": ("per_query", lambda _: True),
    "c": ("complete", lambda _: True), "n": ("summary", lambda _: False),
    "J": ("judged_only", lambda _: True), "l": ("rel", c_atol),
    "N": ("collection_size", c_atol), "M": ("depth", lambda v: max(c_atol(v), 0)),
    "R": ("judgments", str), "Z": ("zscores", str)}


def parse_args(argv: Sequence[str]) -> Command:
    """trec_eval's getopt parsing: options may be glued (``-M100``) and follow the files."""
    try:
        opts, rest = getopt.gnu_getopt(list(argv), _SHORT, _LONG)
    except getopt.GetoptError as exc:
        raise TrecEvalError(f"{exc}\n{USAGE}", 1) from None
    c = Command()
    for flag, value in opts:
        short = flag.lstrip("-")[0]  # a long option's first letter is its short one's
        if short == "v":
            raise TrecEvalError("trec_eval version 10.0 (ranklens drop-in)", 0)
        if short == "m":
            c.measures.append(value)
        elif short == "T" and value != "trec_results":
            raise TrecEvalError(f"illegal retrieval results format '{value}' "
                                "(only trec_results is supported)", 2)
        elif short in _SETS:  # -D (debug level) and -o (obsolete) are accepted and ignored
            setattr(c, _SETS[short][0], _SETS[short][1](value))
    if c.help:
        return c
    if len(rest) != 2:
        raise TrecEvalError(f"expected two files (qrels and run), got {len(rest)}\n{USAGE}", 1)
    c.qrels, c.run = rest
    return c


def run_trec_eval(argv: Sequence[str]) -> str:
    """Everything ``trec_eval argv`` prints on standard output."""
    c = parse_args(argv)
    if c.help:
        return HELP
    report = trec_eval(
        c.qrels, c.run, c.measures or ["official"],
        judgments=cast(Judgments, c.judgments),  # checked by trec_eval, with its status
        complete=c.complete, depth=c.depth, judged_only=c.judged_only, rel=c.rel,
        collection_size=c.collection_size, zscores=c.zscores,
    )
    return report.text(per_query=c.per_query, summary=c.summary)

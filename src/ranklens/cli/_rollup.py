"""``ranklens rollup``: a segment run or segment judgments rolled up to documents."""

from __future__ import annotations

from typing import Any

import click

from .._base.errors import ParameterError
from ._options import output_option

__all__ = ["rollup_cmd"]

#: --format-in's names: how INPUT is read (auto: by its suffix and first line)
FORMATS_IN = ("auto", "trec-run", "trec-qrels", "rag-judgments", "answers", "requests")


def read_input(path: str, format_in: str) -> Any:
    """``path`` as a Run or Qrels, read as ``format_in`` names (``auto``: a ``.jsonl`` file
    by its first record, a text file by its first line's field count: 4 judgments, else a
    run)."""
    from .._ingest.io._load import load_qrels, load_run
    from .._ingest.io.rag import read_answers, read_rag_judgments, read_requests
    from .._ingest.io.trec.files import read_bytes

    if format_in == "auto" and not path.endswith((".jsonl", ".jsonl.gz")):
        first = next((x for x in read_bytes(path).splitlines() if x.strip()), b"")
        format_in = "trec-qrels" if len(first.split()) == 4 else "trec-run"
    # a run (trec-run, or auto's .jsonl: answers and requests told apart by content) else
    readers: dict[str, Any] = {"trec-qrels": load_qrels, "requests": read_requests,
                               "rag-judgments": lambda p: read_rag_judgments(p).qrels,
                               "answers": lambda p: read_answers(p).run}
    return readers.get(format_in, load_run)(path)


@click.command("rollup")
@click.argument("input_path", metavar="INPUT")
@click.option("--by", default=None, metavar="TEXT",
              help="A segment's document is its id before the first TEXT.  [default: #]")
@click.option("--by-regex", default=None, metavar="PATTERN",
              help="A segment's document is PATTERN's first group (or whole match).")
@click.option("--by-map", default=None, metavar="FILE",
              help="A segment's documents are listed in FILE ('segment document' lines).")
@click.option("--how", type=click.Choice(["maxp", "first", "sum", "max", "min"]), default=None,
              help="A run: maxp (the best segment's score), first (the first segment's in "
                   "INPUT's order) or sum; judgments: max or min grade. [default: maxp, max]")
@click.option("--format-in", type=click.Choice(FORMATS_IN), default="auto", show_default=True,
              help="How INPUT is read: auto (a .jsonl file by its first record, else 4 "
                   "fields make judgments, 6 a run), or named. rag-judgments is TREC RAG "
                   "2025's six-column judgment file.")
@output_option(metavar="FILE",
               help="Write the TREC run or qrels here (default, or '-': standard output).")
def rollup_cmd(input_path: str, by: str | None, by_regex: str | None, by_map: str | None,
               how: str | None, format_in: str, output: str | None) -> int:
    """Roll a segment run or segment judgments (INPUT) up to documents.

    \b
    ranklens rollup segments.run -o documents.run
    ranklens rollup segments.qrels --how max -o documents.qrels
    ranklens rollup chunks.run --by-map chunk-to-doc.txt --how sum
    ranklens rollup judged.txt --format-in rag-judgments -o documents.qrels
    """
    import re
    from pathlib import Path

    from .._base.outputs import refuse_overwriting_inputs
    from .._ingest.io.rag import rollup
    from .._ingest.tables import Run
    from .._surfaces.fusion.write import trec_run_text
    from ._evaluate import write_text

    given = [(n, v) for n, v in (("--by", by), ("--by-regex", by_regex), ("--by-map", by_map))
             if v is not None]
    if len(given) > 1:
        raise click.UsageError(f"give one of --by, --by-regex and --by-map; got "
                               f"{' and '.join(n for n, _ in given)}")
    output = None if output == "-" else output
    refuse_overwriting_inputs(output, [input_path, *([by_map] if by_map else [])])
    try:
        key: Any = re.compile(by_regex) if by_regex is not None else (
            Path(by_map) if by_map is not None else (by if by is not None else "#"))
    except re.error as exc:
        raise ParameterError(f"the '--by-regex' option must be a regular expression; got "
                             f"{by_regex!r} ({exc})") from None
    table = read_input(input_path, format_in)
    is_run = isinstance(table, Run)
    if how is not None and (how in ("max", "min")) == is_run:
        raise click.UsageError(f"--how {how} is for {'runs' if not is_run else 'judgments'}; "
                               f"INPUT is {'a run' if is_run else 'judgments'}")
    rolled = rollup(table, key, how)
    if isinstance(rolled, Run):
        text = trec_run_text(rolled)
    else:
        frame = rolled.frame
        text = "".join(f"{q} 0 {d} {g:g}\n" for q, d, g in frame.iter_rows())
    write_text(output, text)
    return 0

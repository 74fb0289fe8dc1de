"""Benchmark driver for DuckDB: P@10, nDCG@10 and AP in SQL, as a data engineer would write
them, on the same files the other tools read (TREC text or Parquet).

    python benchmarks/tool_duckdb.py files QRELS RUN OUT [--memory-limit 2GB] [--threads N]

The whole process is the measurement (as ``_driver.py``'s ``files`` mode): DuckDB reads both
files, ranks, joins and averages, and the means go to OUT (JSON, keyed by the ranklens
measure names). Left alone DuckDB uses every core and up to 80% of the RAM, spilling to a
temporary folder beyond that; ``--memory-limit`` and ``--threads`` set those.

The SQL follows trec_eval's conventions, so its means equal ranklens's defaults:

- each query's documents ranked by score descending, tied scores by doc id descending
  (byte order, as trec_eval's ``strcmp``), ids read as text, scores as doubles;
- relevant means a judged grade >= 1; P@10 counts them in the top 10 over a fixed 10;
- nDCG@10: gain the judged grade (0 unjudged), discount log2(rank + 1), the ideal from the
  query's judged grades > 0, best first, cut at 10;
- AP: precision at each relevant document retrieved, summed, over all the query's judged
  relevant documents (retrieved or not);
- the means are over the run's queries that have judgments (trec_eval without ``-c``); a
  judged query without a relevant document scores 0 on all three.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path
from typing import Any

#: ranklens's names of the three measures the SQL computes, as its output columns
SQL_MEASURES = ("P@10", "nDCG@10", "AP")


def source(path: str | Path, kind: str) -> str:
    """The DuckDB table expression reading ``path``: Parquet (ranklens's column names:
    query_id, doc_id, relevance / score) or TREC text (qrels ``qid 0 docid rel``, runs
    ``qid Q0 docid rank score tag``, one space or tab between fields)."""
    path = Path(path)
    quoted = str(path).replace("'", "''")
    if path.suffix == ".parquet" or path.is_dir():
        target = f"{quoted}/*.parquet" if path.is_dir() else quoted
        value = "relevance" if kind == "qrels" else "score"
        return (f"(SELECT CAST(query_id AS VARCHAR) AS query_id, CAST(doc_id AS VARCHAR) AS "
                f"doc_id, CAST({value} AS DOUBLE) AS {value} FROM read_parquet('{target}'))")
    with open(path, "rb") as f:
        first = f.readline()
    delim = "\\t" if b"\t" in first else " "
    if kind == "qrels":
        columns = ("{'query_id': 'VARCHAR', 'iteration': 'VARCHAR', 'doc_id': 'VARCHAR', "
                   "'relevance': 'DOUBLE'}")
        keep = "query_id, doc_id, relevance"
    else:
        columns = ("{'query_id': 'VARCHAR', 'q0': 'VARCHAR', 'doc_id': 'VARCHAR', "
                   "'rank': 'VARCHAR', 'score': 'DOUBLE', 'tag': 'VARCHAR'}")
        keep = "query_id, doc_id, score"
    return (f"(SELECT {keep} FROM read_csv('{quoted}', delim = '{delim}', header = false, "
            f"columns = {columns}))")


def per_query_sql(qrels: str, run: str) -> str:
    """One row per evaluated query: query_id and the three measures (``qrels`` and ``run``
    are table expressions, e.g. from :func:`source`)."""
    return f"""
WITH qrels AS (SELECT * FROM {qrels}),
run AS (SELECT * FROM {run}),
judged AS (
    SELECT query_id, count(*) FILTER (WHERE relevance >= 1) AS n_relevant
    FROM qrels GROUP BY query_id
),
ideal AS (
    SELECT query_id, sum(relevance / log2(position + 1)) AS idcg
    FROM (SELECT query_id, relevance,
                 row_number() OVER (PARTITION BY query_id ORDER BY relevance DESC) AS position
          FROM qrels WHERE relevance > 0)
    WHERE position <= 10
    GROUP BY query_id
),
ranked AS (
    SELECT query_id, doc_id,
           row_number() OVER (PARTITION BY query_id ORDER BY score DESC, doc_id DESC) AS rank
    FROM run
    WHERE query_id IN (SELECT query_id FROM judged)
),
hits AS (
    SELECT r.query_id, r.rank, q.relevance,
           count(*) FILTER (WHERE q.relevance >= 1)
               OVER (PARTITION BY r.query_id ORDER BY r.rank) AS relevant_so_far
    FROM ranked r JOIN qrels q ON q.query_id = r.query_id AND q.doc_id = r.doc_id
    WHERE q.relevance > 0
),
gained AS (
    SELECT query_id,
           count(*) FILTER (WHERE relevance >= 1 AND rank <= 10) / 10 AS p10,
           sum(relevance / log2(rank + 1)) FILTER (WHERE rank <= 10) AS dcg,
           sum(relevant_so_far / rank) FILTER (WHERE relevance >= 1) AS precision_sum
    FROM hits GROUP BY query_id
)
SELECT e.query_id,
       coalesce(g.p10, 0) AS "P@10",
       coalesce(g.dcg / i.idcg, 0) AS "nDCG@10",
       CASE WHEN j.n_relevant > 0 THEN coalesce(g.precision_sum, 0) / j.n_relevant
            ELSE 0 END AS "AP"
FROM (SELECT DISTINCT query_id FROM ranked) e
JOIN judged j USING (query_id)
LEFT JOIN ideal i USING (query_id)
LEFT JOIN gained g USING (query_id)
"""


def means_sql(qrels: str, run: str) -> str:
    """The means of the three measures over the evaluated queries (one row)."""
    cols = ", ".join(f'avg("{m}") AS "{m}"' for m in SQL_MEASURES)
    return f"SELECT {cols} FROM ({per_query_sql(qrels, run)})"


def evaluate(con: Any, qrels: str | Path, run: str | Path) -> dict[str, float]:
    """The means, on a DuckDB connection ``con``, reading the two files."""
    row = con.execute(means_sql(source(qrels, "qrels"), source(run, "run"))).fetchone()
    return {m: float(v) for m, v in zip(SQL_MEASURES, row, strict=True)}


def per_query(con: Any, qrels: str | Path, run: str | Path) -> dict[str, dict[str, float]]:
    """``{query_id: {measure: value}}`` (for the tests)."""
    rows = con.execute(
        per_query_sql(source(qrels, "qrels"), source(run, "run"))).fetchall()
    return {q: dict(zip(SQL_MEASURES, map(float, v), strict=True)) for q, *v in rows}


def main() -> None:
    import duckdb

    ap = argparse.ArgumentParser()
    ap.add_argument("mode", choices=("files",))
    ap.add_argument("qrels")
    ap.add_argument("run")
    ap.add_argument("out")
    ap.add_argument("--memory-limit", help="DuckDB's memory_limit, e.g. 2GB")
    ap.add_argument("--threads", type=int, help="DuckDB's threads")
    a = ap.parse_args()
    con = duckdb.connect()
    if a.memory_limit:
        con.execute(f"SET memory_limit = '{a.memory_limit}'")
    if a.threads:
        con.execute(f"SET threads = {a.threads}")
    t0 = time.perf_counter()
    values = evaluate(con, a.qrels, a.run)
    Path(a.out).write_text(json.dumps({"values": values,
                                       "seconds": [time.perf_counter() - t0],
                                       "duckdb": duckdb.__version__}))


if __name__ == "__main__":
    main()

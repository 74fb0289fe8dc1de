"""Every size threshold that chooses between two ways of doing the same work.

Each constant changes how fast or in how much memory an evaluation runs, never its
values. Each says in one line why it exists and names the benchmark that sets it; what that
benchmark measured is in docs/benchmarks.md ("Tuning constants"). The engine itself is
chosen in one place (:func:`ranklens._surfaces.engine.choose_engine`); the constants it and
the engines read are here.
"""

from __future__ import annotations

__all__ = [
    "ACCUMULATOR_ROWS", "BUCKETS_PER_CORE", "BYTES_PER_BUCKET", "BYTES_PER_ROW",
    "CACHED_FUSION_ROWS", "CHUNK_READ_BYTES", "CODED_ROWS", "CODED_SHARE",
    "DEFAULT_BUCKETS", "DICT_ROWS", "HOPELESS_SHARE", "MAX_DEFAULT_BUCKETS",
    "PROCESS_BYTES", "SMALL_BYTES", "SUBSETS", "SUBSET_ROWS", "SUBSET_SHARE",
    "THREADED_ROWS", "TIED_ROWS_FOR_KEYS", "WORKER_SHARE",
]

# -- reading ---------------------------------------------------------------------------

#: files up to this size are read by the small reader: polars' fixed cost of a scan is
#: most of a small file's time (benchmarks/phases.py, fresh process, files cut from trecdl)
SMALL_BYTES = 1 << 17

#: a qrels file's doc ids are held as codes only while the distinct ones are at most this
#: share of the judgments: past it the strings take less memory (benchmarks/run.py
#: --preset robust04 --workload memory, and x13)
CODED_SHARE = 0.5

#: the judgments read before :data:`CODED_SHARE` is first checked (the first block's
#: documents are all new) (benchmarks/run.py --targets, Robust x13)
CODED_ROWS = 1 << 16

#: a first block's share of distinct doc ids past which codes are given up at once (a
#: recommender's qrels: each judgment of its own document) (benchmarks/run.py --targets,
#: recsys)
HOPELESS_SHARE = 0.9

# -- the data model --------------------------------------------------------------------

#: tied rows from which their doc ids are sorted as integer keys: below it the keys' fixed
#: cost outweighs what they save on the string sort (benchmarks/run.py --targets, msmarco)
TIED_ROWS_FOR_KEYS = 20_000

#: the most rows of the judged queries that nested dicts are aligned with without tables:
#: the tables' per-row costs are lower, the dict path's fixed costs are
#: (benchmarks/inprocess.py)
DICT_ROWS = 250_000

# -- the in-memory engine --------------------------------------------------------------

#: the fewest ranked rows whose measures are computed on several threads: below it the
#: pool's costs outweigh what a second core saves (benchmarks/run.py --workload jobs)
THREADED_ROWS = 20_000_000

#: the fewest ranked rows computed a query subset at a time: below it the subsets' own
#: costs outweigh the memory spared (benchmarks/run.py --targets, Robust x13)
SUBSET_ROWS = 1 << 19

#: judgments at least this share of the ranked rows are computed by subsets (deep pools):
#: shallow judgments would only lose the reader's hints to the whole run's first index
#: (benchmarks/run.py --targets, Robust x13 against msmarco)
SUBSET_SHARE = 0.25

#: the query subsets of a large evaluation: more hold less at the peak, up to the
#: allocators' own leftovers (benchmarks/run.py --targets, Robust x13 peak RSS)
SUBSETS = 16

#: rows per block of whole queries the accumulator hands the engine: the alignment's
#: working memory is in proportion to a block, not to the epoch
#: (benchmarks/accumulator.py)
ACCUMULATOR_ROWS = 1 << 21

# -- chunks, workers and buckets -------------------------------------------------------

#: peak bytes of the in-memory engine per input row, the interpreter included, rounded
#: up: what decides whether an evaluation is chunked (benchmarks/run.py --workload memory)
BYTES_PER_ROW = 64

#: the share of the memory limit the chunks' workers may hold together; the rest is the
#: main process's (benchmarks/run.py --workload chunks)
WORKER_SHARE = 0.5

#: resident memory of a worker process before any chunk (benchmarks/run.py --workload
#: chunks)
PROCESS_BYTES = 100 << 20

#: bytes of a file read and checked at a time by the chunked engine: larger blocks cost
#: more CPU a line (benchmarks/run.py --preset msmarco --workload chunks)
CHUNK_READ_BYTES = 1 << 24

#: Spark buckets when the session's parallelism is unknown (Spark Connect)
#: (benchmarks/spark.py)
DEFAULT_BUCKETS = 64

#: estimated bytes of a Spark run per bucket by default, beyond the per-core count
#: (benchmarks/spark.py, the recsys set at scale 10)
BYTES_PER_BUCKET = 40 << 20

#: the most buckets the default gives: an estimate can be far off, ``buckets=`` is exact
MAX_DEFAULT_BUCKETS = 4096

#: Spark buckets per core of the session by default (benchmarks/spark.py)
BUCKETS_PER_CORE = 4

#: candidate rows times folds squared above which supervised fusion makes its slices again
#: for each grid point rather than keep them: memory over speed (benchmarks/fusion.py)
CACHED_FUSION_ROWS = 50_000_000

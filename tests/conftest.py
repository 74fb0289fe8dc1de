"""Shared fixtures (the trec_eval conformance folder, the worked examples in ../shared/spec) and
the test tiers: each test is marked by its folder, and ``slow`` where it is (tests/README.md)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

#: The peers the differential tests compare with. A plain checkout skips the tests of a peer
#: that is not installed; CI (RANKLENS_REQUIRE_PEERS=1, set by .ci/run) fails instead, so a
#: differential test can never pass by being skipped.
PEERS = ("pytrec_eval", "ranx", "ir_measures", "torch", "torchmetrics", "sklearn", "pandas",
         "pyarrow",
         "pyndeval",
         "cwl",  # cwl-eval, behind ir_measures' cwl_eval provider
         "rbo",
         "duckdb")


def missing_peers() -> list[str]:
    import importlib.util

    return [name for name in PEERS if importlib.util.find_spec(name) is None]


def pytest_sessionstart(session: pytest.Session) -> None:
    if os.environ.get("RANKLENS_REQUIRE_PEERS") and missing_peers():
        raise pytest.UsageError(
            "RANKLENS_REQUIRE_PEERS is set but these peers are not installed: "
            + ", ".join(missing_peers())
        )


#: The folders under tests/, one per kind of test; each test gets its folder's marker.
KINDS = ("unit", "conformance", "peers", "cli", "fuzz", "browser", "spark", "chunks")

#: Folders whose every test is also ``slow`` (a real Chromium, a real Spark).
SLOW_KINDS = frozenset({"browser", "spark"})

#: Single slow files and tests elsewhere, by path under tests/: ``None`` marks the whole file,
#: otherwise the test functions (every parametrization of each). Measured with --durations on
#: a 2-core machine: each one took a second or more; ``python -m pytest -m "not slow"`` leaves
#: them out (and the folders above), the default run keeps everything.
SLOW: dict[str, frozenset[str] | None] = {
    # whole benchmark scripts in subprocesses, every peer on each workload
    "peers/test_benchmark_smoke.py": None,
    "peers/test_benchmark_workloads.py": None,
    "peers/test_beyond_benchmark.py": None,
    # ragas and llama_index in their own venv's interpreter (tests/peers/test_rag_oracles.py)
    "peers/test_rag_oracles.py": None,
    "peers/test_duckdb_sql.py": frozenset({"test_sql_workload_on_parquet_runs_and_agrees"}),
    "cli/test_trec_eval_complete_bench.py": None,
    # torch imported, and a process pool started from a script (docs/training.md)
    "cli/test_training_doc.py": frozenset({"test_the_torch_validation_loop",
                                           "test_the_process_pool"}),
    # hundreds of chunks of the real runs; hypothesis over files
    "chunks/test_chunked.py": frozenset({"test_real_runs_chunked_equal_in_memory",
                                         "test_any_data_any_limit"}),
    "cli/test_bad_inputs_cli.py": frozenset({"test_ctrl_c_while_reading_a_pipe_stops_at_once"}),
    # a Ctrl-C at ten moments of start-up, each in a fresh interpreter
    "cli/test_interrupt_start_up.py": None,
    "cli/test_compare_cli.py": frozenset({"test_same_seed_gives_byte_identical_output"}),
    # the ranx block of docs/tour.md: ranx compiles its numba kernels on first use
    "cli/test_doc_examples.py": frozenset({"test_python_examples_with_peers_run"}),
    "conformance/test_realdata_trec_eval.py": frozenset({"test_output_hashes_as_trec_eval_10"}),
    "conformance/test_trec_eval_api.py": frozenset({"test_qrels_from_stdin_with_complete"}),
    "conformance/test_trec_eval_conformance.py": frozenset({"test_byte_identical"}),
    "peers/test_arrays.py": frozenset({"test_matrix_flat_ranked_and_id_lists_agree",
                                       "test_torchmetrics_preset"}),
    "peers/test_beyond_peers.py": frozenset({
        "test_microsoft_recommenders_reproduced", "test_rectools_reproduced",
        "test_recbole_and_elliot_reproduced", "test_rectools_itself",
        "test_elliot_reproduced", "test_elliot_popularity_fairness_reproduced"}),
    "unit/test_beyond.py": frozenset({"test_any_split_of_the_queries_gives_the_whole"}),
    "peers/test_compare_scipy.py": frozenset({
        "test_corrections_equal_statsmodels",
        "test_wilcoxon_on_tied_data_equals_scipy_on_exact_ties"}),
    "peers/test_differential_pytrec.py": frozenset({"test_matches_pytrec_eval"}),
    # the first ranx call in a process compiles ranx's numba kernels: several seconds
    "peers/test_peer_objects.py": frozenset({
        "test_ranx_objects_give_the_files_values",
        "test_a_ranx_run_keeps_its_name_and_counts_as_one_run",
        "test_compare_and_report_accept_peer_objects",
        "test_peer_libraries_are_not_imported_by_ranklens", "test_readme_example_runs"}),
    # ranx in a worker process, every method and normalisation; compiled for the tied runs
    "peers/test_fusion_ranx.py": frozenset({
        "test_distinct_scores_match_ranx", "test_ranx_convention_keeps_ranxs_order_of_tied_scores",
        "test_condorcet_matches_ranx_without_cycles"}),
    # ranx's supervised fusion as plain Python in a subprocess: 1-10 s per method
    "peers/test_fusion_supervised_ranx.py": None,
    "peers/test_differential_ranx.py": frozenset({
        "test_ranx_names_match_ranx",
        "test_ranx_convention_keeps_ranxs_order_of_ties_up_to_15_items"}),
    "peers/test_sklearn_ties.py": frozenset({
        "test_ap_equals_average_precision_score", "test_auc_equals_one_minus_label_ranking_loss",
        "test_mean_ap_equals_lrap", "test_pessimistic_rank_is_sklearns_rank"}),
    "unit/test_arrays_counts.py": frozenset({
        "test_counts_equal_rows_bit_for_bit",
        "test_full_ideal_rankings_keep_a_hundred_million_as_a_count"}),
    "unit/test_compute.py": frozenset({"test_partitions_concatenate_to_the_whole"}),
    "unit/test_conventions.py": frozenset({"test_ranx_preset_matches_ranx"}),
    "unit/test_diversity.py": frozenset({
        "test_equals_a_transcription_of_ndeval",
        "test_row_order_subtopic_names_and_query_subsets_change_nothing",
        "test_tie_averaging_equals_the_mean_over_tied_orders"}),
    "unit/test_errors.py": frozenset({
        "test_any_bytes_load_or_raise_input_error",
        "test_any_mapping_evaluates_or_raises_input_error",
        "test_validation_survives_python_O"}),
    "unit/test_invariance.py": frozenset({
        "test_monotone_score_transforms_do_not_matter",
        "test_presorted_runs_rank_like_shuffled_ones",
        "test_query_and_doc_order_do_not_matter"}),
    "unit/test_io.py": frozenset({"test_files_and_dicts_evaluate_alike"}),
    "unit/test_measures_trec_extra.py": frozenset({"test_kernels_match_scalar_loops"}),
    "unit/test_names.py": frozenset({"test_every_measure_with_any_parameters_computes"}),
    # reruns its own file in a Python with pyarrow hidden
    "unit/test_pandas_dtypes.py": frozenset({"test_every_dtype_without_pyarrow"}),
    "unit/test_registry.py": frozenset({
        "test_closed_forms_equal_the_enumeration",
        "test_retrieved_only_measures_ignore_unretrieved_judgments"}),
    "unit/test_report.py": frozenset({"test_size_for_seven_thousand_queries"}),
    "unit/test_run_reader.py": frozenset({"test_grouped_runs_rank_like_the_sorting_path"}),
    "unit/test_spark_buckets.py": frozenset({"test_buckets_give_the_local_values"}),
    "unit/test_spark_beyond_buckets.py": frozenset({"test_buckets_give_the_local_values"}),
    "unit/test_ties.py": frozenset({"test_average_equals_mean_over_all_tied_orders"}),
    # runs mypy on a snippet
    "unit/test_typing.py": None,
}


@pytest.hookimpl(tryfirst=True)  # before -m deselects by marker
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    tests = Path(__file__).resolve().parent
    for item in items:
        try:
            where = item.path.resolve().relative_to(tests)
        except ValueError:  # a test file outside tests/
            continue
        kind = where.parts[0] if len(where.parts) > 1 else None
        if kind not in KINDS:
            continue
        item.add_marker(kind)
        slow = SLOW.get(where.as_posix(), frozenset())
        name = getattr(item, "originalname", item.name)
        if kind in SLOW_KINDS or slow is None or name in slow:
            item.add_marker("slow")


def conformance_root() -> Path:
    return Path(os.environ.get("RANKLENS_CONFORMANCE_DIR", ROOT.parent / "shared" / "conformance"))


def spec_root() -> Path:
    return conformance_root().parent / "spec"


@pytest.fixture(scope="session")
def trec_dir() -> Path:
    """``<conformance>/trec_eval``; CI fails without it, a plain checkout skips."""
    path = conformance_root() / "trec_eval"
    if not path.is_dir():
        if os.environ.get("CI"):
            pytest.fail(f"conformance data not found at {path} (set RANKLENS_CONFORMANCE_DIR)")
        pytest.skip(f"trec_eval conformance data not found at {path} "
                    "(set RANKLENS_CONFORMANCE_DIR)")
    return path


@pytest.fixture(scope="session")
def spec_dir() -> Path:
    path = spec_root()
    if not path.is_dir():
        if os.environ.get("CI"):
            pytest.fail(f"shared spec folder not found at {path}")
        pytest.skip(f"shared spec folder not found at {path}")
    return path


@pytest.fixture()
def no_floor(monkeypatch: pytest.MonkeyPatch) -> None:
    """The interpreters cost nothing: a limit of a few kilobytes is the data's alone, so
    tests force chunking on small files (below the floor a real limit is refused)."""
    from ranklens._surfaces.chunked import size

    monkeypatch.setattr(size, "PROCESS_BYTES", 0)
    monkeypatch.setattr(size, "MIN_CHUNK", 0)

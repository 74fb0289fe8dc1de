"""ranklens.spark.RankingEvaluator on a real local Spark: its values are the local engine's on
the same data (both input forms), MLlib's on MLlib's arrays, and CrossValidator /
TrainValidationSplit with it select the model a loop over the local engine selects."""

from __future__ import annotations

import math
import random
import warnings
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from test_spark import spark  # noqa: F401  (the module's SparkSession fixture)

import ranklens
from ranklens import MeasureError, ParameterError, RanklensWarning

pytest.importorskip("pyspark")


def _evaluator(*args: Any, **kwargs: Any) -> Any:
    import ranklens.spark

    return ranklens.spark.RankingEvaluator(*args, **kwargs)


def _quiet_local(qrels: dict, run: dict, measure: str, **options: Any) -> float:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RanklensWarning)
        return ranklens.evaluate(qrels, run, [measure], **options)[measure]


def _quiet(evaluator: Any, frame: Any) -> float:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RanklensWarning)
        return float(evaluator.evaluate(frame))


# -- the array form (MLlib's) ---------------------------------------------------------------

def _array_rows(seed: int, n: int = 30) -> list[tuple[list[int], list[int]]]:
    """MLlib's rows: predicted item ids in rank order, relevant item ids; a few rows with
    no prediction and a few with no relevant item."""
    rng = random.Random(seed)
    rows = []
    for i in range(n):
        predicted = [] if i % 11 == 5 else rng.sample(range(40), rng.randint(1, 15))
        relevant = [] if i % 13 == 7 else rng.sample(range(40), rng.randint(1, 8))
        rows.append((predicted, relevant))
    return rows


def _array_dicts(rows: list[tuple[list[Any], list[Any]]]) -> tuple[dict, dict]:
    """The rows as the local engine's dicts: one query per row, each relevant item judged
    1, each predicted item scored by its position (best first)."""
    qrels = {f"r{i}": {str(d): 1 for d in relevant}
             for i, (_, relevant) in enumerate(rows) if relevant}
    run = {f"r{i}": {str(d): -float(pos) for pos, d in enumerate(predicted)}
           for i, (predicted, _) in enumerate(rows) if predicted}
    return qrels, run


@pytest.mark.parametrize("measure,options", [
    ("nDCG@10", {}), ("AP", {}), ("P@5", {}), ("RR", {"empty": "skip"}),
    ("AP@10", {"convention": "kaggle"}), ("R@10", {"missing": "skip"}),
])
def test_array_form_equals_the_local_engine(spark: Any, measure: str,  # noqa: F811
                                            options: dict) -> None:
    rows = _array_rows(1)
    frame = spark.createDataFrame(rows, "prediction array<int>, label array<long>")
    got = _quiet(_evaluator(measure, **options), frame)
    want = _quiet_local(*_array_dicts(rows), measure, **options)
    assert got == pytest.approx(want, rel=1e-12, abs=1e-15)


def test_array_form_reads_string_and_double_ids(spark: Any) -> None:  # noqa: F811
    rows = [(["a", "b", "c"], ["c", "x"]), (["b"], ["b"]), (["d", "a"], ["e"])]
    frame = spark.createDataFrame(rows, "prediction array<string>, label array<string>")
    want = _quiet_local(*_array_dicts(rows), "AP")
    assert _quiet(_evaluator("AP"), frame) == pytest.approx(want, rel=1e-12)
    # closed form: AP = (1/3 / 2 + 1 + 0) / 3
    assert want == pytest.approx((1 / 6 + 1) / 3, rel=1e-15)
    doubles = spark.createDataFrame([([1.0, 2.0], [2]), ([3.0], [3])],
                                    "prediction array<double>, label array<int>")
    assert _quiet(_evaluator("RR"), doubles) == pytest.approx((1 / 2 + 1) / 2, rel=1e-15)


@pytest.mark.parametrize("measure,options", [("nDCG@5", {}), ("P@3", {"rel": 2})])
def test_array_form_with_grades_equals_the_local_engine(spark: Any, measure: str,  # noqa: F811
                                                        options: dict) -> None:
    """relevanceCol: MLlib RankingMetrics' third array, each label item's grade."""
    rng = random.Random(8)
    rows = [(p, r, [rng.randint(0, 3) for _ in r]) for p, r in _array_rows(8)]
    frame = spark.createDataFrame(
        rows, "prediction array<int>, label array<int>, grades array<int>")
    got = _quiet(_evaluator(measure, relevanceCol="grades", **options), frame)
    qrels = {f"r{i}": {str(d): g for d, g in zip(relevant, grades, strict=True)}
             for i, (_, relevant, grades) in enumerate(rows) if relevant}
    run = _array_dicts([(p, r) for p, r, _ in rows])[1]
    assert got == pytest.approx(_quiet_local(qrels, run, measure, **options), rel=1e-12,
                                abs=1e-15)
    shorter = spark.createDataFrame([([1, 2], [1, 2], [3])],
                                    "prediction array<int>, label array<int>, g array<int>")
    with pytest.raises(ranklens.InputError, match="missing value in column 'relevance'"):
        _evaluator(measure, relevanceCol="g").evaluate(shorter)
    with pytest.raises(ParameterError, match="relevanceCol column 'grades' must hold arrays "
                                             "of numbers"):
        _evaluator(measure, relevanceCol="grades").evaluate(
            frame.withColumn("grades", frame["grades"].cast("array<string>")))


@pytest.mark.parametrize("ours,metric,k", [
    ("AP", "meanAveragePrecision", 10), ("AP(denom=min)@4", "meanAveragePrecisionAtK", 4),
    ("P@3", "precisionAtK", 3), ("nDCG@5", "ndcgAtK", 5), ("R@6", "recallAtK", 6),
])
def test_array_form_equals_mllib_on_its_own_rows(spark: Any, ours: str,  # noqa: F811
                                                 metric: str, k: int) -> None:
    """MLlib's RankingEvaluator is the peer: the same mean on rows with a prediction and a
    relevant item (on the others the two differ, as documented)."""
    from pyspark.ml.evaluation import RankingEvaluator as MLlib

    rows = [([float(x) for x in p], [float(x) for x in r])
            for p, r in _array_rows(2, n=40) if p and r]
    frame = spark.createDataFrame(rows, "prediction array<double>, label array<double>")
    theirs = MLlib(metricName=metric, k=k).evaluate(frame)
    assert _quiet(_evaluator(ours), frame) == pytest.approx(theirs, rel=1e-12)


# -- the long form --------------------------------------------------------------------------

def _long_rows(seed: int, queries: int = 12) -> list[tuple]:
    """(query, doc, score or None, grade or None): judged candidates, unjudged results and
    judgments the ranking did not score."""
    rng = random.Random(seed)
    rows = []
    for q in range(queries):
        for d in rng.sample(range(20), rng.randint(2, 10)):
            score = None if rng.random() < 0.2 else rng.randint(0, 8) / 4
            grade = None if rng.random() < 0.3 else rng.randint(0, 2)
            if score is None and grade is None:
                grade = 1
            rows.append((f"q{q}", f"d{d}", score, grade))
    return rows


def _long_dicts(rows: list[tuple]) -> tuple[dict, dict]:
    qrels: dict = {}
    run: dict = {}
    for q, d, score, grade in rows:
        if grade is not None:
            qrels.setdefault(q, {})[d] = grade
        if score is not None:
            run.setdefault(q, {})[d] = score
    return qrels, run


@pytest.mark.parametrize("measure,options", [
    ("nDCG@5", {}), ("AP", {"rel": 2}), ("nDCG@5", {"convention": "sklearn"}),
    ("FallOut@5", {}),
])
def test_long_form_equals_the_local_engine(spark: Any, measure: str,  # noqa: F811
                                           options: dict) -> None:
    rows = _long_rows(3)
    frame = spark.createDataFrame(rows, "q string, d string, s double, g int")
    evaluator = _evaluator(measure, predictionCol="s", labelCol="g", queryCol="q",
                           docCol="d", buckets=3, **options)
    want = _quiet_local(*_long_dicts(rows), measure, **options)
    assert _quiet(evaluator, frame) == pytest.approx(want, rel=1e-12, abs=1e-15)


# -- model selection ------------------------------------------------------------------------

def _scorer_classes() -> tuple[type, type]:
    """A tiny estimator family: the model scores each candidate ``f1 + alpha * f2`` (long
    form), or ranks each row's candidates by it (array form: ``candidates`` an array of
    ``(doc, f1, f2)`` structs); ``alpha`` is the parameter tuned. Fitting learns nothing,
    so the models differ by ``alpha`` alone."""
    from pyspark.ml import Estimator, Model
    from pyspark.ml.param import Param, Params, TypeConverters
    from pyspark.sql import functions as F

    class _Alpha(Params):
        alpha = Param(Params._dummy(), "alpha", "weight of f2",
                      typeConverter=TypeConverters.toFloat)
        arrays = Param(Params._dummy(), "arrays", "rank the candidates arrays",
                       typeConverter=TypeConverters.toBoolean)

        def __init__(self) -> None:
            super().__init__()
            self._setDefault(alpha=0.0, arrays=False)

    class Scorer(Model, _Alpha):
        def _transform(self, dataset: Any) -> Any:
            alpha = self.getOrDefault(self.alpha)
            if not self.getOrDefault(self.arrays):
                return dataset.withColumn("prediction", F.col("f1") + alpha * F.col("f2"))

            def score(x: Any) -> Any:
                return x["f1"] + alpha * x["f2"]

            ranked = F.array_sort("candidates", lambda a, b: F.when(
                score(a) > score(b), -1).when(score(a) < score(b), 1).otherwise(0))
            return dataset.withColumn("prediction", F.transform(ranked, lambda x: x["doc"]))

    class Fitter(Estimator, _Alpha):
        def _fit(self, dataset: Any) -> Any:
            return self._copyValues(Scorer())

    return Fitter, Scorer


ALPHAS = [-1.0, 0.0, 0.5, 2.0]


def _features(seed: int, queries: int = 16) -> list[tuple]:
    """(query, doc, f1, f2, grade, fold): continuous features (no tied scores), graded
    judgments, folds by query."""
    rng = random.Random(seed)
    rows = []
    for q in range(queries):
        for d in range(8):
            f1, f2 = rng.random(), rng.random()
            # relevance follows f1 + 0.5 f2 loosely, so the alphas score differently
            grade = int(f1 + 0.5 * f2 + rng.random() * 0.6 > 1.1) + int(rng.random() < 0.1)
            rows.append((f"q{q}", f"d{d}", f1, f2, grade, q % 2))
    return rows


def _local_long(rows: list[tuple], alpha: float, measure: str) -> float:
    qrels = {q: {} for q, *_ in rows}
    run: dict = {}
    for q, d, f1, f2, grade, _ in rows:
        qrels[q][d] = grade
        run.setdefault(q, {})[d] = f1 + alpha * f2  # the same IEEE double as Spark's
    return _quiet_local(qrels, run, measure)


def _cross_validate(session: Any, seed: int, measure: str, evaluator: Any
                    ) -> tuple[Any, list[float]]:
    """Two-fold CrossValidator over ALPHAS on ``_features(seed)`` rows with ``evaluator``;
    the fitted model and each alpha's mean over the folds by the local engine."""
    from pyspark.ml.tuning import CrossValidator, ParamGridBuilder

    fitter_class, _ = _scorer_classes()
    rows = _features(seed)
    frame = session.createDataFrame(
        rows, "query_id string, doc_id string, f1 double, f2 double, label int, fold int")
    fitter = fitter_class()
    grid = ParamGridBuilder().addGrid(fitter.alpha, ALPHAS).build()
    cv = CrossValidator(estimator=fitter, estimatorParamMaps=grid, evaluator=evaluator,
                        numFolds=2, foldCol="fold")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RanklensWarning)
        model = cv.fit(frame)
    # the loop: each alpha on each fold's validation rows, by the local engine
    folds = [[r for r in rows if r[5] == i] for i in range(2)]
    want = [float(np.mean([_local_long(fold, a, measure) for fold in folds]))
            for a in ALPHAS]
    return model, want


def test_cross_validator_selects_the_local_engines_model(spark: Any) -> None:  # noqa: F811
    model, want = _cross_validate(spark, 4, "nDCG@3", _evaluator("nDCG@3"))
    assert len(set(want)) == len(ALPHAS)  # the selection is decided, not a tie
    np.testing.assert_allclose(model.avgMetrics, want, rtol=1e-12)
    assert int(np.argmax(model.avgMetrics)) == int(np.argmax(want))
    assert model.bestModel.getOrDefault("alpha") == ALPHAS[int(np.argmax(want))]


def test_smaller_is_better_measures_select_the_smallest(spark: Any) -> None:  # noqa: F811
    evaluator = _evaluator("FallOut@2", buckets=2)  # results do not depend on it
    assert not evaluator.isLargerBetter()
    model, want = _cross_validate(spark, 5, "FallOut@2", evaluator)
    np.testing.assert_allclose(model.avgMetrics, want, rtol=1e-12)
    assert len(set(want)) > 1
    assert model.bestModel.getOrDefault("alpha") == ALPHAS[int(np.argmin(want))]


def test_train_validation_split_on_arrays_selects_the_local_engines_model(
        spark: Any) -> None:  # noqa: F811
    from pyspark.ml.tuning import ParamGridBuilder, TrainValidationSplit
    from pyspark.sql import functions as F

    fitter_class, _ = _scorer_classes()
    rows = _features(6, queries=24)
    by_query: dict[str, list[tuple]] = {}
    for row in rows:
        by_query.setdefault(row[0], []).append(row)
    # one row per query: its candidates and its relevant items (MLlib's binary labels)
    array_rows = [([(d, f1, f2) for _, d, f1, f2, _, _ in group],
                   [d for _, d, _, _, grade, _ in group if grade >= 1])
                  for group in by_query.values()]
    frame = spark.createDataFrame(
        array_rows, "candidates array<struct<doc: string, f1: double, f2: double>>, "
                    "label array<string>")
    fitter = fitter_class()
    fitter._set(arrays=True)
    grid = ParamGridBuilder().addGrid(fitter.alpha, ALPHAS).build()
    measure = "AP"
    tvs = TrainValidationSplit(estimator=fitter, estimatorParamMaps=grid,
                               evaluator=_evaluator(measure), trainRatio=0.5, seed=11)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RanklensWarning)
        model = tvs.fit(frame)
    # the same validation rows as TrainValidationSplit's: rand(seed) >= trainRatio
    validation = frame.select("*", F.rand(11).alias("r")).filter(F.col("r") >= 0.5) \
        .drop("r").collect()
    assert 0 < len(validation) < len(array_rows)
    want = []
    for alpha in ALPHAS:
        qrels, run = {}, {}
        for i, row in enumerate(validation):
            if row["label"]:  # a row without a relevant item is a query without judgments
                qrels[f"r{i}"] = {d: 1 for d in row["label"]}
            run[f"r{i}"] = {c["doc"]: c["f1"] + alpha * c["f2"] for c in row["candidates"]}
        want.append(_quiet_local(qrels, run, measure))
    assert len(set(want)) > 1
    np.testing.assert_allclose(model.validationMetrics, want, rtol=1e-12)
    assert model.bestModel.getOrDefault("alpha") == ALPHAS[int(np.argmax(want))]


# -- params, persistence, errors ------------------------------------------------------------

def test_params_copy_and_persist(spark: Any, tmp_path: Path) -> None:  # noqa: F811
    import ranklens.spark

    evaluator = _evaluator("AP@10", convention="kaggle", missing="zero", labelCol="items")
    copied = evaluator.copy({evaluator.measure: "P@1"})
    assert (copied.getMeasure(), evaluator.getMeasure()) == ("P@1", "AP@10")
    assert copied.getOptions() == {"convention": "kaggle", "missing": "zero"}
    evaluator.write().overwrite().save(str(tmp_path / "evaluator"))
    loaded = ranklens.spark.RankingEvaluator.load(str(tmp_path / "evaluator"))
    assert (loaded.getMeasure(), loaded.getLabelCol(), loaded.getOptions()) == (
        "AP@10", "items", {"convention": "kaggle", "missing": "zero"})
    rows = [([1, 2, 3], [3]), ([4], [4, 5])]
    frame = spark.createDataFrame(rows, "prediction array<int>, items array<int>")
    # kaggle's AP@10 divides by min(10, R): (1/3 + 1/2) / 2
    assert _quiet(loaded, frame) == pytest.approx((1 / 3 + 1 / 2) / 2, rel=1e-15)


def test_larger_is_better_follows_the_registry() -> None:
    assert _evaluator("nDCG@10").isLargerBetter()
    assert not _evaluator("FallOut@10").isLargerBetter()
    assert _evaluator().getMeasure() == "nDCG@10"
    evaluator = _evaluator()
    with pytest.raises(ParameterError, match="'options' param must be a dict"):
        evaluator.copy({evaluator.options: ["zero"]})
    with pytest.raises(MeasureError, match="nDGC"):
        evaluator.setMeasure("nDGC@10")
    assert evaluator.getMeasure() == "nDCG@10"  # left as it was
    assert evaluator.setMeasure("AP").setOptions(rel=2).getOptions() == {"rel": 2}


@pytest.mark.parametrize("kwargs,error,text", [
    ({"measure": "nDGC@10"}, MeasureError, "nDGC"),
    ({"measure": "RelString"}, MeasureError, "text, not a number"),
    ({"measure": "P_5,10"}, MeasureError, "name one measure, not 'P_5,10'"),
    ({"measure": "alpha-nDCG@10"}, MeasureError, "subtopic"),
    ({"measure": "AP", "missing": "sometimes"}, ParameterError, "'missing' option"),
    ({"measure": "AP", "colour": "red"}, ParameterError, "unknown option 'colour'"),
    ({"measure": "AP", "input": "wide"}, ParameterError, "'input' option must be one of"),
    ({"measure": "AP", "buckets": -1}, ParameterError, "'buckets' option must be"),
    ({"measure": "AP", "convention": ranklens.Convention("mine", "x")}, ParameterError,
     "so that the evaluator can be saved"),
])
def test_bad_requests_fail_when_made(kwargs: dict, error: type, text: str) -> None:
    with pytest.raises(error, match=text):
        _evaluator(**kwargs)


def test_bad_columns_fail_before_any_job(spark: Any) -> None:  # noqa: F811
    arrays = spark.createDataFrame([([1], ["a"])], "prediction array<int>, label array<string>")
    with pytest.raises(ParameterError, match=r"ids of one kind.*integer and string"):
        _evaluator("AP").evaluate(arrays)
    with pytest.raises(ParameterError, match=r"no 'items' column \(labelCol"):
        _evaluator("AP", labelCol="items").evaluate(arrays)
    with pytest.raises(ParameterError, match=r"no 'score' column \(predictionCol"):
        _evaluator("AP", predictionCol="score").evaluate(arrays)
    scalar = spark.createDataFrame([("q", "d", 1.0, [1])], "query_id string, doc_id string, "
                                   "prediction double, label array<int>")
    with pytest.raises(ParameterError, match="labelCol column 'label' must hold numbers"):
        _evaluator("AP").evaluate(scalar)
    with pytest.raises(ParameterError, match=r"must hold arrays of item ids.*got double"):
        _evaluator("AP", input="arrays").evaluate(scalar)
    with pytest.raises(ParameterError, match=r"no 'query_id' column \(queryCol"):
        _evaluator("AP").evaluate(scalar.drop("query_id"))
    long = spark.createDataFrame([("q", 1, 1.0, 1)], "query_id string, doc_id int, "
                                 "prediction double, label int")
    with pytest.raises(ParameterError, match="ties='input' needs each query's order"):
        _evaluator("AP@10", convention="kaggle").evaluate(long)
    with pytest.raises(ParameterError, match="queryCol column 'label' must hold strings or"):
        _evaluator("AP", queryCol="label", labelCol="prediction").evaluate(
            long.withColumn("label", long["label"].cast("boolean")))


def test_bad_data_raises_the_local_engines_error(spark: Any) -> None:  # noqa: F811
    """An item predicted twice: the local engine's InputError (MLlib counts it twice), or
    the first occurrence kept with duplicates="first"."""
    frame = spark.createDataFrame([([2, 1, 2], [2])], "prediction array<int>, label array<int>")
    with pytest.raises(ranklens.InputError, match="document '2' appears more than once"):
        _evaluator("AP").evaluate(frame)
    assert math.isclose(_quiet(_evaluator("AP", duplicates="first"), frame), 1.0)

"""A ``pyspark.ml`` Evaluator for model selection (``CrossValidator``, ``TrainValidationSplit``)
whose value is one ranklens measure's aggregate, computed by :mod:`ranklens.spark`'s engine.

Imported on first use of ``ranklens.spark.RankingEvaluator``: it subclasses pyspark's
``Evaluator``, and ``import ranklens.spark`` itself loads no pyspark.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, TypeVar

from pyspark.ml.evaluation import Evaluator
from pyspark.ml.param import Param, Params, TypeConverters
from pyspark.ml.util import DefaultParamsReadable, DefaultParamsWritable
from pyspark.sql import Column, DataFrame
from pyspark.sql import functions as F
from pyspark.sql.types import ArrayType

from .._base.errors import MeasureError, ParameterError
from .._base.validate import Choice, Integer, Text, check
from .._pipeline.blocks import BlockSpec
from .._pipeline.plan import Plan, make_plan
from ._driver import (
    _INTEGRAL,
    NUMBERS,
    _assemble,
    _compacted,
    _default_buckets,
    _output_schema,
    check_columns,
    needs_rank,
)

_E = TypeVar("_E")

__all__ = ["RankingEvaluator"]

#: The forms of input: one row per query holding arrays (MLlib's), or one row per
#: (query, document) pair (ranklens's long form); "auto" reads it from the column types.
INPUTS = ("auto", "arrays", "long")



def _to_options(value: Any) -> dict[str, Any]:
    """The ``options`` param's converter: a dict of :func:`ranklens.evaluate`'s options."""
    if value is None:
        return {}
    if not isinstance(value, dict) or not all(isinstance(k, str) for k in value):
        raise ParameterError(f"the 'options' param must be a dict of evaluation options; "
                             f"got a {type(value).__name__}")
    return dict(value)


#: Each param of :class:`RankingEvaluator` but ``options``, declared once: its name, default,
#: doc (its getter's and setter's too), and whether setting it checks the request at once
#: (a bad measure fails when set, not in the first fold); ``buckets`` is the one integer.
_PARAMS: tuple[tuple[str, Any, str, bool], ...] = (
    ("measure", "nDCG@10", "the ranklens measure whose aggregate is the value", True),
    ("input", "auto", "the input's form: 'arrays' (one row per query, MLlib's), 'long' (one "
     "row per query and item) or 'auto' (arrays when predictionCol holds arrays)", False),
    ("predictionCol", "prediction",
     "predicted item ids in rank order (arrays) or scores (long)", False),
    ("labelCol", "label", "relevant item ids (arrays) or relevance grades (long)", False),
    ("queryCol", "query_id", "the long form's query id column", False),
    ("docCol", "doc_id", "the long form's item id column", False),
    ("relevanceCol", "", "the array form's grades of labelCol's items (empty: each judged 1)",
     False),
    ("buckets", 0, "the long form's buckets of queries (0: ranklens.spark.evaluate's default)",
     True),
)


def _declare(cls: type[_E]) -> type[_E]:
    """``cls`` with each of :data:`_PARAMS` as a pyspark ``Param`` (on a dummy parent) and
    its ``getX`` / ``setX`` pair."""
    for name, default, doc, checked in _PARAMS:
        converter = TypeConverters.toInt if isinstance(default, int) else TypeConverters.toString
        setattr(cls, name, Param(Params._dummy(), name, doc, typeConverter=converter))
        get, set_ = _accessors(name, doc, checked=checked)
        setattr(cls, f"get{name[0].upper()}{name[1:]}", get)
        setattr(cls, f"set{name[0].upper()}{name[1:]}", set_)
    return cls


def _accessors(name: str, what: str, *, checked: bool = False
               ) -> tuple[Callable[[Any], Any], Callable[[Any, Any], Any]]:
    """The ``getX`` / ``setX`` pair of the param ``name``; ``checked``: a value is set only
    if the request it makes is valid (a bad measure fails at once, not in the first fold)."""
    def get(self: Any) -> Any:
        return self.getOrDefault(getattr(self, name))

    def set_(self: Any, value: Any) -> Any:
        return (self._set_checked if checked else self._set)(**{name: value})

    get.__doc__, set_.__doc__ = f"{what[0].upper()}{what[1:]}.", f"Set {what}."
    return get, set_


@_declare
class RankingEvaluator(Evaluator, DefaultParamsReadable["RankingEvaluator"],
                       DefaultParamsWritable):
    """One ranklens measure's aggregate as a ``pyspark.ml`` Evaluator, for
    ``CrossValidator`` and ``TrainValidationSplit``.

    The value is the one :func:`ranklens.spark.evaluate` gives for the measure (the mean,
    or the measure's own aggregate), computed by ranklens's engine in Spark's Python
    workers: the per-query values of :func:`ranklens.evaluate` on the same data, the mean
    rounded once from an exact sum.

    Parameters
    ----------
    measure : str
        One measure name, as :func:`ranklens.evaluate` reads it (``"nDCG@10"``, ``"AP"``,
        ``"AP(denom=min)@10"``, ...).
    input : {"auto", "arrays", "long"}
        ``"arrays"``: one row per query, as MLlib's ``RankingEvaluator`` reads it:
        ``predictionCol`` an array of item ids in rank order (best first), ``labelCol`` an
        array of the relevant item ids (relevance 1; every other item is unjudged).
        ``"long"``: one row per (query, item): ``queryCol``, ``docCol``, a numeric score in
        ``predictionCol`` (larger is better) and a numeric relevance grade in ``labelCol``;
        a row whose score is null is a judgment only, a row whose grade is null a result
        only; Spark keeps no row order, so ``ties="input"`` (and the conventions implying
        it) is refused in this form. ``"auto"`` (default): ``"arrays"`` when
        ``predictionCol`` holds arrays.
    predictionCol, labelCol : str
        The columns of predictions and labels (default ``"prediction"`` and ``"label"``).
    queryCol, docCol : str
        The long form's query and item id columns (strings or integers; default
        ``"query_id"`` and ``"doc_id"``). The array form has no query id: each row is one
        query, its id the row's ``monotonically_increasing_id``.
    relevanceCol : str
        The array form's grades: an array of numbers as long as ``labelCol``'s, the grade of
        each item there (MLlib ``RankingMetrics``' third array, Spark >= 3.4); graded
        measures (``nDCG``) use them, binary ones count a grade >= ``rel`` (1) relevant.
        Empty (default): each item of ``labelCol`` is judged 1.
    buckets : int
        The long form's number of buckets of queries (0, the default: as
        :func:`ranklens.spark.evaluate` chooses, at least 8; 64 under Spark Connect). A few
        suit the small validation folds of model selection. The array form evaluates each
        partition of the frame as one bucket.
    **options
        :func:`ranklens.evaluate`'s options (``convention``, ``missing``, ``empty``,
        ``ties``, ``duplicates``, ``rel``, ...), kept in the ``options`` param; a
        convention is given by its name (so that the evaluator can be saved).

    Raises
    ------
    MeasureError
        Not one measure name, a text measure (``relstring``) or a measure that needs
        subtopic judgments.
    ParameterError
        An option outside its choices; in :meth:`evaluate`, a missing column or a column of
        the wrong type (read from the schema, before any job), ``ties="input"`` on the long
        form.
    InputError
        In :meth:`evaluate`: what :func:`ranklens.evaluate` raises for the same data (an item
        predicted twice, a NaN score, ...), with its message.

    Notes
    -----
    MLlib's metrics on its arrays, with binary labels and no item predicted twice, are these
    ranklens measures (tests compare them): ``meanAveragePrecision`` ``AP``,
    ``meanAveragePrecisionAtK`` ``AP(denom=min)@k`` (the ``kaggle`` convention's AP),
    ``precisionAtK`` ``P@k``, ``ndcgAtK`` ``nDCG@k``, ``recallAtK`` ``R@k``. Two rows
    differ: MLlib scores a row with an empty label array 0 and keeps it in the mean, where
    ranklens leaves out a query without judgments (with a warning), as
    :func:`ranklens.evaluate` does; and MLlib counts an item predicted twice twice, where
    ranklens raises (``duplicates="first"`` keeps the first).

    Examples
    --------
    >>> from pyspark.ml.tuning import CrossValidator, ParamGridBuilder  # doctest: +SKIP
    >>> evaluator = RankingEvaluator("nDCG@10", labelCol="items")  # doctest: +SKIP
    >>> evaluator.evaluate(predictions)  # doctest: +SKIP
    0.4172...
    >>> cv = CrossValidator(estimator=model, estimatorParamMaps=grid,
    ...                     evaluator=RankingEvaluator("AP", convention="kaggle"))
    ...                     # doctest: +SKIP
    """

    options: Param[dict[str, Any]] = Param(
        Params._dummy(), "options", "ranklens.evaluate's options (convention, missing, ...)",
        typeConverter=_to_options)

    def __init__(self, measure: str = "nDCG@10", *, input: str = "auto",
                 predictionCol: str = "prediction", labelCol: str = "label",
                 queryCol: str = "query_id", docCol: str = "doc_id",
                 relevanceCol: str = "", buckets: int = 0, **options: Any) -> None:
        super().__init__()
        self._setDefault(**{name: default for name, default, *_ in _PARAMS}, options={})
        self._set(measure=measure, input=input, predictionCol=predictionCol,
                  labelCol=labelCol, queryCol=queryCol, docCol=docCol,
                  relevanceCol=relevanceCol, buckets=buckets, options=options)
        self._plan()  # a bad measure or option fails here, not in the first fold

    # -- params (each of _PARAMS has its getX / setX, from _declare) --------------------

    def _set_checked(self, **params: Any) -> RankingEvaluator:
        """Set ``params`` if the request they make is valid; otherwise raise and keep the
        evaluator as it was."""
        self.copy()._set(**params)._plan()
        return self._set(**params)

    def getOptions(self) -> dict[str, Any]:
        """:func:`ranklens.evaluate`'s options (a copy)."""
        options: dict[str, Any] = self.getOrDefault(self.options)
        return dict(options)

    def setOptions(self, **options: Any) -> RankingEvaluator:
        """Replace the evaluation options (checked at once)."""
        return self._set_checked(options=options)

    def isLargerBetter(self) -> bool:
        """False for a measure where smaller is better (``FallOut``, ``Unj``, ...), from the
        measure's registry entry."""
        return not self._plan().measures[0].definition.lower_is_better

    # -- evaluation -----------------------------------------------------------------------

    def _plan(self) -> Plan:
        """The checked request: one numeric measure, known options."""
        measure = self.getOrDefault("measure")
        check("measure", measure, Text())
        check("input", self.getOrDefault("input"), Choice(INPUTS))
        check("buckets", self.getOrDefault("buckets"), Integer(0))
        options = self.getOptions()
        if "options" in options:
            raise ParameterError("give the evaluation options as keywords "
                                 "(RankingEvaluator(..., convention='kaggle')), not options=")
        for key, value in options.items():
            if not isinstance(value, (str, int, float, bool, type(None))):
                raise ParameterError(
                    f"the {key!r} option must be a name, a number or None so that the "
                    f"evaluator can be saved; got a {type(value).__name__}")
        plan = make_plan([measure], **options)
        if len(plan.names) != 1:  # a trec_eval list such as P_5,10
            raise MeasureError(f"an Evaluator gives one number: name one measure, not "
                               f"{measure!r} ({', '.join(plan.names)})")
        parsed = plan.measures[0]
        if parsed.definition.text:
            raise MeasureError(f"{measure} is text, not a number: an Evaluator needs a "
                               "numeric measure")
        if parsed.definition.subtopics:
            raise MeasureError(f"{measure} needs subtopic judgments, which "
                               "ranklens.spark does not read")
        return plan

    def _evaluate(self, dataset: DataFrame) -> float:
        plan = self._plan()
        form = self._form(dataset)
        return self._long(plan, dataset) if form == "long" else self._arrays(plan, dataset)

    def _form(self, dataset: DataFrame) -> str:
        form = self.getOrDefault("input")
        column = self.getOrDefault("predictionCol")
        types = check_columns(dataset, "dataset", [(column, "predictionCol", "any")])
        if form == "auto":
            return "arrays" if types[column] == "array" else "long"
        return form

    def _long(self, plan: Plan, dataset: DataFrame) -> float:
        """One row per (query, item), grouped per query on the JVM into
        :func:`~._driver._compact`'s rows (the query's judgments and results as arrays of
        structs) in one shuffle of the one frame."""
        score, grade = self.getOrDefault("predictionCol"), self.getOrDefault("labelCol")
        query, doc = self.getOrDefault("queryCol"), self.getOrDefault("docCol")
        types = check_columns(dataset, "dataset", [
            (query, "queryCol", "id"), (doc, "docCol", "id"), (score, "predictionCol", "number"),
            (grade, "labelCol", "number")], " in the long form (input='long')")
        if needs_rank(plan):
            raise ParameterError(
                "ties='input' needs each query's order, which the long form does not give "
                "(Spark keeps no row order across a shuffle): use the array form, or "
                "another ties option")

        def id_type(name: str) -> str:  # integer ids travel as longs (see _driver._id_type)
            return "long" if types[name] in _INTEGRAL else "string"

        buckets = self.getOrDefault("buckets") or _default_buckets(dataset)
        doc_id = F.col(doc).cast(id_type(doc)).alias("doc_id")
        rows = dataset.select(F.col(query).cast(id_type(query)).alias("query_id"), doc_id,
                              F.col(grade).cast("double").alias("relevance"),
                              F.col(score).cast("double").alias("score")
                              ).repartition(buckets, "query_id").groupBy("query_id").agg(
            # collect_list leaves out the nulls: a row without a grade judges nothing
            F.collect_list(F.when(F.col("relevance").isNotNull(), F.struct(
                "doc_id", "relevance"))).alias("qrels"),
            F.collect_list(F.when(F.col("score").isNotNull(), F.struct(
                "doc_id", "score"))).alias("run"))
        return self._aggregate(plan, rows, BlockSpec.of(
            plan, f"<labelCol {grade!r}>", f"<predictionCol {score!r}>", "run"))

    def _arrays(self, plan: Plan, dataset: DataFrame) -> float:
        """One row per query, turned into :func:`~._driver._compact`'s rows (the query's
        judgments and ranking as arrays of structs) in one projection, without a shuffle:
        each partition is a bucket."""
        predicted, relevant = self.getOrDefault("predictionCol"), self.getOrDefault("labelCol")
        elements = {name: _element_type(dataset, name, param)
                    for name, param in ((predicted, "predictionCol"), (relevant, "labelCol"))}
        kind = _common_id_type(elements[predicted], elements[relevant], predicted, relevant)

        def ids(column: str) -> Column:  # a null array is an empty one
            return F.coalesce(F.col(column).cast(f"array<{kind}>"),
                              F.array().cast(f"array<{kind}>"))

        def doc_id(x: Column) -> Column:
            # doubles are compared as Spark writes them ("1.0"), in both columns alike
            return x.cast("long" if kind == "long" else "string").alias("doc_id")

        grades = self.getOrDefault("relevanceCol")
        if grades:
            if _element_type(dataset, grades, "relevanceCol") not in NUMBERS:
                raise ParameterError(f"the relevanceCol column {grades!r} must hold arrays "
                                     "of numbers (the grades of labelCol's items)")
            # arrays_zip pads the shorter array with nulls: the engine's InputError names
            # the missing value rather than a grade or an item being dropped
            zipped = F.arrays_zip(ids(relevant).alias("ids"),
                                  F.coalesce(F.col(grades).cast("array<double>"),
                                             F.array().cast("array<double>")).alias("grades"))
            qrels = F.transform(zipped, lambda z: F.struct(
                doc_id(z["ids"]), z["grades"].alias("relevance")))
            source = f"<labelCol {relevant!r} and relevanceCol {grades!r}>"
        else:
            qrels = F.transform(ids(relevant), lambda x: F.struct(
                doc_id(x), F.lit(1.0).alias("relevance")))
            source = f"<labelCol {relevant!r}>"
        rows = dataset.select(
            F.monotonically_increasing_id().alias("query_id"), qrels.alias("qrels"),
            # the position as score (best first, no ties) and as rank (ties="input")
            F.transform(ids(predicted), lambda x, i: F.struct(
                doc_id(x), (-i).cast("double").alias("score"),
                i.cast("double").alias("rank"))).alias("run"))
        return self._aggregate(plan, rows, BlockSpec.of(
            plan, source, f"<predictionCol {predicted!r}>", "run", has_rank=True))

    @staticmethod
    def _aggregate(plan: Plan, rows: DataFrame, spec: BlockSpec) -> float:
        """The measure's aggregate over ``rows`` (one per query, each partition a bucket),
        assembled on the driver as :func:`ranklens.spark.evaluate` assembles it, its
        errors and warnings those of the local engine."""
        out = rows.mapInArrow(functools.partial(_compacted, spec), _output_schema())
        found = out.filter(F.col("kind") != "value").collect()  # the one job
        aggregates, _ = _assemble(plan, spec, [row.asDict() for row in found])
        return float(aggregates[plan.names[0]])


def _element_type(dataset: DataFrame, column: str, param: str) -> str:
    """The element type of the array column ``column`` (ParameterError otherwise)."""
    check_columns(dataset, "dataset", [(column, param, "any")])
    kind = next(f.dataType for f in dataset.schema.fields if f.name == column)
    if not isinstance(kind, ArrayType) or kind.elementType.typeName() not in (
            "string", *NUMBERS):
        raise ParameterError(
            f"the {param} column {column!r} must hold arrays of item ids (strings or numbers)"
            f" in the array form (input='arrays'); got {kind.simpleString()}")
    return str(kind.elementType.typeName())


def _common_id_type(predicted: str, relevant: str, p_name: str, r_name: str) -> str:
    """The Spark type both arrays' ids are compared as: ``long`` when both are integral,
    ``double`` when both are numbers, ``string`` when both are strings."""
    if predicted in _INTEGRAL and relevant in _INTEGRAL:
        return "long"
    if predicted in NUMBERS and relevant in NUMBERS:
        return "double"
    if predicted == relevant == "string":
        return "string"
    raise ParameterError(
        f"the predictionCol {p_name!r} and labelCol {r_name!r} arrays must hold ids of one "
        f"kind (both strings or both numbers); got {predicted} and {relevant}")

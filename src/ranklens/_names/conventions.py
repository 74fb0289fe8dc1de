"""Named conventions: the variant parameters of the engine, bundled as other libraries use them.

A :class:`Convention` is a set of defaults. Passing ``convention="kaggle"`` to
:func:`ranklens.evaluate` turns ``AP@10`` into ``AP(denom=min)@10``, and so on; an option
given explicitly (``ties="docid"``) or a parameter written in a measure name
(``AP(denom=rel)@10``) always wins over the preset. The measure actually computed is in
``result.measures`` and the options in force in ``result.conventions``.

See ``docs/conventions.md`` for the table of conventions across libraries.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .._base.errors import ParameterError
from .._base.registry import Registry
from .._measures import REGISTRY, Measure
from . import written_params

__all__ = ["CONVENTIONS", "Convention", "get_convention"]


@dataclass(frozen=True)
class Convention:
    """A documented bundle of defaults for the engine's variant parameters.

    Attributes
    ----------
    name : the preset's name (``trec``, ``sklearn``, ``torchmetrics``, ``kaggle``, ``ranx``).
    summary : who computes this way.
    ap_denominator : ``denom`` of AP, GMAP and AR: ``rel`` (all relevant judged), ``min``
        (min(k, R)) or ``hits`` (relevant retrieved in the top k).
    gain : ``gain`` of CG, DCG, nDCG: ``linear`` or ``exp2``.
    ideal : ``ideal`` of nDCG and IdealDCG: ``qrels`` (every judgment) or ``run`` (only the
        retrieved or candidate items).
    ties : the evaluation's tie policy (``docid``, ``input`` or ``average``).
    measure_ties : per-measure tie policies that differ from ``ties``.
    empty : queries without a relevant item (``zero``, ``skip``, ``one``, ``nan``, ``error``).
    missing : judged queries absent from the run (``zero``, ``skip``, ``error``); None keeps
        the engine's default (``zero`` with a warning).
    nonpositive : ``judged`` (every document read as given) or ``unjudged``: a document
        scored <= 0 is never a hit in the measures that declare it (``nonpositive_not_hit``
        in their registry entry: AP, RR, P, R, as torchmetrics >= 1.7.4); it keeps its
        rank, and a relevant one still counts among the relevant. The ``nonpositive``
        option overrides it.
    notes : where the preset and the library still differ.
    beyond : whose definitions the beyond-accuracy measures follow (their ``convention``
        parameter: ``rectools``, ``recbole``, ``elliot``, ``recommenders``; see
        docs/beyond-accuracy.md); None keeps ranklens's own.

    Examples
    --------
    >>> import ranklens
    >>> mine = ranklens.Convention("mine", "AP@k over min(k, R), ties averaged",
    ...                            ap_denominator="min", ties="average")
    >>> r = ranklens.evaluate({"q": {"a": 1, "c": 1}}, {"q": {"a": 1.0, "b": 1.0}},
    ...                       ["AP@1"], convention=mine)
    >>> r["AP@1"], str(r.measures["AP@1"]), r.conventions["convention"]
    (0.5, 'AP(denom=min)@1', 'mine')
    """

    name: str
    summary: str
    ap_denominator: str = "rel"
    gain: str = "linear"
    ideal: str = "qrels"
    ties: str = "docid"
    measure_ties: tuple[tuple[str, str], ...] = ()
    empty: str = "zero"
    missing: str | None = None
    nonpositive: str = "judged"
    notes: str = ""
    beyond: str | None = None

    def measure_defaults(self, name: str) -> dict[str, Any]:
        """The parameters this preset sets on measure ``name`` (before explicit ones).

        Which of ``denom``, ``gain`` and ``ideal`` apply is the measure's registry entry's
        ``convention_params``.
        """
        values = {"denom": self.ap_denominator, "gain": self.gain, "ideal": self.ideal}
        defn = REGISTRY.get(name)
        applies = defn.facts.convention_params if defn is not None else ()
        out = {param: values[param] for param in applies}
        for measure, ties in self.measure_ties:
            if measure == name:
                out["ties"] = ties
        if self.beyond is not None and defn is not None:
            # a beyond-accuracy measure takes the library's definition where it has one
            own = next((p for p in defn.params if p.name == "convention"), None)
            if own is not None and self.beyond in getattr(own.constraint, "choices", ()):
                out["convention"] = self.beyond
        return out

    def apply(self, measure: Measure, written: str | Measure) -> Measure:
        """``measure`` with this preset's parameters, keeping the ones written explicitly
        (in ``measure``, or in the name ``written``, as the name parser reads it:
        :func:`ranklens._names.written_params`)."""
        preset = self.measure_defaults(measure.name)
        if not preset:
            return measure
        # a parameter the name writes wins, even at its default: AP(denom=rel) under kaggle
        explicit = {key for key, _ in measure.params} | written_params(written)
        declared = {p.name for p in measure.definition.params}
        chosen = {k: v for k, v in preset.items() if k in declared and k not in explicit}
        if not chosen:
            return measure
        return measure(**chosen)

    def describe(self) -> dict[str, Any]:
        """The bundle as a plain dict (what ``Result.conventions`` records)."""
        return {
            "convention": self.name,
            "ap_denominator": self.ap_denominator,
            "gain": self.gain,
            "ideal": self.ideal,
            "measure_ties": dict(self.measure_ties),
            # recorded when set (the records of the other presets stay as they were)
            **({} if self.beyond is None else {"beyond": self.beyond}),
        }


#: every convention by name, read also by its aliases in any case
CONVENTIONS: Registry[Convention] = Registry("convention")
_ALIASES = {"trec": ("trec_eval", "pytrec_eval", "ir_measures"), "sklearn": ("scikit-learn",),
            "kaggle": ("ml_metrics", "apk"), "recommenders": ("microsoft",)}
for _c in (
    Convention(
        "trec",
        "trec_eval 10.0, pytrec_eval, ir_measures, BEIR, MTEB: AP over all relevant, linear "
        "gain, ideal DCG from every judgment, ties by doc id descending",
    ),
    Convention(
        "sklearn",
        "scikit-learn ndcg_score / dcg_score: ideal DCG from the candidates given, ties "
        "averaged over their orders (McSherry-Najork), rows with a zero ideal score 0",
        ideal="run", ties="average",
        notes="dcg_score's log_base other than 2 is not reproduced; ignore_ties=True is "
        "ties='input' on a score matrix whose tied columns keep argsort order",
    ),
    Convention(
        "torchmetrics",
        "torchmetrics Retrieval*: AP divided by the relevant items retrieved in the top k, "
        "ideal DCG from the candidates given, nDCG ties averaged, other ties by input order",
        ap_denominator="hits", ideal="run", ties="input",
        measure_ties=(("nDCG", "average"), ("DCG", "average")), nonpositive="unjudged",
        notes="as torchmetrics >= 1.7.4, a document scored <= 0 is never a hit in AP, RR, "
        "P and R (nonpositive='judged' reads it as given, as torchmetrics < 1.7.4); "
        "torchmetrics ranks float32 scores, so scores equal in float32 tie there",
    ),
    Convention(
        "kaggle",
        "ml_metrics apk/mapk (Kaggle), RecBole MAP, Spark meanAveragePrecisionAt, MS "
        "Recommenders map_at_k, RePlay: AP@k divided by min(k, R), lists taken as given",
        ap_denominator="min", ties="input",
        notes="apk keeps the position of a duplicated id without scoring it; ranklens "
        "raises, or drops the duplicate with duplicates='first' (later ranks close up)",
    ),
    Convention(
        "ranx",
        "ranx: trec_eval's definitions, ties in the order given, judged queries absent "
        "from the run are an error (make_comparable=False)",
        ties="input", missing="error",
        notes="ranx sorts each query with numba's unstable quicksort: among more than 15 "
        "retrieved items, tied scores can leave it in an order that is not the input's "
        "(benchmarks/peer_orders.py reads that order back from ranx to compare)",
    ),
    Convention(
        "rectools",
        "RecTools metrics: lists in the order given, and RecTools' definitions of the "
        "beyond-accuracy measures (MeanInvUserFreq, AvgRecPopularity, CatalogCoverage, "
        "IntraListDiversity, Serendipity)",
        ties="input", beyond="rectools",
        notes="RecTools averages over the users of the recommendations; ranklens over "
        "the users of the judgments (docs/beyond-accuracy.md)",
    ),
    Convention(
        "recbole",
        "RecBole metrics: MAP over min(k, R), lists in the order given, and RecBole's "
        "beyond-accuracy definitions (ItemCoverage, AveragePopularity, GiniIndex, "
        "ShannonEntropy, TailPercentage)",
        ap_denominator="min", ties="input", beyond="recbole",
        notes="RecBole's item count includes its padding id: ItemCoverage and GiniIndex "
        "divide by the catalogue size plus one, as the preset does",
    ),
    Convention(
        "elliot",
        "Elliot metrics: lists in the order given, and Elliot's beyond-accuracy "
        "definitions (ARP and the long tail by distinct users, Gini as 1 - Gini)",
        ties="input", beyond="elliot",
    ),
    Convention(
        "recommenders",
        "Microsoft Recommenders python_evaluation: MAP over min(k, R), lists in the "
        "order given, and its beyond-accuracy definitions (novelty from training rows, "
        "catalog coverage over the training items, serendipity from item features)",
        ap_denominator="min", ties="input", beyond="recommenders",
        notes="its diversity, serendipity and novelty average over all recommendations "
        "or leave out users without pairs; ranklens averages per user "
        "(docs/beyond-accuracy.md)",
    ),
):
    CONVENTIONS.add(_c.name, _c, _ALIASES.get(_c.name, ()))


def get_convention(convention: str | Convention) -> Convention:
    """The :class:`Convention` named ``convention`` (or ``convention`` itself).

    Examples
    --------
    >>> get_convention("kaggle").ap_denominator
    'min'
    """
    if isinstance(convention, Convention):
        return convention
    found = CONVENTIONS.lookup(str(convention))
    if found is None:
        raise ParameterError(
            f"unknown convention {convention!r}; expected one of {', '.join(CONVENTIONS)}"
        )
    return found

"""deepeval's own contextual precision and recall scores from given verdicts (JSON cases on
stdin: ``[[precision verdicts], [recall verdicts]]``, each a list of "yes"/"no"), with and
without ``strict_mode``. Run by test_rag_oracles.py in the interpreter RANKLENS_RAG_PYTHON
names; exits 3 when deepeval is not installed there. The model is a stub that is never
called: the verdicts are what an LLM would have said."""

import json
import sys

try:
    import deepeval.metrics.contextual_precision.schema as cp
    import deepeval.metrics.contextual_recall.schema as cr
    from deepeval.metrics import ContextualPrecisionMetric, ContextualRecallMetric
    from deepeval.models import DeepEvalBaseLLM
except ImportError:
    sys.exit(3)


class NoModel(DeepEvalBaseLLM):
    def __init__(self) -> None:
        super().__init__("none")

    def load_model(self) -> None:
        return None

    def generate(self, *args: object, **kwargs: object) -> str:
        raise AssertionError("the verdicts are given: no model call")

    async def a_generate(self, *args: object, **kwargs: object) -> str:
        raise AssertionError("the verdicts are given: no model call")

    def get_model_name(self) -> str:
        return "none"


out = []
for precision, recall in json.load(sys.stdin):
    row = {}
    for strict in (False, True):
        p = ContextualPrecisionMetric(model=NoModel(), strict_mode=strict)
        p.verdicts = [cp.ContextualPrecisionVerdict(verdict=v, reason="") for v in precision]
        r = ContextualRecallMetric(model=NoModel(), strict_mode=strict)
        r.verdicts = [cr.ContextualRecallVerdict(verdict=v, reason="") for v in recall]
        row[f"ContextualPrecision(strict={str(strict).lower()})"] = p._calculate_score()
        row[f"ContextualRecall(strict={str(strict).lower()})"] = r._calculate_score()
    out.append(row)
json.dump(out, sys.stdout)

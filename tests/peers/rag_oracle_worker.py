"""The originals' RAG measures on JSON cases from stdin: llama_index's metrics, ragas's
id-based precision and recall, its context-precision arithmetic and its non-LLM
(Levenshtein) context precision and recall. Run by
test_rag_oracles.py in the interpreter RANKLENS_RAG_PYTHON names (a venv holding
llama-index-core and ragas, kept out of the test extra: they are heavy)."""

import asyncio
import json
import math
import sys
import types

# ragas 0.4.3 imports a chat model that newer langchain_community dropped; the measures
# compared here never call a model
for _name in ("langchain_community.chat_models.vertexai", "langchain_community.llms.vertexai"):
    _stub = types.ModuleType(_name)
    _stub.ChatVertexAI = _stub.VertexAI = type("Unused", (), {})
    sys.modules.setdefault(_name, _stub)
from llama_index.core.evaluation.retrieval.metrics import (  # noqa: E402
    MRR,
    NDCG,
    AveragePrecision,
    HitRate,
    Precision,
    Recall,
)
from ragas.dataset_schema import SingleTurnSample  # noqa: E402
from ragas.metrics import IDBasedContextPrecision, IDBasedContextRecall  # noqa: E402
from ragas.metrics._context_precision import NonLLMContextPrecisionWithReference  # noqa: E402
from ragas.metrics._context_recall import NonLLMContextRecall  # noqa: E402

given = json.load(sys.stdin)
cases, texts = given["ids"], given["texts"]
li = {"LlamaIndexHitRate": HitRate(),
      "LlamaIndexHitRate(granular=true)": HitRate(use_granular_hit_rate=True),
      "LlamaIndexMRR": MRR(), "LlamaIndexMRR(granular=true)": MRR(use_granular_mrr=True),
      "LlamaIndexPrecision": Precision(), "LlamaIndexRecall": Recall(),
      "LlamaIndexAP": AveragePrecision(), "LlamaIndexNDCG": NDCG()}
nonllm = NonLLMContextPrecisionWithReference()
out = []
for ret, ref in cases:
    row = {}
    for name, metric in li.items():
        try:
            row[name] = metric.compute(expected_ids=ref, retrieved_ids=ret).score
        except ValueError:
            row[name] = "ValueError"
    s = SingleTurnSample(retrieved_context_ids=ret, reference_context_ids=ref)
    for name, metric in (("IDBasedContextPrecision", IDBasedContextPrecision()),
                         ("IDBasedContextRecall", IDBasedContextRecall())):
        v = asyncio.run(metric.single_turn_ascore(s))
        row[name] = "nan" if math.isnan(v) else v
    row["ContextPrecision"] = nonllm._calculate_average_precision([int(r in ref) for r in ret])
    out.append(row)
strings = []
for ret, ref in texts:
    s = SingleTurnSample(retrieved_contexts=ret, reference_contexts=ref)
    row = {}
    for name, metric in (("precision", nonllm), ("recall", NonLLMContextRecall())):
        try:
            v = asyncio.run(metric.single_turn_ascore(s))
            row[name] = "nan" if math.isnan(v) else v
        except ValueError:
            row[name] = "ValueError"
    strings.append(row)
json.dump({"ids": out, "texts": strings}, sys.stdout)

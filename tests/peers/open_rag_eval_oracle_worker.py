"""open-rag-eval's own retrieval scores from given UMBRELA labels (JSON cases on stdin:
``[labels in rank order, [k, ...]]``): precision@k, AP@k and MRR as its UMBRELA metric adds
them. Run by test_rag_oracles.py in the interpreter RANKLENS_RAG_PYTHON names; exits 3
when open-rag-eval is not installed there. No model is built or called: the labels are
what the judge would have said."""

import importlib.util
import json
import sys
import types

# the package's __init__ files import every judge's client (torch, transformers, google,
# anthropic, together): the UMBRELA module itself is loaded from its file, with its two
# judge-side imports stubbed (no judge is built here)
spec = importlib.util.find_spec("open_rag_eval")
if spec is None or not spec.submodule_search_locations:
    sys.exit(3)
for name, attr in (("open_rag_eval.models.llm_judges", "LLMJudgeModel"),
                   ("open_rag_eval.metrics.base_metrics", "RetrievalMetric")):
    stub = types.ModuleType(name)
    setattr(stub, attr, type(attr, (), {}))
    sys.modules[name] = stub
path = f"{spec.submodule_search_locations[0]}/metrics/umbrela_metric.py"
loaded = importlib.util.spec_from_file_location("umbrela_metric", path)
module = importlib.util.module_from_spec(loaded)
loaded.loader.exec_module(module)
UMBRELAMetric = module.UMBRELAMetric

metric = UMBRELAMetric.__new__(UMBRELAMetric)  # no judge model: only the arithmetic runs
metric._umbrela_relevant_threshold = 2
out = []
for labels, ks in json.load(sys.stdin):
    scores = {"umbrela_scores": {f"p{i}": g for i, g in enumerate(labels)}}
    metric.add_retrieval_metrics(scores, ks)
    got = scores.get("retrieval_scores", {})
    out.append({"precision": dict(got.get("precision@", {})), "ap": dict(got.get("AP@", {})),
                "mrr": got.get("MRR")})
json.dump(out, sys.stdout)

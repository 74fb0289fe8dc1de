"""A ranx fusion server for tests/peers/test_fusion_ranx.py, run in its own process so that
``NUMBA_DISABLE_JIT`` is set before numba is first imported there (and not in the test
process, where other modules run ranx compiled).

Reads one JSON request a line: ``{"runs": [[[q, doc, score], ...], ...], "method": ...,
"norm": ..., "params": {...}}`` (rows in the order ranx is given them); writes one JSON line:
``{"rows": [[q, doc, score], ...]}`` in ranx's fused order, or ``{"error": "..."}``.
"""

from __future__ import annotations

import json
import sys

from ranx import Run, fuse


def runs_of(request: dict) -> list[Run]:
    out = []
    for i, rows in enumerate(request["runs"]):
        nested: dict[str, dict[str, float]] = {}
        for q, d, s in rows:
            nested.setdefault(q, {})[d] = float(s)
        out.append(Run(nested, name=f"r{i}"))
    return out


def main() -> None:
    for line in sys.stdin:
        request = json.loads(line)
        try:
            norm = None if request["norm"] == "none" else request["norm"]
            fused = fuse(runs_of(request), norm=norm, method=request["method"],
                         params=request.get("params") or {})
            rows = [[q, d, float(s)] for q in fused.run
                    for d, s in fused.run[q].items()]
            answer: dict = {"rows": rows}
        except Exception as exc:  # the test shows what ranx said
            answer = {"error": f"{type(exc).__name__}: {exc}"}
        sys.stdout.write(json.dumps(answer) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()

"""Refresh the vendored vega, vega-lite and vega-embed bundles of the HTML report.

The report inlines these three minified bundles so that it opens offline; they ship as
package data in ``src/ranklens/_surfaces/report/vendor/`` together with each package's LICENSE and a
manifest (``versions.json``: version, npm integrity, sha256 of every file) that a test checks.
``npm pack`` fetches the pinned versions from the npm registry and verifies their integrity.

    python scripts/refresh_vega.py              # rewrites src/ranklens/_surfaces/report/vendor/

To move to new versions, change ``PINNED`` (vega-lite's peer dependency on vega must hold:
``npm view vega-lite@X peerDependencies``), run this script, then the report tests.
"""

from __future__ import annotations

import hashlib
import json
import subprocess
import tarfile
import tempfile
from pathlib import Path

PINNED = {"vega": "6.4.0", "vega-lite": "6.5.0", "vega-embed": "7.3.0"}
OUT = Path(__file__).resolve().parent.parent / "src" / "ranklens" / "_report" / "vendor"


def _sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def main() -> None:
    manifest: dict[str, dict[str, object]] = {}
    OUT.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        specs = [f"{name}@{version}" for name, version in PINNED.items()]
        packed = subprocess.run(["npm", "pack", "--json", *specs], cwd=tmp, check=True,
                                capture_output=True, text=True).stdout
        for entry in json.loads(packed):
            name = entry["name"]
            with tarfile.open(Path(tmp) / entry["filename"], "r:gz") as tar:
                wanted = {f"package/build/{name}.min.js": f"{name}.min.js",
                          "package/LICENSE": f"LICENSE-{name}"}
                files: dict[str, str] = {}
                for member, target in wanted.items():
                    handle = tar.extractfile(member)
                    if handle is None:
                        raise SystemExit(f"{entry['filename']} has no {member}")
                    data = handle.read()
                    (OUT / target).write_bytes(data)
                    files[target] = _sha256(data)
            manifest[name] = {"version": entry["version"], "integrity": entry["integrity"],
                              "files": files}
    (OUT / "versions.json").write_text(json.dumps(manifest, indent=2, sort_keys=True) + "\n",
                                       encoding="utf-8")
    print(f"wrote {', '.join(f'{k} {v}' for k, v in PINNED.items())} to {OUT}")


if __name__ == "__main__":
    main()

"""The documentation site's sources agree with the package.

Every public name has an API reference entry (``::: ranklens.NAME`` in docs/reference), every
entry names a public thing, every page of the nav exists and every English page is in the nav.
CITATION.cff holds CFF 1.2.0's required keys and the package's version; CHANGELOG.md has the
Keep a Changelog headings. ``mkdocs build --strict`` itself runs in .ci/run.
"""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path
from typing import Any

import pytest
import yaml

import ranklens

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"
ENTRY = re.compile(r"^::: ranklens\.([\w.]+)\s*$", flags=re.MULTILINE)


def reference_entries() -> dict[str, str]:
    """name after ``ranklens.`` -> the reference page naming it."""
    entries: dict[str, str] = {}
    for page in sorted((DOCS / "reference").glob("*.md")):
        for name in ENTRY.findall(page.read_text("utf-8")):
            assert name not in entries, f"{name} has two entries: {entries[name]}, {page.name}"
            entries[name] = page.name
    return entries


def nav_pages(node: Any) -> list[str]:
    if isinstance(node, str):
        return [node]
    if isinstance(node, dict):
        return [p for value in node.values() for p in nav_pages(value)]
    return [p for item in node for p in nav_pages(item)]


def test_every_public_name_has_a_reference_entry() -> None:
    entries = reference_entries()
    missing = [name for name in ranklens.__all__ if name not in entries]
    assert missing == [], f"add '::: ranklens.NAME' to a docs/reference page for {missing}"


def test_every_reference_entry_is_public() -> None:
    public = {*ranklens.__all__, "spark"}
    stale = [name for name in reference_entries() if name not in public]
    assert stale == [], f"docs/reference names what ranklens.__all__ lacks: {stale}"


def test_the_nav_and_the_pages_agree() -> None:
    config = yaml.safe_load((ROOT / "mkdocs.yml").read_text("utf-8"))
    assert config["docs_dir"] == "docs" and config["strict"] is True
    nav = nav_pages(config["nav"])
    assert len(nav) == len(set(nav)), "a page is twice in the nav"
    absent = [page for page in nav if not (DOCS / page).is_file()]
    assert absent == [], f"the nav names pages that do not exist: {absent}"
    pages = {p.relative_to(DOCS).as_posix() for p in DOCS.rglob("*.md")}
    outside = sorted(pages - set(nav))
    assert outside == [], f"pages missing from mkdocs.yml's nav: {outside}"


def test_the_start_pages_come_first() -> None:
    config = yaml.safe_load((ROOT / "mkdocs.yml").read_text("utf-8"))
    start = next(item["Start here"] for item in config["nav"] if "Start here" in item)
    assert nav_pages(start) == [f"start/{name}.md" for name in (
        "trec", "recommender", "rag", "training", "big-data", "which-measure")]


def test_citation_cff_is_valid() -> None:
    cff = yaml.safe_load((ROOT / "CITATION.cff").read_text("utf-8"))
    assert cff["cff-version"] == "1.2.0"
    for key in ("message", "title", "authors"):  # CFF 1.2.0's required keys
        assert cff.get(key), f"CITATION.cff lacks '{key}'"
    assert all(a.get("name") or a.get("family-names") for a in cff["authors"])
    assert cff["version"] == ranklens.__version__
    assert str(cff["license"]) == "MIT"
    assert re.fullmatch(r"\d{4}-\d\d-\d\d", str(cff["date-released"]))


def test_the_changelog_names_this_version() -> None:
    text = (ROOT / "CHANGELOG.md").read_text("utf-8")
    versions = re.findall(r"^## \[([^\]]+)\]", text, flags=re.MULTILINE)
    assert versions[:2] == ["Unreleased", ranklens.__version__]
    sections = set(re.findall(r"^### (\w+)", text, flags=re.MULTILINE))
    assert sections <= {"Added", "Changed", "Deprecated", "Removed", "Fixed", "Security"}
    assert '--8<-- "CHANGELOG.md"' in (DOCS / "changelog.md").read_text("utf-8")


def test_sphinx_roles_become_links_or_code() -> None:
    """scripts/griffe_roles.py: a public name links to its entry, anything else is code."""
    pytest.importorskip("griffe")  # the docs extra's
    spec = importlib.util.spec_from_file_location("griffe_roles", ROOT / "scripts/griffe_roles.py")
    assert spec is not None and spec.loader is not None
    roles = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(roles)
    text = (":func:`ranklens.evaluate` and :class:`Run`; :meth:`per_query`, "
            ":class:`~ranklens._model.keys.PairKeys`, :func:`~ranklens.load_run`")
    assert roles.ROLE.sub(roles._replace, text) == (
        "[`ranklens.evaluate`][ranklens.evaluate] and [`Run`][ranklens.Run]; `per_query`, "
        "`PairKeys`, [`load_run`][ranklens.load_run]")

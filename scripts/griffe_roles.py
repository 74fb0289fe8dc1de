"""A griffe extension for the documentation site (mkdocs.yml loads it).

The docstrings use Sphinx roles (``:func:`evaluate```, ``:class:`~ranklens.Run```), which
mkdocstrings prints as they are. This turns each into a link to the API reference when it
names a public name (``ranklens.__all__``: each has an entry, a test checks it), and into
code otherwise: a private helper or a member has no anchor to link to.
"""

from __future__ import annotations

import re
from typing import Any

import griffe

import ranklens

ROLE = re.compile(r":(?:func|class|meth|attr|mod|data|exc|obj):`(~?)([\w.]+)`")
PUBLIC = frozenset(ranklens.__all__)


def _replace(match: re.Match[str]) -> str:
    tilde, name = match.groups()
    shown = name.rsplit(".", 1)[-1] if tilde else name
    public = name.removeprefix("ranklens.")
    return f"[`{shown}`][ranklens.{public}]" if public in PUBLIC else f"`{shown}`"


class SphinxRoles(griffe.Extension):
    """Rewrite the roles of every docstring griffe reads."""

    def on_instance(self, *, obj: griffe.Object, **kwargs: Any) -> None:
        if obj.docstring is not None:
            obj.docstring.value = ROLE.sub(_replace, obj.docstring.value)

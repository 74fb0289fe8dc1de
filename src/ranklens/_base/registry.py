"""One registry of named entries: measures, preference measures, agreement measures and
fusion methods each keep theirs in a :class:`Registry`.

A registry maps each canonical name to its entry (it is a ``dict``, in registration
order) and reads other spellings: aliases and the canonical names themselves, compared
through the registry's ``fold`` (lower case by default). It refuses a name registered twice
and suggests the closest spellings for an unknown one (:meth:`Registry.suggest`); each
user words its own errors.
"""

from __future__ import annotations

import difflib
from collections.abc import Callable, Iterable
from typing import TypeVar

__all__ = ["Registry"]

T = TypeVar("T")


class Registry(dict[str, T]):
    """Entries by canonical name, and the aliases that read them.

    Parameters
    ----------
    kind : what an entry is, for the "registered twice" error (``measure``).
    fold : how spellings are compared (default: lower case).

    Examples
    --------
    >>> r: Registry[int] = Registry("number")
    >>> r.add("One", 1, aliases=("uno",))
    >>> r.lookup("UNO"), r.lookup("one"), r.lookup("two")
    (1, 1, None)
    >>> r.spellings()
    ['One', 'uno']
    >>> r.suggest("onr", 1, 0.5)
    ['One']
    """

    def __init__(self, kind: str, fold: Callable[[str], str] = str.lower) -> None:
        super().__init__()
        self.kind = kind
        self.fold = fold
        self._names: dict[str, str] = {}  # folded spelling -> canonical name
        self._aliases: dict[str, tuple[str, ...]] = {}

    def add(self, name: str, entry: T, aliases: Iterable[str] = ()) -> None:
        """Register ``entry`` as ``name``, read also by ``aliases``.

        Raises
        ------
        RuntimeError
            ``name`` is registered already.
        """
        if name in self:
            raise RuntimeError(f"{self.kind} {name} registered twice")
        self[name] = entry
        self._aliases[name] = tuple(aliases)
        for spelling in (name, *aliases):
            self._names.setdefault(self.fold(spelling), name)

    def copy(self) -> Registry[T]:
        """A registry of the same entries and spellings (a test registers into it)."""
        out: Registry[T] = Registry(self.kind, self.fold)
        out.update(self)
        out._names.update(self._names)
        out._aliases.update(self._aliases)
        return out

    def canonical(self, spelling: object) -> str | None:
        """The canonical name ``spelling`` reads (itself exactly, else folded through the
        names and aliases); None for an unknown spelling or a value not a string."""
        if not isinstance(spelling, str):
            return None
        if spelling in self:
            return spelling
        return self._names.get(self.fold(spelling))

    def lookup(self, spelling: object) -> T | None:
        """The entry ``spelling`` reads, or None."""
        name = self.canonical(spelling)
        return None if name is None else self[name]

    def spellings(self) -> list[str]:
        """Every canonical name, then every alias, in registration order."""
        return list(self) + [a for name in self for a in self._aliases.get(name, ())]

    def suggest(self, text: str, n: int, cutoff: float, extra: Iterable[str] = ()) -> list[str]:
        """Up to ``n`` spellings closest to ``text`` (difflib's ratio at least ``cutoff``,
        compared folded), best first: among the names, the aliases and the ``extra``
        spellings, a canonical name wins over a spelling that folds alike."""
        folded = {self.fold(s): s for s in [*self.spellings(), *extra, *self]}
        return [folded[c] for c in difflib.get_close_matches(self.fold(text), list(folded), n=n,
                                                             cutoff=cutoff)]

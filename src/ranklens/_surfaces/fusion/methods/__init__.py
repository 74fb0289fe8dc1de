"""The unsupervised fusion methods, a module per family (each registers its methods)."""

from . import borda, comb, condorcet, ranks  # noqa: F401

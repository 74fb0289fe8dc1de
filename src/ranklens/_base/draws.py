"""The bound on random draws a user may ask for (permutations, bootstrap resamples)."""

from __future__ import annotations

__all__ = ["MAX_DRAWS"]

#: Most permutations or bootstrap resamples: each is a float in memory and a pass over the
#: queries; publication asks for 100,000 (Smucker et al. 2009).
MAX_DRAWS = 1_000_000

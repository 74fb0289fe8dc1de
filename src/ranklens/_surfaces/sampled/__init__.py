"""Sampled evaluation: metrics from ranks among sampled negatives, naive and corrected."""

from .api import Sampled, sampled

__all__ = ["Sampled", "sampled"]

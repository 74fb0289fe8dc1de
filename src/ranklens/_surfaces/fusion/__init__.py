"""Fusing several runs into one: methods, normalisations, tuning."""

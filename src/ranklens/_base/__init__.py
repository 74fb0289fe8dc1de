"""The base layer: errors, validation, output files, threads; imports nothing of ranklens."""

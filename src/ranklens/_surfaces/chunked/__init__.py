"""Bounded-memory and parallel evaluation of files: inputs partitioned by a hash of the query
id into chunks on disk, each chunk evaluated by the local engine (``compute(block=True)``),
the partials merged and finished by the one assembly (docs/scale.md)."""

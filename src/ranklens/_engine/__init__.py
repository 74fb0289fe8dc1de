"""The engine: pure functions of loaded tables.

Policies (``policies``), then the alignment of a run to its judgments (``keys``,
``ranking``, ``matching``, ``aligned``), then plan -> compute -> assemble. Nothing here reads
a file or imports the CLI.
"""

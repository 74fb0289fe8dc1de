"""The data model: keys, each tie policy's ranking, matching, the aligned container.

Pure functions of loaded tables, below the measures (which read :class:`Aligned`) and
above ingest. The pipeline (plan -> compute -> assemble) lives in ``ranklens._pipeline``.
Nothing here reads a file or imports the CLI.
"""

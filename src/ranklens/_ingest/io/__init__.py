"""Ingest: every input form becomes a :class:`~ranklens._ingest.tables.Qrels` or ``Run``."""

"""Ingest: every input form becomes a :class:`~ranklens._tables.Qrels` or ``Run``."""

"""Tables and ingest: every input form into validated columnar tables."""

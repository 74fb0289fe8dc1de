"""The pipeline: plan (one options value) -> compute (pure, any subset of queries) ->
assemble (mergeable partials, the policies checked once).

It sits above the measures, names and conventions and below every surface (evaluate,
compare, report, trec_eval, spark). Nothing here reads a file or imports the CLI.
"""

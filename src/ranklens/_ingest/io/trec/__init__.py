"""The TREC qrels and run readers, around one tokenizer.

- :mod:`.files`: a file's bytes, whole (compression undone) or a block of whole lines at
  a time, read in place; also the chunked evaluation's blocks.
- :mod:`.tokens`: the tokenizer, bytes into columns by trec_eval's line rules (small files
  by Python's bytes methods, blocks by polars' reader, anything else by the line parser,
  which words every error).
- :mod:`.small`: small files, read without polars' reader.
- :mod:`.codes`: a qrels file's doc ids as codes into one dictionary.
- :mod:`.run_parts`: a run's columns gathered block by block.
- :mod:`.qrels` and :mod:`.run`: the readers, which the loaders and the chunked
  evaluation's blocks call.
"""

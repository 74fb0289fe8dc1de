"""TREC RAG and RAG-framework inputs as ranklens tables; segments rolled up to documents.

One module per family: ``topics`` (TREC RAG topics), ``answers`` (AG/RAG submissions and
ragnarok requests/responses as runs), ``judged`` (the 2025 judgment file, UMBRELA outputs),
``nuggets`` (nuggetizer records), ``rollup`` (segments to documents) and ``spans`` (a team's
chunks to official segments). Framework id lists (ragas, llama_index) are ``load_pairs``
records; BEIR/MTEB dicts are ``load_qrels``/``load_run`` mappings.
"""

from .answers import Answers, read_answers, read_requests
from .judged import RagJudgments, read_rag_judgments, read_umbrela
from .nuggets import read_nuggets
from .rollup import rollup
from .spans import map_chunks
from .topics import read_topics

__all__ = ["Answers", "RagJudgments", "map_chunks", "read_answers", "read_nuggets",
           "read_rag_judgments", "read_requests", "read_topics", "read_umbrela", "rollup"]

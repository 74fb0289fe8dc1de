"""The Parquet folder of ``ranklens evaluate --engine spark -o``: whole or not at all.

On this machine's filesystem Spark writes a new folder beside the output, which then
replaces the old one (:func:`ranklens._base.outputs.replacing`): a failed job leaves the old
folder as it was. Elsewhere (``hdfs://``, ``s3a://``, the server of a Spark Connect
session) ranklens cannot rename; Spark's own overwrite writes in place there.
"""

from __future__ import annotations

from typing import TYPE_CHECKING
from urllib.parse import urlparse

from .._base.errors import ParameterError
from .._base.outputs import replacing

if TYPE_CHECKING:
    from pyspark.sql import DataFrame, SparkSession

__all__ = ["local_folder", "write_parquet"]


def local_folder(spark: SparkSession, output: str) -> str | None:
    """The path on this machine Spark writes ``output`` to, or None when Spark writes it
    on another filesystem."""
    scheme = urlparse(output).scheme
    if scheme == "file":
        return urlparse(output).path
    if len(scheme) > 1:  # hdfs://, s3a://, ... (one letter: a Windows drive)
        return None
    try:  # a path without a scheme is on the session's default filesystem
        conf = spark.sparkContext._jsc.hadoopConfiguration()
        default = str(conf.get("fs.defaultFS") or "file:///")
    except Exception:  # Spark Connect: no context here, the files are the server's
        return None
    return output if default.startswith("file:") else None


def write_parquet(spark: SparkSession, frame: DataFrame, output: str) -> None:
    """Write ``frame`` as the Parquet folder ``output``, replacing what is there.

    Raises
    ------
    ParameterError
        ``cannot write OUTPUT: REASON`` when the new folder cannot be put in place (a file
        in the way, no permission); the old folder is then as it was.
    """
    folder = local_folder(spark, output)
    if folder is None:
        frame.write.mode("overwrite").parquet(output)
        return
    try:
        with replacing(folder) as tmp:
            frame.write.parquet(tmp if folder == output else f"file:{tmp}")
    except OSError as exc:
        raise ParameterError(f"cannot write {output}: {exc.strerror or exc}") from None

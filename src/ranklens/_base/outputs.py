"""The files ranklens writes: whole or not at all, and never over one of its inputs.

:func:`write_atomically` writes into a temporary file beside the target and renames it over
the target (:func:`os.replace`, atomic on POSIX and Windows): a reader, a crash, a full disk
or a Ctrl-C never leaves half a file, and the old file stays whole until the new one is
complete. :func:`replacing` is the same step for a writer that makes the new file or folder
itself (Spark's Parquet folder). :func:`refuse_overwriting_inputs` is the check every
command that writes runs before it reads anything.
"""

from __future__ import annotations

import contextlib
import os
import secrets
import shutil
import stat
from collections.abc import Iterable, Iterator
from typing import Any

from .errors import ParameterError

__all__ = ["TEMP_PREFIX", "refuse_overwriting_inputs", "replacing", "write_atomically"]

#: Temporary files and folders beside an output start with this (hidden on POSIX).
TEMP_PREFIX = ".ranklens-"


def _fresh(folder: str, suffix: str) -> str:
    return os.path.join(folder, f"{TEMP_PREFIX}{secrets.token_hex(8)}{suffix}")


def _remove(path: str) -> None:
    """Remove a temporary file or folder, if it is there."""
    if os.path.isdir(path) and not os.path.islink(path):
        shutil.rmtree(path, ignore_errors=True)
    else:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(path)


def _swap_in(new: str, target: str) -> None:
    """Put ``new`` where ``target`` is. A folder over a folder: the old one is moved aside,
    the new one moved in (the old one back if that fails), then the old one removed."""
    if not (os.path.isdir(new) and os.path.isdir(target)):
        os.replace(new, target)
        return
    old = _fresh(os.path.dirname(target), ".old")
    os.rename(target, old)
    try:
        os.rename(new, target)
    except BaseException:
        os.rename(old, target)
        raise
    _remove(old)


@contextlib.contextmanager
def replacing(path: str | os.PathLike[str]) -> Iterator[str]:
    """A fresh path beside ``path`` to write to, which replaces ``path`` once written.

    A symbolic link stays and the file it names is replaced. If the block raises, whatever
    was written at the fresh path is removed and ``path`` is left as it was.

    Parameters
    ----------
    path : str or path-like
        The file or folder to write.

    Yields
    ------
    str
        The temporary path: nothing is there yet; write a file or a folder at it.

    Examples
    --------
    >>> import os, tempfile
    >>> folder = tempfile.mkdtemp()
    >>> target = os.path.join(folder, "out.txt")
    >>> with replacing(target) as tmp:
    ...     with open(tmp, "w") as fh:
    ...         _ = fh.write("done\\n")
    >>> open(target).read(), os.listdir(folder)
    ('done\\n', ['out.txt'])
    """
    target = os.path.realpath(path)
    tmp = _fresh(os.path.dirname(target), ".tmp")
    try:
        yield tmp
        _swap_in(tmp, target)
    except BaseException:
        _remove(tmp)
        raise


def _is_stream(path: str) -> bool:
    """A device, a FIFO or a socket (``/dev/stdout``): written through, not replaced."""
    try:
        mode = os.stat(path).st_mode
    except OSError:
        return False
    return not (stat.S_ISREG(mode) or stat.S_ISDIR(mode))


def write_atomically(path: str | os.PathLike[str], text: str | bytes | Iterable[str]) -> None:
    """Write ``text`` (UTF-8, newlines as they are) to ``path``, whole or not at all.

    The new file is written and flushed to disk beside ``path`` and then renamed over it;
    an existing file's permissions are kept. A device or a FIFO (``/dev/stdout``) is
    written to directly: there is no file to replace.

    Parameters
    ----------
    path : str or path-like
        The file to write; its folder must exist.
    text : str, bytes or iterable of str
        The content (an iterable: written piece by piece as it is made).

    Raises
    ------
    ParameterError
        ``cannot write PATH: REASON`` (a missing folder, no permission, a full disk, a
        folder in the way); nothing is left behind and an old file at ``path`` is intact.
    """
    pieces = (text,) if isinstance(text, (str, bytes)) else text
    name = os.fspath(path)
    try:
        if _is_stream(name):
            with open(name, "wb") as fh:
                _write_all(fh, pieces)
            return
        with replacing(name) as tmp:
            flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0)
            with open(os.open(tmp, flags, 0o666), "wb") as fh:  # 0o666: the umask applies
                _write_all(fh, pieces)
                fh.flush()
                os.fsync(fh.fileno())
            with contextlib.suppress(FileNotFoundError):
                os.chmod(tmp, stat.S_IMODE(os.stat(name).st_mode))
    except OSError as exc:
        raise ParameterError(f"cannot write {name}: {exc.strerror or exc}") from None


def _write_all(fh: Any, pieces: Iterable[str | bytes]) -> None:
    for piece in pieces:
        fh.write(piece.encode("utf-8") if isinstance(piece, str) else piece)


def _inside(path: str, folder: str) -> bool:
    real, top = os.path.realpath(path), os.path.realpath(folder)
    return real != top and os.path.commonpath([real, top]) == top


def refuse_overwriting_inputs(output: str | os.PathLike[str] | None, inputs: Iterable[Any],
                              *, option: str = "-o") -> None:
    """Refuse an output that is one of the inputs, or a folder holding one.

    Parameters
    ----------
    output : str, path-like or None
        The file or folder to be written (None: nothing is written, nothing to check).
    inputs : iterable
        The inputs; those that are paths of existing files or folders are checked (``-``,
        standard input, and data given as objects are not files).
    option : str, default "-o"
        How the message names the output (``the 'output' option`` for the library).

    Raises
    ------
    ParameterError
        ``-o FILE is one of the input files (INPUT); expected a new file or another one to
        overwrite``, or the same for a folder holding an input (a Parquet folder is
        replaced as a whole).
    """
    if output is None or not os.path.exists(output):
        return
    out = os.fspath(output)
    for item in inputs:
        if not isinstance(item, (str, os.PathLike)):
            continue
        path = os.fspath(item)
        if path == "-" or not os.path.exists(path):
            continue
        if os.path.samefile(path, out):
            raise ParameterError(f"{option} {out} is one of the input files ({path}); "
                                 "expected a new file or another one to overwrite")
        if os.path.isdir(out) and _inside(path, out):
            raise ParameterError(f"{option} {out} is a folder holding the input file {path}; "
                                 "expected a new folder or another one to overwrite")

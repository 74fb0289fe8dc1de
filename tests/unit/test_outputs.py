"""The files ranklens writes (ranklens._base.outputs): whole or not at all, never over an input.

A failure at any step (a full disk while writing, the rename itself, a Ctrl-C) leaves the
old file as it was and no temporary file behind.
"""

from __future__ import annotations

import doctest
import errno
import os
import stat
from pathlib import Path

import pytest

from ranklens._base import outputs as _outputs
from ranklens._base.errors import ParameterError
from ranklens._base.outputs import (
    TEMP_PREFIX,
    refuse_overwriting_inputs,
    replacing,
    write_atomically,
)


def leftovers(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name.startswith(TEMP_PREFIX))


def test_writes_text_as_utf8_with_newlines_as_they_are(tmp_path: Path) -> None:
    target = tmp_path / "out.txt"
    write_atomically(target, "é\r\nb\n")
    assert target.read_bytes() == "é\r\nb\n".encode()
    write_atomically(str(target), b"bytes\n")
    assert target.read_bytes() == b"bytes\n"
    assert leftovers(tmp_path) == []


def test_an_existing_file_is_replaced_whole_and_keeps_its_permissions(tmp_path: Path) -> None:
    target = tmp_path / "out.csv"
    target.write_text("old\n")
    target.chmod(0o640)
    write_atomically(target, "new\n")
    assert target.read_text() == "new\n"
    assert stat.S_IMODE(target.stat().st_mode) == 0o640
    assert leftovers(tmp_path) == []


@pytest.mark.skipif(os.name != "posix", reason="POSIX permissions")
def test_a_new_file_gets_the_umask_permissions(tmp_path: Path) -> None:
    old = os.umask(0o022)
    try:
        write_atomically(tmp_path / "new.txt", "x")
    finally:
        os.umask(old)
    assert stat.S_IMODE((tmp_path / "new.txt").stat().st_mode) == 0o644


@pytest.mark.parametrize("failure", [OSError(errno.ENOSPC, "No space left on device"),
                                     KeyboardInterrupt()])
def test_a_failed_write_leaves_the_old_file_and_no_temporary(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, failure: BaseException) -> None:
    target = tmp_path / "out.txt"
    target.write_text("old\n")
    seen: list[int] = []

    def fsync(fd: int) -> None:  # the data is written (not yet on disk) when the disk fills
        seen.append(os.fstat(fd).st_size)
        raise failure

    monkeypatch.setattr(_outputs.os, "fsync", fsync)
    if isinstance(failure, OSError):
        with pytest.raises(ParameterError, match=f"cannot write {target}: No space left"):
            write_atomically(target, "new and much longer\n")
    else:
        with pytest.raises(KeyboardInterrupt):
            write_atomically(target, "new and much longer\n")
    assert seen == [len("new and much longer\n")]
    assert target.read_text() == "old\n"
    assert leftovers(tmp_path) == []


def test_a_failed_rename_leaves_the_old_file_and_no_temporary(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    target = tmp_path / "out.txt"
    target.write_text("old\n")

    def refuse(src: str, dst: str) -> None:
        raise PermissionError(errno.EACCES, "Permission denied")

    monkeypatch.setattr(_outputs.os, "replace", refuse)
    with pytest.raises(ParameterError, match="Permission denied"):
        write_atomically(target, "new\n")
    assert target.read_text() == "old\n"
    assert leftovers(tmp_path) == []


def test_a_missing_folder_or_a_folder_in_the_way_is_one_error(tmp_path: Path) -> None:
    missing = tmp_path / "no" / "out.txt"
    with pytest.raises(ParameterError, match=f"cannot write {missing}: No such file"):
        write_atomically(missing, "x")
    (tmp_path / "dir").mkdir()
    with pytest.raises(ParameterError, match=r"cannot write .*dir: Is a directory"):
        write_atomically(tmp_path / "dir", "x")
    assert leftovers(tmp_path) == []


@pytest.mark.skipif(os.name != "posix", reason="symbolic links")
def test_a_symbolic_link_stays_and_its_file_is_replaced(tmp_path: Path) -> None:
    real = tmp_path / "real.txt"
    real.write_text("old\n")
    link = tmp_path / "latest.txt"
    link.symlink_to(real)
    write_atomically(link, "new\n")
    assert link.is_symlink() and real.read_text() == "new\n"


@pytest.mark.skipif(not Path("/dev/null").exists(), reason="needs /dev/null")
def test_a_device_is_written_through_not_replaced() -> None:
    write_atomically("/dev/null", "x")  # never a rename over /dev/null
    assert Path("/dev/null").is_char_device()


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full")
def test_a_full_device_is_one_error() -> None:
    with pytest.raises(ParameterError, match="cannot write /dev/full: No space left"):
        write_atomically("/dev/full", "x")


def test_a_new_folder_replaces_an_old_one_whole(tmp_path: Path) -> None:
    target = tmp_path / "pq"
    target.mkdir()
    (target / "old.parquet").write_text("old")
    with replacing(target) as tmp:
        os.mkdir(tmp)
        Path(tmp, "new.parquet").write_text("new")
    assert sorted(p.name for p in target.iterdir()) == ["new.parquet"]
    assert leftovers(tmp_path) == []


def test_a_failed_folder_write_leaves_the_old_folder(tmp_path: Path) -> None:
    target = tmp_path / "pq"
    target.mkdir()
    (target / "old.parquet").write_text("old")
    with pytest.raises(RuntimeError, match="job failed"), replacing(target) as tmp:
        os.mkdir(tmp)
        Path(tmp, "part-0.parquet").write_text("half")
        raise RuntimeError("job failed")
    assert sorted(p.name for p in target.iterdir()) == ["old.parquet"]
    assert leftovers(tmp_path) == []


def test_output_is_refused_when_it_is_an_input(tmp_path: Path) -> None:
    run = tmp_path / "run.txt"
    run.write_text("x")
    with pytest.raises(ParameterError) as exc:
        refuse_overwriting_inputs(str(run), ["qrels.txt", str(run)])
    assert str(exc.value) == (f"-o {run} is one of the input files ({run}); expected a new "
                              "file or another one to overwrite")
    if os.name == "posix":  # the same file by another name
        (tmp_path / "hard.txt").hardlink_to(run)
        (tmp_path / "soft.txt").symlink_to(run)
        for other in ("hard.txt", "soft.txt"):
            with pytest.raises(ParameterError, match="is one of the input files"):
                refuse_overwriting_inputs(tmp_path / other, [run], option="the 'output' option")


def test_a_folder_holding_an_input_is_refused(tmp_path: Path) -> None:
    (tmp_path / "data").mkdir()
    run = tmp_path / "data" / "run.parquet"
    run.write_text("x")
    with pytest.raises(ParameterError, match="is a folder holding the input file"):
        refuse_overwriting_inputs(tmp_path / "data", [str(run)])
    with pytest.raises(ParameterError, match="is one of the input files"):
        refuse_overwriting_inputs(tmp_path / "data", [tmp_path / "data"])


def test_other_outputs_and_inputs_pass(tmp_path: Path) -> None:
    run = tmp_path / "run.txt"
    run.write_text("x")
    other = tmp_path / "other.txt"
    other.write_text("y")
    refuse_overwriting_inputs(None, [run])
    refuse_overwriting_inputs(tmp_path / "new.txt", [run])  # not there yet: no input
    refuse_overwriting_inputs(other, ["-", run, {"q1": {"d": 1}}, tmp_path / "gone"])
    (tmp_path / "pq").mkdir()  # a folder beside the input, not holding it
    refuse_overwriting_inputs(tmp_path / "pq", [run, tmp_path / "pq-2" / "run.txt"])


def test_docstring_examples() -> None:
    failed, tried = doctest.testmod(_outputs)
    assert tried > 0 and failed == 0

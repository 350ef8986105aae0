"""fileio: atomic single files and all-or-nothing file sets (issue 19, items 6-8)."""

import os

import pytest

from dfsched import fileio
from dfsched.fileio import OutputError, write_files_atomically, write_text_atomic


def test_text_replaces_whole_file_and_leaves_no_temporary(tmp_path):
    target = tmp_path / "out.mlir"
    target.write_text("old")
    write_text_atomic(str(target), "new text\n")
    assert target.read_text() == "new text\n"
    assert sorted(os.listdir(tmp_path)) == ["out.mlir"]


def test_failed_write_keeps_the_old_file_and_no_temporary(tmp_path, monkeypatch):
    target = tmp_path / "out.mlir"
    target.write_text("old")

    def broken_fsync(fd):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(fileio.os, "fsync", broken_fsync)
    with pytest.raises(OutputError, match="No space left on device"):
        write_text_atomic(str(target), "new")
    assert target.read_text() == "old"
    assert sorted(os.listdir(tmp_path)) == ["out.mlir"]


def test_missing_folder_is_one_line_error(tmp_path):
    with pytest.raises(OutputError, match="cannot write"):
        write_text_atomic(str(tmp_path / "no" / "x.mlir"), "x")


@pytest.mark.parametrize("name", ["../evil.mlir", "/tmp/evil.mlir", "a/b.mlir", "..", "", "a\0b"])
def test_file_set_refuses_names_outside_the_folder(tmp_path, name):
    with pytest.raises(OutputError, match="plain names"):
        write_files_atomically(str(tmp_path / "out"), {"global.mlir": "g", name: "x"})
    assert not (tmp_path / "out").exists() or os.listdir(tmp_path / "out") == []
    assert not (tmp_path / "evil.mlir").exists()


def test_file_set_is_all_or_nothing(tmp_path, monkeypatch):
    folder = tmp_path / "out"
    real_open = open

    def failing_open(path, *args, **kwargs):
        if str(path).endswith("b.mlir"):
            raise OSError(28, "No space left on device")
        return real_open(path, *args, **kwargs)

    monkeypatch.setattr("builtins.open", failing_open)
    with pytest.raises(OutputError):
        write_files_atomically(str(folder), {"a.mlir": "a", "b.mlir": "b"})
    assert os.listdir(folder) == []


def test_file_set_removes_only_its_own_stale_files(tmp_path):
    folder = tmp_path / "out"
    write_files_atomically(str(folder), {"global.mlir": "g", "p0.mlir": "0", "p1.mlir": "1"})
    (folder / "mine.txt").write_text("user file")
    write_files_atomically(str(folder), {"global.mlir": "g2", "p0.mlir": "0b"})
    assert sorted(os.listdir(folder)) == [".dfsched-files", "global.mlir", "mine.txt", "p0.mlir"]
    assert (folder / "global.mlir").read_text() == "g2"


def test_manifest_cannot_delete_outside_the_folder(tmp_path):
    folder = tmp_path / "out"
    folder.mkdir()
    victim = tmp_path / "victim.txt"
    victim.write_text("keep")
    (folder / fileio.MANIFEST).write_text("../victim.txt\n")
    write_files_atomically(str(folder), {"global.mlir": "g"})
    assert victim.read_text() == "keep"

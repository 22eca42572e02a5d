"""A workbook read is held once: where the system has anonymous in-memory
files, the kernel copies the file into one of the command's own and the
command maps it, so the gate, calamine and a writer all use one copy, which
nothing done to the workbook on disk afterwards can change or cut short."""
from __future__ import annotations

import io
import os
import shutil
import zipfile
from pathlib import Path

import pytest

from automation.errors import WorkbookFileError
from automation.samples import SAMPLE
from automation.workbook import snapshot
from automation.workbook.reader import Workbook, read_file
from automation.workbook.snapshot import Snapshot, as_file, take

linux_only = pytest.mark.skipif(not hasattr(os, "memfd_create") or not os.path.isdir("/proc/self/fd"),
                                reason="no anonymous in-memory files here")


def _open_fds() -> set[str]:
    return set(os.listdir("/proc/self/fd"))


@linux_only
def test_a_workbook_read_is_a_mapping_of_its_own_in_memory_file_holding_exactly_the_file(tmp_path: Path) -> None:
    book = tmp_path / "b.xlsx"
    shutil.copyfile(SAMPLE, book)
    held = read_file(book, 2**30)
    assert isinstance(held, Snapshot)
    assert held[:] == SAMPLE.read_bytes() and len(held) == SAMPLE.stat().st_size
    assert os.readlink(held.path).startswith("/memfd:musterroll-workbook")
    opened = Workbook(book)
    assert isinstance(opened.gate.data, Snapshot)  # the bytes a writer appends to are the ones the gate checked


@linux_only
def test_a_workbook_cut_short_and_rewritten_on_disk_after_it_was_read_is_neither_seen_nor_a_crash(
        tmp_path: Path) -> None:
    book = tmp_path / "b.xlsx"
    shutil.copyfile(SAMPLE, book)
    before = {name: rows for name, rows in ((n, Workbook(book).raw(n)) for n in Workbook(book).sheet_names)}
    opened = Workbook(book)
    part = opened.gate.archive.read("xl/workbook.xml")
    with open(book, "r+b") as fh:  # the same file, emptied and written anew in place
        fh.truncate(0)
        fh.write(b"PK" + b"\0" * 100)
    assert {name: opened.raw(name) for name in opened.sheet_names} == before
    assert opened.gate.archive.read("xl/workbook.xml") == part


@linux_only
def test_a_snapshot_s_in_memory_file_is_closed_with_its_last_reference(tmp_path: Path) -> None:
    book = tmp_path / "b.xlsx"
    shutil.copyfile(SAMPLE, book)
    open_before = _open_fds()
    held = take(book)
    assert isinstance(held, Snapshot) and str(held.fd) in _open_fds()
    del held
    assert _open_fds() == open_before


@linux_only
def test_where_the_kernel_cannot_copy_the_file_it_is_read_and_no_descriptor_is_left(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    book = tmp_path / "b.xlsx"
    shutil.copyfile(SAMPLE, book)

    def refuse(*_: object) -> int:
        raise OSError(22, "Invalid argument")
    monkeypatch.setattr(os, "sendfile", refuse)
    open_before = _open_fds()
    held = take(book)
    assert type(held) is bytes and held == SAMPLE.read_bytes()
    assert _open_fds() == open_before
    assert Workbook(book).sheet_names == Workbook(book, SAMPLE.read_bytes()).sheet_names


def test_without_anonymous_files_the_bytes_are_read(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    book = tmp_path / "b.xlsx"
    shutil.copyfile(SAMPLE, book)
    monkeypatch.delattr(os, "memfd_create", raising=False)
    held = take(book)
    assert type(held) is bytes and held == SAMPLE.read_bytes()


def test_an_empty_file_is_named_as_one(tmp_path: Path) -> None:
    book = tmp_path / "empty.xlsx"
    book.write_bytes(b"")
    assert take(book) == b""
    with pytest.raises(WorkbookFileError, match="an empty file"):
        Workbook(book)


@linux_only
def test_a_zip_read_through_a_snapshot_is_the_zip_read_from_its_bytes(tmp_path: Path) -> None:
    book = tmp_path / "b.xlsx"
    shutil.copyfile(SAMPLE, book)
    held = take(book)
    assert isinstance(held, Snapshot)
    mapped, plain = zipfile.ZipFile(as_file(held)), zipfile.ZipFile(io.BytesIO(SAMPLE.read_bytes()))
    assert [(i.filename, i.CRC, i.header_offset) for i in mapped.infolist()] == \
        [(i.filename, i.CRC, i.header_offset) for i in plain.infolist()]
    assert all(mapped.read(n) == plain.read(n) for n in plain.namelist())


def test_the_file_over_a_buffer_reads_and_seeks_as_a_file_does() -> None:
    data = bytes(range(256)) * 4
    ours, theirs = snapshot._View(bytearray(data)), io.BytesIO(data)  # a buffer that is not bytes
    for step in [("read", 10), ("seek", 5, io.SEEK_CUR), ("read", 3), ("seek", -4, io.SEEK_END), ("read", 100),
                 ("read", 5), ("seek", 2000, io.SEEK_SET), ("read", 1), ("tell",), ("seek", 0, io.SEEK_SET),
                 ("read", -1), ("seek", 3, io.SEEK_SET), ("read", None)]:
        name, *args = step
        assert getattr(ours, name)(*args) == getattr(theirs, name)(*args), step
    into, expected = bytearray(7), bytearray(7)
    ours.seek(1020)
    theirs.seek(1020)
    assert ours.readinto(into) == theirs.readinto(expected) == 4 and into == expected
    with pytest.raises(ValueError):
        ours.seek(-1)
    assert ours.readable() and ours.seekable()

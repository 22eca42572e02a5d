"""A long campaign's zip directory is read once: the next command that opens
the same file takes its entries as the first reader kept them, and finds the
same entries and the same sheet parts to copy when first read. A kept file
that does not read back whole, or was kept for another directory, is not
used; a returned file's directory and a short one are read each time, and
nothing is kept with keeping off."""
from __future__ import annotations

import os
import zipfile
from pathlib import Path

import pytest

from automation.errors import MusterrollError
from automation.workbook import direntries, snapshot, zipentries
from automation.workbook.gate import PLAYER
from automation.workbook.reader import Workbook
from automation.workbook.snapshot import Snapshot, take
from automation.workbook.zipdir import plain_entries
from workbook_helpers import records_read

pytestmark = pytest.mark.skipif(not hasattr(os, "memfd_create") or not os.path.isdir("/proc/self/fd"),
                                reason="no anonymous in-memory files here")


def _zip(path: Path, sheets: int) -> Path:
    """A workbook-shaped zip of ``sheets`` sheet parts (and a few others), as plain as a campaign's."""
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("[Content_Types].xml", "<Types/>")
        z.writestr("xl/workbook.xml", "<workbook/>")
        for n in range(1, sheets + 1):
            z.writestr(f"xl/worksheets/sheet{n}.xml", f"<worksheet><sheetData>{'<row/>' * n}</sheetData></worksheet>")
        z.writestr("docProps/app.xml", "<Properties/>")
    return path


def _readings(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Each reading of a directory's records, by how many it read."""
    return records_read(monkeypatch, direntries)


def _kept() -> list[Path]:
    where = direntries.folder()
    return sorted(where.glob(f"*{direntries.SUFFIX}")) if where is not None and where.exists() else []


def _held(path: Path, keep: bool = True) -> Snapshot:
    held = take(path, keep)
    assert isinstance(held, Snapshot) and held.entries is not None
    return held


def test_a_long_directory_read_once_is_taken_as_kept_by_the_next_reader(tmp_path: Path,
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    path = _zip(tmp_path / "long.xlsx", 300)
    read = _readings(monkeypatch)
    first = _held(path)
    second = _held(path)
    assert read == [303]  # the first reader read the records; the second took them as kept
    assert list(second.entries) == list(first.entries) == plain_entries(path.read_bytes())
    assert all(type(e) is zipentries.Entry for e in second.entries)
    assert second._starts == first._starts and second._ends == first._ends  # the same parts copied when first read
    assert bytes(second) == path.read_bytes()
    assert len(_kept()) == 1


def test_the_sheet_parts_to_copy_when_first_read_are_the_ones_a_reading_finds(tmp_path: Path) -> None:
    path = _zip(tmp_path / "long.xlsx", 300)
    fd = os.open(path, os.O_RDONLY)
    try:
        size = os.fstat(fd).st_size
        read_now = snapshot.listing(fd, size, keep=False)
        snapshot.listing(fd, size)  # kept
        as_kept = snapshot.listing(fd, size)
    finally:
        os.close(fd)
    assert as_kept[0] == read_now[0] and len(read_now[0]) == 300
    assert as_kept[1] == read_now[1]


def test_a_kept_file_that_does_not_read_back_whole_is_not_used(tmp_path: Path,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    path = _zip(tmp_path / "long.xlsx", 300)
    first = _held(path)
    [kept] = _kept()
    damaged = bytearray(kept.read_bytes())
    damaged[len(damaged) // 2] ^= 0x40
    kept.write_bytes(bytes(damaged))
    read = _readings(monkeypatch)
    again = _held(path)
    assert read == [303]  # read again
    assert list(again.entries) == list(first.entries)


def test_entries_kept_for_another_directory_are_not_taken(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path, other = _zip(tmp_path / "long.xlsx", 300), _zip(tmp_path / "other.xlsx", 301)
    _held(path)
    [mine] = _kept()
    _held(other)
    [theirs] = [f for f in _kept() if f != mine]
    mine.write_bytes(theirs.read_bytes())  # the file under one directory's name holds another's entries
    read = _readings(monkeypatch)
    found = _held(path)
    assert read == [303]
    assert list(found.entries) == plain_entries(path.read_bytes())


def test_the_same_records_at_another_place_are_kept_apart() -> None:
    directory = b"PK\x01\x02" + bytes(42)
    assert direntries.key_of(directory, 1, 1000) != direntries.key_of(directory, 1, 1001)
    assert direntries.key_of(directory, 1, 1000) != direntries.key_of(directory, 2, 1000)


def test_a_returned_file_and_a_short_directory_are_read_each_time(tmp_path: Path,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    returned, short = _zip(tmp_path / "returned.xlsx", 300), _zip(tmp_path / "short.xlsx", 40)
    read = _readings(monkeypatch)
    for _ in range(2):
        _held(returned, keep=False)
        _held(short)
    with pytest.raises(MusterrollError):  # (not a workbook: the gate refuses it after the snapshot is taken)
        Workbook(returned, limits=PLAYER)
    assert read == [303, 43, 303, 43, 303]
    assert _kept() == []


def test_nothing_is_kept_with_keeping_off(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MUSTERROLL_CACHE", "off")
    path = _zip(tmp_path / "long.xlsx", 300)
    read = _readings(monkeypatch)
    _held(path)
    _held(path)
    assert read == [303, 303]
    assert direntries.folder() is None

"""A snapshot reads its workbook's zip directory once, when it is taken, and
keeps the entries for the gate: a command on a long campaign reads its
thousand directory records once, not once for the snapshot's copy and again
for the gate. The entries kept are the ones its bytes hold: a directory read
from a file written before the copy gives none, and a zip the gate does not
read plainly gives none either (zipfile reads it, as before)."""
from __future__ import annotations

import io
import os
import shutil
import zipfile
from pathlib import Path

import pytest

from automation.samples import SAMPLE
from automation.errors import WorkbookFileError
from automation.workbook import direntries, snapshot, zipdir, zipentries, zipraw
from automation.workbook.gate import Gate
from automation.workbook.reader import Workbook
from automation.workbook.snapshot import Snapshot, take
from automation.workbook.zipdir import ZipDirectory, plain_entries, read_directory
from workbook_helpers import records_read

pytestmark = pytest.mark.skipif(not hasattr(os, "memfd_create") or not os.path.isdir("/proc/self/fd"),
                                reason="no anonymous in-memory files here")


def _records_read(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Each reading of a directory's records, by how many it read (each reader names it)."""
    return records_read(monkeypatch, zipentries, direntries, zipdir)


def test_a_snapshot_holds_the_entries_its_own_bytes_list(tmp_path: Path) -> None:
    path = tmp_path / "book.xlsx"
    shutil.copyfile(SAMPLE, path)
    held = take(path)
    assert isinstance(held, Snapshot) and held.entries is not None
    assert list(held.entries) == plain_entries(path.read_bytes())
    assert [e.filename for e in held.entries] == zipfile.ZipFile(path).namelist()


def test_the_gate_of_a_snapshot_reads_no_directory_record_again(tmp_path: Path,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "book.xlsx"
    shutil.copyfile(SAMPLE, path)
    read = _records_read(monkeypatch)
    held = take(path)
    parts = len(zipfile.ZipFile(path).namelist())
    assert read == [parts]  # once, by the snapshot
    gate = Gate(str(path), held)
    sheet = next(iter(gate.sheet_targets()))
    gate.check_sheet(sheet)
    assert isinstance(read_directory(held), ZipDirectory)
    assert read == [parts]  # and not by the gate
    book = Workbook(path, held)
    assert book.raw(book.sheet_names[0])  # the workbook reads as it did


def test_a_directory_read_from_a_file_written_before_the_copy_gives_no_entries(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path, other = tmp_path / "book.xlsx", tmp_path / "other.xlsx"
    shutil.copyfile(SAMPLE, path)
    with zipfile.ZipFile(SAMPLE) as z, zipfile.ZipFile(other, "w", zipfile.ZIP_DEFLATED) as out:
        for info in z.infolist():  # the same parts, in another order: another directory
            if info.filename != "docProps/app.xml":
                out.writestr(info.filename, z.read(info.filename))
        out.writestr("docProps/app.xml", z.read("docProps/app.xml"))
    real = snapshot.listing

    def of_the_other_file(source: int, size: int, keep: bool = True) -> tuple:
        with open(other, "rb") as fh:  # the directory as the file held it a moment before
            lazy, listed = real(fh.fileno(), os.path.getsize(other), keep)
        return real(source, size, keep)[0], listed
    monkeypatch.setattr(snapshot, "listing", of_the_other_file)
    held = take(path)
    assert isinstance(held, Snapshot) and held.entries is None  # not the directory it holds
    assert plain_entries(held) == plain_entries(path.read_bytes())  # the gate reads its own
    assert bytes(held) == path.read_bytes()


def test_a_zip_with_extra_fields_in_its_directory_gives_no_entries_and_is_read_by_zipfile(tmp_path: Path) -> None:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as z:
        info = zipfile.ZipInfo("xl/worksheets/sheet1.xml")
        info.extra = b"\x99\x99\x04\x00abcd"
        z.writestr(info, b"<worksheet/>" * 50)
        z.writestr("[Content_Types].xml", b"<Types/>")
    path = tmp_path / "odd.xlsx"
    path.write_bytes(out.getvalue())
    held = take(path)
    assert isinstance(held, Snapshot) and held.entries is None
    assert held.pending == 1  # its sheet part is still copied when first read
    assert isinstance(read_directory(held), zipfile.ZipFile)
    assert bytes(held) == path.read_bytes()


# the package writer's zip reader (automation.workbook.zipraw.parse_zip) takes the members of a snapshot from the
# entries it read, and walks the directory again only when one fails a check, so the refusal is the walk's own

def _walks_counted(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    walks: list[int] = []
    real = zipraw._walk

    def counted(directory: bytes, count: int, refuse):  # type: ignore[no-untyped-def]
        walks.append(count)
        return real(directory, count, refuse)
    monkeypatch.setattr(zipraw, "_walk", counted)
    return walks


def _members(found: zipraw.RawZip) -> list[tuple[object, ...]]:
    return [(m.name, bytes(m.central), m.method, m.crc, m.size, m.offset, m.data_len, m.following)
            for m in found.members]


def test_the_package_reader_of_a_snapshot_takes_its_entries_and_finds_what_a_walk_finds(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "book.xlsx"
    shutil.copyfile(SAMPLE, path)
    held = take(path)
    assert isinstance(held, Snapshot) and held.entries is not None
    walks = _walks_counted(monkeypatch)
    taken = zipraw.parse_zip(held, str(path))
    assert walks == []
    walked = zipraw.parse_zip(path.read_bytes(), str(path))
    assert walks == [len(held.entries)]
    assert _members(taken) == _members(walked) and taken.index.keys() == walked.index.keys()
    assert taken.comment == walked.comment
    assert taken.read("xl/workbook.xml") == walked.read("xl/workbook.xml")


def _zip_of(parts: dict[str, bytes], twice: str | None = None) -> bytes:
    """A zip of ``parts`` (stored), with a second member named ``twice``."""
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as z:
        for name, data in parts.items():
            z.writestr(name, data)
        if twice:
            with pytest.warns(UserWarning):  # (zipfile warns of the name written twice)
                z.writestr(twice, b"<again/>")
    return out.getvalue()


PARTS = {"[Content_Types].xml": b"<Types/>", "xl/workbook.xml": b"<workbook/>",
         "xl/worksheets/sheet1.xml": b"<worksheet/>" + os.urandom(snapshot.LAZY_PART)}  # (long enough to be taken
# as a snapshot whose directory is read when it is taken)


def _encrypted(data: bytes, name: str) -> bytes:
    """``data`` with member ``name``'s directory record flagged as encrypted."""
    out = bytearray(data)
    at = int.from_bytes(out[-6:-2], "little")  # (where the directory starts: the end record has no comment)
    while out[at + 46:at + 46 + len(name)] != name.encode():
        lengths = [int.from_bytes(out[at + k:at + k + 2], "little") for k in (28, 30, 32)]
        at += 46 + sum(lengths)
    out[at + 8] |= 0x01
    return bytes(out)


@pytest.mark.parametrize("damage, why", [
    ("twice", "member xl/worksheets/sheet1.xml appears twice in the zip"),
    ("encrypted", "member xl/workbook.xml is encrypted"),
])
def test_a_snapshot_of_a_zip_failing_a_check_is_refused_as_its_bytes_are(tmp_path: Path, damage: str,
                                                                        why: str) -> None:
    data = _zip_of(PARTS, twice="xl/worksheets/sheet1.xml") if damage == "twice" else \
        _encrypted(_zip_of(PARTS), "xl/workbook.xml")
    path = tmp_path / "book.xlsx"
    path.write_bytes(data)
    held = take(path)
    assert isinstance(held, Snapshot) and held.entries is not None  # (the entries say nothing of either)
    messages = []
    for source in (held, data):
        with pytest.raises(WorkbookFileError) as refused:
            zipraw.parse_zip(source, "book.xlsx")
        messages.append(str(refused.value))
    assert messages[0] == messages[1] and why in messages[0]

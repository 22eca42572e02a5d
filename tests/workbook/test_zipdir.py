"""The gate reads a plain zip's directory into a tuple per part and streams
its parts itself (automation.workbook.zipdir), with zipfile's checks: what
it finds and reads is what zipfile finds and reads, a damaged part is
refused as zipfile refuses it, and any zip it does not read plainly is read
by zipfile as before."""
from __future__ import annotations

import io
import struct
import zipfile
import zlib
from pathlib import Path

import pytest

from automation.workbook import zipdir
from automation.workbook.gate import Gate
from automation.workbook.snapshot import take
from automation.workbook.zipdir import ZipDirectory, read_directory

SAMPLE = Path(__file__).resolve().parents[2] / "samples" / "advance_to_rostov.xlsx"


def plain_zip(parts: dict[str, bytes], method: int = zipfile.ZIP_DEFLATED) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", method) as z:
        for name, data in parts.items():
            z.writestr(name, data)
    return out.getvalue()


PARTS = {"a.xml": b"<a>" + b"x" * 5000 + b"</a>", "folder/b.xml": b"", "c.bin": bytes(range(256)) * 300,
         "n\u00e4me.xml": b"<n/>"}


def fields(info: object) -> tuple:
    return tuple(getattr(info, f) for f in ("filename", "CRC", "compress_size", "file_size", "header_offset",
                                             "flag_bits", "compress_type"))


@pytest.mark.parametrize("method", [zipfile.ZIP_DEFLATED, zipfile.ZIP_STORED])
def test_a_plain_zip_reads_as_zipfile_reads_it(method: int) -> None:
    data = plain_zip(PARTS, method)
    ours, theirs = read_directory(data), zipfile.ZipFile(io.BytesIO(data))
    assert isinstance(ours, ZipDirectory)
    assert [fields(i) for i in ours.infolist()] == [fields(i) for i in theirs.infolist()]
    for name in PARTS:
        assert ours.read(name) == theirs.read(name) == PARTS[name]
        with ours.open(ours.getinfo(name)) as part:  # read in pieces, as the gate streams a part
            assert b"".join(iter(lambda: part.read(777), b"")) == PARTS[name]


def test_a_campaign_workbook_is_read_plainly_from_its_snapshot() -> None:
    snap = take(SAMPLE)
    ours, theirs = read_directory(snap), zipfile.ZipFile(SAMPLE)
    assert isinstance(ours, ZipDirectory)
    assert [fields(i) for i in ours.infolist()] == [fields(i) for i in theirs.infolist()]
    assert all(ours.read(i.filename) == theirs.read(i.filename) for i in theirs.infolist())


def test_the_gate_opens_a_workbook_without_zipfile(monkeypatch: pytest.MonkeyPatch) -> None:
    def refused(*_: object) -> None:
        raise AssertionError("zipfile read the directory")
    monkeypatch.setattr(zipdir.zipfile, "ZipFile", refused)
    gate = Gate("book", take(SAMPLE))
    sheet = next(iter(gate.sheet_targets()))
    gate.check_sheet(sheet)
    assert gate.info("xl/workbook.xml") is not None


@pytest.mark.parametrize("oddity", ["extra fields", "bytes before it", "a name zipfile cuts short", "not a zip"])
def test_a_zip_not_read_plainly_is_read_by_zipfile(oddity: str) -> None:
    if oddity == "extra fields":
        out = io.BytesIO()
        with zipfile.ZipFile(out, "w") as z:
            info = zipfile.ZipInfo("a.xml")
            info.extra = struct.pack("<HH4s", 0xCAFE, 4, b"abcd")
            z.writestr(info, b"<a/>")
        data = out.getvalue()
    elif oddity == "bytes before it":
        data = b"#!" * 50 + plain_zip(PARTS)
    elif oddity == "a name zipfile cuts short":
        data = plain_zip({"a.xml": b"<a/>"}).replace(b"a.xml", b"a\x00xml")  # (zipfile writes no such name)
    else:
        with pytest.raises(zipfile.BadZipFile):
            read_directory(b"PK\x03\x04 not a zip at all" * 10)
        return
    found = read_directory(data)
    assert isinstance(found, zipfile.ZipFile)
    assert found.read(found.infolist()[-1].filename) in (PARTS["n\u00e4me.xml"], b"<a/>")


def damaged(damage: str) -> bytes:
    data = bytearray(plain_zip(PARTS))
    info = zipfile.ZipFile(io.BytesIO(bytes(data))).getinfo("a.xml")
    at = info.header_offset
    start = at + 30 + len(b"a.xml")
    if damage == "bytes of its data":
        for i in range(start + 10, start + 30):
            data[i] ^= 0x55
    elif damage == "declared smaller than it inflates to":
        central = bytes(data).rindex(b"PK\x01\x02", 0, bytes(data).index(b"a.xml", info.header_offset + 40))
        struct.pack_into("<I", data, central + 24, 600)
    elif damage == "its local header's signature":
        data[at:at + 4] = b"PK\x09\x09"
    elif damage == "its local header's name":
        data[at + 30:at + 31] = b"b"
    elif damage == "its checksum":
        central = bytes(data).rindex(b"PK\x01\x02", 0, bytes(data).index(b"a.xml", info.header_offset + 40))
        struct.pack_into("<I", data, central + 16, info.CRC ^ 1)
    elif damage == "overlapping the next part":
        central = bytes(data).rindex(b"PK\x01\x02", 0, bytes(data).index(b"a.xml", info.header_offset + 40))
        struct.pack_into("<I", data, central + 20, info.compress_size + 200)
    return bytes(data)


@pytest.mark.parametrize("damage, refusal", [
    ("bytes of its data", None), ("declared smaller than it inflates to", "Bad CRC-32"),
    ("its local header's signature", "Bad magic number"), ("its local header's name", "File name in directory"),
    ("its checksum", "Bad CRC-32"), ("overlapping the next part", "Overlapped entries")])
def test_a_damaged_part_is_refused_as_zipfile_refuses_it(damage: str, refusal: str | None) -> None:
    data = damaged(damage)
    ours = read_directory(data)
    assert isinstance(ours, ZipDirectory)
    with pytest.raises((zipfile.BadZipFile, zlib.error, EOFError)) as mine:
        ours.read("a.xml")
    if refusal is not None:
        assert str(mine.value).startswith(refusal)
    if damage != "overlapping the next part":  # (zipfile before 3.12 reads past a part's end into the next)
        with pytest.raises((zipfile.BadZipFile, zlib.error, EOFError)) as theirs:
            zipfile.ZipFile(io.BytesIO(data)).read("a.xml")
        assert type(mine.value) is type(theirs.value)
    assert ours.read("c.bin") == PARTS["c.bin"]  # the others read as before


def test_a_part_in_an_unknown_compression_is_not_read() -> None:
    data = bytearray(plain_zip({"a.xml": b"<a/>"}))
    central = bytes(data).index(b"PK\x01\x02")
    struct.pack_into("<H", data, central + 10, 14)  # LZMA
    with pytest.raises(NotImplementedError):
        read_directory(bytes(data)).read("a.xml")

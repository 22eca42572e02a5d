"""Files that are not what they claim: each gets a clear message and exit code
2, in bounded time and memory (every case runs in its own process, which must
finish within the timeout), and is left as it was."""
from __future__ import annotations

import io
import os
import struct
import subprocess
import sys
import zipfile
import zlib
from pathlib import Path

import pytest
from workbook_helpers import copy_sample

from automation.samples import SAMPLE

TIMEOUT = 120
SIDES_PART = "xl/worksheets/sheet2.xml"


def musterroll_process(*argv: object) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "automation", *map(str, argv)], capture_output=True, text=True,
                          timeout=TIMEOUT, cwd=Path(__file__).resolve().parents[2])


def refused(book: Path, *expected: str, command: str = "refit") -> None:
    before = book.read_bytes() if book.is_file() else None
    run = musterroll_process(command, book)
    assert run.returncode == 2, (run.returncode, run.stderr[-2000:])
    assert run.stdout == "" and "Traceback" not in run.stderr
    assert run.stderr.startswith(f"musterroll: {book}"), run.stderr
    for text in expected:
        assert text in run.stderr, run.stderr
    if before is not None:
        assert book.read_bytes() == before


def members(path: Path) -> dict[str, bytes]:
    with zipfile.ZipFile(path) as z:
        return {n: z.read(n) for n in z.namelist()}


def zipped(parts: dict[str, bytes]) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
        for name, data in parts.items():
            z.writestr(name, data)
    return buf.getvalue()


def central_records(data: bytes) -> list[tuple[int, str]]:
    """(offset of each central directory record, member name)."""
    end = data.rfind(b"PK\x05\x06")
    count, _, start = struct.unpack_from("<HII", data, end + 10)
    out, at = [], start
    for _ in range(count):
        nlen, elen, clen = struct.unpack_from("<HHH", data, at + 28)
        out.append((at, data[at + 46:at + 46 + nlen].decode()))
        at += 46 + nlen + elen + clen
    return out


@pytest.fixture
def book(tmp_path: Path) -> Path:
    return copy_sample(tmp_path)


@pytest.mark.parametrize("payload, message", [
    (b"Side,Stand\nGerman,G-Pz-1\n", "not an .xlsx workbook (it is not a zip package)"),
    (b"", "not an .xlsx workbook (it is an empty file)"),
])
def test_a_file_that_is_not_a_zip_is_refused(book: Path, payload: bytes, message: str) -> None:
    book.write_bytes(payload)
    refused(book, message)
    refused(book, message, command="undo")


def test_a_zip_that_is_not_a_workbook_is_refused(book: Path) -> None:
    book.write_bytes(zipped({"[Content_Types].xml": b"<Types/>", "word/document.xml": b"<document/>"}))
    refused(book, "a zip file but not an .xlsx workbook (it has no xl/workbook.xml part)")


def test_a_password_protected_workbook_is_refused_with_advice(book: Path) -> None:
    from msoffcrypto.format.ooxml import OOXMLFile

    out = io.BytesIO()
    with SAMPLE.open("rb") as fh:
        OOXMLFile(fh).encrypt("umpire's secret", out)
    book.write_bytes(out.getvalue())
    refused(book, "the workbook is password-protected (encrypted) or in the old .xls format",
            "remove the password (File > Info > Protect Workbook)")
    refused(book, "password-protected", command="undo")


def test_a_zip_bomb_declaring_a_huge_part_is_refused_without_unpacking(book: Path) -> None:
    data = bytearray(book.read_bytes())
    at, name = next((at, n) for at, n in central_records(bytes(data)) if n == SIDES_PART)
    struct.pack_into("<I", data, at + 24, 3_000_000_000)  # uncompressed size
    book.write_bytes(bytes(data))
    refused(book, f"part {name} would unpack to 2861 MB; at most 200 MB per part is accepted")


def test_a_zip_bomb_compressed_a_thousand_to_one_is_refused(book: Path) -> None:
    parts = members(book)
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
        for name, data in parts.items():
            z.writestr(name, data)
        with z.open("xl/media/image1.png", "w") as fh:
            for _ in range(150):
                fh.write(bytes(2**20))
    book.write_bytes(buf.getvalue())
    refused(book, "part xl/media/image1.png is compressed", ":1, a zip bomb")


def test_a_part_that_unpacks_to_more_than_it_declares_is_refused(book: Path) -> None:
    """The Sides sheet declares 600 bytes but inflates to 100 MB: reading stops
    at what it declared and the check sum exposes it."""
    parts = members(book)
    parts[SIDES_PART] = parts[SIDES_PART] + b" " * (100 * 2**20)
    data = bytearray(zipped(parts))
    at, _ = next((at, n) for at, n in central_records(bytes(data)) if n == SIDES_PART)
    struct.pack_into("<I", data, at + 24, 600)
    local = struct.unpack_from("<I", data, at + 42)[0]
    struct.pack_into("<I", data, local + 22, 600)
    book.write_bytes(bytes(data))
    refused(book, f"part {SIDES_PART} is damaged (Bad CRC-32")


@pytest.mark.parametrize("keep", [0.5, 0.98])
def test_a_truncated_workbook_is_refused(book: Path, keep: float) -> None:
    data = book.read_bytes()
    book.write_bytes(data[:int(len(data) * keep)])
    refused(book, "not a complete .xlsx workbook: the file is damaged or cut short")


def test_a_workbook_with_a_damaged_sheet_is_refused_naming_the_part(book: Path) -> None:
    data = bytearray(book.read_bytes())
    at, _ = next((at, n) for at, n in central_records(bytes(data)) if n == SIDES_PART)
    local = struct.unpack_from("<I", data, at + 42)[0]
    nlen, elen = struct.unpack_from("<HH", data, local + 26)
    start = local + 30 + nlen + elen
    for i in range(start + 20, start + 60):
        data[i] ^= 0x55
    book.write_bytes(bytes(data))
    refused(book, f"part {SIDES_PART} is damaged", "use the last good copy of the workbook")


def test_an_entity_bomb_in_the_workbook_part_is_refused(book: Path) -> None:
    parts = members(book)
    laughs = "".join(f'<!ENTITY l{i} "{"&l%d;" % (i - 1) * 10 if i else "lol"}">' for i in range(10))
    workbook = parts["xl/workbook.xml"].decode()
    head, _, rest = workbook.partition("?>")
    parts["xl/workbook.xml"] = f"{head}?><!DOCTYPE workbook [{laughs}]>{rest}".replace(
        'name="Campaign"', 'name="&l9;"').encode()
    book.write_bytes(zipped(parts))
    refused(book, "part xl/workbook.xml declares a DTD or entities")


def test_a_folder_or_a_missing_file_is_refused(tmp_path: Path) -> None:
    refused(tmp_path, "is a folder, not a workbook")
    refused(tmp_path / "nowhere.xlsx", "no such file")


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="named pipes are a POSIX thing")
@pytest.mark.parametrize("command", ["refit", "stats"])
def test_a_pipe_given_as_the_workbook_is_refused_not_waited_on(tmp_path: Path, command: str) -> None:
    pipe = tmp_path / "campaign.xlsx"
    os.mkfifo(pipe)
    refused(pipe, "not a file", command=command)


def test_a_workbook_part_compressed_with_an_unknown_method_is_refused(book: Path) -> None:
    data = bytearray(book.read_bytes())
    for at, name in central_records(bytes(data)):
        if name == SIDES_PART:
            struct.pack_into("<H", data, at + 10, 99)
            local = struct.unpack_from("<I", data, at + 42)[0]
            struct.pack_into("<H", data, local + 8, 99)
    book.write_bytes(bytes(data))
    refused(book, SIDES_PART)


def test_zlib_is_what_inflates_the_parts() -> None:
    """The bomb cases above rely on deflate reaching 1000:1 on zeros."""
    assert len(zlib.compress(bytes(2**20), 9)) < 2**20 // 1000

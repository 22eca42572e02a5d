"""The package writer's zip reader (automation.workbook.zipraw.parse_zip)
finds each member where the zip directory says, and refuses a directory that
points where no member's local record is, or at one named otherwise."""
from __future__ import annotations

import io
import re
import zipfile

import pytest

from automation.errors import WorkbookFileError
from automation.workbook.zipraw import parse_zip

PARTS = {"[Content_Types].xml": b"<Types/>", "xl/workbook.xml": b"<workbook/>" * 40,
         "xl/worksheets/sheet1.xml": b"<worksheet/>" * 300}


def zipped(parts: dict[str, bytes] = PARTS) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:
        for name, data in parts.items():
            z.writestr(name, data)
    return out.getvalue()


def local_at(data: bytes, name: str) -> int:
    with zipfile.ZipFile(io.BytesIO(data)) as z:
        return z.getinfo(name).header_offset


def test_every_member_reads_as_written_and_is_found_by_its_name_in_any_case() -> None:
    found = parse_zip(zipped(), "book.xlsx")
    assert [m.name for m in found.members] == list(PARTS)
    assert {name: found.read(name.upper()) for name in PARTS} == PARTS


@pytest.mark.parametrize("name", list(PARTS))
def test_a_directory_pointing_where_no_local_record_starts_is_refused(name: str) -> None:
    data = bytearray(zipped())
    at = local_at(bytes(data), name)
    data[at:at + 4] = b"PK\x05\x05"
    with pytest.raises(WorkbookFileError, match=rf"member {re.escape(name)} has no local header"):
        parse_zip(bytes(data), "book.xlsx")


def test_a_local_record_named_otherwise_than_the_directory_says_is_refused() -> None:
    data = bytearray(zipped())
    at = local_at(bytes(data), "xl/workbook.xml")
    data[at + 30:at + 30 + len("xl/workbook.xml")] = b"xl/workbook.xmX"
    with pytest.raises(WorkbookFileError, match="member xl/workbook.xml is named differently in its local header"):
        parse_zip(bytes(data), "book.xlsx")


def test_a_directory_pointing_past_the_members_is_refused() -> None:
    data = bytearray(zipped())
    first = bytes(data).index(b"PK\x01\x02")  # the first directory record: its local record said to be at the end
    data[first + 42:first + 46] = (len(data) - 40).to_bytes(4, "little")
    with pytest.raises(WorkbookFileError, match=r"member \[Content_Types\]\.xml has no local header"):
        parse_zip(bytes(data), "book.xlsx")

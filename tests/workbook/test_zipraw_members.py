"""The package writer's zip reader (automation.workbook.zipraw.parse_zip)
finds each member where the zip directory says, and refuses a directory that
points where no member's local record is, or at one named otherwise: past
the members when the directory is read, and at a local record when the
member is first read or copied (an append reads and copies few of a long
campaign's members: the others' records stay where they are, unread)."""
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
    found = parse_zip(bytes(data), "book.xlsx")
    others = [other for other in PARTS if other != name]
    assert {other: found.read(other) for other in others} == {other: PARTS[other] for other in others}
    for use in (lambda: found.read(name), lambda: found.get(name).local, lambda: found.deflated(name)):
        with pytest.raises(WorkbookFileError, match=rf"member {re.escape(name)} has no local header"):
            use()


def test_a_local_record_named_otherwise_than_the_directory_says_is_refused() -> None:
    data = bytearray(zipped())
    at = local_at(bytes(data), "xl/workbook.xml")
    data[at + 30:at + 30 + len("xl/workbook.xml")] = b"xl/workbook.xmX"
    found = parse_zip(bytes(data), "book.xlsx")
    with pytest.raises(WorkbookFileError, match="member xl/workbook.xml is named differently in its local header"):
        found.read("xl/workbook.xml")


def test_a_directory_pointing_past_the_members_is_refused() -> None:
    data = bytearray(zipped())
    first = bytes(data).index(b"PK\x01\x02")  # the first directory record: its local record said to be at the end
    data[first + 42:first + 46] = (len(data) - 40).to_bytes(4, "little")
    with pytest.raises(WorkbookFileError, match=r"member \[Content_Types\]\.xml has no local header"):
        parse_zip(bytes(data), "book.xlsx")


def test_a_member_said_longer_than_the_room_before_the_next_is_refused_when_read() -> None:
    data = bytearray(zipped())
    record = bytes(data).index(b"PK\x01\x02")  # the first member's directory record
    data[record + 20:record + 24] = (10 ** 6).to_bytes(4, "little")  # its stored size
    found = parse_zip(bytes(data), "book.xlsx")
    assert found.read("xl/workbook.xml") == PARTS["xl/workbook.xml"]
    with pytest.raises(WorkbookFileError, match=r"member \[Content_Types\]\.xml is truncated or overlaps"):
        found.read("[Content_Types].xml")


def test_an_append_to_a_file_with_a_damaged_member_it_does_not_touch_copies_that_member_as_it_was(tmp_path) -> None:
    """The records below the parts a change rewrites stay where they are: not read, not checked, not changed."""
    import io as _io

    from automation.workbook.zipraw import tail_start, write_zip

    data = bytearray(zipped())
    at = local_at(bytes(data), "[Content_Types].xml")
    data[at:at + 4] = b"PK\x05\x05"  # damaged, and below the part the change rewrites
    found = parse_zip(bytes(data), "book.xlsx")
    start = tail_start(found, {"xl/workbook.xml"})
    assert start == local_at(bytes(data), "xl/workbook.xml")
    out = _io.BytesIO()
    written = write_zip(out, found, {"xl/workbook.xml": b"<workbook/>"}, set(), [], keep_below=start)
    whole = bytes(data[:start]) + out.getvalue()
    assert len(whole) == written.size and whole[:start] == bytes(data[:start])
    assert parse_zip(whole, "book.xlsx").read("xl/worksheets/sheet1.xml") == PARTS["xl/worksheets/sheet1.xml"]

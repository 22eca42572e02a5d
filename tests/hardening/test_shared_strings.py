"""A shared string is copied into every cell that takes it: the gate bounds
the text a sheet takes from the shared strings before the sheet is parsed."""
from __future__ import annotations

import random

import pytest

from automation.workbook.safety import SharedText

SMALL = [b"<si><t>Setting</t></si>", b"<si><t>Value</t></si>", b'<si><r><t>Rich</t></r><r><t>text</t></r></si>']
BIG = b"<si><t>" + bytes(random.Random(1).choices(b"abcdefghij", k=100_000)) + b"</t></si>"
SST = b'<sst xmlns="urn:x" count="4" uniqueCount="4">' + b"".join(SMALL) + BIG + b"</sst>"


def chunked(data: bytes, size: int) -> list[bytes]:
    return [data[i:i + size] for i in range(0, len(data), size)]


def strings(size: int = 1 << 20) -> SharedText:
    return SharedText(chunked(SST, size))


def sheet(*cells: bytes) -> bytes:
    return b'<worksheet><sheetData><row r="1">' + b"".join(cells) + b"</row></sheetData></worksheet>"


def taken(part: bytes, enough: int = 0, size: int = 1 << 20) -> int:
    return strings().taken(len(part), lambda: iter(chunked(part, size)), enough)


def test_each_string_is_measured_by_its_item_whatever_the_chunks() -> None:
    whole = strings().sizes
    assert len(whole) == 4 and whole[3] > 100_000 and strings().most == whole[3]
    assert all(strings(size).sizes == whole for size in (3, 64, 1000))


def test_a_sheet_taking_short_strings_takes_little_and_one_taking_the_long_one_often_takes_much() -> None:
    few = sheet(*(b'<c r="A%d" t="s"><v>%d</v></c>' % (i, i % 3) for i in range(1, 50)))
    many = sheet(*(b'<c r="A%d" t="s"><v>3</v></c>' % i for i in range(1, 50)))
    sizes = strings().sizes
    assert taken(few) == sum(max(sizes[0], sizes[i % 3]) for i in range(1, 50))
    assert taken(many) == 49 * sizes[3]


@pytest.mark.parametrize("value", [b"<v> 3 </v>", b"<v>x</v>", b"<v/>", b'<v a="1">3</v>', b"<x:v>3</x:v>",
                                   b"<v>03x</v>"])
def test_a_value_not_written_plainly_counts_as_the_longest_string(value: bytes) -> None:
    """A reader takes string 0 for a value it cannot read, or may read it as
    another index: so each such value is counted at the longest string."""
    part = sheet(*(b'<c r="A%d" t="s">%s</c>' % (i, value) for i in range(1, 30)))
    assert taken(part) >= 29 * strings().most


@pytest.mark.parametrize("size", [5, 17, 64, 4096])
def test_values_cut_between_chunks_are_all_counted(size: int) -> None:
    part = sheet(*(b'<c r="A%d" t="s"><v>%d</v></c>' % (i, 3 if i % 5 == 0 else 1) for i in range(1, 200)))
    sizes = strings().sizes
    assert taken(part, size=size) == 39 * sizes[3] + 160 * max(sizes[0], sizes[1])


def test_a_part_too_small_to_take_much_is_not_read() -> None:
    def unread() -> list[bytes]:
        raise AssertionError("read")
    assert strings().taken(100, unread, enough=10**9) == 100 // 4 * strings().most

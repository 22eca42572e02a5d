"""A plain zip's directory read into a tuple per part.

The gate reads a workbook's zip directory (:mod:`automation.workbook.zipdir`)
and the snapshot reads it to tell the sheet parts it copies when first read
(:mod:`automation.workbook.snapshot`): at a hundred dates a thousand records,
read once, when the snapshot is taken, and kept with it for the gate. A zip
is plain when Excel, LibreOffice or Musterroll could have written it: one
disk, no ZIP64, the directory just before its end record, no extra field in
a directory record, no name ``zipfile`` would alter. Anything else is left
to ``zipfile`` (:func:`automation.workbook.zipdir.read_directory`).
"""
from __future__ import annotations

import os
import struct
from typing import Any, NamedTuple

_RECORD = struct.Struct("<4s4xHH4xIIIHHH8xI")  # a directory record's signature, flags, method, CRC-32, sizes,
# name, extra and comment lengths, and local record's offset
_END = struct.Struct("<4xHHHHII")  # the end record's disks, its counts of records, the directory's size and start


class Entry(NamedTuple):
    """A part as the directory lists it: the fields of ``zipfile.ZipInfo`` the gate reads, by their names."""

    filename: str
    CRC: int
    compress_size: int
    file_size: int
    header_offset: int
    flag_bits: int
    compress_type: int
    end_offset: int  # where the next part (or the directory) starts: a part's data may not reach past it
    record_end: int  # where its directory record ends in the directory (the next one's start)


def plain_end(view: Any, pos: int, base: int = 0) -> tuple[int, int, int] | None:
    """(records, where the directory starts, its size) from the end record at
    ``pos`` of ``view`` (bytes of the zip from its byte ``base`` on), when the
    zip is plain (see the module); else None."""
    if pos < 20 and base > 0:  # (what lies before the end record is not in view: a ZIP64 locator may)
        return None
    disk, cd_disk, here, count, cd_size, cd_off = _END.unpack_from(view, pos)
    zip64 = pos >= 20 and view[pos - 20:pos - 16] == b"PK\x06\x07"  # (a ZIP64 locator before the end record)
    if disk or cd_disk or here != count or cd_off + cd_size != base + pos or zip64:
        return None
    return count, cd_off, cd_size


def plain_records(directory: bytes, count: int, cd_off: int) -> list[Entry] | None:
    """The ``count`` records of the directory ``directory`` (which starts at
    byte ``cd_off`` of the zip) as entries, each with where the next part
    starts; None when one is not plain (see the module)."""
    entries: list[tuple[str, int, int, int, int, int, int, int]] = []
    at, end = 0, len(directory)
    unpack = _RECORD.unpack_from
    for _ in range(count):
        if at + 46 > end:
            return None
        signature, flags, method, crc, csize, usize, nlen, elen, mlen, offset = unpack(directory, at)
        if signature != b"PK\x01\x02" or elen or 0xFFFFFFFF in (csize, usize, offset) or at + 46 + nlen + mlen > end:
            return None
        raw = directory[at + 46:at + 46 + nlen]
        name = raw.decode("ascii") if raw.isascii() else raw.decode("utf-8" if flags & 0x800 else "cp437")
        if "\x00" in name or (os.sep != "/" and os.sep in name):  # (zipfile would alter the name)
            return None
        at += 46 + nlen + mlen
        entries.append((name, crc, csize, usize, offset, flags, method, at))
    if at != end:
        return None
    starts = sorted({e[4] for e in entries})
    following = dict(zip(starts, starts[1:] + [cd_off]))
    new = tuple.__new__  # (each made in one step, without the named tuple's own constructor: a thousand and more)
    return [new(Entry, (*e[:7], following[e[4]], e[7])) for e in entries]


__all__ = ["Entry", "plain_end", "plain_records"]

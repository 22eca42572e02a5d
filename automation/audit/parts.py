"""The fingerprint of a sheet's stored part: what lets ``musterroll verify``
skip the cell-by-cell digest of a sheet that has not changed since it was sealed.

A fingerprint is the SHA-256 of the zip member as stored (its compressed
bytes) with its name, CRC-32, sizes and compression method, read through the
central directory without inflating anything: hashing the bytes costs little
next to parsing the sheet's XML and digesting every cell. A sheet's values
also depend on parts it shares with the others: the shared strings its cells
may point into, the styles whose number formats make a number read as a
date, and the workbook's 1904 date system; the fingerprint covers the stored
bytes of the first two and the flag of the third (appends never change them:
new sheets hold their strings inline and reuse the styles already there).

A ``part`` row of the chain pairs a sheet's fingerprint with the digest of its
values that was checked when the fingerprint was taken (``<fingerprint>
<digest>``). When the part still has that fingerprint, its bytes are those
whose values had that digest, so the values are the same and need no new
digest. Any save that rewrites the part (a spreadsheet program rewrites them
all) changes the fingerprint, and the sheet then takes the cell-by-cell path.
"""
from __future__ import annotations

import hashlib
import re
import struct
import weakref
from typing import Any

PREFIX = b"musterroll/part/v1\x00"
SHARED = ("xl/sharedStrings.xml", "xl/styles.xml")  # what a sheet's values may depend on besides its own part
LOCAL_HEADER = b"PK\x03\x04"


def fingerprint(book: Any, name: str) -> str | None:
    """The fingerprint of sheet ``name``'s stored part(s) in ``book`` (None when
    ``book`` is not a file read through the gate, or a part cannot be found)."""
    gate = getattr(book, "gate", None)
    if gate is None:
        return None
    parts = gate.sheet_targets().get(name, ())
    shared = _shared(gate)
    if not parts or shared is None:
        return None
    h = hashlib.sha256(PREFIX + shared)
    for part in parts:
        stored = _stored(gate, part)
        if stored is None:
            return None
        h.update(stored)
    return h.hexdigest()


def stamp(book: Any, name: str) -> str | None:
    """What the fingerprint of sheet ``name`` is a function of, as the zip
    directory tells it without reading a part: :func:`shared_stamp`, the
    names of the sheet's part(s) (two sheets of the same cells have parts of
    other names, and so other fingerprints), and the CRC-32 of the inflated
    bytes and the sizes of those parts and of the shared strings
    (:meth:`automation.workbook.reader.Workbook.part_stamp`). Equal stamps
    stand for equal values (a save that changes a part changes its CRC-32 or
    a size), so a fingerprint worked out before can be looked up by stamp
    (:class:`automation.audit.carried.ChainStore`). None where
    :func:`fingerprint` gives None."""
    shared = shared_stamp(book)
    own = book.part_stamp(name) if shared is not None else None
    if own is None:
        return None
    return "|".join((shared, *book.gate.sheet_targets().get(name, ()), own))


def shared_stamp(book: Any) -> str | None:
    """What every sheet's :func:`stamp` of ``book`` begins with: the date
    system, and the names, CRC-32, sizes and methods of the shared strings and
    styles (None for a book not read through the gate)."""
    gate = getattr(book, "gate", None)
    return None if gate is None or not hasattr(book, "part_stamp") else _shared_stamp(gate)


_SHARED: weakref.WeakKeyDictionary[Any, bytes | None] = weakref.WeakKeyDictionary()
_SHARED_STAMP: weakref.WeakKeyDictionary[Any, str] = weakref.WeakKeyDictionary()


def _shared_stamp(gate: Any) -> str:
    """The stamp of what every sheet's values depend on (see :func:`stamp`)."""
    if gate not in _SHARED_STAMP:
        infos = [gate.info(part) for part in SHARED]
        _SHARED_STAMP[gate] = ("1904" if _date1904(gate) else "1900") + "".join(
            f"|{i.filename}:{i.CRC:08x}:{i.compress_size}:{i.file_size}:{i.compress_type}" if i is not None
            else f"|{part}:none" for part, i in zip(SHARED, infos))
    return _SHARED_STAMP[gate]


def _shared(gate: Any) -> bytes | None:
    """The digest of what every sheet's values depend on (read once per package)."""
    if gate not in _SHARED:
        h = hashlib.sha256(b"1904" if _date1904(gate) else b"1900")
        for part in SHARED:
            stored = _stored(gate, part) if gate.info(part) is not None else b"(none)"
            if stored is None:
                _SHARED[gate] = None
                return None
            h.update(part.encode("ascii") + b"\x00" + stored)
        _SHARED[gate] = h.digest()
    return _SHARED[gate]


def _stored(gate: Any, part: str) -> bytes | None:
    """A member's directory entry and its bytes as stored, without inflating them."""
    info = gate.info(part)
    if info is None:
        return None
    fp = gate.archive.fp
    fp.seek(info.header_offset)
    head = fp.read(30)
    if len(head) < 30 or head[:4] != LOCAL_HEADER:
        return None
    fp.seek(info.header_offset + 30 + sum(struct.unpack("<HH", head[26:30])))
    stored = fp.read(info.compress_size)
    if len(stored) != info.compress_size:
        return None
    meta = f"{info.filename}|{info.CRC}|{info.compress_size}|{info.file_size}|{info.compress_type}"
    return meta.encode("utf-8") + b"\x00" + stored


def _date1904(gate: Any) -> bool:
    """The workbook's date system (``<workbookPr date1904="1"/>``)."""
    info = gate.info("xl/workbook.xml")
    head = gate.archive.read(info.filename)[:65536] if info is not None else b""
    return re.search(rb"<(?:\w+:)?workbookPr\b[^>]*\bdate1904=\"(1|true)\"", head) is not None


def part_value(print_: str, digest: str) -> str:
    """The value of a ``part`` row: the fingerprint and the digest of values it was checked against."""
    return f"{print_} {digest}"


def parse_value(value: str) -> tuple[str, str] | None:
    parts = value.split()
    return (parts[0], parts[1]) if len(parts) == 2 else None


__all__ = ["fingerprint", "parse_value", "part_value", "shared_stamp", "stamp"]

"""The fingerprint of a sheet's stored part: what lets ``musterroll verify``
skip the cell-by-cell digest of a sheet that has not changed since it was sealed.

A fingerprint is the SHA-256 of the zip member as stored (its compressed
bytes) with its name, CRC-32, sizes and compression method, read through the
central directory without inflating anything: hashing the bytes costs little
next to parsing the sheet's XML and digesting every cell.

A ``part`` row of the chain pairs a sheet's fingerprint with the digest of its
values that was checked when the fingerprint was taken (``<fingerprint>
<digest>``). When the part still has that fingerprint, its bytes are those
whose values had that digest, so the values are the same and need no new
digest. Any save that rewrites the part (a spreadsheet program rewrites them
all) changes the fingerprint, and the sheet then takes the cell-by-cell path.
"""
from __future__ import annotations

import hashlib
import struct
from typing import Any

PREFIX = b"musterroll/part/v1\x00"
LOCAL_HEADER = b"PK\x03\x04"


def fingerprint(book: Any, name: str) -> str | None:
    """The fingerprint of sheet ``name``'s stored part(s) in ``book`` (None when
    ``book`` is not a file read through the gate, or the part cannot be found)."""
    gate = getattr(book, "gate", None)
    if gate is None:
        return None
    parts = gate.sheet_targets().get(name, ())
    if not parts:
        return None
    h = hashlib.sha256(PREFIX)
    fp = gate.archive.fp
    for part in parts:
        info = gate.info(part)
        if info is None:
            return None
        fp.seek(info.header_offset)
        head = fp.read(30)
        if len(head) < 30 or head[:4] != LOCAL_HEADER:
            return None
        skip = sum(struct.unpack("<HH", head[26:30]))
        fp.seek(info.header_offset + 30 + skip)
        stored = fp.read(info.compress_size)
        if len(stored) != info.compress_size:
            return None
        meta = f"{info.filename}|{info.CRC}|{info.compress_size}|{info.file_size}|{info.compress_type}"
        h.update(meta.encode("utf-8") + b"\x00" + stored)
    return h.hexdigest()


def part_value(print_: str, digest: str) -> str:
    """The value of a ``part`` row: the fingerprint and the digest of values it was checked against."""
    return f"{print_} {digest}"


def parse_value(value: str) -> tuple[str, str] | None:
    parts = value.split()
    return (parts[0], parts[1]) if len(parts) == 2 else None


__all__ = ["fingerprint", "parse_value", "part_value"]

"""An export's leading sealed sheets, copied in one piece.

A side's export of a long campaign is mostly its sealed sheets in the
master's order: at 100 dates, 602 of its 610 sheets come one after the other
after the Export sheet (and after the orders to fill, when there are some);
the latest roster, the purchase record and the Dice audit come last. The part
of each is carried from export to export (:mod:`automation.pbem.partstore`),
and so are its local record in the file (header and data) and its directory
record but for where it starts, as long as the part has the same name. So the
run of them is kept as an export wrote it (:class:`Kept`), in a file beside
the side's store of parts, its parts numbered from 2 on wherever it starts
(:func:`automation.pbem.xlsxcarry.part_numbers`). The next export copies each
stretch of its leading sheets that are the run's, sheet for sheet (each one's
name, source and tab, and the layout they share), in one piece
(:class:`automation.workbook.zipraw.RawRun`: a sheet changed since, such as
the dates when the umpire adds one, only cuts the run in two), instead of
keying, finding, listing and writing six hundred parts one by one. The file is
the same bytes as one built without it (``tests/pbem/test_export_run.py``).

The run is kept anew when more than an eighth of the sheets it could hold
were not copied from it (``automation.pbem.xlsx.RUN_STALE``): an export after
a refit adds a few sheets, found one by one, and a run of 600 sheets (4 MB) is
written again every dozen dates or so, not on every export.

Like the store, the file is only work already done, written whole or not at
all: one that does not read back as written (another format, cut short, its
records not where it says) is not used, and the export finds its parts one by
one.
"""
from __future__ import annotations

import hashlib
import marshal
import mmap
import os
import struct
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

from automation.workbook.zipraw import RawRun, Written

MAGIC = b"MRRUN\x00\x01\x00"  # (the file's format: a change here is a file not read)
HEAD = struct.Struct("<8sQ")  # the magic, the length of the description that follows it
DIGEST = 32  # the SHA-256 of the description, after it


def sheet_part(number: int) -> str:
    """The part numbered ``number`` in an export (:func:`automation.pbem.xlsxcarry.part_numbers`)."""
    return f"xl/worksheets/sheet{number}.xml"


Sheet = tuple[str, str, str]  # a sheet of a run: (source, tab, name), its part a function of them and the layout


@dataclass(frozen=True)
class Kept:
    """The leading sheets of an export (its parts numbered from 2 on:
    :func:`automation.pbem.xlsxcarry.part_numbers`), as it wrote them: the
    layout their parts share (``layout``, :func:`automation.pbem.partstore.part_key`
    of it), each one's (source, tab, name) and part key (``sheets``, ``keys``),
    and their local and directory records (``run``)."""

    layout: str
    sheets: tuple[Sheet, ...]
    keys: tuple[str, ...]
    run: RawRun

    @property
    def count(self) -> int:
        return len(self.sheets)

    def agreeing(self, layout: str, sheets: Sequence[Sheet]) -> list[tuple[int, int]]:
        """Where ``sheets`` (in ``layout``) are this run's, sheet for sheet:
        each stretch of them (first, after last) whose entries may be copied
        as one piece (:meth:`piece`). A sheet changed since (the dates, when
        the umpire adds one) only cuts the run in two."""
        if layout != self.layout:
            return []
        spans: list[tuple[int, int]] = []
        start = None
        for i, (mine, theirs) in enumerate(zip(self.sheets, sheets)):
            if mine == theirs:
                start = i if start is None else start
            elif start is not None:
                spans.append((start, i))
                start = None
        if start is not None:
            spans.append((start, min(len(self.sheets), len(sheets))))
        return spans

    def piece(self, first: int, end: int) -> RawRun:
        """Entries ``first`` to ``end`` (not included), as one piece."""
        run = self.run
        at, record_at = run.starts[first], run.record_starts[first]
        return RawRun(run.blob[at:run.starts[end]], tuple(x - at for x in run.starts[first:end + 1]),
                      run.records[record_at:run.record_starts[end]],
                      tuple(x - record_at for x in run.record_starts[first:end + 1]))

    def write(self, out: BinaryIO) -> None:
        """The file (see :func:`read`)."""
        run = self.run
        about = marshal.dumps((self.layout, self.sheets, self.keys, run.starts, run.record_starts))
        out.write(HEAD.pack(MAGIC, len(about)) + about + hashlib.sha256(about).digest())
        out.write(run.records)
        out.write(run.blob)


@dataclass(frozen=True)
class Copy:
    """What an export copies of the run ``kept``: the stretches of its sheets
    (``spans``: first, after last) that are the export's."""

    kept: Kept
    spans: tuple[tuple[int, int], ...]

    def indexes(self) -> list[int]:
        """The index of each sheet copied, among the run's."""
        return [i for first, end in self.spans for i in range(first, end)]

    def pieces(self) -> dict[int, RawRun]:
        """Each stretch as one piece, by the number of its first part."""
        return {2 + first: self.kept.piece(first, end) for first, end in self.spans}


def read(path: Path) -> Kept | None:
    """The run kept in ``path`` (None: absent, or not as written)."""
    try:
        with path.open("rb") as fh:  # mapped where a file may be replaced while it is (as the store: not Windows)
            data: bytes | mmap.mmap = fh.read() if os.name == "nt" else \
                mmap.mmap(fh.fileno(), 0, access=mmap.ACCESS_READ)
    except (OSError, ValueError):  # absent, empty, or a file system that cannot map it
        return None
    try:
        magic, length = HEAD.unpack_from(data, 0)
        start = HEAD.size + length + DIGEST
        about = data[HEAD.size:HEAD.size + length]
        if magic != MAGIC or len(data) < start or hashlib.sha256(about).digest() != data[start - DIGEST:start]:
            return None
        layout, sheets, keys, starts, record_starts = marshal.loads(about)
    except (struct.error, ValueError, EOFError, TypeError):
        return None
    if not (type(layout) is str and all(type(x) is tuple for x in (sheets, keys, starts, record_starts))
            and len(starts) == len(record_starts) == len(sheets) + 1 == len(keys) + 1 and sheets
            and starts[0] == record_starts[0] == 0 and len(data) == start + record_starts[-1] + starts[-1]
            and all(type(k) is str for k in keys)
            and all(type(s) is tuple and len(s) == 3 and all(type(x) is str for x in s) for s in sheets)):
        return None
    view = memoryview(data)
    records, blob = view[start:start + record_starts[-1]], view[start + record_starts[-1]:]
    for number, (at, end), local in zip(range(2, len(sheets) + 2), zip(record_starts, record_starts[1:]), starts):
        name = sheet_part(number).encode("ascii")
        if records[at:at + 4] != b"PK\x01\x02" or records[at + 46:end] != name or \
                blob[local:local + 4] != b"PK\x03\x04" or blob[local + 30:local + 30 + len(name)] != name:
            return None
    return Kept(layout, sheets, keys, RawRun(blob, starts, records, record_starts))


def kept_after(written: Written, layout: str, sheets: Sequence[Sheet], keys: Mapping[int, str],
               earlier: Kept | None, copied: Sequence[tuple[int, int]]) -> Kept | None:
    """The run of the export just written (``written``), whose leading
    sheets (parts numbered from 2 on) are ``sheets`` in ``layout``: the
    stretches ``copied`` from ``earlier`` (and keyed there) and the others
    written anew, keyed ``keys`` (by their index among ``sheets``). ``earlier``
    when nothing changed; None when a sheet was not written as an export
    writes them (nothing to keep)."""
    if earlier is not None and earlier.layout == layout and earlier.sheets == tuple(sheets):
        return earlier
    blob: list[bytes | memoryview] = []
    records: list[bytes | memoryview] = []
    starts, record_starts, every_key = [0], [0], []
    from_earlier = {first: end for first, end in copied}
    i = 0
    while i < len(sheets):
        end = from_earlier.get(i)
        if end is not None and earlier is not None:
            run = earlier.run
            blob.append(run.blob[run.starts[i]:run.starts[end]])
            records.append(run.records[run.record_starts[i]:run.record_starts[end]])
            for k in range(i, end):
                starts.append(starts[-1] + run.starts[k + 1] - run.starts[k])
                record_starts.append(record_starts[-1] + run.record_starts[k + 1] - run.record_starts[k])
            every_key += earlier.keys[i:end]
            i = end
            continue
        name = sheet_part(2 + i)
        found, span = written.new.get(name), written.records.get(name)
        if found is None or span is None or i not in keys:
            return None
        _, head, body = found
        blob += [head, body]
        starts.append(starts[-1] + len(head) + len(body))
        records.append(written.directory[span[0]:span[1]])
        record_starts.append(record_starts[-1] + span[1] - span[0])
        every_key.append(keys[i])
        i += 1
    return Kept(layout, tuple(sheets), tuple(every_key),
                RawRun(b"".join(blob), tuple(starts), b"".join(records), tuple(record_starts)))

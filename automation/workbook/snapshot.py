"""A workbook's bytes, held once.

Every command reads the workbook, checks those bytes (the gate) and has
calamine parse exactly them. calamine reads a path, so the bytes are put in
an anonymous in-memory file that calamine opens by its path. Where the
system has anonymous in-memory files (Linux), :func:`take` has the kernel
copy the workbook into one of the command's own and maps it: one copy, and
the gate, calamine and a writer all read it.

A long campaign is mostly sheet parts that a command never reads: at 5,000
stands and 100 dates the file is 39 MB, of which a refit reads about 2 MB,
and copying it whole took 20 ms. So a sheet part (``xl/worksheets/*.xml``)
is copied when first read, whole (its local record, from its local header
on), from the descriptor the snapshot keeps open on the file it took;
everything else (the zip directory, the other parts: the lists, styles,
shared strings a parser reads when it opens the file) is copied at once.
Nothing reads a local header before it reads or copies the part: the zip
readers read the directory when they open the file
(:mod:`automation.workbook.zipraw`, :mod:`automation.workbook.zipdir`).
The small sheets were copied at once too until a hundred dates made eight
hundred of them, copied in two hundred pieces on every command.
Every read of the snapshot goes through :meth:`Snapshot.fill` (it is not a
buffer itself), so nothing reads a part before it is copied, and what is
copied never changes.

A part copied later is the part as it was when taken only if the file was
not written since (read whole, :func:`automation.workbook.journal.read_settled`
relies on the same): its size and time of modification are compared after
each copy, and a file written meanwhile by another program is refused, as a
writer refuses one. Nothing done to the file afterwards is seen: a file
replaced by another (as Excel and LibreOffice save) keeps its bytes for the
descriptor, and one cut short or written in place is refused. A write in
place by the command itself, from a point on
(:func:`automation.workbook.journal.rewrite_end`), copies what lies past that
point first and leaves the parts below it as they were
(:meth:`Snapshot.wrote_from`).

Elsewhere, or when that fails, the bytes are read whole.
"""
from __future__ import annotations

import bisect
import io
import mmap
import os
import re
import struct
import weakref
from pathlib import Path
from typing import Sequence

from automation.errors import WorkbookFileError
from automation.workbook import direntries
from automation.workbook.zipentries import Entry, plain_end
from automation.workbook.zipraw import end_record

STEP = 1 << 30  # the most one sendfile call is asked to copy
LAZY_PART = 1  # a sheet part at least this large is copied when first read (a smaller one at once): every one
SHEET_PART = re.compile(rb"xl/worksheets/[^/]+\.xml", re.IGNORECASE)
SHEET_NAME = re.compile(SHEET_PART.pattern.decode(), re.IGNORECASE)  # (the same, of a name read)
# of a central directory record: the stored size; the name's, extra field's and comment's lengths; the local header
CENTRAL = struct.Struct("<20xI4xHHH8xI")


class Snapshot:
    """The bytes of a workbook, held in an anonymous in-memory file of this
    process (``fd``, open while the snapshot lives) and mapped. Slices are
    bytes; :meth:`whole` is a buffer for hashing and comparing. Not a buffer
    itself: every read goes through :meth:`fill`."""

    __slots__ = ("fd", "entries", "_map", "_source", "_where", "_identity", "_starts", "_ends", "__weakref__")

    def __init__(self, fd: int, size: int, source: int | None = None, where: str = "",
                 lazy: Sequence[tuple[int, int]] = (), identity: tuple[int, ...] | None = None) -> None:
        """The snapshot in anonymous file ``fd`` (``size`` bytes), every byte
        copied but the parts ``lazy`` lists (where each one's local record
        starts, and where the part ends), copied from descriptor
        ``source`` of the file at ``where`` when first read, while its size and
        time of modification are still ``identity``."""
        self.fd = fd
        # the zip directory's entries, read when the snapshot was taken (a plain zip: automation.workbook.zipentries)
        self.entries: tuple[Entry, ...] | None = None
        self._map = mmap.mmap(fd, size, access=mmap.ACCESS_READ)
        self._source, self._where, self._identity = source, where, identity
        self._starts = [a for a, _ in lazy]
        self._ends = [b for _, b in lazy]

    @property
    def path(self) -> str:
        """A path that opens the in-memory file (a parser that reads a path reads exactly these bytes)."""
        return fd_path(self.fd)

    @property
    def pending(self) -> int:
        """How many parts are still to be copied when first read."""
        return len(self._starts)

    def __len__(self) -> int:
        return len(self._map)

    def __getitem__(self, key: int | slice) -> int | bytes:
        if self._starts:
            if isinstance(key, slice):
                start, stop, _ = key.indices(len(self._map))
                if start < stop:
                    self.fill(start, stop)
            else:
                at = key + len(self._map) if key < 0 else key
                self.fill(at, at + 1)
        return self._map[key]

    def __bytes__(self) -> bytes:
        return bytes(self.whole())

    def mapped(self) -> memoryview:
        """The mapping as copied so far (read-only), for a zip parser that
        copies a part before it reads it (:class:`automation.workbook.zipraw.RawMember`):
        the zip directory and every part but the sheets are copied when the
        snapshot is taken (:func:`lazy_parts`); a sheet part not yet copied,
        its local header with it, reads as zeros."""
        return memoryview(self._map).toreadonly()

    def whole(self) -> memoryview:
        """Every byte, copied (a read-only view of the mapping)."""
        if self._starts:
            self.fill(0, len(self._map))
        return memoryview(self._map).toreadonly()

    def fill(self, start: int, end: int) -> None:
        """Copy the parts not yet copied that bytes ``start`` to ``end`` fall in
        (each whole); refused if the file was written since it was taken."""
        i = bisect.bisect_right(self._ends, start)
        while i < len(self._starts) and self._starts[i] < end:
            assert self._source is not None
            try:
                whole = _send(self.fd, self._source, self._starts[i], self._ends[i])
                same = whole and _identity(self._source) == self._identity
            except OSError as exc:
                raise WorkbookFileError(f"{self._where}: cannot be read ({exc.strerror or exc})") from None
            if not same:
                raise WorkbookFileError(f"{self._where}: the workbook changed on disk while it was read (saved "
                                        "meanwhile?); nothing was written: run the command again")
            del self._starts[i], self._ends[i]

    def fill_part(self, header: int) -> None:
        """Copy the part whose local header is at ``header``, if not yet copied."""
        self.fill(header, header + 1)

    def wrote_from(self, start: int) -> None:
        """This command wrote the file in place from byte ``start`` on (every
        part from there on copied before): the parts below are as taken."""
        if self._starts and self._source is not None:
            self.fill(start, len(self._map))
            self._identity = _identity(self._source)


def _send(fd: int, source: int, start: int, end: int) -> bool:
    """Copy bytes ``start`` to ``end`` of ``source`` to the same place in ``fd``
    (by the kernel); whether the file held them all."""
    os.lseek(fd, start, os.SEEK_SET)
    while start < end:
        n = os.sendfile(fd, source, start, min(end - start, STEP))
        if n <= 0:
            return False
        start += n
    return True


def whole(data: bytes | Snapshot) -> bytes | memoryview:
    """``data`` as one buffer (a snapshot's every byte copied first)."""
    return data.whole() if isinstance(data, Snapshot) else data


def _identity(fd: int) -> tuple[int, ...]:
    """What a write of the file changes (not the time of a change of its
    links: the file may be replaced by another and unlinked, its bytes kept)."""
    st = os.fstat(fd)
    return st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns


def _close(*fds: int | None) -> None:
    for fd in fds:
        if fd is not None:
            os.close(fd)


def anonymous_file() -> int | None:
    """A new anonymous in-memory file of this process (its descriptor, closed
    on exec), where the system has them and a path opens them; else None."""
    memfd = getattr(os, "memfd_create", None)
    if memfd is None or not os.path.isdir("/proc/self/fd"):
        return None
    try:
        return memfd("musterroll-workbook", getattr(os, "MFD_CLOEXEC", 0))
    except OSError:
        return None


def fd_path(fd: int) -> str:
    """The path that opens this process's descriptor ``fd`` (see :func:`anonymous_file`)."""
    return f"/proc/self/fd/{fd}"


Listing = tuple[list[Entry], int, bytes]
"""A plain zip's entries, where its directory starts, and the bytes from there to its end, as read."""


def listing(source: int, size: int, keep: bool = True) -> tuple[list[tuple[int, int]] | None, Listing | None]:
    """The sheet parts copied when first read, as :func:`lazy_parts` finds
    them, and, for a plain zip, its directory read once: its entries, where
    it starts and the bytes from there on. The snapshot holds those entries
    for the gate (:attr:`Snapshot.entries`) when it holds those bytes (a file
    written between this read and the copy does not give its entries).
    ``keep``: a long directory's entries are taken as kept, or kept
    (:mod:`automation.workbook.direntries`): a master's, which every command
    after the append that wrote it reads again, not a returned file's."""
    tail_at = max(0, size - 65557)
    tail = os.pread(source, size - tail_at, tail_at)
    pos = end_record(tail)
    plain = plain_end(tail, pos, tail_at) if pos >= 0 else None
    if plain is None:
        return lazy_parts(source, size), None
    count, cd_off, cd_size = plain
    directory = tail[cd_off - tail_at:pos] if cd_off >= tail_at else os.pread(source, cd_size, cd_off)
    read = direntries.entries(directory, count, cd_off, keep, lambda found: sorted(
        {(e.header_offset, e.end_offset) for e in found  # (a start named twice: one part)
         if e.compress_size >= LAZY_PART and e.header_offset < e.end_offset <= cd_off
         and SHEET_NAME.fullmatch(e.filename)})) if len(directory) == cd_size else None
    if read is None:
        return lazy_parts(source, size), None
    entries, lazy = read
    return lazy, (entries, cd_off, directory + tail[pos:])


def lazy_parts(source: int, size: int) -> list[tuple[int, int]] | None:
    """The sheet parts of the zip in ``source`` (``size`` bytes) at least
    :data:`LAZY_PART` long, in file order: where each one's local record
    starts (its local header) and where it ends (the next part or the
    directory). None when the directory cannot be read plainly
    (the file is then copied whole, and the gate says what is wrong)."""
    tail_at = max(0, size - 65557)
    tail = os.pread(source, size - tail_at, tail_at)
    pos = end_record(tail)
    if pos < 0:
        return None
    count, cd_size, cd_off = struct.unpack_from("<10xHII", tail, pos)
    if cd_off + cd_size != tail_at + pos or 0xFFFF == count or cd_off > size:
        return None
    directory = tail[cd_off - tail_at:pos] if cd_off >= tail_at else os.pread(source, cd_size, cd_off)
    entries: list[tuple[int, int, bool]] = []
    at = 0
    for _ in range(count):
        if at + 46 > len(directory) or directory[at:at + 4] != b"PK\x01\x02":
            return None
        stored, nlen, elen, mlen, offset = CENTRAL.unpack_from(directory, at)
        sheet = stored >= LAZY_PART and SHEET_PART.fullmatch(directory, at + 46, at + 46 + nlen) is not None
        entries.append((offset, nlen, sheet))
        at += 46 + nlen + elen + mlen
    entries.sort()
    found: list[tuple[int, int]] = []
    for (offset, nlen, sheet), following in zip(entries, [e[0] for e in entries[1:]] + [cd_off]):
        if sheet and offset < following <= cd_off:
            found.append((offset, following))
    return found


def _read_all(fd: int) -> bytes:
    os.lseek(fd, 0, os.SEEK_SET)
    with open(fd, "rb", closefd=False) as fh:
        return fh.read()


def take(path: Path, keep: bool = True) -> bytes | Snapshot:
    """The bytes of the file at ``path`` as they are now: a :class:`Snapshot`
    where the system allows one, else ``bytes``. OSError as reading raises it."""
    fd = anonymous_file()
    if fd is None:
        return Path(path).read_bytes()
    source = os.open(path, os.O_RDONLY | getattr(os, "O_CLOEXEC", 0))
    snap: Snapshot | None = None
    try:
        identity = _identity(source)
        size = identity[2]
        lazy, listed = listing(source, size, keep) if size >= LAZY_PART else (None, None)
        try:
            at = 0
            for start, end in lazy or ():  # what lies between: the other parts, the directory
                if at < start and not _send(fd, source, at, start):
                    raise OSError("the file was cut short")
                at = end
            if not _send(fd, source, at, size) or os.fstat(fd).st_size != size:
                raise OSError("the file was cut short")
        except OSError:  # a file system the kernel cannot copy from this way: read as before
            return _read_all(source)
        if size == 0:  # nothing to map (an empty file: the gate says what it is)
            return b""
        if lazy:
            snap = Snapshot(fd, size, source, str(path), lazy, identity)
        else:
            snap = Snapshot(fd, size)
        if listed is not None and snap._map[listed[1]:] == listed[2]:  # the directory it holds is the one read
            snap.entries = tuple(listed[0])
        weakref.finalize(snap, _close, fd, snap._source)
        return snap
    finally:
        if snap is None:
            _close(fd, source)
        elif snap._source is None:
            os.close(source)


class _View(io.RawIOBase):
    """A read-only, seekable file over a buffer, without copying it (a zip
    reader reads a snapshot's directory and parts through it)."""

    def __init__(self, data: bytes | mmap.mmap | Snapshot) -> None:
        super().__init__()
        self._view: memoryview | Snapshot = data if isinstance(data, Snapshot) else memoryview(data)
        self._at = 0

    def readable(self) -> bool:
        return True

    def seekable(self) -> bool:
        return True

    def tell(self) -> int:
        return self._at

    def seek(self, offset: int, whence: int = io.SEEK_SET) -> int:
        base = {io.SEEK_SET: 0, io.SEEK_CUR: self._at, io.SEEK_END: len(self._view)}[whence]
        if base + offset < 0:
            raise ValueError("negative seek position")
        self._at = base + offset
        return self._at

    def read(self, size: int | None = -1) -> bytes:
        start = min(self._at, len(self._view))
        end = len(self._view) if size is None or size < 0 else min(start + size, len(self._view))
        self._at = max(self._at, end)
        return bytes(self._view[start:end])  # (a snapshot copies what is read first)

    def readinto(self, buffer: bytearray | memoryview) -> int:  # type: ignore[override]
        data = self.read(len(buffer))
        buffer[:len(data)] = data
        return len(data)


def as_file(data: bytes | mmap.mmap | Snapshot) -> io.IOBase:
    """A read-only file over ``data``, which it does not copy."""
    return io.BytesIO(data) if isinstance(data, bytes) else _View(data)


__all__ = ["Snapshot", "anonymous_file", "as_file", "fd_path", "take", "whole"]

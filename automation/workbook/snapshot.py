"""A workbook's bytes, held once.

Every command reads the workbook whole, checks those bytes (the gate) and
has calamine parse exactly them. calamine reads a path, so the bytes are put
in an anonymous in-memory file that calamine opens by its path. Read into
this process first and then written to that file, a 39 MB campaign was
copied twice (about 60 ms, and twice its size in memory). Where the system
has anonymous in-memory files (Linux), :func:`take` has the kernel copy the
workbook into one and maps it, read-only: one copy, and only the pages a
command touches (the zip directory, the parts it reads) come into its
memory. The file is the command's own: nothing another program does to the
workbook reaches it, and nobody can shorten it under the mapping.

Elsewhere, or when that fails, the bytes are read as before.
"""
from __future__ import annotations

import io
import mmap
import os
import weakref
from pathlib import Path

STEP = 1 << 30  # the most one sendfile call is asked to copy


class Snapshot(mmap.mmap):
    """The bytes of a workbook, held in an anonymous in-memory file of this
    process (``fd``, open while the snapshot lives) and mapped read-only.
    Slices are bytes; it is a buffer for hashing, comparing and zip parsing."""

    fd: int

    @property
    def path(self) -> str:
        """A path that opens the in-memory file (a parser that reads a path reads exactly these bytes)."""
        return fd_path(self.fd)


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


def take(path: Path) -> bytes | Snapshot:
    """The bytes of the file at ``path`` as they are now: a :class:`Snapshot`
    where the system allows one, else ``bytes``. OSError as reading raises it."""
    fd = anonymous_file()
    if fd is None:
        return Path(path).read_bytes()
    kept = False  # the descriptor is closed here unless a snapshot holds it
    try:
        with open(path, "rb", buffering=0) as src:
            size = 0
            try:
                while n := os.sendfile(fd, src.fileno(), size, STEP):
                    size += n
            except OSError:  # a file system the kernel cannot copy from this way: read as before
                src.seek(0)
                return src.readall()
        if size == 0:  # nothing to map (an empty file: the gate says what it is)
            return b""
        snap = Snapshot(fd, size, access=mmap.ACCESS_READ)
        snap.fd = fd
        weakref.finalize(snap, os.close, fd)
        kept = True
        return snap
    finally:
        if not kept:
            os.close(fd)


class _View(io.RawIOBase):
    """A read-only, seekable file over a buffer, without copying it (a zip
    reader reads a snapshot's directory and parts through it)."""

    def __init__(self, data: bytes | mmap.mmap) -> None:
        super().__init__()
        self._view = memoryview(data)
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
        return bytes(self._view[start:end])

    def readinto(self, buffer: bytearray | memoryview) -> int:  # type: ignore[override]
        data = self.read(len(buffer))
        buffer[:len(data)] = data
        return len(data)


def as_file(data: bytes | mmap.mmap) -> io.IOBase:
    """A read-only file over ``data``, which it does not copy."""
    return io.BytesIO(data) if isinstance(data, bytes) else _View(data)


__all__ = ["Snapshot", "anonymous_file", "as_file", "fd_path", "take"]

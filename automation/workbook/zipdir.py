"""A workbook's zip directory as the gate reads it (:mod:`automation.workbook.gatezip`).

``zipfile`` makes an object of a dozen fields for every part when it opens a
zip: 3.7 ms for the thousand parts of a campaign at 100 dates, on every
command. :class:`ZipDirectory` reads the same directory into a tuple per
part, and streams a part as ``zipfile`` does, with the same checks: the
local header's signature and name, no part overlapping the next, the
CRC-32 and size of what it inflates to. It reads the plain zips that Excel,
LibreOffice and Musterroll write; anything else (ZIP64, a directory record
with extra fields, bytes before the zip, a name ``zipfile`` would alter) is
left to ``zipfile`` itself (:func:`read_directory`), which reads it as before.
"""
from __future__ import annotations

import zipfile
import zlib
from collections.abc import Callable
from typing import Any

from automation.workbook.snapshot import Snapshot, as_file
from automation.workbook.zipentries import Entry, plain_end, plain_records
from automation.workbook.zipraw import LOCAL_HEADER, end_record

_CHUNK = 1 << 20


class ZipDirectory:
    """The parts of a plain zip (see the module), read as ``zipfile.ZipFile`` reads them."""

    def __init__(self, data: bytes | Snapshot, entries: list[Entry]) -> None:
        self.fp = as_file(data)
        self._entries = entries
        self.by_lower = {e.filename.lower(): e for e in entries}  # (two names alike but for case: refused later)
        self._by_name = {e.filename: e for e in entries}

    def infolist(self) -> list[Entry]:
        return list(self._entries)

    def getinfo(self, name: str) -> Entry:
        found = self._by_name.get(name)
        if found is None:
            raise KeyError(f"There is no item named {name!r} in the archive")
        return found

    def open(self, info: Entry | str) -> _Part:
        return _Part(self.fp, info if isinstance(info, Entry) else self.getinfo(info))

    def read(self, name: str) -> bytes:
        with self.open(name) as part:
            return part.read()


def data_start(read: Callable[[int, int], bytes], info: Entry) -> int:
    """Where part ``info``'s data starts, past its local header, as ``zipfile``
    checks that header (its signature, the directory's flags, its name) and
    that the data does not reach into the next part; ``read(at, size)``:
    bytes of the zip. BadZipFile (NotImplementedError, RuntimeError for
    flags it cannot read, UnicodeDecodeError for a name that is not text)
    when it is not as the directory says."""
    head = read(info.header_offset, LOCAL_HEADER.size)
    if len(head) != LOCAL_HEADER.size or head[:4] != b"PK\x03\x04":
        raise zipfile.BadZipFile("Bad magic number for file header")
    nlen, elen = LOCAL_HEADER.unpack(head)[9:]
    raw = read(info.header_offset + LOCAL_HEADER.size, nlen)
    flags = info.flag_bits  # (as zipfile: the directory's flags, not the local header's)
    if flags & 0x20:
        raise NotImplementedError("compressed patched data (flag bit 5)")
    if flags & 0x40:
        raise NotImplementedError("strong encryption (flag bit 6)")
    if flags & 0x1:
        raise RuntimeError(f"File {info.filename!r} is encrypted, password required for extraction")
    name = raw.decode("utf-8" if flags & 0x800 else "cp437")
    if name != info.filename:
        raise zipfile.BadZipFile(f"File name in directory {info.filename!r} and header {raw!r} differ.")
    start = info.header_offset + LOCAL_HEADER.size + nlen + elen
    if start + info.compress_size > info.end_offset:
        raise zipfile.BadZipFile(f"Overlapped entries: {info.filename!r} (possible zip bomb)")
    return start


class _Part:
    """One part's bytes, inflated as they are read, checked as ``zipfile`` checks them."""

    def __init__(self, fp: Any, info: Entry) -> None:
        self._fp, self._info = fp, info
        if info.compress_type not in (zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED):
            raise NotImplementedError("That compression method is not supported")
        self._at = data_start(lambda at, size: (fp.seek(at), fp.read(size))[1], info)
        self._stored_left, self._left = info.compress_size, info.file_size
        self._inflate = zlib.decompressobj(-15) if info.compress_type == zipfile.ZIP_DEFLATED else None
        self._crc, self._checked = 0, False

    def __enter__(self) -> _Part:
        return self

    def __exit__(self, *_: Any) -> None:
        return None

    def read(self, n: int = -1) -> bytes:
        """Up to ``n`` bytes (all that are left with ``n`` < 0); b"" at the end."""
        out: list[bytes] = []
        want, ended = self._left if n < 0 else min(n, self._left), False
        while want > 0:
            data = self._more(want)
            if not data:
                ended = True
                break
            out.append(data)
            want -= len(data)
        data = b"".join(out)
        self._crc = zlib.crc32(data, self._crc)
        self._left -= len(data)
        if (self._left == 0 or ended) and not self._checked:  # the end: inflated as the directory says?
            self._checked = True
            if self._crc != self._info.CRC:
                raise zipfile.BadZipFile(f"Bad CRC-32 for file {self._info.filename!r}")
        return data

    def _more(self, most: int) -> bytes:
        """The next inflated bytes, at most ``most``; b"" where the part's data ends."""
        inflate = self._inflate
        while True:
            if inflate is not None and inflate.unconsumed_tail:
                data = inflate.decompress(inflate.unconsumed_tail, most)
            elif inflate is not None and inflate.eof:
                return b""
            elif self._stored_left <= 0:
                if inflate is None:
                    return b""
                raise EOFError("Compressed file ended before the end-of-stream marker was reached")
            else:
                self._fp.seek(self._at)
                wanted = min(_CHUNK, self._stored_left) if inflate else min(_CHUNK, self._stored_left, most)
                stored = self._fp.read(wanted)
                if not stored:
                    raise EOFError("Compressed file ended before the end-of-stream marker was reached")
                self._at += len(stored)
                self._stored_left -= len(stored)
                data = stored if inflate is None else inflate.decompress(stored, most)
            if data:
                return data


def read_directory(data: bytes | Snapshot) -> ZipDirectory | zipfile.ZipFile:
    """The parts of the zip ``data``: a :class:`ZipDirectory` for a plain zip,
    else ``zipfile``'s reading of it (errors as ``zipfile`` raises them)."""
    entries = plain_entries(data)
    if entries is None:
        return zipfile.ZipFile(as_file(data))
    return ZipDirectory(data, entries)


def plain_entries(data: bytes | Snapshot) -> list[Entry] | None:
    """The directory's entries, when the zip is plain (see the module), else
    None: a snapshot's as read when it was taken (:attr:`Snapshot.entries`)."""
    kept = getattr(data, "entries", None)
    if kept is not None:
        return list(kept)
    pos = end_record(data)
    if pos < 0:
        return None
    mapped = getattr(data, "mapped", None)  # a snapshot: its directory is copied when it is taken
    view = mapped() if mapped is not None else memoryview(data)
    found = plain_end(view, pos)
    if found is None:
        return None
    count, cd_off, _ = found
    return plain_records(bytes(view[cd_off:pos]), count, cd_off)  # (records cut from bytes: faster than a view)


__all__ = ["Entry", "ZipDirectory", "data_start", "plain_entries", "read_directory"]

"""A side's export parts carried from one export to the next.

An export shows every sealed campaign sheet a side may see, date after date;
the sheet part written for one of them (its cells as XML, its columns, its
page setup) is the same on every export as long as the master sheet it comes
from is unchanged, the names scrubbed from it are the same, and Musterroll's
own code is. Each such part is kept compressed, as it went into the export,
in a zip beside the workbook (``.BOOK.xlsx.carried/parts-SIDE.zip``, see
:mod:`automation.pbem.carry`), named by a digest of all it depends on. The
next export copies it into the new file as stored, without building, scrubbing
or compressing it again.

The store is only work already done: it is replaced whole (a temporary file,
then a rename) by each export, holding exactly the parts that export used, and
anything unreadable in it is built again.
"""
from __future__ import annotations

import hashlib
import os
import struct
import tempfile
import zipfile
import zlib
from dataclasses import dataclass
from pathlib import Path
from typing import IO

LOCAL_HEADER = b"PK\x03\x04"
LEVEL = 6  # zlib's default, as zipfile compresses


@dataclass(frozen=True)
class Stored:
    """One member as stored in a zip: its deflated bytes, CRC-32 and size."""

    data: bytes
    crc: int
    size: int

    @classmethod
    def deflate(cls, raw: bytes) -> Stored:
        packer = zlib.compressobj(LEVEL, zlib.DEFLATED, -15)
        return cls(packer.compress(raw) + packer.flush(), zlib.crc32(raw), len(raw))

    @classmethod
    def read(cls, archive: zipfile.ZipFile, info: zipfile.ZipInfo) -> Stored | None:
        """``info``'s member as stored (deflated), without inflating it; None if it is not."""
        if info.compress_type != zipfile.ZIP_DEFLATED or archive.fp is None:
            return None
        fp: IO[bytes] = archive.fp
        fp.seek(info.header_offset)
        head = fp.read(30)
        if len(head) < 30 or head[:4] != LOCAL_HEADER:
            return None
        fp.seek(info.header_offset + 30 + sum(struct.unpack("<HH", head[26:30])))
        data = fp.read(info.compress_size)
        return cls(data, info.CRC, info.file_size) if len(data) == info.compress_size else None


def put(archive: zipfile.ZipFile, name: str, stored: Stored, like: zipfile.ZipInfo | None = None) -> None:
    """Add ``stored`` to ``archive`` (opened for writing) as member ``name``, as it is."""
    info = zipfile.ZipInfo(name, like.date_time if like is not None else (1980, 1, 1, 0, 0, 0))
    info.external_attr = like.external_attr if like is not None else 0o600 << 16
    info.compress_type = zipfile.ZIP_DEFLATED
    info.CRC, info.file_size, info.compress_size = stored.crc, stored.size, len(stored.data)
    if max(info.file_size, info.compress_size) >= zipfile.ZIP64_LIMIT:
        raw = zlib.decompress(stored.data, -15)  # too big to copy as it is: let zipfile write it
        archive.writestr(info, raw, compress_type=zipfile.ZIP_DEFLATED)
        return
    assert archive.fp is not None
    info.header_offset = archive.fp.tell()
    archive.fp.write(info.FileHeader(zip64=False))
    archive.fp.write(stored.data)
    archive.filelist.append(info)
    archive.NameToInfo[name] = info
    archive.start_dir = archive.fp.tell()
    archive._didModify = True


def part_key(*what: object) -> str:
    return hashlib.sha256(repr(what).encode("utf-8")).hexdigest()[:40]


class PartStore:
    """The parts an export of one side carried (see the module). :meth:`get`
    finds a part by its key; :meth:`keep` records a part this export used;
    :meth:`save` replaces the store with what was kept."""

    def __init__(self, path: Path | None) -> None:
        self.path = path
        self._old: dict[str, Stored] | None = None
        self._kept: dict[str, Stored] = {}

    @classmethod
    def of(cls, folder: Path | None, side: str) -> PartStore:
        if folder is None:
            return cls(None)
        return cls(Path(folder) / f"parts-{hashlib.sha256(side.encode('utf-8')).hexdigest()[:16]}.zip")

    def _load(self) -> dict[str, Stored]:
        if self._old is None:
            self._old = {}
            if self.path is not None:
                try:
                    with zipfile.ZipFile(self.path) as archive:
                        for info in archive.infolist():
                            found = Stored.read(archive, info)
                            if found is not None:
                                self._old[info.filename] = found
                except (OSError, zipfile.BadZipFile, ValueError, struct.error):
                    self._old = {}
        return self._old

    def get(self, key: str) -> Stored | None:
        if self.path is None:
            return None
        found = self._load().get(key)
        if found is not None:
            self._kept[key] = found
        return found

    def keep(self, key: str, stored: Stored) -> None:
        if self.path is not None:
            self._kept[key] = stored

    def save(self) -> None:
        """Write the parts kept (best effort: a store that cannot be written
        only means the parts are built again next time)."""
        if self.path is None or (self._old is None and not self._kept) \
                or (self._old is not None and set(self._old) == set(self._kept)):
            return
        try:
            self.path.parent.mkdir(exist_ok=True)
            fd, tmp = tempfile.mkstemp(dir=self.path.parent, prefix=".parts-", suffix=".tmp")
            try:
                with os.fdopen(fd, "wb") as fh, zipfile.ZipFile(fh, "w") as archive:
                    for key in sorted(self._kept):
                        put(archive, key, self._kept[key])
                os.replace(tmp, self.path)
            except BaseException:
                Path(tmp).unlink(missing_ok=True)
                raise
        except OSError:
            return

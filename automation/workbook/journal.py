"""A workbook changed in place at its end, with a journal to roll it back.

Most changes of a long campaign's workbook touch only its end: the parts that
list every sheet (kept last, see :func:`automation.workbook.zipraw.write_zip`),
the sheets of the last batch and the zip directory. Such a change rewrites the
file from where its first changed part starts, instead of writing the whole
file anew beside it (:func:`automation.workbook.pkgfile.replace` chooses).

Crash safety comes from a journal, as a database keeps one: before the
workbook is touched, the bytes about to be overwritten are written, with the
sizes and SHA-256s that tell the old end from the new, to
``.~NAME.<hash>.journal`` beside it and fsynced. Then the new end is written,
the file cut to its new size and fsynced, and the journal removed. A write cut
short (a crash, a killed process, a full disk) leaves the journal; whatever
next reads or writes the workbook (every command does, through
:func:`read_settled`) first puts the old end back, under the write lock,
unless the new end was wholly written. A reader never keeps bytes it read
while a write of it was under way. A journal that was itself cut short never touched the
workbook and is dropped; one whose workbook no longer holds the bytes kept
before the changed end (the file was replaced meanwhile) is dropped without
touching it.
"""
from __future__ import annotations

import hashlib
import mmap
import os
import struct
from pathlib import Path
from typing import BinaryIO, Callable, TypeVar

from automation.errors import WorkbookFileError
from automation.workbook.lock import real_path, temp_prefix, writing
from automation.workbook.snapshot import Snapshot

T = TypeVar("T")
MAGIC = b"MRJ1"
HEAD = struct.Struct("<QQQ32s32s32s")  # start, old size, new size; SHA-256 of the new end, the old end, the kept bytes
KEPT = 4096  # the bytes just before the changed end, fingerprinted: the file is still the one written


def journal_path(real: Path) -> Path:
    return real.with_name(temp_prefix(real) + "journal")


def _kept(data: bytes | mmap.mmap, start: int) -> bytes:
    return hashlib.sha256(data[max(0, start - KEPT):start]).digest()


def _sync_folder(folder: Path) -> None:
    if hasattr(os, "O_DIRECTORY"):
        fd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


def rewrite_end(where: str, real: Path, before: bytes, start: int, end: bytes,
                reads_back: Callable[[mmap.mmap], bool]) -> None:
    """Replace the bytes of ``real`` (holding ``before``) from ``start`` on
    with ``end``; ``reads_back`` checks the file afterwards. Rolled back, and
    refused, if anything fails; the caller holds the write lock.

    Refused, with nothing written, unless the file still holds ``before``:
    its size and its bytes from ``start`` on are compared, not the bytes
    before. Those hold the zip directory, which pins the CRC-32, the sizes
    and the place of every part: a program that changed any part of the
    file also changed them."""
    journal = journal_path(real)
    old = before[start:]
    try:
        fh = open(real, "r+b")  # (refused here, as by a program holding it, before anything is written)
    except OSError as exc:
        raise _unchanged(where, exc) from None
    with fh:
        try:
            same = os.fstat(fh.fileno()).st_size == len(before) and _read_at(fh, start, len(old) + 1) == old
        except OSError as exc:
            raise _unchanged(where, exc) from None
        if not same:
            raise WorkbookFileError(f"{where}: the workbook changed since it was read (saved meanwhile?); "
                                    "nothing was written")
        head = MAGIC + HEAD.pack(start, len(before), start + len(end), hashlib.sha256(end).digest(),
                                 hashlib.sha256(old).digest(), _kept(before, start))
        try:
            with open(journal, "wb") as jh:
                jh.write(head)
                jh.write(old)
                jh.flush()
                os.fsync(jh.fileno())
            _sync_folder(real.parent)
        except OSError as exc:
            _drop(journal)
            raise _unchanged(where, exc) from None
        failed: OSError | None = None
        try:
            _write_at(fh, start, end)
            with mmap.mmap(fh.fileno(), 0, access=mmap.ACCESS_READ) as back:
                good = reads_back(back)
        except OSError as exc:
            failed, good = exc, False
    if not good:
        try:
            recover(real, force=True)
        except OSError:
            why = (failed.strerror or failed) if failed is not None else "the new workbook did not read back"
            raise WorkbookFileError(f"{where}: a write was cut short ({why}) and could not be rolled back yet; "
                                    f"{journal.name} beside it holds what is needed: run any Musterroll command "
                                    "on the workbook again") from None
        if failed is not None:
            raise _unchanged(where, failed) from None
        raise WorkbookFileError(f"{where}: internal error: the new workbook did not read back; nothing was written")
    _drop(journal)
    if isinstance(before, Snapshot):  # what it holds below ``start`` is still the file's
        before.wrote_from(start)


def _unchanged(where: str, exc: OSError) -> WorkbookFileError:
    return WorkbookFileError(f"{where}: could not be written ({exc.strerror or exc}); it is unchanged")


def _identity(real: Path) -> tuple[int, ...] | None:
    try:
        st = os.stat(real)
    except OSError:
        return None
    return st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns


def _read_at(fh: BinaryIO, start: int, size: int) -> bytes:
    fh.seek(start)
    return fh.read(size)


def _write_at(fh: BinaryIO, start: int, data: bytes) -> None:
    """The file from ``start`` on becomes ``data``, on the disk when this returns."""
    fh.seek(start)
    fh.write(data)
    fh.truncate()
    fh.flush()
    os.fsync(fh.fileno())


def _drop(journal: Path) -> None:
    try:
        journal.unlink()
    except FileNotFoundError:
        pass


def recover(real: Path, force: bool = False) -> bool:
    """Roll back the write of ``real`` its journal tells of, unless it was
    wholly written (``force``: even then); drop the journal. Whether the
    workbook's bytes were changed. The caller holds the write lock."""
    journal = journal_path(real)
    try:
        raw = journal.read_bytes()
    except FileNotFoundError:
        return False
    if len(raw) < len(MAGIC) + HEAD.size or not raw.startswith(MAGIC):
        _drop(journal)  # cut short before the workbook was touched
        return False
    start, old_size, new_size, new_sha, old_sha, kept = HEAD.unpack_from(raw, len(MAGIC))
    old = raw[len(MAGIC) + HEAD.size:]
    if hashlib.sha256(old).digest() != old_sha or start + len(old) != old_size:
        _drop(journal)
        return False
    changed = False
    try:
        fh = open(real, "r+b")
    except FileNotFoundError:  # the workbook is gone: nothing to roll back
        _drop(journal)
        return False
    with fh:
        if os.fstat(fh.fileno()).st_size >= start > 0:  # (a file cut below the kept bytes is not the one written)
            with mmap.mmap(fh.fileno(), 0, access=mmap.ACCESS_READ) as now:
                ours = _kept(now, start) == kept
                done = len(now) == new_size and hashlib.sha256(now[start:]).digest() == new_sha
            if ours and (force or not done):
                _write_at(fh, start, old)
                changed = True
    _drop(journal)
    return changed


def read_settled(path: Path | str, read: Callable[[], T]) -> T:
    """``read()`` (the bytes of the workbook at ``path``), never while a write
    of it in place is under way, and only after a write of it cut short is
    rolled back (see the module notes).

    Without taking a lock, as a rule: a write in place keeps its journal from
    before it touches the workbook until the workbook is on the disk, and
    changes the file's size or time of change. So bytes read while no journal
    was there, before or after, of a file whose identity, size and times of
    change are the same after the read as before, were read whole. Else the
    workbook is read again under the write lock, which a writer holds through
    its whole write (and a write cut short is rolled back first)."""
    real = real_path(path)
    before = _identity(real)
    if before is None:
        return read()  # (says what is wrong with the file)
    if not journal_path(real).exists():
        data = read()
        if not journal_path(real).exists() and _identity(real) == before:
            return data
    if not os.access(real.parent, os.W_OK):  # no journal can be made there, so no write in place is under way
        if journal_path(real).exists():
            raise WorkbookFileError(f"{path}: a write of this workbook was cut short and cannot be rolled back "
                                    f"in a folder that cannot be written; {journal_path(real).name} beside it "
                                    "holds what is needed: make the folder writable and run the command again")
        return read()
    with writing(real):
        try:
            recover(real)
        except OSError as exc:
            raise WorkbookFileError(f"{path}: a write of this workbook was cut short and cannot be rolled back "
                                    f"({exc.strerror or exc}); {journal_path(real).name} beside it holds what "
                                    "is needed: make the workbook writable and run the command again") from None
        return read()


__all__ = ["journal_path", "read_settled", "recover", "rewrite_end"]

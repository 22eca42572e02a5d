"""The workbook file under a change (see :mod:`automation.workbook.package`):
read once for it, refused while another program holds it, and changed
whole or not at all. A change that leaves the first half of the file as it
is rewrites the file from there in place, under a journal
(:mod:`automation.workbook.journal`); any other writes the new package
beside it, fsyncs it, reads it back and moves it over the workbook. Either
is done only if the file is still the one read."""
from __future__ import annotations

import hashlib
import io
import mmap
import os
import struct
import tempfile
import zlib
from pathlib import Path
from typing import Callable, Mapping, Sequence, TypeVar

from automation.errors import WorkbookFileError
from automation.workbook import journal
from automation.workbook.gate import Gate
from automation.workbook.lock import temp_prefix
from automation.workbook.snapshot import Snapshot, take, whole
from automation.workbook.xmlparts import check_well_formed
from automation.workbook.zipraw import ANEW_LEVEL, MAX_FILE, Deflated, RawZip, Written, tail_start, write_zip


T = TypeVar("T")

LAST = frozenset({"[content_types].xml", "xl/_rels/workbook.xml.rels", "xl/workbook.xml", "docprops/app.xml",
                  "xl/styles.xml"})
"""The parts a change of the workbook edits (see :mod:`automation.workbook.package`), kept at the end of the
file, after the sheets, with any other part a change edits: the next change rewrites the file from there."""


def read(path: Path) -> bytes:
    """The workbook's bytes (a missing, unreadable or 2 GB file refused; never
    halfway through a write of it: :func:`automation.workbook.journal.read_settled`)."""
    return journal.read_settled(path, lambda: _checked(path, path.read_bytes))


def read_held(path: Path) -> bytes | Snapshot:
    """As :func:`read`, held as a reader holds them (:func:`automation.workbook.snapshot.take`):
    a sheet part is copied when first read, so a change that reads none (undo)
    does not copy a long campaign's forty megabytes."""
    return journal.read_settled(path, lambda: _checked(path, lambda: take(path)))


def _checked(path: Path, read_it: Callable[[], T]) -> T:
    try:
        if not path.is_file():
            raise WorkbookFileError(f"{path}: no such workbook")
        if path.stat().st_size > MAX_FILE:
            raise WorkbookFileError(f"{path}: 2 GB or more; refused")
        return read_it()
    except OSError as exc:
        raise WorkbookFileError(f"{path}: cannot be read ({exc.strerror or exc})") from None


def read_for_change(path: Path, expected_digest: str | None, reader_gate: Gate | None = None
                    ) -> tuple[Path, bytes | Snapshot, str | None]:
    """The file behind ``path``, its bytes and their SHA-256 (None when not
    needed): refused if it is not what was read (``expected_digest``), is open
    in Excel or LibreOffice, or cannot be opened for writing. ``reader_gate``:
    the gate of the bytes this command's reader read, which the change is made on
    (found without working out their SHA-256, which grows with the file)."""
    real = Path(os.path.realpath(path))
    if reader_gate is not None and reader_gate.data is None:
        raise WorkbookFileError(f"{path}: internal error: the reader's bytes are not held (a bug in Musterroll)")
    held = reader_gate if reader_gate is not None else \
        Gate.held(str(path), expected_digest) if expected_digest is not None else None
    if held is not None and held.data is not None:
        # the bytes its reader read and still holds: not read again (the workbook is compared with them
        # before it is written: its end in place, or the whole file before the new one takes its place)
        data, digest = held.data, held.digest if expected_digest is not None else None
    else:  # (the package takes a reader's gate for these bytes, if one is held: Gate.passed_for)
        data = read_held(real)
        digest = None if expected_digest is None else hashlib.sha256(whole(data)).hexdigest()
    if expected_digest is not None and digest != expected_digest.lower():
        raise WorkbookFileError(f"{path}: the workbook changed since it was read (saved meanwhile?); "
                                "nothing was written")
    for lock in (real.with_name("~$" + real.name), real.with_name(f".~lock.{real.name}#")):
        if lock.exists():
            raise WorkbookFileError(f"{path}: the workbook is open in Excel or LibreOffice ({lock.name} exists); "
                                    "close it first")
    try:
        with open(real, "r+b"):
            pass
    except OSError as exc:
        raise WorkbookFileError(f"{path}: cannot be opened for writing; is it open in another program? "
                                f"({exc.strerror or exc})") from None
    return real, data, digest


def replace(path: Path, real: Path, before: bytes, source: RawZip, replaced: Mapping[str, bytes | Deflated],
            removed: set[str] | frozenset[str], added: Sequence[tuple[str, bytes | Deflated]],
            checked: frozenset[str] = frozenset()) -> Written:
    """Write ``source`` changed (see :func:`automation.workbook.zipraw.write_zip`)
    over the workbook (``real``, still holding ``before``): from its first
    changed part on, in place (:func:`automation.workbook.journal.rewrite_end`),
    when that leaves at least half of the file as it is; else whole, to a
    temporary file beside the workbook moved over it. Either is read back
    first. The parts edited as text are checked to be well-formed XML once
    more (by expat, without building a tree: they are edits of parts the gate
    and the parser accepted); the new sheets come from XlsxWriter and are not
    parsed again; nor are the parts ``checked`` (an append's lists, whose
    edits were checked as they were made:
    :func:`automation.workbook.xmlparts.inserted_well_formed`). A part
    given as stored (:class:`~automation.workbook.zipraw.Deflated`: the
    file's own bytes of an earlier state, which undo puts back) is written
    as it is, and read back as the bytes written. Returns what was written
    (the new zip directory ends the file)."""
    for name, data in replaced.items():
        if name.lower().endswith((".xml", ".rels")) and name not in checked and not isinstance(data, Deflated):
            check_well_formed(data, name)
    # the parts every change writes anew are deflated fast: the next change writes them again
    lowered: dict[str, bytes | Deflated] = {
        k.lower(): Deflated.of(v, ANEW_LEVEL) if k.lower() in LAST and not isinstance(v, Deflated) else v
        for k, v in replaced.items()}
    last = LAST | set(lowered)
    start = tail_start(source, last | removed)
    if start is not None and len(before) - start <= len(before) // 2:
        end = io.BytesIO()
        written = write_zip(end, source, lowered, removed, added, last=last, keep_below=start)
        journal.rewrite_end(str(path), real, before, start, end.getvalue(),
                            lambda back: _reads_back(back, written, replaced))
        return written
    tmp = None
    try:
        fd, tmp = tempfile.mkstemp(prefix=temp_prefix(real), suffix=".tmp", dir=real.parent)
        with os.fdopen(fd, "w+b") as fh:
            wrote = write_zip(fh, source, lowered, removed, added, last=last)
            fh.flush()
            os.fsync(fh.fileno())
            with mmap.mmap(fh.fileno(), 0, access=mmap.ACCESS_READ) as back:  # read back, not copied
                good = _reads_back(back, wrote, replaced)
            if not good:
                raise WorkbookFileError(f"{path}: internal error: the new workbook did not read back; "
                                        "nothing was written")
        os.chmod(tmp, os.stat(real).st_mode & 0o7777)
        if not same_bytes(real, before):
            raise WorkbookFileError(f"{path}: the workbook changed since it was read (saved meanwhile?); "
                                    "nothing was written")
        os.replace(tmp, real)
        tmp = None
        if hasattr(os, "O_DIRECTORY"):  # make the rename itself durable
            dir_fd = os.open(real.parent, os.O_RDONLY | os.O_DIRECTORY)
            try:
                os.fsync(dir_fd)
            finally:
                os.close(dir_fd)
        return wrote
    except OSError as exc:
        raise WorkbookFileError(f"{path}: could not be written ({exc.strerror or exc}); it is unchanged") from None
    finally:
        if tmp is not None and os.path.exists(tmp):
            os.unlink(tmp)


def _reads_back(back: mmap.mmap, wrote: Written, replaced: Mapping[str, bytes | Deflated]) -> bool:
    """Whether the file written (``back``) holds the directory and every part
    written anew as they were written, and each edited part inflates from it
    to its text (a part given as stored: its bytes are those written)."""
    return wrote.check(back) and all(isinstance(data, Deflated) or inflates_to(back, wrote.new[name.lower()], data)
                                     for name, data in replaced.items())


def inflates_to(back: bytes | mmap.mmap, record: tuple[int, bytes, bytes], data: bytes) -> bool:
    """Whether a member written anew (its offset, local header and data, as
    :class:`automation.workbook.zipraw.Written` keeps it) inflates from
    ``back`` to ``data``, with ``data``'s CRC-32 in its header."""
    at, head, body = record
    try:
        stored = zlib.decompressobj(-15).decompress(back[at + len(head):at + len(head) + len(body)], len(data) + 1)
    except zlib.error:
        return False
    return stored == data and struct.unpack_from("<I", head, 14)[0] == zlib.crc32(data)


def same_bytes(path: Path, data: bytes) -> bool:
    """Whether the file at ``path`` still holds exactly ``data``: compared a
    megabyte at a time, as bytes (no hashing), read into one buffer and
    compared with a view of ``data`` (no copy of either: a fresh megabyte a
    step cost six times the reading)."""
    view = memoryview(whole(data))
    buf = bytearray(min(len(data), 1 << 20) or 1)
    at = 0
    with open(path, "rb", buffering=0) as fh:
        while n := fh.readinto(buf):
            if at + n > len(data) or (buf if n == len(buf) else buf[:n]) != view[at:at + n]:
                return False
            at += n
    return at == len(data)

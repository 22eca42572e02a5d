"""The zip layer of :mod:`automation.workbook.package`: a small zip parser that
keeps every member's original bytes, and a writer that copies untouched members
raw and streams the result into a file (see the package's design notes)."""
from __future__ import annotations

import mmap
import struct
import zlib
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, BinaryIO, Callable, NamedTuple, Sequence

from automation.errors import WorkbookFileError

if TYPE_CHECKING:
    from automation.workbook.zipentries import Entry

MAX_MEMBER = 200 * 1024 * 1024
MAX_TOTAL = 16 * 1024 * 1024 * 1024  # declared, in all: nothing unpacks every part (the gate bounds each one)
MAX_FILE = 2 * 1024 * 1024 * 1024 - 1
ANEW_LEVEL = 1  # deflate level of a part every change writes anew (pkgfile.LAST) or every export draws anew
KEPT_LEVEL = 3  # deflate level of a part written once and kept (a sheet a refit appends, a sealed sheet an export
# carries): at 5,000 stands a refit's sheets deflate in 23 ms at 3 and 60 ms at 6, for 7% more bytes (1: 15 ms, 15%)


@dataclass(frozen=True)
class Deflated:
    """A member's data as a zip stores it: deflated, with the CRC-32 and size
    of what it inflates to (written by :func:`write_zip` as it is)."""

    body: bytes
    crc: int
    size: int

    @classmethod
    def of(cls, data: bytes, level: int = KEPT_LEVEL) -> Deflated:
        """``data`` deflated (``level``: :data:`ANEW_LEVEL` for a part every
        change writes anew, see :data:`automation.workbook.pkgfile.LAST`:
        faster again, a few percent larger)."""
        packer = zlib.compressobj(level, zlib.DEFLATED, -15)
        return cls(packer.compress(data) + packer.flush(), zlib.crc32(data), len(data))

    @classmethod
    def piece(cls, data: bytes) -> Deflated:
        """``data`` deflated as a piece of a longer member: ended by a full
        flush, not as the last block, so pieces deflated apart can be joined
        (:meth:`joined`)."""
        packer = zlib.compressobj(KEPT_LEVEL, zlib.DEFLATED, -15)
        return cls(packer.compress(data) + packer.flush(zlib.Z_FULL_FLUSH), zlib.crc32(data), len(data))

    def inflated(self) -> bytes | None:
        """What a piece inflates to, if that is its size and CRC-32 (else None)."""
        try:
            data = zlib.decompressobj(-15).decompress(self.body, self.size + 1)
        except zlib.error:
            return None
        return data if len(data) == self.size and zlib.crc32(data) == self.crc else None

    @classmethod
    def run(cls, pieces: Sequence[tuple[Deflated, bytes | None]], *more: bytes) -> Deflated:
        """``pieces`` (each with what it inflates to, or None: taken as its
        CRC-32 and size say) one after the other, as one piece: each ends
        with a full flush, so their bodies join as they are (and ``more``
        deflated bytes after them, not counted: see :meth:`joined`)."""
        crc, size = 0, 0
        for piece, data in pieces:
            crc = zlib.crc32(data, crc) if data is not None else crc32_combine(crc, piece.crc, piece.size)
            size += len(data) if data is not None else piece.size
        return cls(b"".join([*(p.body for p, _ in pieces), *more]), crc, size)

    @classmethod
    def joined(cls, pieces: Sequence[tuple[Deflated, bytes | None]], last: bytes) -> Deflated:
        """One member's data: ``pieces`` one after the other (:meth:`run`),
        then ``last`` deflated and finished, joined at once (the Dice audit
        of a long campaign is megabytes: copied once)."""
        packer = zlib.compressobj(KEPT_LEVEL, zlib.DEFLATED, -15)
        head = cls.run(pieces, packer.compress(last), packer.flush())
        return cls(head.body, zlib.crc32(last, head.crc), head.size + len(last))


_CRC_POLY = 0xEDB88320  # the zip CRC-32's polynomial, bits reversed


def _times_mod_poly(a: int, b: int) -> int:
    """a times b modulo the CRC-32 polynomial (bits reversed, as the CRC keeps them)."""
    m, p = 1 << 31, 0
    while True:
        if a & m:
            p ^= b
            if a & (m - 1) == 0:
                return p
        m >>= 1
        b = (b >> 1) ^ _CRC_POLY if b & 1 else b >> 1


_X_POWERS = [1 << 30]  # x to the power of 2 to the power of k, modulo the polynomial, for k = 0..31
for _ in range(31):
    _X_POWERS.append(_times_mod_poly(_X_POWERS[-1], _X_POWERS[-1]))


def crc32_combine(crc1: int, crc2: int, length2: int) -> int:
    """The CRC-32 of data A then data B, from A's CRC-32 (``crc1``), B's
    (``crc2``) and B's length: zlib's ``crc32_combine``, which Python's zlib
    does not offer (``tests/workbook/test_zipraw_crc.py`` checks it against
    ``zlib.crc32``). A run of rows carried deflated is joined to the rest of
    its sheet without being inflated to work its CRC-32 out."""
    shift, n, k = 1 << 31, length2, 3  # x to the power of 8 * length2: one power of 2 per bit of the length
    while n:
        if n & 1:
            shift = _times_mod_poly(_X_POWERS[k & 31], shift)
        n >>= 1
        k += 1
    return _times_mod_poly(shift, crc1) ^ crc2


class RawMember(NamedTuple):
    """One member as the zip directory lists it (a named tuple: a large
    package has thousands, and a tuple is made in one step). Its local
    record is found when first asked for (:attr:`local`, :attr:`data_start`),
    and checked then: where the directory says, of the name it says, not
    reaching into the next member. An append copies the records of most
    members untouched, where they lie, and reads none of them."""

    name: str
    central: bytes  # the original central directory record
    source: Any  # the zip's bytes (bytes, a mapped file or a snapshot), which the local record lies in
    method: int
    crc: int
    size: int
    offset: int  # where the local record starts
    data_len: int  # the stored (compressed) bytes
    following: int  # where the next member (or the directory) starts: the record may not reach past it
    where: str  # the file, for a refusal

    @property
    def held(self) -> Any:
        """The snapshot the record lies in, which copies a part when first read (None: plain bytes)."""
        return self.source if hasattr(self.source, "mapped") else None

    def _extent(self) -> tuple[int, int]:
        """(where the data starts in the local record, where the record ends
        in the zip), the record checked against the directory."""
        data, at = self.source, self.offset
        held = self.held
        if held is not None:  # a snapshot: the record copied first, from its local header on
            held.fill(at, at + 1)
        view = held.mapped() if held is not None else data
        signature, flags, nlen, elen = _LOCAL.unpack_from(view, at) if at + 30 <= self.following else (0, 0, 0, 0)
        if signature != 0x04034B50:
            raise WorkbookFileError(f"{self.where}: member {self.name} has no local header where the directory says")
        name_len = struct.unpack_from("<H", self.central, 28)[0]
        if nlen != name_len or view[at + 30:at + 30 + nlen] != self.central[46:46 + name_len]:
            raise WorkbookFileError(f"{self.where}: member {self.name} is named differently in its local header")
        start, following = 30 + nlen + elen, self.following
        end = at + start + self.data_len
        if flags & 0x08:  # a data descriptor follows: 12 to 24 bytes, with or without its signature
            if following - end in (12, 16, 20, 24):
                end = following
            else:
                wide = has_zip64(bytes(view[at + 30 + nlen:at + start]))
                end += (4 if data[end:end + 4] == b"PK\x07\x08" else 0) + (20 if wide else 12)
        if end > following:
            raise WorkbookFileError(f"{self.where}: member {self.name} is truncated or overlaps another member")
        return start, end

    @property
    def data_start(self) -> int:
        """Where the data starts in :attr:`local`."""
        return self._extent()[0]

    @property
    def local(self) -> memoryview:
        """The original local record: header, name, extra, data, descriptor
        (no copy; copied first from the file, where a snapshot holds it and has not)."""
        return self._record()[0]

    def stored_data(self) -> memoryview:
        """The member's data as stored (deflated or not), its record checked once."""
        record, start = self._record()
        return record[start:start + self.data_len]

    def _record(self) -> tuple[memoryview, int]:
        """The local record (see :attr:`local`) and where its data starts in it."""
        start, end = self._extent()  # (a snapshot's record copied by it, from its local header on)
        held = self.held
        return (held.mapped() if held is not None else memoryview(self.source))[self.offset:end], start


@dataclass(frozen=True)
class RawZip:
    where: str
    members: tuple[RawMember, ...]
    comment: bytes
    index: dict[str, RawMember]

    def get(self, name: str) -> RawMember | None:
        return self.index.get(name.lower())

    def read(self, name: str) -> bytes:
        m = self.get(name)
        if m is None:
            raise WorkbookFileError(f"{self.where}: part {name} is missing")
        if m.method not in (0, 8):
            raise WorkbookFileError(f"{self.where}: part {name} uses zip method {m.method}, which cannot be read")
        raw = m.stored_data()
        try:
            data = raw if m.method == 0 else zlib.decompressobj(-15).decompress(raw, m.size + 1)
        except zlib.error as exc:
            raise WorkbookFileError(f"{self.where}: part {name} is corrupt ({exc})") from None
        if len(data) != m.size or zlib.crc32(data) != m.crc:
            raise WorkbookFileError(f"{self.where}: part {name} is corrupt (size or CRC does not match)")
        return data

    def deflated(self, name: str) -> Deflated | None:
        """Member ``name`` as stored, if it is deflated (not inflated, not checked)."""
        m = self.get(name)
        if m is None or m.method != 8:
            return None
        return Deflated(bytes(m.stored_data()), m.crc, m.size)


EMPTY = RawZip("(new)", (), b"", {})
_CENTRAL = struct.Struct("<8xHH4xIIIHHH8xI")  # a directory record's flags, method, CRC-32, sizes, name, extra and
# comment lengths, and local record's offset
_LOCAL = struct.Struct("<I2xH18xHH")  # a local header's signature, flags, name and extra lengths
# every field of a local header and of a directory record, up to the name (the gate's zip reader reads them so,
# automation.workbook.zipdir; a member written anew is packed in one step)
LOCAL_HEADER = struct.Struct("<IHHHHHIIIHH")
DIRECTORY_RECORD = struct.Struct("<IHHHHHHIIIHHHHHII")


def parse_zip(data: Any, where: str) -> RawZip:
    """The members of the zip in ``data`` (bytes, a file mapped in memory, or
    a :class:`~automation.workbook.snapshot.Snapshot`); members view ``data``
    without copying it. The directory is read and checked here; each
    member's local record is found and checked when first read or copied
    (:class:`RawMember`). A snapshot has copied the zip directory when it
    was taken, and copies a member's record when it is first read."""
    mapped = getattr(data, "mapped", None)
    view = mapped() if mapped is not None else memoryview(data)

    def refuse(why: str) -> WorkbookFileError:
        return WorkbookFileError(f"{where}: {why}")

    if data[:8] == b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1":
        raise refuse("the workbook is password-protected or an old .xls file; save it as .xlsx")
    pos = end_record(data)
    if pos < 0:
        raise refuse("not an Excel workbook (.xlsx): it is not a zip archive")
    _, disk, cd_disk, n_here, count, cd_size, cd_off, clen = struct.unpack_from("<IHHHHIIH", view, pos)
    if data[max(0, pos - 20):pos - 16] == b"PK\x06\x07" or 0xFFFF in (count, n_here) or 0xFFFFFFFF in (cd_size, cd_off):
        raise refuse("ZIP64 archives are not supported (re-save the workbook in Excel)")
    if disk or cd_disk or n_here != count:
        raise refuse("multi-volume zip archives are not supported")
    if cd_off + cd_size != pos:
        raise refuse("the zip has unexpected bytes before or inside its directory")
    directory = bytes(view[cd_off:pos])  # copied once: its records are cut from it (a thousand, in a long campaign)
    entries = _read_before(getattr(data, "entries", None), directory, count)
    if entries is None:
        entries = _walk(directory, count, refuse)
    starts = sorted({e[7] for e in entries}) + [cd_off]
    following_of = dict(zip(starts, starts[1:]))
    if starts[-2:-1] and starts[-2] >= cd_off:  # (the last local record at or past the directory)
        name = next(e[0] for e in entries if e[7] >= cd_off)
        raise refuse(f"member {name} has no local header where the directory says")
    source = data if mapped is not None else view
    new = tuple.__new__  # (each made in one step, without the named tuple's own constructor: a thousand and more)
    members = tuple(new(RawMember, (name, central_record, source, method, crc, usize, offset, csize,
                                    following_of[offset], where))
                    for name, _, central_record, method, crc, csize, usize, offset in entries)
    index = {e[1]: member for e, member in zip(entries, members)}
    return RawZip(where, members, data[pos + 22:pos + 22 + clen], index)


def _walk(directory: bytes, count: int, refuse: Callable[[str], WorkbookFileError]
          ) -> list[tuple[str, str, bytes, int, int, int, int, int]]:
    """The ``count`` members of ``directory``, each record read and checked:
    (name, its lower case, its directory record, method, CRC-32, stored and
    unpacked sizes, where its local record starts)."""
    entries: list[tuple[str, str, bytes, int, int, int, int, int]] = []
    at, total, names = 0, 0, set()
    for _ in range(count):
        if at + 46 > len(directory) or not directory.startswith(b"PK\x01\x02", at):
            raise refuse("the zip directory is damaged")
        flags, method, crc, csize, usize, nlen, elen, mlen, offset = _CENTRAL.unpack_from(directory, at)
        raw_name = directory[at + 46:at + 46 + nlen]
        # (a name in ASCII reads alike either way, and ASCII is decoded without a code page's table)
        name = raw_name.decode("ascii") if raw_name.isascii() else \
            raw_name.decode("utf-8" if flags & 0x800 else "cp437")
        lower = name.lower()
        total += usize
        # every check at once, its message made only for a member that fails one
        if (csize == 0xFFFFFFFF or usize == 0xFFFFFFFF or offset == 0xFFFFFFFF or flags & 0x41 or usize > MAX_MEMBER
                or (elen and has_zip64(directory[at + 46 + nlen:at + 46 + nlen + elen])) or total > MAX_TOTAL
                or lower in names):
            for bad, why in (
                (0xFFFFFFFF in (csize, usize, offset) or has_zip64(directory[at + 46 + nlen:at + 46 + nlen + elen]),
                 "uses ZIP64, which is not supported"),
                (flags & 0x41, "is encrypted (password-protected workbooks cannot be edited)"),
                (usize > MAX_MEMBER, f"declares {usize} bytes; over the 200 MB limit (zip bomb?)"),
                (total > MAX_TOTAL, "brings the declared size over 16 GB in all; refused (zip bomb?)"),
                (lower in names, "appears twice in the zip"),
            ):
                if bad:
                    raise refuse(f"member {name} {why}")
        names.add(lower)
        end_at = at + 46 + nlen + elen + mlen
        entries.append((name, lower, directory[at:end_at], method, crc, csize, usize, offset))
        at = end_at
    if at > len(directory):
        raise refuse("the zip directory is damaged")
    return entries


def _read_before(kept: Sequence[Entry] | None, directory: bytes, count: int
                 ) -> list[tuple[str, str, bytes, int, int, int, int, int]] | None:
    """The members of ``directory`` from the entries a snapshot read of it
    when it was taken (:attr:`~automation.workbook.snapshot.Snapshot.entries`:
    a plain zip, :mod:`automation.workbook.zipentries`), when they pass every
    check of :func:`parse_zip` (checked at once: a plain zip's entries have
    no ZIP64 value and no extra field, which ``plain_records`` refuses); else
    None, and the directory is walked again (which says what fails)."""
    if not kept or len(kept) != count or kept[-1].record_end != len(directory):
        return None
    lowers = [e.filename.lower() for e in kept]
    if len(set(lowers)) != len(lowers) or any(e.flag_bits & 0x41 or e.file_size > MAX_MEMBER for e in kept) \
            or sum(e.file_size for e in kept) > MAX_TOTAL:
        return None
    starts = [0, *(e.record_end for e in kept)]
    return [(e.filename, lower, directory[at:end], e.compress_type, e.CRC, e.compress_size, e.file_size,
             e.header_offset) for e, lower, at, end in zip(kept, lowers, starts, starts[1:])]


def end_record(data: Any) -> int:
    """Where the zip's end record starts (the last one whose comment ends the file), or -1."""
    floor = max(0, len(data) - 65557)
    mapped = getattr(data, "mapped", None)  # a snapshot: read as copied (the end record found is the last one,
    tail = bytes((mapped() if mapped is not None else data)[floor:])  # in the copied directory's end)
    pos = tail.rfind(b"PK\x05\x06")
    while pos >= 0 and (pos + 22 > len(tail) or pos + 22 + struct.unpack_from("<H", tail, pos + 20)[0] != len(tail)):
        pos = tail.rfind(b"PK\x05\x06", 0, pos)
    return pos + floor if pos >= 0 else -1


def directory_of(data: Any) -> bytes | None:
    """The zip's directory as it ends the file (the central directory, its end
    record and comment: :attr:`Written.directory` of the write that made it),
    or None when the file does not end with one."""
    pos = end_record(data)
    if pos < 0:
        return None
    cd_size, cd_off = struct.unpack("<II", data[pos + 12:pos + 20])
    if cd_off + cd_size != pos:
        return None
    return bytes(data[cd_off:])


def has_zip64(extra: bytes) -> bool:
    i = 0
    while i + 4 <= len(extra):
        tag, size = struct.unpack_from("<HH", extra, i)
        if tag == 0x0001:
            return True
        i += 4 + size
    return False


@dataclass(frozen=True)
class RawRun:
    """Members one after the other, written as one piece (an export's leading
    sheets as an earlier export wrote them: :mod:`automation.pbem.xlsxrun`):
    their local records (``blob``), where each one starts in it and where the
    last one ends (``starts``), and their directory records one after the
    other (``records``, each one's start in it and the end: ``record_starts``),
    whose local record offsets are set where the piece is written."""

    blob: bytes | memoryview
    starts: tuple[int, ...]
    records: bytes | memoryview
    record_starts: tuple[int, ...]

    @property
    def count(self) -> int:
        return len(self.starts) - 1

    def directory(self, at: int) -> bytearray:
        """The directory records, for the piece written at offset ``at``."""
        out = bytearray(self.records)
        place = struct.Struct("<I").pack_into
        for record, start in zip(self.record_starts, self.starts[:-1]):
            place(out, record + 42, at + start)
        return out


@dataclass(frozen=True)
class Written:
    """What :func:`write_zip` wrote: ``size`` bytes, ending with ``directory``
    (the central directory and its end record) at ``directory_at``; each
    member written anew (not copied) at its offset, as header and data."""

    size: int
    directory_at: int
    directory: bytes
    new: dict[str, tuple[int, bytes, bytes]]
    records: dict[str, tuple[int, int]] = field(default_factory=dict)  # each one's directory record in directory

    def check(self, data: bytes | mmap.mmap) -> bool:
        """Whether ``data`` (the file read back) holds exactly what was written
        but the untouched members' bytes (copied as they were)."""
        if len(data) != self.size or data[self.directory_at:] != self.directory:
            return False
        for at, head, body in self.new.values():
            if data[at:at + len(head)] != head or data[at + len(head):at + len(head) + len(body)] != body:
                return False
        return True


def tail_start(source: RawZip, changed: set[str]) -> int | None:
    """Where the first member named in ``changed`` (lower-cased: replaced,
    dropped or moved last) starts, when every member before it in the
    directory also lies before it in the file: the file up to there stays as
    it is (:func:`write_zip`'s ``keep_below``). None when nothing before the
    directory would stay."""
    offsets = [m.offset for m in source.members]
    if any(b <= a for a, b in zip(offsets, offsets[1:])):
        return None  # not stored in directory order: the whole file is written
    for m, at in zip(source.members, offsets):
        if m.name.lower() in changed:
            return at or None
    return None


def _kept_fields(central: bytes) -> tuple[int, int, int, int, int, bytes]:
    """What a part written anew keeps of directory record ``central``: the
    system that made it, its time and date, its attributes and its comment."""
    _, made, _, _, _, time, date, _, _, _, nlen, elen, mlen, _, iattr, eattr, _ = DIRECTORY_RECORD.unpack_from(central)
    return made, time, date, iattr, eattr, bytes(central[46 + nlen + elen:46 + nlen + elen + mlen])


def write_zip(out: BinaryIO, source: RawZip, replaced: dict[str, bytes | Deflated | RawRun], removed: set[str],
              added: Sequence[tuple[str, bytes | Deflated]], *, last: frozenset[str] = frozenset(),
              keep_below: int = 0) -> Written:
    """Write ``source`` to ``out`` (streamed), copying untouched members raw and
    replacing, dropping (lower-cased names) and adding members (data, deflated
    here, or :class:`Deflated` already); a member replaced by a :class:`RawRun`
    is written as the members of that run.

    ``last`` (lower-cased names): these members are written after the added
    ones, at the end, in their order, so the next change of the same parts
    starts near the end of the file. ``keep_below`` (from :func:`tail_start`):
    the members that start below this offset stay where they are in the file
    and are not written; ``out`` receives what follows them, and every offset
    is of the whole file."""
    central = bytearray()
    kept_fields: dict[bytes, tuple[int, int, int, int, int, bytes]] = {}
    written = keep_below
    new: dict[str, tuple[int, bytes, bytes]] = {}
    records: dict[str, tuple[int, int]] = {}
    kept: list[tuple[str, bytes | Deflated | RawRun | None, RawMember | None]] = [
        (m.name, replaced.get(m.name.lower()), m) for m in source.members if m.name.lower() not in removed]
    plan = [p for p in kept if p[0].lower() not in last] + [(name, data, None) for name, data in added] + \
        [p for p in kept if p[0].lower() in last]
    count = len(plan) + sum(data.count - 1 for _, data, _ in kept if isinstance(data, RawRun))
    if count > 0xFFFF:
        raise WorkbookFileError(f"{source.where}: the workbook would need ZIP64; refused")
    for name, data, like in plan:
        offset = written
        if offset > 0xFFFFFFFF:
            raise WorkbookFileError(f"{source.where}: the workbook would need ZIP64; refused")
        if like is not None and data is None and keep_below and like.offset < keep_below:
            central += like.central  # stays where it is
            continue
        if like is not None and data is None:
            out.write(like.local)
            written += len(like.local)
            central += like.central[:42] + struct.pack("<I", offset) + like.central[46:]
            continue
        assert data is not None
        if isinstance(data, RawRun):
            out.write(data.blob)
            written += len(data.blob)
            central += data.directory(offset)
            continue
        stored = data if isinstance(data, Deflated) else Deflated.of(data)
        body = stored.body
        raw_name = name.encode("utf-8")
        if like is None:
            made, time, date, iattr, eattr, comment = 20, 0, 0x21, 0, 0, b""  # new parts: 1980-01-01, MS-DOS
        else:  # an edited part keeps its time stamp, attributes and comment (read once for a record that many
            # parts are modelled on: an export's carried sheets)
            fields = kept_fields.get(like.central)
            if fields is None:
                fields = kept_fields[like.central] = _kept_fields(like.central)
            made, time, date, iattr, eattr, comment = fields
        flags = 0 if raw_name.isascii() else 0x800
        head = LOCAL_HEADER.pack(0x04034B50, 20, flags, 8, time, date, stored.crc, len(body), stored.size,
                               len(raw_name), 0) + raw_name
        out.write(head)
        out.write(body)
        new[name.lower()] = (offset, head, body)
        written += len(head) + len(body)
        at = len(central)
        central += DIRECTORY_RECORD.pack(0x02014B50, made, 20, flags, 8, time, date, stored.crc, len(body), stored.size,
                                     len(raw_name), 0, len(comment), 0, iattr, eattr, offset)
        central += raw_name
        central += comment
        records[name.lower()] = (at, len(central))
    if written + len(central) > 0xFFFFFFFF:
        raise WorkbookFileError(f"{source.where}: the workbook would need ZIP64; refused")
    eocd = struct.pack("<IHHHHIIH", 0x06054B50, 0, 0, count, count, len(central), written, len(source.comment))
    directory = bytes(central) + eocd + source.comment
    out.write(directory)
    return Written(written + len(directory), written, directory, new, records)

"""How far a sheet reaches, found before it is parsed (for the gate,
:mod:`automation.workbook.gate`): :func:`sheet_extent` scans the sheet's XML
(streamed, in chunks) for the last row and column holding a value. The parser
lays a sheet out as a dense grid, so one value typed far away (say in
XFD1048576) would otherwise ask for gigabytes."""
from __future__ import annotations

import collections
import re
import zipfile
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass

from automation.errors import WorkbookFileError

CHUNK = 1 << 20


# ------------------------------------------------------------------ how far a sheet reaches

# a row's or a cell's start tag and its attributes (a quoted value may hold a ">", as the parser reads it)
_TOKEN = re.compile(rb"""<(?:[A-Za-z_][\w.-]*:)?(row|c)(?=[\s/>])((?:[^>"']|"[^"]*"|'[^']*')*?)(/?)>""")
# a reference as the parser reads it: any letters and digits (leading zeros, "XFD01048576", are row 1048576)
_CELL_REF = re.compile(rb'\sr\s*=\s*["\']\$?([A-Za-z]+)\$?(\d+)["\']')
_ROW_REF = re.compile(rb'\sr\s*=\s*["\'](\d+)["\']')


@dataclass(frozen=True)
class Extent:
    """The last row and column of a sheet that hold a value (1-based), and the
    cells that reach them (A1-style)."""

    rows: int
    columns: int
    lowest: str = ""
    rightmost: str = ""

    @property
    def cells(self) -> int:
        return self.rows * self.columns


def _column_number(letters: bytes) -> int:
    n = 0
    for ch in letters.upper():
        n = n * 26 + ch - 64
    return n


def _column_letters(n: int) -> str:
    out = ""
    while n:
        n, rem = divmod(n - 1, 26)
        out = chr(65 + rem) + out
    return out


_FAST_CELL = re.compile(rb'<(?:[A-Za-z_][\w.-]*:)?c\s[^>]*?(?<=\s)r="([A-Z]{1,3})(\d{1,7})"')
_ANY_CELL = re.compile(rb"<(?:[A-Za-z_][\w.-]*:)?c[\s/>]")
_PLAIN_CELL = re.compile(rb'<c r="([A-Z]{1,3})(\d{1,7})"')  # as Excel, LibreOffice and most writers write cells


# a cell not written plainly: its name followed by a tab, a line break, ">" or "/", or by a space and anything but
# an A1-style reference (two spaces, another attribute first, a reference such as "a1" or "A0")
_ODD_CELL = re.compile(rb'<c(?:[\t\r\n>/]| (?!r="[A-Z]{1,3}[1-9]\d{0,6}"))')
_ROWS_OF = {d: re.compile(rb'<c r="[A-Z]{1,3}(\d{%d})"' % d) for d in range(1, 8)}
_COLUMNS_OF = {n: re.compile(rb'<c r="([A-Z]{%d})\d' % n) for n in range(1, 4)}
_LONG_ROW = re.compile(rb'<c r="[A-Z]{1,3}\d{5}')  # a row of five digits or more
_LONG_COLUMN = re.compile(rb'<c r="[A-Z]{2}')  # a column of two letters or more


def _quick_bound(buf: bytes) -> tuple[int, int] | None:
    """The furthest row and column any cell of ``buf`` names, when every cell
    is written plainly (``<c r="B7"``, as Excel, LibreOffice and most writers
    write them); None otherwise. No list of every cell is built: the longest
    row number and column name present are found first, and only those are
    compared (as bytes: equal lengths compare as numbers do)."""
    if b":c" in buf or _ODD_CELL.search(buf):
        return None
    cells = b'<c r="' in buf  # (every cell is so written: whether there is any)
    rows = cols = 0
    # most sheets have rows below 10,000 and columns below AA: one pass rules the longer names out
    longest_row = range(7, 0, -1) if _LONG_ROW.search(buf) else range(4, 0, -1)
    for digits in longest_row:
        if cells and (found := _ROWS_OF[digits].findall(buf)):
            rows = int(max(found))
            break
    for letters in range(3, 0, -1) if _LONG_COLUMN.search(buf) else (1,):
        if cells and (found := _COLUMNS_OF[letters].findall(buf)):
            cols = _column_number(max(found))
            break
    return rows, cols


def _cell_refs(buf: bytes) -> list[tuple[bytes, bytes]] | None:
    """Every cell's (column, row) reference in ``buf``; None if some cell has none."""
    cells = len(_ANY_CELL.findall(buf))  # every cell, however its tag is written
    found = _PLAIN_CELL.findall(buf)
    if b":c" not in buf and len(found) == cells:
        return found
    found = _FAST_CELL.findall(buf)
    return found if len(found) == cells else None


class _Malformed(Exception):
    pass


def _pieces(chunks: Iterable[bytes], *, start_tag: bool = False, longest: int | None = None) -> Iterator[bytes]:
    """``chunks`` (a part as it streams) again, in pieces that each end just
    before a ``<``, so no tag is split; with ``start_tag``, just before a start
    tag, so every value before it has ended. What is left of the part is the
    last piece. ``longest``: _Malformed when more than this is carried from
    one piece to the next (a tag that long)."""
    tail = b""
    for chunk in chunks:
        buf = tail + chunk
        cut = buf.rfind(b"<")
        while start_tag and cut > 0 and (buf.startswith(b"</", cut) or cut == len(buf) - 1):
            cut = buf.rfind(b"<", 0, cut)
        cut = max(cut, 0)
        yield buf[:cut]
        tail = buf[cut:]
        if longest is not None and len(tail) > longest:
            raise _Malformed
    yield tail


def _chunks(archive: zipfile.ZipFile, info: zipfile.ZipInfo, part: str, where: str) -> Iterator[bytes]:
    """The part's bytes in pieces that each end just before a '<' (so no tag is split)."""
    def read() -> Iterator[bytes]:
        with archive.open(info) as fh:
            while chunk := fh.read(CHUNK):
                yield chunk
    try:
        yield from _pieces(read(), longest=CHUNK)
    except _Malformed:
        raise WorkbookFileError(f"{where}: part {part} is malformed (a tag longer than 1 MB)") from None
    except WorkbookFileError:
        raise
    except Exception as exc:  # noqa: BLE001 - zipfile/zlib errors of a damaged member
        raise WorkbookFileError(f"{where}: part {part} is damaged ({exc}); use the last good copy of the workbook") from None


def sheet_extent(archive: zipfile.ZipFile, part: str, where: str, *, limit: int | None = None) -> Extent:
    """The furthest row and column holding a value (cells written ``<c .../>``
    hold none). A quick pass bounds them from every cell reference; if a cell
    has no reference, or the bound passes ``limit`` cells, an exact pass finds
    the cells themselves. Streams the part in 1 MB chunks."""
    try:
        info = archive.getinfo(part)
    except KeyError:
        return Extent(0, 0)
    rows = cols = 0
    exact = False
    for buf in _chunks(archive, info, part, where):
        bound = _quick_bound(buf)
        if bound is not None:
            rows, cols = max(rows, bound[0]), max(cols, bound[1])
            continue
        found = _cell_refs(buf)
        if found is None:
            exact = True
            break
        if found:
            rows = max(rows, max(map(int, (r for _, r in found))))
            cols = max(cols, max(_column_number(c) for c in {c for c, _ in found}))
    if not exact and (limit is None or rows * cols <= limit):
        return Extent(rows, cols)
    return _exact_extent(archive, info, part, where)


def _exact_extent(archive: zipfile.ZipFile, info: zipfile.ZipInfo, part: str, where: str) -> Extent:
    rows = cols = row = col = 0
    lowest = rightmost = ""
    for buf in _chunks(archive, info, part, where):
        for m in _TOKEN.finditer(buf):
            attrs = m.group(2)
            if m.group(1) == b"row":
                ref = _ROW_REF.search(attrs)
                row = int(ref.group(1)) if ref else row + 1
                col = 0
                continue
            ref = _CELL_REF.search(attrs)
            if ref:
                col, row = _column_number(ref.group(1)), int(ref.group(2)) or row
            else:
                col += 1
            if m.group(3):  # <c r="B7" s="3"/>: formatted, no value
                continue
            if row > rows:
                rows, lowest = row, f"{_column_letters(col)}{row}"
            if col > cols:
                cols, rightmost = col, f"{_column_letters(col)}{row}"
    return Extent(rows, cols, lowest, rightmost)


# ------------------------------------------------------------------ how many shared strings

STRINGS_TAKEN = 100_000  # strings a shared-strings part may say it holds unchecked (24 bytes set aside each)
_STRING_ITEM = re.compile(rb"<(?:[A-Za-z_][\w.-]*:)?si[\s/>]")


def strings_overstated(said: str | None, chunks: Iterable[bytes]) -> tuple[int, int] | None:
    """(said, held) when a shared-strings part says (its ``uniqueCount``,
    ``said``) it holds more strings than :data:`STRINGS_TAKEN` and than it
    holds (its ``<si>`` items, counted in ``chunks``, the part streamed);
    else None. The reader sets aside room for every string said before
    reading one: two billion said would ask for 48 GB. Every chunk is read
    (the part's size and CRC-32 are checked as it streams)."""
    try:
        count = int(str(said).strip())
    except ValueError:
        count = 0  # none said, or not a number: the reader sets nothing aside
    if count <= STRINGS_TAKEN:
        for _ in chunks:
            pass
        return None
    held = sum(len(_STRING_ITEM.findall(piece)) for piece in _pieces(chunks))
    return (count, held) if count > held else None


# ------------------------------------------------------------------ how much text a sheet takes from them

_PLAIN_VALUE = re.compile(rb"<v>(\d{1,10})</v>")  # a value as Excel and LibreOffice write it


class SharedText:
    """The size of each shared string of a workbook (the bytes its item takes
    in the shared-strings part: no less than its text), from the part
    streamed once (``chunks``). A reader copies a shared string into every
    cell that takes it: one string of 5 MB taken by 2,000 cells is 10 GB."""

    def __init__(self, chunks: Iterable[bytes]) -> None:
        starts: list[int] = []
        at = 0
        for piece in _pieces(chunks):
            starts += [at + m.start() for m in _STRING_ITEM.finditer(piece)]
            at += len(piece)
        self.sizes = [b - a for a, b in zip(starts, starts[1:] + [at])]
        self.most = max(self.sizes, default=0)

    def taken(self, part_bytes: int, chunks: Callable[[], Iterable[bytes]], enough: int) -> int:
        """At most how many bytes of text the cells of a sheet part of
        ``part_bytes`` (streamed by ``chunks()``) take from the shared strings,
        counting every value element (``<v>``) as if its cell took one: at
        first as many as the part could hold (``<v/>``) at the longest string;
        when that is more than ``enough``, the values found, one written
        plainly (``<v>12</v>``) as the larger of string 12 and string 0 (the
        one a reader takes for a value it cannot read), any other at the
        longest string."""
        if part_bytes // len(b"<v/>") * self.most <= enough:
            return part_bytes // len(b"<v/>") * self.most
        found: collections.Counter[bytes] = collections.Counter()
        values = 0
        for piece in _pieces(chunks(), start_tag=True):
            values += piece.count(b"<v") + piece.count(b":v")  # (a prefixed one: <x:v>)
            found.update(_PLAIN_VALUE.findall(piece))
        sizes, first = self.sizes, self.sizes[0] if self.sizes else 0
        plain = sum(n * max(first, sizes[int(v)] if int(v) < len(sizes) else 0) for v, n in found.items())
        return plain + (values - sum(found.values())) * self.most

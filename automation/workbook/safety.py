"""Checks a file before any library parses it: is it an .xlsx package at all,
is it encrypted, and are its sizes sane (no zip bomb)? Bounded in time and
memory: only the zip's central directory is read here.

Before a sheet is parsed, :func:`sheet_extent` scans its XML (streamed, in
chunks) for the last row and column holding a value: the parser lays a sheet
out as a dense grid, so one value typed far away (say in XFD1048576) would
otherwise ask for gigabytes."""
from __future__ import annotations

import io
import posixpath
import re
import zipfile
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import unquote

from automation.errors import WorkbookFileError

OLE_MAGIC = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"
MAX_MEMBER = 200 * 1024 * 1024
MAX_TOTAL = 1024 * 1024 * 1024
MAX_MEMBERS = 20_000
MAX_RATIO = 400
MAX_SMALL_PART = 50 * 1024 * 1024  # workbook.xml and its relationships
CHUNK = 1 << 20
REL_NS = ("http://schemas.openxmlformats.org/officeDocument/2006/relationships",
          "http://purl.oclc.org/ooxml/officeDocument/relationships")


def check_package(path: Path | str, data: bytes) -> zipfile.ZipFile:
    """Raise :class:`WorkbookFileError` unless ``data`` looks like a safe .xlsx;
    return the opened package (central directory only)."""
    if data.startswith(OLE_MAGIC):
        raise WorkbookFileError(
            f"{path}: the workbook is password-protected (encrypted) or in the old .xls format; Musterroll reads "
            "unencrypted .xlsx workbooks only: remove the password (File > Info > Protect Workbook) or save it "
            "as an Excel Workbook (.xlsx)"
        )
    if not data.startswith(b"PK"):
        what = "an empty file" if not data else "not a zip package"
        raise WorkbookFileError(f"{path}: not an .xlsx workbook (it is {what}); give an Excel workbook saved as .xlsx")
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
    except (zipfile.BadZipFile, zipfile.LargeZipFile, ValueError, OSError) as exc:
        raise WorkbookFileError(
            f"{path}: not a complete .xlsx workbook: the file is damaged or cut short ({exc}); "
            "use the last good copy of the workbook") from None
    infos = archive.infolist()
    if len(infos) > MAX_MEMBERS:
        raise WorkbookFileError(f"{path}: holds {len(infos)} parts; at most {MAX_MEMBERS} are accepted")
    names = {i.filename for i in infos}
    if "xl/workbook.xml" not in names or "[Content_Types].xml" not in names:
        raise WorkbookFileError(f"{path}: a zip file but not an .xlsx workbook (it has no xl/workbook.xml part)")
    total = 0
    for info in infos:
        total += info.file_size
        if info.file_size > MAX_MEMBER:
            raise WorkbookFileError(
                f"{path}: part {info.filename} would unpack to {info.file_size // 2**20} MB; "
                f"at most {MAX_MEMBER // 2**20} MB per part is accepted"
            )
        if info.flag_bits & 0x1:
            raise WorkbookFileError(f"{path}: part {info.filename} is encrypted; save the workbook without a password")
        if info.compress_size and info.file_size > 10 * 2**20 and info.file_size / info.compress_size > MAX_RATIO:
            raise WorkbookFileError(f"{path}: part {info.filename} is compressed {info.file_size // info.compress_size}:1, a zip bomb")
    if total > MAX_TOTAL:
        raise WorkbookFileError(f"{path}: would unpack to {total // 2**20} MB; at most {MAX_TOTAL // 2**20} MB is accepted")
    return archive


# ------------------------------------------------------------------ where each sheet lives

def _read_part(archive: zipfile.ZipFile, name: str, where: str, limit: int = MAX_SMALL_PART) -> bytes | None:
    try:
        info = archive.getinfo(name)
    except KeyError:
        return None
    if info.file_size > limit:
        raise WorkbookFileError(f"{where}: part {name} is {info.file_size // 2**20} MB; at most {limit // 2**20} MB is accepted")
    try:
        with archive.open(info) as fh:
            return fh.read(limit + 1)
    except Exception as exc:  # noqa: BLE001 - zipfile, zlib and CRC errors of a damaged member
        raise WorkbookFileError(f"{where}: part {name} is damaged ({exc}); use the last good copy of the workbook") from None


def _elements(data: bytes, local: str, where: str, part: str) -> list[dict[str, str]]:
    """The attributes of every ``local`` element (any namespace), by a plain
    expat pass: no tree is built, and a DTD (so any entity) is refused."""
    from xml.parsers import expat

    found: list[dict[str, str]] = []
    parser = expat.ParserCreate(namespace_separator=" ")

    def refuse(*_: object) -> None:
        raise ValueError("a DTD is not allowed in a workbook part")

    def start(name: str, attrs: dict[str, str]) -> None:
        if name.rpartition(" ")[2] == local:
            found.append(attrs)

    parser.StartDoctypeDeclHandler = refuse
    parser.EntityDeclHandler = refuse
    parser.SetParamEntityParsing(expat.XML_PARAM_ENTITY_PARSING_NEVER)
    parser.StartElementHandler = start
    try:
        parser.Parse(data, True)
    except (expat.ExpatError, ValueError) as exc:
        raise WorkbookFileError(f"{where}: {part} is damaged ({exc}); use the last good copy of the workbook") from None
    return found


def sheet_parts(archive: zipfile.ZipFile, where: str) -> dict[str, str]:
    """Sheet name -> its part inside the package (e.g. 'xl/worksheets/sheet3.xml'),
    from xl/workbook.xml and its relationships."""
    book = _read_part(archive, "xl/workbook.xml", where)
    rels = _read_part(archive, "xl/_rels/workbook.xml.rels", where)
    if book is None or rels is None:
        return {}
    targets: dict[str, str] = {}
    for rel in _elements(rels, "Relationship", where, "xl/_rels/workbook.xml.rels"):
        target = rel.get("Target") or ""
        if rel.get("TargetMode") == "External" or not target:
            continue
        target = unquote(target)
        part = target.lstrip("/") if target.startswith("/") else posixpath.normpath(posixpath.join("xl", target))
        targets[rel.get("Id") or ""] = part
    out: dict[str, str] = {}
    for sheet in _elements(book, "sheet", where, "xl/workbook.xml"):
        rid = next((sheet[f"{r} id"] for r in REL_NS if f"{r} id" in sheet), None)
        name = sheet.get("name")
        if name and rid in targets:
            out[name] = targets[rid]
    return out


# ------------------------------------------------------------------ how far a sheet reaches

_TOKEN = re.compile(rb"<(?:[A-Za-z_][\w.-]*:)?(row|c)(?=[\s/>])([^>]*?)(/?)>")
_CELL_REF = re.compile(rb'\sr\s*=\s*["\']\$?([A-Za-z]{1,3})\$?(\d{1,7})["\']')
_ROW_REF = re.compile(rb'\sr\s*=\s*["\'](\d{1,7})["\']')


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


def _cell_refs(buf: bytes) -> list[tuple[bytes, bytes]] | None:
    """Every cell's (column, row) reference in ``buf``; None if some cell has none."""
    found = _PLAIN_CELL.findall(buf)
    if b":c" not in buf and len(found) == buf.count(b"<c ") + buf.count(b"<c>") + buf.count(b"<c/"):
        return found
    found = _FAST_CELL.findall(buf)
    return found if len(found) == len(_ANY_CELL.findall(buf)) else None


def _chunks(archive: zipfile.ZipFile, info: zipfile.ZipInfo, part: str, where: str):
    """The part's bytes in pieces that each end just before a '<' (so no tag is split)."""
    tail = b""
    try:
        with archive.open(info) as fh:
            while True:
                chunk = fh.read(CHUNK)
                buf = tail + chunk
                if not chunk:
                    yield buf
                    return
                cut = max(buf.rfind(b"<"), 0)
                yield buf[:cut]
                tail = buf[cut:]
                if len(tail) > CHUNK:
                    raise WorkbookFileError(f"{where}: part {part} is malformed (a tag longer than 1 MB)")
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

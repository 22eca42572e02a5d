"""Hostile files: every workbook the play-by-email commands read (the master,
a player's returned orders) passes through here before any library parses it.

1. The file's size is bounded before it is read.
2. An encrypted workbook (an OLE compound file) is decrypted with the password
   given (msoffcrypto-tool); a wrong or missing password is a clear error. Its
   encryption header is read first, with defusedxml, and the number of rounds
   of its password hash is bounded (no hour-long password check).
3. :func:`automation.workbook.safety.check_package`: a zip package with the
   parts of a workbook, and sane declared sizes (no zip bomb).
4. Stricter bounds for files from players: parts and total size, compression.
5. Every XML part is streamed through defusedxml's expat parser, in bounded
   chunks, with DTDs forbidden (no billion laughs, no external entities); a
   part whose data does not match its declared size or CRC is refused; the
   cells of every worksheet are counted and the area the reading library would
   allocate for them (first to last row by first to last column) is bounded,
   since a sheet holding only the cells A1 and XFD1048576 would otherwise make it
   allocate for 17 billion cells.
"""
from __future__ import annotations

import hashlib
import io
import re
import tempfile
import zipfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from automation.errors import MusterrollError, WorkbookFileError

OLE_MAGIC = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"
CHUNK = 1 << 20
MAX_ENCRYPTION_INFO = 64 * 1024
MAX_SPIN_COUNT = 1_000_000
CELL_REF = re.compile(r"([A-Za-z]{1,3})([0-9]{1,7})\Z")


@dataclass(frozen=True)
class Limits:
    file_bytes: int  # the file as stored (encrypted or not)
    part_bytes: int  # one part, unpacked
    total_bytes: int  # all parts, unpacked
    ratio: int  # unpacked : packed, for parts over 1 MB
    cells: int  # cells of all sheets
    area: int  # rows x columns from the first to the last cell of one sheet
    columns: int
    rows: int


MASTER = Limits(file_bytes=256 * 2**20, part_bytes=200 * 2**20, total_bytes=1024 * 2**20, ratio=400,
                cells=4_000_000, area=8_000_000, columns=500, rows=200_000)
PLAYER = Limits(file_bytes=20 * 2**20, part_bytes=40 * 2**20, total_bytes=80 * 2**20, ratio=200,
                cells=200_000, area=1_000_000, columns=200, rows=20_000)


class _Stop(Exception):
    pass


class _Refused(Exception):
    def __init__(self, why: str) -> None:
        self.why = why


def col_index(letters: str) -> int:
    n = 0
    for ch in letters.upper():
        n = n * 26 + ord(ch) - 64
    return n


class _SheetCells:
    """SAX handler counting a worksheet's cells that hold a value (a formatted
    empty cell ``<c r="Z9" s="3"/>`` holds none) and their extent."""

    def __init__(self, limits: Limits, counted: list[int]) -> None:
        self.limits, self.counted = limits, counted
        self.row = 0
        self.col = 0
        self.in_cell = self.valued = False
        self.elements = 0
        self.min_row = self.min_col = 10**9
        self.max_row = self.max_col = 0

    # xml.sax ContentHandler protocol (only what is needed)
    def setDocumentLocator(self, locator: Any) -> None: ...
    def startDocument(self) -> None: ...
    def endDocument(self) -> None: ...
    def startPrefixMapping(self, prefix: Any, uri: Any) -> None: ...
    def endPrefixMapping(self, prefix: Any) -> None: ...
    def characters(self, content: str) -> None: ...
    def ignorableWhitespace(self, content: str) -> None: ...
    def processingInstruction(self, target: str, data: str) -> None: ...
    def skippedEntity(self, name: str) -> None: ...

    def endElement(self, name: str) -> None:
        if name.rpartition(":")[2] == "c":
            self.in_cell = False

    def startElement(self, name: str, attrs: Any) -> None:
        local = name.rpartition(":")[2]
        self.elements += 1
        if self.elements > 20 * self.limits.cells:
            raise _Refused(f"holds more than {20 * self.limits.cells} elements")
        if local == "row":
            r = attrs.get("r")
            self.row = int(r) if r and r.isdigit() else self.row + 1
            self.col = 0
        elif local == "c":
            ref = attrs.get("r")
            m = CELL_REF.match(ref) if ref else None
            if m:
                self.col, self.row = col_index(m.group(1)), int(m.group(2))
            else:
                self.col += 1
            self.in_cell, self.valued = True, False
        elif local in ("v", "is", "f") and self.in_cell and not self.valued:
            self.valued = True
            self._count()

    def _count(self) -> None:
        self.counted[0] += 1
        self.min_row, self.max_row = min(self.min_row, self.row), max(self.max_row, self.row)
        self.min_col, self.max_col = min(self.min_col, self.col), max(self.max_col, self.col)
        lim = self.limits
        if self.counted[0] > lim.cells:
            raise _Refused(f"holds more than {lim.cells} cells")
        if self.max_row > lim.rows or self.max_col > lim.columns:
            raise _Refused(f"has a cell at row {self.row}, column {self.col}; at most {lim.rows} rows and "
                           f"{lim.columns} columns are read")
        if (self.max_row - self.min_row + 1) * (self.max_col - self.min_col + 1) > lim.area:
            raise _Refused(f"spreads its cells over rows {self.min_row}-{self.max_row} and columns "
                           f"{self.min_col}-{self.max_col}; at most {lim.area} cells of area are read")


class _Prolog(_SheetCells):
    """For parts that are not worksheets: only the DTD check matters (a DTD
    must come before the root element), so parsing stops at the root."""

    def startElement(self, name: str, attrs: Any) -> None:
        raise _Stop


def _scan_part(archive: zipfile.ZipFile, info: zipfile.ZipInfo, limits: Limits, counted: list[int]) -> None:
    from defusedxml import DefusedXmlException
    from defusedxml.expatreader import DefusedExpatParser
    from xml.sax import SAXException

    sheet = info.filename.lower().startswith("xl/worksheets/") and info.filename.lower().endswith(".xml")
    handler = _SheetCells(limits, counted) if sheet else _Prolog(limits, counted)
    parser = DefusedExpatParser(forbid_dtd=True, forbid_entities=True, forbid_external=True)
    parser.setContentHandler(handler)  # type: ignore[arg-type]
    try:
        with archive.open(info) as stream:
            while chunk := stream.read(CHUNK):
                parser.feed(chunk)
            parser.close()
    except _Stop:
        if not sheet:
            _drain(archive, info)
    except _Refused as exc:
        raise _Refused(f"sheet part {info.filename} {exc.why}") from None
    except DefusedXmlException as exc:
        raise _Refused(f"part {info.filename} declares a DTD or entities ({type(exc).__name__}); "
                       "workbooks never need them (an XML bomb?)") from None
    except SAXException as exc:
        raise _Refused(f"part {info.filename} is not well-formed XML ({str(exc)[:120]})") from None


def _drain(archive: zipfile.ZipFile, info: zipfile.ZipInfo) -> None:
    """Read a part to its end so that its size and CRC are checked."""
    with archive.open(info) as stream:
        while stream.read(CHUNK):
            pass


def check_parts(where: str, data: bytes, limits: Limits) -> None:
    """Steps 3-5 above, on the bytes of a (decrypted) workbook."""
    from automation.workbook.safety import check_package

    check_package(where, data)
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
        total = 0
        for info in archive.infolist():
            total += info.file_size
            if info.file_size > limits.part_bytes or total > limits.total_bytes:
                raise _Refused(f"unpacks to more than {limits.part_bytes // 2**20} MB in part {info.filename} "
                               f"or {limits.total_bytes // 2**20} MB in all; that is not a campaign workbook")
            if info.file_size > 2**20 and info.file_size > limits.ratio * max(info.compress_size, 1):
                raise _Refused(f"part {info.filename} is compressed {info.file_size // max(info.compress_size, 1)}:1 "
                               "(a zip bomb?)")
        counted = [0]
        for info in archive.infolist():
            name = info.filename.lower()
            if name.endswith((".xml", ".rels", ".vml")):
                _scan_part(archive, info, limits, counted)
            else:
                _drain(archive, info)
    except _Refused as exc:
        raise WorkbookFileError(f"{where}: refused: {exc.why}") from None
    except (zipfile.BadZipFile, zipfile.LargeZipFile, EOFError, OSError, NotImplementedError, RuntimeError,
            ValueError) as exc:
        raise WorkbookFileError(f"{where}: not a readable .xlsx workbook ({str(exc)[:160]})") from None


def read_bytes(path: Path, limits: Limits) -> bytes:
    path = Path(path)
    try:
        size = path.stat().st_size
        if not path.is_file():
            raise WorkbookFileError(f"{path}: not a file")
        if size > limits.file_bytes:
            raise WorkbookFileError(f"{path}: {size // 2**20} MB; at most {limits.file_bytes // 2**20} MB is accepted here")
        return path.read_bytes()
    except FileNotFoundError:
        raise WorkbookFileError(f"{path}: no such file") from None
    except OSError as exc:
        raise WorkbookFileError(f"{path}: cannot be read ({exc.strerror})") from None


def check_encryption_info(where: str, data: bytes) -> None:
    """Before the decrypting library reads an encrypted file's EncryptionInfo:
    its XML (agile encryption) parsed with defusedxml (no DTD, no entities), and
    its spin count (the password hash's rounds) bounded, so a file cannot make
    the password check run for hours."""
    import olefile
    from defusedxml import DefusedXmlException
    from defusedxml import ElementTree as SafeET

    try:
        ole = olefile.OleFileIO(io.BytesIO(data))
        if not ole.exists("EncryptionInfo") or not ole.exists("EncryptedPackage"):
            raise WorkbookFileError(f"{where}: an old .xls file or another Office file, not an encrypted .xlsx workbook")
        if ole.get_size("EncryptionInfo") > MAX_ENCRYPTION_INFO:
            raise WorkbookFileError(f"{where}: its encryption header is {ole.get_size('EncryptionInfo')} bytes; "
                                    "not an encrypted workbook")
        info = ole.openstream("EncryptionInfo").read(MAX_ENCRYPTION_INFO)
    except MusterrollError:
        raise
    except Exception as exc:  # olefile refuses damaged compound files in many ways
        raise WorkbookFileError(f"{where}: an encrypted file that cannot be read ({type(exc).__name__})") from None
    if info[:4] != b"\x04\x00\x04\x00":  # standard or RC4 encryption: fixed, small spin counts
        return
    try:
        root = SafeET.fromstring(info[8:], forbid_dtd=True)
    except DefusedXmlException:
        raise WorkbookFileError(f"{where}: its encryption header declares a DTD or entities (an XML bomb?)") from None
    except SafeET.ParseError:
        raise WorkbookFileError(f"{where}: its encryption header is not well-formed XML") from None
    for node in root.iter():
        spin = node.get("spinCount")
        if spin is not None and (not spin.isdigit() or int(spin) > MAX_SPIN_COUNT):
            raise WorkbookFileError(f"{where}: its password hash asks for {spin} rounds; at most {MAX_SPIN_COUNT} are "
                                    "accepted (Excel uses 100000)")


def decrypt(where: str, data: bytes, password: str | None, can_decrypt: bool = True) -> bytes:
    """The workbook inside an encrypted file (or ``data`` itself if it is not encrypted)."""
    if not data.startswith(OLE_MAGIC):
        return data
    if not can_decrypt:
        raise WorkbookFileError(f"{where}: the workbook is encrypted (or an old .xls file); this command reads only "
                                "an unencrypted .xlsx: save a copy without a password")
    if not password:
        raise WorkbookFileError(f"{where}: the workbook is encrypted; give its password with --password "
                                "(or it is an old .xls file: save it as .xlsx)")
    import msoffcrypto
    from msoffcrypto.exceptions import DecryptionError, FileFormatError, InvalidKeyError

    check_encryption_info(where, data)
    try:
        office = msoffcrypto.OfficeFile(io.BytesIO(data))
        if not office.is_encrypted():
            raise WorkbookFileError(f"{where}: an old .xls file or another Office file, not an .xlsx workbook")
        office.load_key(password=password)
        plain = io.BytesIO()
        office.decrypt(plain)
    except InvalidKeyError:
        raise WorkbookFileError(f"{where}: the password is wrong (the workbook could not be decrypted with it)") from None
    except MusterrollError:
        raise
    except (DecryptionError, FileFormatError) as exc:
        raise WorkbookFileError(f"{where}: an encrypted file that cannot be decrypted as a workbook ({exc})") from None
    except Exception as exc:  # a damaged compound file makes the decoder fail in many ways
        raise WorkbookFileError(f"{where}: an encrypted file that cannot be decrypted as a workbook "
                                f"({type(exc).__name__})") from None
    return plain.getvalue()


def open_book(path: Path, password: str | None = None, limits: Limits = MASTER) -> Any:
    """A :class:`automation.workbook.reader.Workbook` for ``path`` after the checks.
    Its ``path`` is the file's own (an encrypted file is read from a private
    decrypted copy that is removed at once)."""
    from automation.workbook.reader import Workbook

    path = Path(path)
    raw = read_bytes(path, limits)
    data = decrypt(str(path), raw, password, limits is PLAYER)
    check_parts(str(path), data, limits)
    if data is raw:
        book = Workbook(path)
        if book.digest != hashlib.sha256(raw).hexdigest():
            raise WorkbookFileError(f"{path}: the file changed while it was being read; try again")
        return book
    with tempfile.TemporaryDirectory(prefix="musterroll-") as tmp:
        plain = Path(tmp) / "decrypted.xlsx"
        plain.write_bytes(data)
        book = Workbook(plain)
    book.path = path
    return book

"""Hostile files: every workbook the play-by-email commands read (the master,
a player's returned orders) passes through here before any library parses it.

1. The file's size is bounded before it is read.
2. An encrypted workbook (an OLE compound file) is decrypted with the password
   given (msoffcrypto-tool); a wrong or missing password is a clear error. Its
   encryption header is read first, with defusedxml, and the number of rounds
   of its password hash is bounded (no hour-long password check).
3. The gate every command uses (:mod:`automation.workbook.gate`), with the
   master's limits or the stricter limits of a file from a player: the zip
   directory, the structural parts streamed (no DTD, bounded namespaces and
   elements), and each sheet checked just before it is parsed.
"""
from __future__ import annotations

import io
import tempfile
from pathlib import Path
from typing import Any

from automation.errors import MusterrollError, WorkbookFileError
from automation.workbook.gate import MASTER, Gate, Limits

OLE_MAGIC = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"
MAX_ENCRYPTION_INFO = 64 * 1024
MAX_SPIN_COUNT = 1_000_000


def check_parts(where: str, data: bytes, limits: Limits) -> None:
    """Step 3 (without the sheets, which are checked as they are read)."""
    Gate(where, data, limits)


def read_bytes(path: Path, limits: Limits) -> Any:
    """The file's bytes within ``limits`` (:func:`automation.workbook.reader.read_file`: ``bytes``, or a
    :class:`~automation.workbook.snapshot.Snapshot` that reads as they do)."""
    from automation.workbook.reader import read_file

    return read_file(Path(path), limits.file_bytes, keep=not limits.player)


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


def decrypt(where: str, data: Any, password: str | None, can_decrypt: bool = True) -> Any:
    """The workbook inside an encrypted file (or ``data`` itself if it is not encrypted)."""
    if data[:len(OLE_MAGIC)] != OLE_MAGIC:
        return data
    if not can_decrypt:
        raise WorkbookFileError(f"{where}: the workbook is encrypted (or an old .xls file); this command reads only "
                                "an unencrypted .xlsx: save a copy without a password")
    if not password:
        raise WorkbookFileError(f"{where}: the workbook is encrypted; give its password with --password "
                                "(or it is an old .xls file: save it as .xlsx)")
    import msoffcrypto
    from msoffcrypto.exceptions import DecryptionError, FileFormatError, InvalidKeyError

    from automation.workbook.snapshot import whole

    data = whole(data)
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
    data = decrypt(str(path), raw, password, limits.player)
    if data is raw:
        return Workbook(path, data, limits)
    with tempfile.TemporaryDirectory(prefix="musterroll-") as tmp:
        plain = Path(tmp) / "decrypted.xlsx"
        plain.write_bytes(data)
        book = Workbook(plain, data, limits)
    book.path = path
    book.decrypted = True  # nothing derived from it is kept beside the file (automation.pbem.carry)
    return book

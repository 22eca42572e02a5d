"""Checks a file before any library parses it: is it an .xlsx package at all,
is it encrypted, and are its sizes sane (no zip bomb)? Bounded in time and
memory: only the zip's central directory is read here."""
from __future__ import annotations

import io
import zipfile
from pathlib import Path

from automation.errors import WorkbookFileError

OLE_MAGIC = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"
MAX_MEMBER = 200 * 1024 * 1024
MAX_TOTAL = 1024 * 1024 * 1024
MAX_MEMBERS = 20_000
MAX_RATIO = 400


def check_package(path: Path | str, data: bytes) -> None:
    """Raise :class:`WorkbookFileError` unless ``data`` looks like a safe .xlsx."""
    if data.startswith(OLE_MAGIC):
        raise WorkbookFileError(
            f"{path}: the workbook is encrypted or in the old .xls format; "
            "give its password with --password, or save it as .xlsx"
        )
    if not data.startswith(b"PK"):
        raise WorkbookFileError(f"{path}: not an .xlsx workbook (it is not a zip package)")
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
    except zipfile.BadZipFile as exc:
        raise WorkbookFileError(f"{path}: not an .xlsx workbook ({exc})") from None
    infos = archive.infolist()
    if len(infos) > MAX_MEMBERS:
        raise WorkbookFileError(f"{path}: holds {len(infos)} parts; at most {MAX_MEMBERS} are accepted")
    names = {i.filename for i in infos}
    if "xl/workbook.xml" not in names or "[Content_Types].xml" not in names:
        raise WorkbookFileError(f"{path}: a zip file but not an .xlsx workbook (no xl/workbook.xml)")
    total = 0
    for info in infos:
        total += info.file_size
        if info.file_size > MAX_MEMBER:
            raise WorkbookFileError(
                f"{path}: part {info.filename} would unpack to {info.file_size // 2**20} MB; "
                f"at most {MAX_MEMBER // 2**20} MB per part is accepted"
            )
        if info.compress_size and info.file_size > 10 * 2**20 and info.file_size / info.compress_size > MAX_RATIO:
            raise WorkbookFileError(f"{path}: part {info.filename} is compressed {info.file_size // info.compress_size}:1, a zip bomb")
    if total > MAX_TOTAL:
        raise WorkbookFileError(f"{path}: would unpack to {total // 2**20} MB; at most {MAX_TOTAL // 2**20} MB is accepted")

"""Hostile files fed to every command that reads a workbook: each ends in a
clear error (exit 2, one message naming the file), never a hang, a crash or a
traceback. The files whose danger is memory run in a child process whose
address space is capped, so a failure to refuse them shows as a failed test."""
import io
import os
import random
import resource
import struct
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
import xlsxwriter

from tests.pbem.helpers import run

ROOT = Path(__file__).resolve().parents[2]
MEMORY_CAP = 1536 * 2**20
LOL = (b'<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol">'
       + b"".join(b'<!ENTITY lol%d "%s">' % (i, (b"&lol%d;" % (i - 1) if i > 1 else b"&lol;") * 10) for i in range(1, 10))
       + b"]>")


def plain_book(path: Path, name: str = "Export") -> Path:
    wb = xlsxwriter.Workbook(str(path))
    wb.add_worksheet(name).write_string(0, 0, "Setting")
    wb.close()
    return path


def with_part(src: Path, dst: Path, name: str, data: bytes) -> Path:
    out = io.BytesIO()
    with zipfile.ZipFile(src) as a, zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as b:
        for info in a.infolist():
            if info.filename != name:
                b.writestr(info, a.read(info.filename))
        b.writestr(name, data)
    dst.write_bytes(out.getvalue())
    return dst


def sheet(cells: str) -> bytes:
    return ('<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="http://schemas.openxmlformats.org/'
            f'spreadsheetml/2006/main"><sheetData>{cells}</sheetData></worksheet>').encode()


def cell(ref: str, row: int) -> str:
    return f'<row r="{row}"><c r="{ref}" t="inlineStr"><is><t>x</t></is></c></row>'


def lie_about_size(path: Path, member: str, size: int) -> Path:
    """Patch the member's declared unpacked size in both zip headers (the data stays)."""
    data = bytearray(path.read_bytes())
    with zipfile.ZipFile(path) as z:
        info = z.getinfo(member)
    struct.pack_into("<I", data, info.header_offset + 22, size)
    central = data.rfind(b"PK\x01\x02", 0, data.rfind(member.encode()) + 1)
    struct.pack_into("<I", data, central + 24, size)
    path.write_bytes(bytes(data))
    return path


def hostile(kind: str, folder: Path, name: str = "Export") -> Path:
    """A bad file of ``kind`` whose one sheet (where the danger is) is named ``name``."""
    base = plain_book(folder / "base.xlsx", name)
    target = folder / f"{kind}.xlsx"
    if kind == "zip bomb":
        return with_part(base, target, "xl/worksheets/sheet1.xml", sheet("") + b" " * (60 * 2**20))
    if kind == "xml bomb":
        body = zipfile.ZipFile(base).read("xl/workbook.xml").split(b"?>", 1)[1].replace(b"<sheets>", b"&lol9;<sheets>", 1)
        return with_part(base, target, "xl/workbook.xml", LOL + body)
    if kind == "lying sizes":
        return lie_about_size(with_part(base, target, "xl/worksheets/sheet1.xml", sheet("") + b" " * 5_000_000),
                              "xl/worksheets/sheet1.xml", 200)
    if kind == "first and last cell":
        return with_part(base, target, "xl/worksheets/sheet1.xml", sheet(cell("A1", 1) + cell("XFD1048576", 1048576)))
    if kind == "last cell written with a tab":  # whitespace other than one space before the cell's reference
        far = cell("XFD1048576", 1048576).replace("<c r=", "<c\tr=")
        return with_part(base, target, "xl/worksheets/sheet1.xml", sheet(cell("A1", 1) + far))
    if kind == "shared strings overstated":  # the reader would set aside room for two billion strings
        sst = zipfile.ZipFile(base).read("xl/sharedStrings.xml")
        sst = sst.replace(b'uniqueCount="1"', b'uniqueCount="2000000000"')
        assert b"2000000000" in sst
        return with_part(base, target, "xl/sharedStrings.xml", sst)
    if kind == "one long shared string in many cells":  # 2 MB of letters (no zip bomb) in 100 cells: 200 MB read
        text = bytes(random.Random(1).choices(b"abcdefghijklmnopqrstuvwxyz", k=2 * 2**20))
        sst = zipfile.ZipFile(base).read("xl/sharedStrings.xml").replace(b'uniqueCount="1"', b'uniqueCount="2"')
        with_part(base, folder / "strings.xlsx", "xl/sharedStrings.xml",
                  sst.replace(b"</sst>", b"<si><t>" + text + b"</t></si></sst>"))
        cells = "".join(f'<row r="{r}"><c r="A{r}" t="s"><v>1</v></c></row>' for r in range(1, 101))
        return with_part(folder / "strings.xlsx", target, "xl/worksheets/sheet1.xml", sheet(cells))
    if kind == "tall thin spread":
        return with_part(base, target, "xl/worksheets/sheet1.xml", sheet(cell("A1", 1) + cell("AP199999", 199999)))
    if kind == "many cells":
        rows = "".join(f'<row r="{r}">' + "".join(f'<c r="{c}{r}"><v>1</v></c>' for c in "ABCDEFGHIJK")
                       + "</row>" for r in range(1, 19_001))  # 209,000 cells within 19,000 rows and 11 columns
        return with_part(base, target, "xl/worksheets/sheet1.xml", sheet(rows))
    if kind == "text file":
        target.write_text("Order,Subject\nPurchase,I1\n")
    elif kind == "empty file":
        target.write_bytes(b"")
    elif kind == "random bytes":
        target.write_bytes(os.urandom(4096))
    elif kind == "zip without a workbook":
        with zipfile.ZipFile(target, "w") as z:
            z.writestr("hello.txt", "not a workbook")
    elif kind == "truncated workbook":
        target.write_bytes(base.read_bytes()[: len(base.read_bytes()) // 2])
    elif kind == "encrypted garbage":
        target.write_bytes(b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + os.urandom(8192))
    return target


def capped(*argv: object) -> subprocess.CompletedProcess:
    def cap() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (MEMORY_CAP, MEMORY_CAP))

    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    env.pop("MUSTERROLL_DEBUG", None)
    return subprocess.run([sys.executable, "-m", "automation", *map(str, argv)], capture_output=True, text=True,
                          preexec_fn=cap, env=env, timeout=600)


NOT_XLSX = ("not an .xlsx workbook", "not a complete .xlsx workbook", "not a readable .xlsx workbook")
KINDS = {
    "zip bomb": ("compressed", "unpacks to more than", "zip bomb"),
    "xml bomb": ("declares a DTD or entities",),
    "lying sizes": ("not a readable .xlsx workbook", "corrupt", "damaged"),
    "first and last cell": ("XFD1048576: a value in",),  # beyond the last column read (and, for a player, row)
    "last cell written with a tab": ("XFD1048576: a value in",),
    "shared strings overstated": ("says it holds 2000000000 strings and holds 1",),
    "one long shared string in many cells": ("its cells take 200 MB of text from the shared strings",),
    "tall thin spread": ("at most 200000 rows", "at most 20000 rows", "at most 4000000 are read",
                         "at most 200000 are read"),
    "text file": NOT_XLSX,
    "empty file": NOT_XLSX,
    "random bytes": NOT_XLSX,
    "zip without a workbook": NOT_XLSX,
    "truncated workbook": NOT_XLSX,
    "encrypted garbage": ("encrypted",),
}


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_a_hostile_orders_file_is_refused_clearly_within_bounded_memory(campaign, tmp_path, kind):
    book = campaign("spend_dec24")
    before = book.read_bytes()
    bad = hostile(kind, tmp_path)
    proc = capped("import", book, bad)
    assert proc.returncode == 2, proc.stderr[-2000:]
    assert "Traceback" not in proc.stderr and proc.stderr.startswith((f"musterroll: {bad}", "musterroll: Export!"))
    assert any(words in proc.stderr for words in KINDS[kind]), proc.stderr
    assert book.read_bytes() == before


@pytest.mark.parametrize("command", ["verify", "stats", "export"])
@pytest.mark.parametrize("kind", ["zip bomb", "xml bomb", "first and last cell", "tall thin spread", "random bytes",
                                  "encrypted garbage"])
def test_a_hostile_campaign_workbook_is_refused_clearly_within_bounded_memory(tmp_path, command, kind):
    bad = hostile(kind, tmp_path, "Campaign")  # the first sheet every command reads
    extra = ["--side", "German", "-o", tmp_path / "out.xlsx"] if command == "export" else []
    proc = capped(command, bad, *extra)
    assert proc.returncode == 2, proc.stderr[-2000:]
    assert "Traceback" not in proc.stderr
    assert proc.stderr.startswith((f"musterroll: {bad}", "musterroll: Campaign!"))  # the file, or the sheet and cell
    assert any(words in proc.stderr for words in KINDS[kind]), proc.stderr


def test_a_player_file_with_more_cells_than_any_orders_need_is_refused(capsys, campaign, tmp_path):
    book = campaign("spend_dec24")
    bad = hostile("many cells", tmp_path)
    code, _, err = run(capsys, "import", book, bad)
    assert code == 2 and "at most 200000 are read" in err


def test_an_encrypted_orders_file_with_a_wrong_password_is_a_clear_error(capsys, campaign, tmp_path):
    book = campaign("spend_dec24")
    out = tmp_path / "sealed.xlsx"
    assert run(capsys, "export", book, "--side", "German", "-o", out, "--password", "right")[0] == 0
    code, _, err = run(capsys, "import", book, out, "--password", "wrong")
    assert code == 2 and err.strip() == f"musterroll: {out}: the password is wrong (the workbook could not be decrypted with it)"


def rewrite_encryption_info(path: Path, change) -> Path:
    """Change the XML of an encrypted file's EncryptionInfo stream, keeping its size."""
    import olefile

    data = bytearray(path.read_bytes())
    ole = olefile.OleFileIO(bytes(data))
    info = ole.openstream("EncryptionInfo").read()
    new = change(info)
    assert len(new) == len(info)
    ole.close()
    with olefile.OleFileIO(str(path), write_mode=True) as out:
        out.write_stream("EncryptionInfo", new)
    return path


def test_an_encrypted_file_asking_for_a_billion_password_rounds_is_refused_at_once(capsys, campaign, tmp_path):
    book = campaign("spend_dec24")
    out = tmp_path / "sealed.xlsx"
    assert run(capsys, "export", book, "--side", "German", "-o", out, "--password", "pw")[0] == 0

    def slow(info: bytes) -> bytes:
        head = b' standalone="yes"'
        assert head in info and info.count(b'spinCount="100000"') == 1
        return info.replace(head, b"", 1).replace(b'spinCount="100000"', b'spinCount="1000000000"' + b" " * 13, 1)

    rewrite_encryption_info(out, slow)
    code, _, err = run(capsys, "import", book, out, "--password", "pw")
    assert code == 2 and "its password hash asks for 1000000000 rounds; at most 1000000 are accepted" in err


def test_an_encrypted_file_whose_encryption_header_declares_entities_is_refused(tmp_path):
    from automation.errors import WorkbookFileError
    from automation.pbem import guard

    plain = plain_book(tmp_path / "p.xlsx")
    sealed = tmp_path / "s.xlsx"
    from msoffcrypto.format.ooxml import OOXMLFile

    with plain.open("rb") as src, sealed.open("wb") as dst:
        OOXMLFile(src).encrypt("pw", dst)

    def bomb(info: bytes) -> bytes:
        """A DOCTYPE after the XML declaration, as many bytes cut after it (the
        parser must refuse the DTD before it reads any further)."""
        body = info[8:]
        declaration = body[:body.index(b"?>") + 2]
        dtd = b'<!DOCTYPE e [<!ENTITY a "aaaa">]>'
        return info[:8] + declaration + dtd + body[len(declaration) + len(dtd):]

    rewrite_encryption_info(sealed, bomb)
    with pytest.raises(WorkbookFileError, match="declares a DTD or entities"):
        guard.decrypt(str(sealed), sealed.read_bytes(), "pw")

"""Helpers shared by the package writer's tests (test_package_*.py)."""
from __future__ import annotations

import csv
import datetime as dt
import hashlib
import importlib.util
import io
import os
import re
import shutil
import struct
import subprocess
import tempfile
import uuid
import zipfile
from pathlib import Path

import openpyxl
import pytest
import python_calamine
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from automation.errors import MusterrollError, UsageError, WorkbookFileError
from automation.workbook.package import (
    Batch, LineChartSpec, ListValidation, NewSheet, append_sheets, file_digest, list_batches, sheet_names,
)
from automation.workbook.undo import remove_last_batch

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
RICH = FIXTURES / "rich.xlsx"
ALLOWED = {"xl/workbook.xml", "xl/_rels/workbook.xml.rels", "[Content_Types].xml", "docProps/app.xml", "xl/styles.xml"}
RESTORED_BY_UNDO = ALLOWED - {"xl/styles.xml"}
ROWS = [["Turn", "German CPP", "Soviet CPP", "Order"], [1, 12, 15, "Hold"], [2, 14, 13, "Attack"], [3, 9, 17, "Hold"]]
FORMULA_LOOKING = ["=SUM(A1:A3)", "+1", "-5", "@INDIRECT(\"A1\")", "=1+1", "<r>x &amp; y</r>"]

pytestmark = pytest.mark.filterwarnings("ignore:.*extension is not supported")


# --------------------------------------------------------------------------- helpers

def raw_members(path: Path) -> dict[str, tuple[bytes, bytes, int]]:
    """Per member: local header bytes, raw compressed bytes (plus any data descriptor), CRC."""
    data = path.read_bytes()
    out = {}
    with zipfile.ZipFile(path) as zf:
        for info in zf.infolist():
            at = info.header_offset
            nlen, elen = struct.unpack_from("<HH", data, at + 26)
            start = at + 30 + nlen + elen
            end = start + info.compress_size
            if info.flag_bits & 0x08:
                end += 16 if data[end:end + 4] == b"PK\x07\x08" else 12
            out[info.filename] = (data[at:start], data[start:end], info.CRC)
    return out


def contents(path: Path) -> dict[str, bytes]:
    with zipfile.ZipFile(path) as zf:
        return {name: zf.read(name) for name in zf.namelist()}


def assert_untouched(before: dict[str, tuple[bytes, bytes, int]], path: Path, may_change: set[str] = ALLOWED) -> None:
    after = raw_members(path)
    for name, record in before.items():
        if name in may_change:
            continue
        assert name in after, f"{name} disappeared"
        assert after[name] == record, f"{name} was not copied byte for byte"


def report(name: str = "Report 24DEC", rows: list[list[object]] | None = None, **kw: object) -> NewSheet:
    return NewSheet(name, rows or ROWS, **kw)  # type: ignore[arg-type]


def rezip(path: Path, change: dict[str, bytes | None]) -> None:
    """Rewrite ``path`` with some members replaced (or dropped, for None): a stand-in
    for another program saving the workbook."""
    src = contents(path)
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as zf:
        for name, data in src.items():
            new = change.get(name, data)
            if new is not None:
                zf.writestr(name, new)
        for name, data in change.items():
            if name not in src and data is not None:
                zf.writestr(name, data)
    path.write_bytes(buf.getvalue())


@pytest.fixture
def book(tmp_path: Path) -> Path:
    target = tmp_path / "campaign.xlsx"
    shutil.copyfile(RICH, target)
    return target


def soffice() -> str:
    exe = shutil.which("soffice") or shutil.which("libreoffice")
    if exe:
        return exe
    if os.environ.get("CI") == "true":
        pytest.fail("LibreOffice (soffice) is required when CI=true but it is not installed")
    pytest.skip("LibreOffice (soffice) is not installed")


def libreoffice(path: Path, target: str, outdir: Path) -> None:
    profile = Path(tempfile.gettempdir()) / f"musterroll-lo-{uuid.uuid4().hex}"
    try:
        subprocess.run([soffice(), f"-env:UserInstallation={profile.as_uri()}", "--headless", "--norestore",
                        "--convert-to", target, "--outdir", str(outdir), str(path)],
                       check=False, capture_output=True, timeout=240)
    finally:
        shutil.rmtree(profile, ignore_errors=True)


def libreoffice_csv(path: Path, outdir: Path) -> dict[str, list[list[str]]]:
    """Every sheet as LibreOffice reads it, via its CSV export (all sheets, UTF-8)."""
    libreoffice(path, "csv:Text - txt - csv (StarCalc):44,34,76,1,,0,false,true,false,false,false,-1", outdir)
    sheets = {}
    for name in sheet_names(path):
        out = outdir / f"{path.stem}-{name}.csv"
        assert out.exists(), f"LibreOffice did not export sheet {name!r}"
        with out.open(encoding="utf-8", newline="") as fh:
            sheets[name] = list(csv.reader(fh))
    return sheets



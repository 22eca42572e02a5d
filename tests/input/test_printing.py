"""Everything prints: every sheet of an export and every sheet a refit appends is
set up for paper (one page wide, landscape when wide, the header row on every
page), and LibreOffice, rendering a real export, lays each sheet on pages of
its own width."""
from __future__ import annotations

import os
import re
import shutil
import subprocess
import tempfile
import uuid
from pathlib import Path

import openpyxl
import pytest

from automation.pbem.export import export
from automation.service import refit
from automation.workbook.layout import PORTRAIT_CHARS
from tests.workbook.package_helpers import soffice
from tests.workbook.workbook_helpers import copy_sample


@pytest.fixture(scope="module")
def refitted(tmp_path_factory: pytest.TempPathFactory) -> Path:
    book = copy_sample(tmp_path_factory.mktemp("print"))
    refit(book)
    return book


@pytest.fixture(scope="module")
def exported(refitted: Path) -> Path:
    out = refitted.parent / "german.xlsx"
    export(refitted, "German", out)
    return out


def widths(ws) -> float:
    """The sheet's column widths in characters (a stored width carries about 0.71 of padding)."""
    stored = (ws.column_dimensions[openpyxl.utils.get_column_letter(c)].width for c in range(1, ws.max_column + 1))
    return sum(round(w - 0.71, 1) if w else 8.43 for w in stored)


def assert_prints(ws) -> None:
    assert ws.sheet_properties.pageSetUpPr.fitToPage, ws.title
    assert (ws.page_setup.fitToWidth or 1, ws.page_setup.fitToHeight) == (1, 0), ws.title  # 1 is the default
    assert ws.print_title_rows.replace("$", "") in ("1:1", "1:3"), ws.title  # a decision form repeats its top three rows
    wide = widths(ws) > PORTRAIT_CHARS
    assert (ws.page_setup.orientation == "landscape") == wide, (ws.title, widths(ws))


def test_every_sheet_of_an_export_is_set_up_for_paper(exported: Path) -> None:
    wb = openpyxl.load_workbook(exported)
    assert len(wb.sheetnames) >= 5
    for ws in wb.worksheets:
        assert_prints(ws)
    info = wb["Export"]  # the balances sit next to their labels, not at the far end of the wide column
    row = next(r for r in info.iter_rows(min_row=2) if r[0].value == "CPP left")
    assert isinstance(row[1].value, int) and row[1].alignment.horizontal == "left"


def test_every_sheet_a_refit_appends_is_set_up_for_paper(refitted: Path) -> None:
    wb = openpyxl.load_workbook(refitted)
    added = [n for n in wb.sheetnames if n.startswith("Refit ")]
    assert added
    for name in added:
        assert_prints(wb[name])




def pages(pdf: Path) -> list[tuple[float, float]]:
    """Each page's (width, height) in points, as pdfinfo reads them."""
    exe = shutil.which("pdfinfo")
    if exe is None:
        if os.environ.get("CI") == "true":
            pytest.fail("pdfinfo (poppler-utils) is required when CI=true")
        pytest.skip("pdfinfo is not installed")
    out = subprocess.run([exe, "-f", "1", "-l", "999", str(pdf)], capture_output=True, text=True, check=True).stdout
    return [(float(w), float(h)) for w, h in re.findall(r"Page\s+\d+ size:\s+([\d.]+) x ([\d.]+)", out)]


def test_libreoffice_prints_each_sheet_of_an_export_one_page_wide(exported: Path, tmp_path: Path) -> None:
    profile = Path(tempfile.gettempdir()) / f"lo-musterroll-{uuid.uuid4().hex}"
    try:
        subprocess.run([soffice(), f"-env:UserInstallation={profile.as_uri()}", "--headless", "--norestore",
                        "--convert-to", "pdf", "--outdir", str(tmp_path), str(exported)],
                       capture_output=True, text=True, timeout=600, check=False)
    finally:
        shutil.rmtree(profile, ignore_errors=True)
    pdf = tmp_path / "german.pdf"
    assert pdf.exists(), "LibreOffice made no PDF of the export"
    sizes = pages(pdf)
    wb = openpyxl.load_workbook(exported)
    # no sheet of this export is longer than a page: one page per sheet, none split across the width
    assert len(sizes) == len(wb.sheetnames)
    for (w, h), ws in zip(sizes, wb.worksheets):
        assert (w > h) == (widths(ws) > PORTRAIT_CHARS), (ws.title, w, h)

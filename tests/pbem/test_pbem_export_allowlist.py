"""An export is built by allow-list: only the documented columns of the
documented sheet kinds reach a player. Columns and sheets the umpire adds for
themselves, even named like a campaign sheet, never do."""
from __future__ import annotations

import shutil
from pathlib import Path

import openpyxl
import pytest

from automation import samples_abtf as S
from automation.service import refit
from automation.workbook import bf_sheets as K
from automation.workbook.reader import Workbook
from tests.pbem.helpers import parts, run

SECRET = "zz-umpire-secret"


def umpire_additions(book: Path, sheets: dict[str, str]) -> None:
    """The umpire's own columns on ``sheets`` (sheet -> column title), and
    sheets of their own named like campaign sheets, each with a header that
    fits (or nearly fits) the kind its name suggests, holding the secret."""
    wb = openpyxl.load_workbook(book)
    for sheet, column in sheets.items():
        ws = wb[sheet]
        c = ws.max_column + 1
        ws.cell(1, c, column)
        for r in range(2, ws.max_row + 1):
            ws.cell(r, c, f"{SECRET}-{sheet}-{r}")
    for title, header in (("Umpire notes", ["Entry", "Subject", "Value", "Notes"]),
                          ("Results draft", K.RESULTS.header),
                          ("Refit notes 1", K.REPORT.header),
                          ("Ledger notes", K.LEDGER.header)):
        ws = wb.create_sheet(title)
        ws.append(header)
        row = [None] * len(header)
        for i, h in enumerate(header):
            row[i] = {"Side": "German", "Visible to": "All", "Step": "Note", "Result": SECRET,
                      "Account": "CPP", "Entry": f"Purchase {SECRET}"}.get(h, SECRET)
        ws.append(row)
    wb.save(book)


def export_holds(capsys, book: Path, side: str, out: Path) -> tuple[bytes, Workbook]:
    code, _, err = run(capsys, "export", book, "--side", side, "-o", out)
    assert code == 0, err
    return b"".join(parts(out).values()), Workbook(out)


@pytest.mark.parametrize("side", ["German", "Russian"])
def test_a_battlefront_export_holds_none_of_the_umpires_own_columns_or_sheets(capsys, campaign, tmp_path, side):
    book = campaign("spend_dec23")
    umpire_additions(book, {"RG Chart": "Umpire notes", "Roster Start": "Umpire private", "Refit Dec 23 1": "Umpire",
                            "Sides": "Umpire notes"})
    data, out = export_holds(capsys, book, side, tmp_path / "out.xlsx")
    assert SECRET.encode() not in data
    assert not {"Umpire notes", "Results draft", "Refit notes 1", "Ledger notes"} & set(out.sheet_names)
    # the documented sheets are still there, with their documented columns only
    assert {"Roster Start", "RG Chart", "Refit Dec 23 1", "Sides"} <= set(out.sheet_names)
    assert out.raw("RG Chart")[0] == [c.name for c in K.RG_CHART.columns]
    assert "Umpire private" not in out.raw("Roster Start")[0]
    assert all(r[out.raw("Roster Start")[0].index("Side")] == side for r in out.raw("Roster Start")[1:])


def test_a_sheet_named_like_a_campaign_sheet_without_its_columns_is_the_umpires(capsys, campaign, tmp_path):
    """``Results Dec 24`` names a real date, but its header is not a Results
    header: it is the umpire's, and stays out."""
    book = campaign("spend_dec23")
    wb = openpyxl.load_workbook(book)
    ws = wb.create_sheet("Results Dec 24")
    ws.append(["Thoughts", "Side"])
    ws.append([SECRET, "German"])
    wb.save(book)
    data, out = export_holds(capsys, book, "German", tmp_path / "out.xlsx")
    assert SECRET.encode() not in data and "Results Dec 24" not in out.sheet_names


@pytest.mark.parametrize("side", ["British", "German"])
def test_an_abtf_export_holds_none_of_the_umpires_own_columns_or_sheets(capsys, tmp_path, side):
    book = tmp_path / "abtf.xlsx"
    shutil.copyfile(S.SAMPLE, book)
    shutil.copyfile(S.SAMPLE.with_suffix(".key"), book.with_suffix(".key"))
    umpire_additions(book, {"RG Chart British": "Umpire notes", "RG Chart German": "Umpire notes",
                            "Units Start": "Umpire private", "CG Roster Start": "Umpire private",
                            "Chit Limits": "Umpire notes"})
    refit(book)
    data, out = export_holds(capsys, book, side, tmp_path / "out.xlsx")
    assert SECRET.encode() not in data
    assert not {"Umpire notes", "Results draft", "Refit notes 1", "Ledger notes"} & set(out.sheet_names)
    assert f"RG Chart {side}" in out.sheet_names and "Units Start" in out.sheet_names

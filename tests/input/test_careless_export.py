"""A campaign typed carelessly (a side with a trailing space, date labels Excel
stored as dates, names in other cases) refits, exports and imports as if typed
with care: the player gets their rows, and date labels read as typed in sheet
names, reports and the export alike."""
from __future__ import annotations

import datetime as dt
from pathlib import Path

from python_calamine import CalamineWorkbook

from automation.samples import SAMPLE
from tests.input.conftest import copy_of, typed


def values(path: Path, sheet: str) -> list[list]:
    return CalamineWorkbook.from_path(str(path)).get_sheet_by_name(sheet).to_python()


def test_a_careless_campaign_exports_the_sides_rows_and_the_labels_as_typed(tmp_path: Path, musterroll) -> None:
    book = copy_of(SAMPLE, tmp_path)

    def careless(wb) -> None:
        wb["Sides"]["A2"] = "German "
        for row in range(2, 7):  # 'Dec 23' ... typed into General cells: Excel stores dates of this year
            wb["Dates"].cell(row, 1).value = dt.datetime(2026, 12, 21 + row)
        ws = wb["Historical DRM"]
        for row in range(2, ws.max_row + 1):
            ws.cell(row, 2).value = str(ws.cell(row, 2).value).lower()

    typed(book, careless)
    run = musterroll("refit", book)
    assert run.code == 0, run.err
    assert "Refit Dec 23 1" in CalamineWorkbook.from_path(str(book)).sheet_names
    out = tmp_path / "german.xlsx"
    run = musterroll("export", book, "--side", "GERMAN", "-o", out)
    assert run.code == 0, run.err
    names = CalamineWorkbook.from_path(str(out)).sheet_names
    sides = values(out, "Sides")
    assert [r[0].strip() for r in sides[1:]] == ["German"]
    dates = values(out, "Dates")
    assert [r[0] for r in dates[1:]] == ["Dec 23", "Dec 24", "Dec 25", "Dec 26", "Dec 27"]
    assert any(n.startswith("Refit Dec 23") for n in names)

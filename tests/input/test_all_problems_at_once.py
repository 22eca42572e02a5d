"""A run reads every sheet it needs and reports the problems of all of them at
once: a first fill with mistakes on several sheets takes one run to learn them
all, not one run per sheet; the workbook is left as it was."""
from __future__ import annotations

import datetime as dt
from pathlib import Path

from automation.samples import SAMPLE
from tests.input.conftest import ABTF_SAMPLE, copy_of, problems, typed


def test_a_battlefront_refit_reports_the_mistakes_of_every_sheet_together(tmp_path: Path, musterroll) -> None:
    book = copy_of(SAMPLE, tmp_path)

    def careless(wb) -> None:
        wb["Sides"]["C2"] = "ten"
        wb["Dates"]["B3"] = "24/12/1942"
        wb["RG Chart"]["D2"] = "Tank"
        wb["Roster Start"]["K4"] = "Destroyed"
        wb["FP Chart"]["C2"] = "two"

    typed(book, careless)
    before = book.read_bytes()
    found = problems(musterroll("refit", book))
    sheets = {p.split("!")[0] for p in found}
    assert {"Sides", "Dates", "RG Chart", "Roster Start", "FP Chart"} <= sheets, found
    assert "Sides!C2: Starting CPP: text 'ten' where a whole number is expected" in found
    assert any(p.startswith("Roster Start!K4: Status: text 'Destroyed' is not allowed") for p in found)
    assert book.read_bytes() == before


def test_an_abtf_refit_reports_the_mistakes_of_every_sheet_together(tmp_path: Path, musterroll) -> None:
    book = copy_of(ABTF_SAMPLE, tmp_path)

    def careless(wb) -> None:
        wb["Units Start"]["E2"] = dt.datetime(2008, 6, 5)
        wb["CG Dates"]["D3"] = "many"
        wb["Unit Classes"]["B2"] = "two"
        wb["Blocks Start"]["B2"] = "Castle"

    typed(book, careless)
    before = book.read_bytes()
    found = problems(musterroll("refit", book))
    sheets = {p.split("!")[0] for p in found}
    assert {"Units Start", "CG Dates", "Unit Classes", "Blocks Start"} <= sheets, found
    assert book.read_bytes() == before

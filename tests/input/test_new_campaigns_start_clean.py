"""New campaigns start clean: no sample's data in a template, no sheet a rule
system does not use, instructions as notes (not as values the refit copies into
every line), code columns formatted as Text, and a Summary chart readable from
the first date."""
from __future__ import annotations

import re
import warnings
import zipfile
from pathlib import Path

import openpyxl
import pytest

from automation.samples import SAMPLE
from automation.samples_demo import run_demo
from automation.workbook.template import TEMPLATES_DIR


def load(path: Path) -> openpyxl.Workbook:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return openpyxl.load_workbook(path)


def test_the_battlefront_template_has_no_rostov_chart_and_the_sample_does() -> None:
    template = {r[0] for r in load(TEMPLATES_DIR / "bf-campaign.xlsx")["Charts"].iter_rows(min_row=2, values_only=True)}
    sample = {r[0] for r in load(SAMPLE)["Charts"].iter_rows(min_row=2, values_only=True)}
    assert "bf.rostov_historical_drm" not in template and "bf.discipline_ladder" in template
    assert sample - template == {"bf.rostov_historical_drm"}


def test_the_abtf_template_has_no_sides_sheet_and_no_instructions_in_its_lines() -> None:
    wb = load(TEMPLATES_DIR / "asl-abtf.xlsx")
    assert "Sides" not in wb.sheetnames and "Sides" in load(TEMPLATES_DIR / "bf-campaign.xlsx").sheetnames
    roster = wb["CG Roster Start"]
    notes = [c.value for c in roster["U"]]
    assert notes[0] == "Notes" and not any(notes[1:])
    assert "initial SAN, ELR and CPP" in roster["A1"].comment.text
    chits = wb["Chit Limits"]
    assert not any(c.value for c in chits["D"][1:]) and "Chit maximums" in chits["A1"].comment.text


@pytest.mark.parametrize(("template", "sheet", "column"), [
    ("asl-abtf.xlsx", "Units Start", "Strength"), ("asl-abtf.xlsx", "Units Start", "Unit"),
    ("asl-abtf.xlsx", "CG Dates", "CG Date"), ("asl-abtf.xlsx", "RG Chart British", "ID"),
    ("bf-campaign.xlsx", "Dates", "Date"), ("bf-campaign.xlsx", "Roster Start", "Stand"),
    ("bf-campaign.xlsx", "RG Chart", "ID"),
])
def test_code_columns_of_the_templates_are_text(template: str, sheet: str, column: str) -> None:
    ws = load(TEMPLATES_DIR / template)[sheet]
    header = [c.value for c in ws[1]]
    letter = openpyxl.utils.get_column_letter(header.index(column) + 1)
    dims = ws.column_dimensions
    found = next(d for k, d in dims.items() if d.min <= header.index(column) + 1 <= d.max) if letter not in dims \
        else dims[letter]
    assert found.number_format == "@", (sheet, column)
    other = header.index("Notes") + 1 if "Notes" in header else None
    if other:
        notes = next((d for d in dims.values() if d.min <= other <= d.max), None)
        assert notes is None or notes.number_format != "@"


def test_the_summary_chart_shows_columns_for_the_first_date_and_lines_after(tmp_path: Path) -> None:
    book = run_demo(tmp_path / "demo")
    with zipfile.ZipFile(book) as z:
        charts = {n: z.read(n).decode() for n in z.namelist() if re.match(r"xl/charts/chart\d+\.xml$", n)}
    first = [c for c in charts.values() if "'Summary Dec 23'" in c]
    later = [c for c in charts.values() if "'Summary Dec 24'" in c]
    assert first and later
    assert "<c:barChart>" in first[0] and '<c:barDir val="col"/>' in first[0]
    assert "<c:lineChart>" in later[0]

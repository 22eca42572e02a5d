"""Typing into a sheet of the campaign workbook in place, as the umpire does
in Excel: the cells typed change, keep their style, and read back; every
other part of the workbook (its chart among them) stays byte for byte."""
from __future__ import annotations

import shutil
import zipfile
from pathlib import Path

import openpyxl
import pytest

from automation.errors import UsageError, WorkbookFileError
from automation.samples import SAMPLE
from automation.service import refit
from automation.workbook.forms.fill import fill_in_place
from automation.workbook.forms.status import Status
from automation.workbook.reader import Workbook
from automation.workbook.typein import type_in


@pytest.fixture
def waiting(tmp_path) -> Path:
    """The Rostov sample waiting for its Dec 23 spending: two forms in the master."""
    book = tmp_path / SAMPLE.name
    shutil.copyfile(SAMPLE, book)
    shutil.copyfile(SAMPLE.with_suffix(".key"), book.with_suffix(".key"))
    assert refit(book).forms == ["Spend Dec 23 German", "Spend Dec 23 Russian"]
    return book


def members(book: Path) -> dict[str, bytes]:
    with zipfile.ZipFile(book) as z:
        return {i.filename: z.read(i) for i in z.infolist()}


def part_of(book: Path, sheet: str) -> str:
    from automation.workbook.package import _Package

    return next(s.part for s in _Package(str(book), book.read_bytes()).sheets() if s.name == sheet)


def test_only_the_typed_sheet_part_changes_and_every_other_part_is_byte_for_byte(waiting):
    before = members(waiting)
    type_in(waiting, "Spend Dec 23 German", {"B2": "Ready", "C5": 2})
    after = members(waiting)
    changed = sorted(n for n in after if after[n] != before.get(n))
    assert set(after) == set(before)
    assert changed == [part_of(waiting, "Spend Dec 23 German")]


def test_typed_values_read_back_and_keep_their_cells_style(waiting):
    ws = openpyxl.load_workbook(waiting)["Spend Dec 23 German"]
    styles = {ref: ws[ref].style_id for ref in ("B2", "C5")}
    type_in(waiting, "Spend Dec 23 German", {"B2": "Ready", "C5": 2, "F5": " a <note> & more "})
    ws = openpyxl.load_workbook(waiting)["Spend Dec 23 German"]
    assert (ws["B2"].value, ws["C5"].value, ws["F5"].value) == ("Ready", 2, " a <note> & more ")
    assert {ref: ws[ref].style_id for ref in ("B2", "C5")} == styles
    assert any(" a <note> & more " in r for r in Workbook(waiting).raw("Spend Dec 23 German"))  # the reader too


def test_a_cell_beyond_the_sheet_is_added_in_order_and_the_dimension_grows(waiting):
    type_in(waiting, "Spend Dec 23 Russian", {"H80": "far", "A80": "Purchase"})
    ws = openpyxl.load_workbook(waiting)["Spend Dec 23 Russian"]
    assert (ws["A80"].value, ws["H80"].value) == ("Purchase", "far")
    with zipfile.ZipFile(waiting) as z:
        xml = z.read(part_of(waiting, "Spend Dec 23 Russian")).decode()
    assert xml.index('r="A80"') < xml.index('r="H80"')
    assert ":" in xml.split('<dimension ref="')[1].split('"')[0] and \
        xml.split('<dimension ref="')[1].split('"')[0].endswith("80")


def test_none_empties_a_cell_and_keeps_its_style(waiting):
    type_in(waiting, "Spend Dec 23 German", {"C5": 3})
    type_in(waiting, "Spend Dec 23 German", {"C5": None})
    assert openpyxl.load_workbook(waiting)["Spend Dec 23 German"]["C5"].value is None


def test_an_unknown_sheet_or_a_bad_reference_is_refused_and_the_bytes_stay(waiting):
    before = waiting.read_bytes()
    with pytest.raises(UsageError, match="no worksheet named 'Spend Dec 32 German'"):
        type_in(waiting, "Spend Dec 32 German", {"B2": "Ready"})
    with pytest.raises(UsageError, match=r"Spend Dec 23 German!B0: not a cell reference"):
        type_in(waiting, "Spend Dec 23 German", {"B0": "Ready"})
    assert waiting.read_bytes() == before


def test_a_workbook_open_in_excel_is_not_typed_into(waiting):
    lock = waiting.with_name("~$" + waiting.name)
    lock.write_text("x")
    before = waiting.read_bytes()
    with pytest.raises(WorkbookFileError, match="open in Excel or LibreOffice"):
        type_in(waiting, "Spend Dec 23 German", {"B2": "Ready"})
    assert waiting.read_bytes() == before


def test_filling_a_form_in_place_sets_it_ready_and_the_refit_reads_the_choice(waiting):
    fill_in_place(waiting, "Spend Dec 23 German", [{"Order": "Purchase", "Subject": "I1", "Value": 1}])
    fill_in_place(waiting, "Spend Dec 23 Russian", [])
    ws = openpyxl.load_workbook(waiting)["Spend Dec 23 German"]
    assert ws["B2"].value == Status.READY.value
    done = refit(waiting)
    assert done.waiting is None
    ledger = [r for r in Workbook(waiting).raw("Ledger Dec 23") if r and r[0] == "German"]
    assert any("I1" in str(r) for r in ledger), ledger


def test_a_value_the_cell_does_not_accept_is_refused_at_its_cell_and_the_bytes_stay(waiting):
    before = waiting.read_bytes()
    with pytest.raises(UsageError, match=r"Spend Dec 23 German!C\d+: 99 is not a whole number from \d+ to \d+"):
        fill_in_place(waiting, "Spend Dec 23 German", [{"Order": "Purchase", "Subject": "I1", "Value": 99}])
    assert waiting.read_bytes() == before


def test_the_umpire_filling_results_in_place_keeps_the_masters_chart_byte_for_byte(tmp_path, capsys):
    from automation.samples_demo import RESULTS_DEC23, SPEND_DEC23, as_lines, through_forms
    from automation.workbook import bf_sheets as K

    book = tmp_path / SAMPLE.name
    shutil.copyfile(SAMPLE, book)
    shutil.copyfile(SAMPLE.with_suffix(".key"), book.with_suffix(".key"))
    refit(book)
    through_forms(book, {K.SPEND.name_for(date="Dec 23", side=s): as_lines(K.SPEND, rows)
                         for s, rows in SPEND_DEC23.items()})
    refit(book)
    assert "Results Dec 23" in refit(book).forms
    before = members(book)
    assert any(n.startswith("xl/charts/") for n in before), "the Summary's chart is in the master"
    fill_in_place(book, "Results Dec 23", as_lines(K.RESULTS, RESULTS_DEC23))
    after = members(book)
    assert sorted(n for n in after if after[n] != before.get(n)) == [part_of(book, "Results Dec 23")]
    rows = Workbook(book).raw("Results Dec 23")
    assert ["German", "G-Pz-2", "Knocked out", "Direct fire", "Own lines"] in [r[:5] for r in rows]

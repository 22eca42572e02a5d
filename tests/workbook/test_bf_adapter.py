"""Reading a Battlefront campaign workbook: references checked cell by cell."""
import shutil

import openpyxl
import pytest

from automation.errors import WorkbookError
from automation.samples import SAMPLE
from automation.service import refit


@pytest.fixture
def book(tmp_path):
    path = tmp_path / SAMPLE.name
    shutil.copyfile(SAMPLE, path)
    shutil.copyfile(SAMPLE.with_suffix(".key"), path.with_suffix(".key"))
    return path


def edit(path, sheet, cell, value):
    wb = openpyxl.load_workbook(path)
    wb[sheet][cell] = value
    wb.save(path)
    return path.read_bytes()


def test_a_historical_drm_that_is_neither_a_number_nor_no_cpps_names_its_cell(book):
    before = edit(book, "Historical DRM", "C3", "plus two")
    with pytest.raises(WorkbookError) as err:
        refit(book)
    assert "Historical DRM!C3: text 'plus two' is neither a whole number nor No CPP's" in str(err.value)
    assert book.read_bytes() == before


def test_a_date_and_side_given_twice_on_the_historical_chart_is_refused(book):
    before = edit(book, "Historical DRM", "A4", "Dec 23")  # row 4 was Dec 24 Russian; row 2 is Dec 23 Russian
    with pytest.raises(WorkbookError, match=r"Historical DRM!A4: Dec 23, Russian already has a DRM at A2"):
        refit(book)
    assert book.read_bytes() == before


def test_a_historical_drm_for_a_date_not_on_the_dates_sheet_is_refused(book):
    edit(book, "Historical DRM", "A11", "Dec 28")
    wb = openpyxl.load_workbook(book)
    ws = wb["Historical DRM"]
    ws["B11"], ws["C11"] = "German", 1
    wb.save(book)
    with pytest.raises(WorkbookError, match=r"Historical DRM!A11: 'Dec 28' is not a date on the Dates sheet"):
        refit(book)


def test_an_rg_on_the_roster_that_is_not_on_the_rg_chart_names_its_cell(book):
    wb = openpyxl.load_workbook(book)
    ws = wb["Roster Start"]
    column = [c.value for c in ws[1]].index("RG") + 1
    ws.cell(row=2, column=column).value = "Z9"
    wb.save(book)
    before = book.read_bytes()
    letter = openpyxl.utils.get_column_letter(column)
    with pytest.raises(WorkbookError, match=rf"Roster Start!{letter}2: 'Z9' is not on the RG chart of German; valid: I1, A1, E1"):
        refit(book)
    assert book.read_bytes() == before


def test_a_row_of_an_me_that_disagrees_with_its_first_row_names_its_cell_and_both_values(book):
    wb = openpyxl.load_workbook(book)
    ws = wb["Roster Start"]
    header = [c.value for c in ws[1]]
    me, cls = header.index("ME") + 1, header.index("ME class") + 1
    first = ws.cell(row=2, column=me).value
    again = next(r for r in range(3, ws.max_row + 1) if ws.cell(row=r, column=me).value == first)
    was = ws.cell(row=again, column=cls).value
    ws.cell(row=again, column=cls).value = "I" if was != "I" else "A"  # (another valid class)
    wb.save(book)
    before = book.read_bytes()
    letter = openpyxl.utils.get_column_letter(cls)
    with pytest.raises(WorkbookError) as err:
        refit(book)
    assert (f"Roster Start!{letter}{again}: ME {first} has {ws.cell(row=again, column=cls).value!r} here but "
            f"{was!r} at {openpyxl.utils.get_column_letter(me)}2; every row of an ME must agree") in str(err.value)
    assert book.read_bytes() == before

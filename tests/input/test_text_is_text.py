"""Text is text: every string both writers store (sheets appended to a campaign
and players' exports) reads back exactly as given, whatever it holds; what a
cell cannot hold is refused with a message naming the cell."""
from __future__ import annotations

import datetime as dt
import zipfile
from pathlib import Path

import openpyxl
import pytest
from python_calamine import CalamineWorkbook

from automation.errors import UsageError
from automation.pbem.xlsx import OutSheet, write
from automation.workbook.package import NewSheet, append_sheets
from automation.workbook.schema import check_date_label
from automation.workbook.text import MAX_TEXT, cell_text
from tests.workbook.workbook_helpers import copy_sample

HOSTILE = [
    "a < b & c > d \"quoted\" 'single'",
    "bell\x07 tab\t newline\n nul-free controls \x01\x1f",
    "<r><t>pwn</t></r>",
    "<r><rPr><b/></rPr><t>bold?</t></r>",
    "=HYPERLINK(\"http://x\")",
    "_x0041_ looks escaped",
    "  spaced  ",
    "Übungsgruppe «Nord» 🛡",
]


def read_back(path: Path, sheet: str) -> list[str]:
    rows = CalamineWorkbook.from_path(str(path)).get_sheet_by_name(sheet).to_python()
    return [r[0] for r in rows[1:]]


def test_the_export_writer_stores_every_hostile_text_as_that_text(tmp_path: Path) -> None:
    out = tmp_path / "export.xlsx"
    write(out, [OutSheet("Notes", [["Note"]] + [[t] for t in HOSTILE])])
    assert read_back(out, "Notes") == HOSTILE
    ws = openpyxl.load_workbook(out)["Notes"]
    assert ws["C1"].value is None and ws["A4"].value == "<r><t>pwn</t></r>" and ws["A4"].data_type == "s"
    cells = zipfile.ZipFile(out).read("xl/worksheets/sheet1.xml").decode()  # the export's text is inline
    assert "<t>pwn</t>" not in cells and "<f>" not in cells
    assert "&lt;r&gt;&lt;t&gt;pwn&lt;/t&gt;&lt;/r&gt;" in cells  # escaped, in a plain inline string


def test_appended_sheets_store_every_hostile_text_as_that_text(tmp_path: Path) -> None:
    book = copy_sample(tmp_path)
    append_sheets(book, [NewSheet("Hostile", [["Note"]] + [[t] for t in HOSTILE])], "hostile")
    assert read_back(book, "Hostile") == HOSTILE
    ws = openpyxl.load_workbook(book)["Hostile"]  # openpyxl leaves _x0001_ escapes as they are: those aside
    assert [ws.cell(i + 2, 1).value for i in (0, 2, 3, 4, 6, 7)] == [HOSTILE[i] for i in (0, 2, 3, 4, 6, 7)]


def test_a_lone_surrogate_becomes_the_replacement_character_in_both_writers(tmp_path: Path) -> None:
    text = "broken \ud800 pair"
    out = tmp_path / "export.xlsx"
    write(out, [OutSheet("Notes", [["Note"], [text]])])
    assert read_back(out, "Notes") == ["broken \ufffd pair"]
    book = copy_sample(tmp_path / "master")
    append_sheets(book, [NewSheet("Odd", [["Note"], [text]])], "odd")
    assert read_back(book, "Odd") == ["broken \ufffd pair"]


def test_the_cell_limit_is_32767_characters_counted_as_excel_counts_them(tmp_path: Path) -> None:
    full = "x" * MAX_TEXT
    out = tmp_path / "full.xlsx"
    write(out, [OutSheet("Long", [["Text"], [full]])])
    assert read_back(out, "Long") == [full]
    with pytest.raises(UsageError, match=r"Long!A2: a text of 32,768 characters; a cell holds at most 32,767"):
        write(tmp_path / "over.xlsx", [OutSheet("Long", [["Text"], [full + "y"]])])
    # an emoji is two units in Excel: 16,384 of them do not fit
    with pytest.raises(UsageError, match=r"Long!A2: a text of 32,768 characters"):
        cell_text("🛡" * 16_384, "Long!A2")
    book = copy_sample(tmp_path / "master")
    before = book.read_bytes()
    with pytest.raises(UsageError, match=r"Over!B2: a text of 32,768 characters"):
        append_sheets(book, [NewSheet("Over", [["Id", "Text"], [1, full + "y"]])], "over")
    assert book.read_bytes() == before


def test_dates_before_1900_are_refused_with_a_message_not_written_as_serial_zero(tmp_path: Path) -> None:
    book = copy_sample(tmp_path)
    before = book.read_bytes()
    with pytest.raises(UsageError, match=r"Old!A2: the date 1899-12-31 is before 1900-01-01"):
        append_sheets(book, [NewSheet("Old", [["Calendar date"], [dt.date(1899, 12, 31)]])], "old")
    assert book.read_bytes() == before
    append_sheets(book, [NewSheet("New", [["Calendar date"], [dt.date(1900, 1, 1)]])], "new")
    assert openpyxl.load_workbook(book)["New"]["A2"].value == dt.datetime(1900, 1, 1)


def test_a_date_label_is_measured_in_utf16_units_as_sheet_names_are() -> None:
    assert check_date_label(" Dec 24 AM ") == "Dec 24 AM"
    assert check_date_label("🛡" * 6) == "🛡" * 6  # 12 units
    with pytest.raises(ValueError, match="it has 14"):
        check_date_label("🛡" * 7)  # 7 characters, 14 units


def test_a_lone_surrogate_never_reaches_a_sheet_name() -> None:
    from automation.workbook.package import NewSheet as Sheet
    from automation.workbook.cellvalues import convert
    from automation.workbook.schema import SIDES_SHEET, check_sheet_name

    side = SIDES_SHEET.column("Side")
    value, message = convert(side, "Ger\ud800", {})
    assert value is None and "lone surrogate" in message
    with pytest.raises(ValueError, match="lone surrogate"):
        check_sheet_name("Orders Dec 24 Ger\ud800")
    with pytest.raises(UsageError, match="lone surrogate"):
        Sheet("Orders \ud800", [["Order"]])

"""The reader's pieces: values converted by column kind, and how far a sheet
reaches found before it is parsed."""
from __future__ import annotations

import datetime as dt
import io
import zipfile
from pathlib import Path

import pytest

from automation.errors import WorkbookError
from automation.workbook.cellvalues import convert, describe
from automation.workbook.reader import Workbook
from automation.workbook.schema import Column, Kind, ListRef, choice
from automation.workbook.safety import STRINGS_TAKEN, Extent, sheet_extent, strings_overstated

DATE = Column("Calendar date", Kind.DATE)
LABEL = Column("Date")
COUNT = Column("Stands", Kind.INT)
MIXED = Column("Value", Kind.INT_OR_TEXT)
SIDE = choice("Side", ListRef("sides"))
LISTS = {"sides": ["German", "Russian"]}


@pytest.mark.parametrize("value, expected", [
    (dt.date(1942, 12, 23), "1942-12-23"),
    (dt.datetime(1942, 12, 23, 0, 0), "1942-12-23"),
    ("1942-12-23", "1942-12-23"),
    (" 1942-12-23 ", "1942-12-23"),
])
def test_a_calendar_date_is_read_from_a_date_cell_or_iso_text(value: object, expected: str) -> None:
    assert convert(DATE, value, {}) == (expected, None)


@pytest.mark.parametrize("value, message", [
    ("23.12.1942", "text '23.12.1942' where a date (a date cell, or text written YYYY-MM-DD) is expected"),
    (15697.0, "the number 15697 where a date (a date cell, or text written YYYY-MM-DD) is expected"),
    (dt.time(6, 30), "the time 06:30:00 where a date (a date cell, or text written YYYY-MM-DD) is expected"),
])
def test_a_calendar_date_in_another_form_is_refused(value: object, message: str) -> None:
    assert convert(DATE, value, {}) == (None, message)


def test_a_date_label_excel_made_into_a_date_reads_as_typed() -> None:
    assert convert(LABEL, dt.date(2026, 12, 24), {}) == ("Dec 24", None)
    assert convert(LABEL, dt.datetime(2026, 1, 5), {}) == ("Jan 5", None)
    assert convert(MIXED, dt.date(2026, 12, 24), {}) == ("Dec 24", None)


def test_labels_excel_leaves_as_text_are_kept() -> None:
    for label in ("Dec 24 AM", "18PM", "Day 3"):
        assert convert(LABEL, label, {}) == (label, None)


def test_whole_numbers_text_numbers_and_choices() -> None:
    assert convert(COUNT, 3.0, {}) == (3, None)
    assert convert(COUNT, " 12 ", {}) == (12, None)
    assert convert(COUNT, True, {}) == (None, "TRUE where a whole number is expected")
    assert convert(MIXED, "No CPP's", {}) == ("No CPP's", None)
    assert convert(MIXED, -3.0, {}) == (-3, None)
    assert convert(SIDE, "russian ", LISTS) == ("Russian", None)
    assert convert(SIDE, "Soviet", LISTS) == (None, "text 'Soviet' is not allowed; valid: German, Russian")
    assert convert(SIDE, "", LISTS) == (None, "is empty; one of German, Russian is required")


def test_describe_names_what_is_in_the_cell() -> None:
    assert describe(None) == "an empty cell"
    assert describe(7.0) == "the number 7"
    assert describe(dt.datetime(1942, 12, 23, 6, 15)) == "the date and time 1942-12-23 06:15:00"
    assert describe(dt.timedelta(hours=2)) == "the duration 2:00:00"


# ------------------------------------------------------------------ how far a sheet reaches

WORKBOOK = (b'<workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" '
            b'xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets>'
            b'<sheet name="A &amp; B" sheetId="1" r:id="rId1"/><sheet name="Far" sheetId="2" r:id="rId2"/></sheets></workbook>')
RELS = (b'<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
        b'<Relationship Id="rId1" Type="t" Target="worksheets/sheet1.xml"/>'
        b'<Relationship Id="rId2" Type="t" Target="/xl/worksheets/far.xml"/></Relationships>')


def package(**sheets: bytes) -> zipfile.ZipFile:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("xl/workbook.xml", WORKBOOK)
        z.writestr("xl/_rels/workbook.xml.rels", RELS)
        for name, xml in sheets.items():
            z.writestr(f"xl/worksheets/{name}.xml", xml)
    return zipfile.ZipFile(io.BytesIO(buf.getvalue()))


def sheet(cells: bytes, prefix: bytes = b"") -> bytes:
    ns = b"xmlns" + (b":" + prefix[:-1] if prefix else b"") + b'="http://schemas.openxmlformats.org/spreadsheetml/2006/main"'
    return b"<" + prefix + b"worksheet " + ns + b"><" + prefix + b"sheetData>" + cells + b"</" + prefix + b"sheetData></" + prefix + b"worksheet>"


def test_the_extent_comes_from_the_cells_holding_values() -> None:
    xml = sheet(b'<row r="1"><c r="A1" t="s"><v>0</v></c><c r="C1"><v>2</v></c></row>'
                b'<row r="7"><c r="B7"><v>1</v></c><c r="Z9000" s="3"/></row>')
    z = package(sheet1=xml)
    assert sheet_extent(z, "xl/worksheets/sheet1.xml", "book", limit=10**6) == Extent(9000, 26)  # a quick bound
    assert sheet_extent(z, "xl/worksheets/sheet1.xml", "book", limit=100) == Extent(7, 3, "B7", "C1")  # exact


def test_cells_without_references_and_prefixed_tags_are_counted_in_place() -> None:
    xml = sheet(b'<x:row r="4"><x:c><x:v>1</x:v></x:c><x:c/><x:c t="s"><x:v>2</x:v></x:c></x:row>', prefix=b"x:")
    assert sheet_extent(package(sheet1=xml), "xl/worksheets/sheet1.xml", "book") == Extent(4, 3, "A4", "C4")


@pytest.mark.parametrize("tag", [b'<c\tr="XFD70000"', b'<c\nr="XFD70000"', b'<c\r\nr="XFD70000"', b'<c  r="XFD70000"',
                                 b'<c t="n" r="XFD70000"', b'<c\tt="n"\tr="XFD70000"'])
def test_a_far_cell_is_found_however_whitespace_is_written_in_its_tag(tag: bytes) -> None:
    xml = sheet(b'<row r="1"><c r="A1"><v>1</v></c><c r="B1"><v>2</v></c></row>'
                b'<row r="2"><c r="B2"><v>3</v></c>' + tag + b'><v>4</v></c></row>')
    z = package(sheet1=xml)
    assert sheet_extent(z, "xl/worksheets/sheet1.xml", "book", limit=10**12) == Extent(70000, 16384)  # a bound
    assert sheet_extent(z, "xl/worksheets/sheet1.xml", "book", limit=100) == Extent(70000, 16384, "XFD70000",
                                                                                 "XFD70000")  # exact


@pytest.mark.parametrize("far", [b'<row r="2"><c x=">" r="XFD70000"><v>4</v></c></row>',
                                 b"<row r=\"2\"><c x='>/' r=\"XFD70000\"><v>4</v></c></row>",
                                 b'<row x=">" r="70000"><c r="A70000"><v>4</v></c><c s=">"><v>5</v></c></row>'])
def test_a_far_value_is_found_behind_a_quoted_attribute_holding_a_closing_bracket(far: bytes) -> None:
    """XML lets a quoted attribute value hold ">": the parser reads the reference after it, and so does the scan."""
    z = package(sheet1=sheet(b'<row r="1"><c r="A1"><v>1</v></c></row>' + far))
    assert sheet_extent(z, "xl/worksheets/sheet1.xml", "book", limit=100).rows == 70000


@pytest.mark.parametrize("far, extent", [(b'<row r="2"><c r="XFD0070000"><v>4</v></c></row>', (70000, 16384)),
                                         (b'<row r="0070000"><c><v>4</v></c></row>', (70000, 1)),
                                         (b'<row r="2"><c r="ZZZZ2"><v>4</v></c></row>', (2, 475254)),
                                         (b'<row r="2"><c r="A123456789012"><v>4</v></c></row>', (123456789012, 1))])
def test_a_reference_with_leading_zeros_or_more_letters_and_digits_is_read_as_the_parser_reads_it(
        far: bytes, extent: tuple[int, int]) -> None:
    z = package(sheet1=sheet(b'<row r="1"><c r="A1"><v>1</v></c></row>' + far))
    found = sheet_extent(z, "xl/worksheets/sheet1.xml", "book", limit=100)
    assert (found.rows, found.columns) == extent


def test_a_date_cell_holding_a_number_no_date_has_is_told_naming_the_sheet(tmp_path: Path) -> None:
    """The parser fails inside its own code on such a cell (PyO3's PanicException, not an Exception)."""
    import openpyxl

    path = tmp_path / "date.xlsx"
    wb = openpyxl.Workbook()
    wb.active.title = "Dates"
    wb.active["A1"], wb.active["A2"] = "Date", -1e308
    wb.active["A2"].number_format = "yyyy-mm-dd"
    wb.save(path)
    with pytest.raises(WorkbookError, match=r"Dates!A1: the sheet cannot be read .*a date or time cell may hold a "
                                            r"number no date has"):
        Workbook(path).raw("Dates")


def test_shared_strings_said_beyond_what_the_part_holds_are_told_whatever_the_chunks() -> None:
    items = b"".join(b"<si><t>%d</t></si>" % i for i in range(STRINGS_TAKEN + 5))
    prefixed = items.replace(b"<si>", b"<x:si >").replace(b"</si>", b"</x:si>")
    for data in (items, prefixed):
        for size in (7, 1000, len(data)):
            chunks = [data[i:i + size] for i in range(0, len(data), size)]
            assert strings_overstated(str(STRINGS_TAKEN + 5), iter(chunks)) is None  # as many as said
            assert strings_overstated(str(STRINGS_TAKEN + 6), iter(chunks)) == (STRINGS_TAKEN + 6, STRINGS_TAKEN + 5)
    assert strings_overstated(str(STRINGS_TAKEN), iter([b"<si><t>x</t></si>"])) is None  # few said: taken
    assert strings_overstated(None, iter([b""])) is strings_overstated("many", iter([b""])) is None


def test_a_sheet_split_across_chunks_is_scanned_whole(monkeypatch: pytest.MonkeyPatch) -> None:
    import automation.workbook.safety as safety

    monkeypatch.setattr(safety, "CHUNK", 64)
    rows = b"".join(b'<row r="%d"><c r="B%d"><v>%d</v></c></row>' % (i, i, i) for i in range(1, 400))
    xml = sheet(rows + b'<row r="400"><c r="AA400" t="inlineStr"><is><t>x</t></is></c></row>')
    assert sheet_extent(package(sheet1=xml), "xl/worksheets/sheet1.xml", "book", limit=1) == Extent(400, 27, "AA400", "AA400")


def test_a_far_value_is_refused_naming_its_cell_before_the_sheet_is_parsed(tmp_path: Path) -> None:
    import openpyxl

    path = tmp_path / "far.xlsx"
    wb = openpyxl.Workbook()
    wb.active.title = "Notes"
    wb.active["A1"], wb.active["B2"], wb.active["KZ50000"] = "Notes", "ok", "far"
    wb.save(path)
    with pytest.raises(WorkbookError) as caught:
        Workbook(path).raw("Notes")
    assert str(caught.value) == ("Notes!KZ50000: values reach row 50000 and column KZ (KZ50000), 15600000 cells; "
                                 "at most 4000000 are read: clear the cells far from the table")


@pytest.mark.parametrize("budget", [0, 40, 10**6])
def test_a_sheet_read_again_gives_the_same_rows_whether_it_was_kept_or_not(monkeypatch: pytest.MonkeyPatch,
                                                                           budget: int) -> None:
    import automation.workbook.reader as reader
    from automation.samples import SAMPLE

    monkeypatch.setattr(reader, "CACHE_CELLS", budget)
    book = Workbook(SAMPLE)
    first = {name: [list(r) for r in book.raw(name)] for name in ("Sides", "Dates", "Roster Start", "Sides")}
    assert book._cached <= budget
    assert {name: book.raw(name) for name in first} == first
    assert first["Sides"][1][:3] == ["German", "German", 10.0]

"""A refit's sheets have their cells written as XML (sheetgraft._rows_xml), not
cell by cell through XlsxWriter: read back, each cell has the value, the type
and the look XlsxWriter gives the same cell written with the same format."""
from __future__ import annotations

import datetime as dt
import io
import zipfile
from pathlib import Path

import openpyxl
import pytest
from xlsxwriter.workbook import Workbook

from automation.errors import UsageError
from automation.workbook.sheetgraft import NewSheet, excel_serial, render

AWKWARD_TEXTS = ["=SUM(A1:A3)", "+1", "-x", "@home", "<r><t>bold</t></r>", "a & b < c > d", "  padded  ",
                 "tab\there", "bell\x07ring", "_x0041_ stays", "line one\nline two", "Ünïcödé 🎲", "12", "TRUE", ""]
ROWS: list[list[object]] = [
    ["Stand", "Factor", "Note", "When", "At", "Fit", "Count"],
    ["G-001", "5+", "a" * 70, dt.date(1942, 12, 24), dt.datetime(1942, 12, 24, 14, 30), True, 3],
    ["G-002", 7, "short", dt.date(1900, 3, 1), dt.datetime(1900, 1, 1, 12, 0), False, 2.5],
    *[[f"G-{i:03d}", None, text, None, None, None, -i] for i, text in enumerate(AWKWARD_TEXTS, start=3)],
]


def reference(rows: list[list[object]], path: Path) -> None:
    """The same sheet written cell by cell with XlsxWriter's own calls and formats."""
    from automation.workbook.layout import WIDE_COLUMN, code_columns
    from automation.workbook.sheetgraft import _auto_widths

    book = Workbook(str(path), {"constant_memory": True, "strings_to_numbers": False,
                                "strings_to_formulas": False, "strings_to_urls": False})
    head, text = {"bold": True, "bottom": 1}, {"num_format": "@"}
    fmt = {(True, None): book.add_format(head), (True, "@"): book.add_format({**head, **text}),
           (False, "@"): book.add_format(text), (True, "left"): book.add_format({**head, "align": "left"}),
           (False, "left"): book.add_format({"align": "left"}),
           (True, "d"): book.add_format({**head, "num_format": "yyyy-mm-dd"}),
           (False, "d"): book.add_format({"num_format": "yyyy-mm-dd"}),
           (True, "t"): book.add_format({**head, "num_format": "yyyy-mm-dd hh:mm"}),
           (False, "t"): book.add_format({"num_format": "yyyy-mm-dd hh:mm"}), (False, None): None}
    ws = book.add_worksheet("Report")
    widths = _auto_widths(rows)
    codes, wide = set(code_columns(rows[0])), {c for c, w in enumerate(widths) if w >= WIDE_COLUMN}
    for c in codes:
        ws.set_column(c, c, widths[c], fmt[(False, "@")])
    for r, row in enumerate(rows):
        h = r == 0
        for c, v in enumerate(row):
            if v is None:
                continue
            if isinstance(v, str):
                ws.write_string(r, c, v, fmt[(h, "@" if c in codes else None)])
            elif isinstance(v, bool):
                ws.write_boolean(r, c, v, fmt[(h, None)])
            elif isinstance(v, (int, float)):
                ws.write_number(r, c, v, fmt[(h, "left" if c in wide and c not in codes else None)])
            else:
                ws.write_datetime(r, c, v, fmt[(h, "t" if isinstance(v, dt.datetime) else "d")])
    book.close()


def looks(path: Path) -> list[tuple]:
    ws = openpyxl.load_workbook(path)["Report"]
    return [(c.coordinate, c.value, c.data_type, c.number_format, bool(c.font.b), c.alignment.horizontal)
            for row in ws.iter_rows() for c in row if c.value is not None]


def test_every_kind_of_value_reads_back_as_xlsxwriter_writes_it(tmp_path):
    data, _ = render([NewSheet("Report", ROWS)])
    ours = tmp_path / "ours.xlsx"
    ours.write_bytes(data)
    theirs = tmp_path / "theirs.xlsx"
    reference(ROWS, theirs)
    mine, expected = looks(ours), looks(theirs)
    assert len(mine) > 60
    # the one difference: text shaped like rich-text markup, which XlsxWriter called as is copies in as markup
    # (read back as "bold"); it is text here, read back as typed
    differ = [(m, e) for m, e in zip(mine, expected) if m != e]
    assert [(m[1], e[1]) for m, e in differ] == [("<r><t>bold</t></r>", "bold")]
    assert [m[0] for m in mine] == [e[0] for e in expected]


def test_a_value_a_column_repeats_is_written_as_its_own_kind_each_time(tmp_path):
    """A cell is written once per column and value and then repeated: 1, True,
    1.0 and "1" are equal keys to Python yet four kinds of cell, and the same
    text is styled as its column styles it (Text in a code column)."""
    mixed: list[object] = [1, True, 1.0, "1", 1, True, "1", 2.0, 2, "German", 1]
    rows: list[list[object]] = [["Stand", "Value", "Side"]]
    rows += [[f"G-{i:03d}", value, "German" if i % 2 else value] for i, value in enumerate(mixed)]
    data, _ = render([NewSheet("Report", rows)])
    ours = tmp_path / "ours.xlsx"
    ours.write_bytes(data)
    theirs = tmp_path / "theirs.xlsx"
    reference(rows, theirs)
    assert looks(ours) == looks(theirs)
    kinds = [c[2] for c in looks(ours) if c[0].startswith("B") and c[0] != "B1"]
    assert kinds == ["n", "b", "n", "s", "n", "b", "s", "n", "n", "s", "n"]


def test_dates_are_excel_serial_numbers_with_the_1900_leap_day():
    assert excel_serial(dt.date(1900, 2, 28)) == 59
    assert excel_serial(dt.date(1900, 3, 1)) == 61
    assert excel_serial(dt.date(1942, 12, 24)) == 15699
    assert excel_serial(dt.datetime(1942, 12, 24, 18, 0)) == 15699.75


def test_the_part_holds_its_extent_and_inline_text_only():
    data, _ = render([NewSheet("Report", ROWS)])
    xml = zipfile.ZipFile(io.BytesIO(data)).read("xl/worksheets/sheet1.xml").decode()
    assert f'<dimension ref="A1:G{len(ROWS)}"/>' in xml
    assert 't="inlineStr"' in xml and 't="s"' not in xml and "<f>" not in xml


@pytest.mark.parametrize("value, message", [(float("inf"), "cannot be stored"), (dt.date(1899, 12, 30), "before 1900"),
                                            (dt.datetime(1943, 1, 1, tzinfo=dt.timezone.utc), "time zone"),
                                            ({"a": 1}, "type dict")])
def test_a_value_no_cell_holds_is_refused_naming_its_cell(value, message):
    with pytest.raises(UsageError, match=rf"Report!C3: .*{message}"):
        render([NewSheet("Report", [["A", "B", "C"], [1, 2, 3], [4, 5, value]])])


@pytest.mark.filterwarnings("ignore:Sparkline Group extension")  # the fixture's other sheets, read by openpyxl
def test_grafted_into_a_workbook_with_styles_of_its_own_every_cell_keeps_its_look(tmp_path):
    from package_helpers import RICH

    from automation.workbook.package import append_sheets

    book = tmp_path / "campaign.xlsx"
    book.write_bytes(RICH.read_bytes())  # a workbook whose styles.xml holds many styles of its own
    append_sheets(book, [NewSheet("Report", ROWS)], "Refit")
    alone = tmp_path / "alone.xlsx"
    alone.write_bytes(render([NewSheet("Report", ROWS)])[0])
    grafted, drawn = looks(book), looks(alone)
    assert len(grafted) > 60 and grafted == drawn
    assert any(bold for *_, bold, _ in grafted) and {"yyyy-mm-dd", "yyyy-mm-dd hh:mm", "@"} <= {c[3] for c in grafted}

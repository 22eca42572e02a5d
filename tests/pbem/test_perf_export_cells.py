"""The export writes its plain sheets' cells as inline strings straight into
the sheet parts (XlsxWriter lays out the rest): every value reads back as it
was given, text is never a formula, a number or markup, and each cell keeps
the style it had when XlsxWriter wrote it (header, Text-formatted code column,
wide column)."""
from __future__ import annotations

import datetime as dt
import io
import zipfile

import openpyxl
import pytest
from python_calamine import CalamineWorkbook

from automation.errors import UsageError
from automation.pbem.xlsx import OutSheet, write

TRICKY = ["=1+1", "+44 1234", "-3", "@SUM(A1)", "_x0041_", "a_x005F_b", "tab\there", "bell\x07", " lead", "trail ",
          "<r><t>rich</t></r>", "Tom & Jerry <3>", "Ünïcödé ✓", "line\nbreak"]


@pytest.fixture
def written(tmp_path):
    header = ["Stand", "Type", "Kills", "Notes", "Date"]
    rows = [header] + [["G-%d" % i, text, i, text, dt.date(1942, 12, 23)] for i, text in enumerate(TRICKY)]
    rows.append(["G-99", True, 2.5, None, dt.datetime(1942, 12, 24, 0, 0)])
    path = tmp_path / "out.xlsx"
    write(path, [OutSheet("Roster Dec 23", rows, widths=[10, 12, 8, 70, 10], notes=[(6, "NOTE")])])
    return path, rows


def test_every_text_reads_back_as_given_and_never_becomes_a_formula(written):
    path, rows = written
    calamine = CalamineWorkbook.from_path(str(path)).get_sheet_by_name("Roster Dec 23").to_python()
    assert [r[:4] for r in calamine[1:len(TRICKY) + 1]] == [["G-%d" % i, t, i, t] for i, t in enumerate(TRICKY)]
    ws = openpyxl.load_workbook(path)["Roster Dec 23"]  # openpyxl does not undo _xHHHH_ escapes in inline text
    plain = [(i, t) for i, t in enumerate(TRICKY) if "_x" not in t and t.isprintable()]
    assert [ws.cell(i + 2, 2).value for i, _ in plain] == [t for _, t in plain]
    assert all(c.data_type != "f" for r in ws.iter_rows() for c in r)


def test_booleans_are_yes_or_no_and_a_date_in_a_code_column_is_its_label(written):
    path, _ = written
    ws = openpyxl.load_workbook(path)["Roster Dec 23"]
    assert ws["E2"].value == "Dec 23"  # a date column is a code column: the label, as typed
    last = len(TRICKY) + 2
    assert (ws[f"B{last}"].value, ws[f"C{last}"].value, ws[f"E{last}"].value) == ("Yes", 2.5, "Dec 24")


def test_each_cell_keeps_its_style_header_code_column_and_note(written):
    path, _ = written
    ws = openpyxl.load_workbook(path)["Roster Dec 23"]
    assert ws["A1"].font.b and ws["A1"].fill.fgColor.rgb.endswith("D9E1F2")
    assert ws["A2"].number_format == "@"  # a stand ID: Text
    assert ws["C2"].number_format == "General" and ws["C2"].value == 0
    assert ws["G1"].value == "NOTE" and ws["G1"].font.b and ws["G1"].font.color.rgb.endswith("C00000")
    assert ws["D2"].alignment.wrap_text  # the wide Notes column wraps
    with zipfile.ZipFile(path) as z:
        xml = z.read("xl/worksheets/sheet1.xml").decode()
    assert '<dimension ref="A1:G' in xml and 't="inlineStr"' in xml and "<f>" not in xml


def test_a_text_too_long_for_a_cell_is_refused_naming_the_cell(tmp_path):
    rows = [["Stand", "Notes"], ["G-1", "é" * 40_000]]
    with pytest.raises(UsageError, match=r"Roster Dec 23!B2: a text of 40,000 characters"):
        write(tmp_path / "out.xlsx", [OutSheet("Roster Dec 23", rows)])


def test_a_row_with_long_wrapped_text_is_made_tall_enough_to_print_it(tmp_path):
    long = "a rifle company of the campaign's six, at most three deploy in one scenario (2.1.1.4) " * 3
    rows = [["Stand", "Offered"], ["G-1", long], ["G-2", "short"]]
    path = tmp_path / "out.xlsx"
    write(path, [OutSheet("Spend Dec 23 German", rows, widths=[10, 70])])
    ws = openpyxl.load_workbook(path)["Spend Dec 23 German"]
    assert ws.row_dimensions[2].height >= 4 * 15  # about 260 characters in a column 70 wide: four lines or more
    assert ws.row_dimensions[3].height is None  # one line: the default height


def test_the_cells_written_at_once_are_those_each_value_s_own_check_writes(monkeypatch) -> None:
    """Plain text and whole numbers are written without going through the
    check of every value (_cell_xml): byte for byte what it writes, for text
    at the edges of plain (spaces, markup, escapes, non-ASCII, control
    characters) and numbers at the edges of whole (large, negative, Yes/No,
    fractions), in every kind of column."""
    import xlsxwriter

    from automation.pbem import xlsx

    edges = ["G-1", "a b", " a", "a ", "a&b", "a<b", "b>a", "&", "&b", "b&", "<", ">x", "x>", "a\nb", "a\rb",
             "_x0041_", "x_y", "é", "\t", "~!", "'", "A" * 16_000, "A" * 16_001,
             0, 1, -1, 2**53 - 1, 2**53, -(2**53) + 1, -(2**53), 10**16, -(10**17) - 1, 10**20, True, False, 1.5, -0.0]
    header = ["Stand", "Notes", "Kills", "Count"]
    rows = [header] + [[edges[i % len(edges)], edges[(i * 7) % len(edges)], edges[(i * 3) % len(edges)],
                        edges[(i * 5) % len(edges)]] for i in range(len(edges) * 2)]
    book = xlsxwriter.Workbook(io.BytesIO(), {"in_memory": True})
    styles = {k: book.add_format({"bold": k == "head"}) for k in ("head", "note", "text", "left", "wrap", "run")}
    sheet, widths = OutSheet("Roster Dec 23", rows), [10.0, 70.0, 30.0, 8.0]
    codes, columns = {0}, {1: styles["wrap"]}
    fast = xlsx._sheet_data(sheet, codes, widths, styles, columns)
    monkeypatch.setattr(xlsx, "SHORT_TEXT", -1)  # no text short, no number whole: every value goes through its
    monkeypatch.setattr(xlsx, "SAFE_INTEGER", 0)  # check (which finds each text here as it is)
    assert xlsx._sheet_data(sheet, codes, widths, styles, columns) == fast
    assert '<c r="A2" s="' in fast[0] and 't="inlineStr"><is><t>G-1</t></is></c>' in fast[0]

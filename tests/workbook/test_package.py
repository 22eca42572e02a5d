"""The package writer: new sheets go in, undo takes them out, nothing else moves."""
from __future__ import annotations

import csv
import datetime as dt
import hashlib
import importlib.util
import io
import os
import re
import shutil
import struct
import subprocess
import tempfile
import uuid
import zipfile
from pathlib import Path

import openpyxl
import pytest
import python_calamine
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from automation.errors import MusterrollError, UsageError, WorkbookFileError
from automation.workbook.package import (
    Batch, LineChartSpec, ListValidation, NewSheet, append_sheets, file_digest, list_batches,
    remove_last_batch, sheet_names,
)

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
RICH = FIXTURES / "rich.xlsx"
ALLOWED = {"xl/workbook.xml", "xl/_rels/workbook.xml.rels", "[Content_Types].xml", "docProps/app.xml", "xl/styles.xml"}
RESTORED_BY_UNDO = ALLOWED - {"xl/styles.xml"}
ROWS = [["Turn", "German CPP", "Soviet CPP", "Order"], [1, 12, 15, "Hold"], [2, 14, 13, "Attack"], [3, 9, 17, "Hold"]]
FORMULA_LOOKING = ["=SUM(A1:A3)", "+1", "-5", "@INDIRECT(\"A1\")", "=1+1", "<r>x &amp; y</r>"]

pytestmark = pytest.mark.filterwarnings("ignore:.*extension is not supported")


# --------------------------------------------------------------------------- helpers

def raw_members(path: Path) -> dict[str, tuple[bytes, bytes, int]]:
    """Per member: local header bytes, raw compressed bytes (plus any data descriptor), CRC."""
    data = path.read_bytes()
    out = {}
    with zipfile.ZipFile(path) as zf:
        for info in zf.infolist():
            at = info.header_offset
            nlen, elen = struct.unpack_from("<HH", data, at + 26)
            start = at + 30 + nlen + elen
            end = start + info.compress_size
            if info.flag_bits & 0x08:
                end += 16 if data[end:end + 4] == b"PK\x07\x08" else 12
            out[info.filename] = (data[at:start], data[start:end], info.CRC)
    return out


def contents(path: Path) -> dict[str, bytes]:
    with zipfile.ZipFile(path) as zf:
        return {name: zf.read(name) for name in zf.namelist()}


def assert_untouched(before: dict[str, tuple[bytes, bytes, int]], path: Path, may_change: set[str] = ALLOWED) -> None:
    after = raw_members(path)
    for name, record in before.items():
        if name in may_change:
            continue
        assert name in after, f"{name} disappeared"
        assert after[name] == record, f"{name} was not copied byte for byte"


def report(name: str = "Report 24DEC", rows: list[list[object]] | None = None, **kw: object) -> NewSheet:
    return NewSheet(name, rows or ROWS, **kw)  # type: ignore[arg-type]


def rezip(path: Path, change: dict[str, bytes | None]) -> None:
    """Rewrite ``path`` with some members replaced (or dropped, for None): a stand-in
    for another program saving the workbook."""
    src = contents(path)
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as zf:
        for name, data in src.items():
            new = change.get(name, data)
            if new is not None:
                zf.writestr(name, new)
        for name, data in change.items():
            if name not in src and data is not None:
                zf.writestr(name, data)
    path.write_bytes(buf.getvalue())


@pytest.fixture
def book(tmp_path: Path) -> Path:
    target = tmp_path / "campaign.xlsx"
    shutil.copyfile(RICH, target)
    return target


def soffice() -> str:
    exe = shutil.which("soffice")
    if exe:
        return exe
    if os.environ.get("CI") == "true":
        pytest.fail("LibreOffice (soffice) is required when CI=true but it is not installed")
    pytest.skip("LibreOffice (soffice) is not installed")


def libreoffice(path: Path, target: str, outdir: Path) -> None:
    profile = Path(tempfile.gettempdir()) / f"musterroll-lo-{uuid.uuid4().hex}"
    try:
        subprocess.run([soffice(), f"-env:UserInstallation={profile.as_uri()}", "--headless", "--norestore",
                        "--convert-to", target, "--outdir", str(outdir), str(path)],
                       check=False, capture_output=True, timeout=240)
    finally:
        shutil.rmtree(profile, ignore_errors=True)


def libreoffice_csv(path: Path, outdir: Path) -> dict[str, list[list[str]]]:
    """Every sheet as LibreOffice reads it, via its CSV export (all sheets, UTF-8)."""
    libreoffice(path, "csv:Text - txt - csv (StarCalc):44,34,76,1,,0,false,true,false,false,false,-1", outdir)
    sheets = {}
    for name in sheet_names(path):
        out = outdir / f"{path.stem}-{name}.csv"
        assert out.exists(), f"LibreOffice did not export sheet {name!r}"
        with out.open(encoding="utf-8", newline="") as fh:
            sheets[name] = list(csv.reader(fh))
    return sheets


# --------------------------------------------------------------------------- the fixture

def test_the_rich_fixture_holds_everything_a_package_writer_can_break() -> None:
    files = contents(RICH)
    sheet1 = files["xl/worksheets/sheet1.xml"].decode()
    workbook = files["xl/workbook.xml"].decode()
    for part in ("xl/charts/chart1.xml", "xl/media/image1.png", "xl/comments1.xml", "xl/drawings/vmlDrawing1.vml",
                 "xl/tables/table1.xml", "xl/sharedStrings.xml", "docProps/custom.xml", "customUI/customUI14.xml"):
        assert part in files, part
    for feature in ("<dataValidations", "<conditionalFormatting", "x14:sparklineGroups", "<tableParts"):
        assert feature in sheet1, feature
    assert "<xdr:sp " in files["xl/drawings/drawing1.xml"].decode()  # the text box
    assert "CampaignTotal" in workbook and 'localSheetId="1"' in workbook and "_xlnm.Print_Area" in workbook
    assert b"ui/extensibility" in files["_rels/.rels"]
    assert zipfile.ZipFile(RICH).getinfo("customUI/customUI14.xml").compress_type == zipfile.ZIP_STORED


def test_the_fixture_script_regenerates_the_same_parts(tmp_path: Path) -> None:
    spec = importlib.util.spec_from_file_location("make_rich_workbook", FIXTURES / "make_rich_workbook.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    made = module.make_rich_workbook(tmp_path / "again.xlsx")
    assert zipfile.ZipFile(made).namelist() == zipfile.ZipFile(RICH).namelist()


# --------------------------------------------------------------------------- appending

def test_appending_keeps_every_existing_part_byte_identical(book: Path) -> None:
    before = raw_members(book)
    append_sheets(book, [report(chart=LineChartSpec(0, (1, 2), "F2", "CPP"))], "Refit 24DEC")
    assert_untouched(before, book)
    new = set(raw_members(book)) - set(before)
    assert any(re.fullmatch(r"xl/worksheets/sheet\d+\.xml", n) for n in new)
    assert any(re.fullmatch(r"xl/charts/chart\d+\.xml", n) for n in new)


def test_only_the_allowed_parts_change_and_shared_strings_never_do(book: Path) -> None:
    before = contents(book)
    append_sheets(book, [report(), report("Roster 24DEC", kind="roster")], "Refit 24DEC")
    after = contents(book)
    changed = {n for n in before if before[n] != after[n]}
    assert changed <= ALLOWED
    assert after["xl/sharedStrings.xml"] == before["xl/sharedStrings.xml"]


def test_new_sheets_use_inline_strings_only(book: Path) -> None:
    append_sheets(book, [report()], "Refit 24DEC")
    xml = contents(book)["xl/worksheets/sheet4.xml"].decode()
    assert 't="inlineStr"' in xml and not re.search(r'<c [^>]*t="s"', xml)


def test_new_sheets_are_appended_at_the_end_and_recorded_as_a_batch(book: Path) -> None:
    append_sheets(book, [report(), report("Roster 24DEC", kind="roster")], "Refit 24DEC")
    assert sheet_names(book) == ["Campaign", "Notes", "Secrets", "Report 24DEC", "Roster 24DEC"]
    assert list_batches(book) == [Batch("Refit 24DEC", ("Report 24DEC", "Roster 24DEC"))]
    xml = contents(book)["xl/workbook.xml"].decode()
    assert re.search(r'<definedName name="_mr_batch_0001" hidden="1">\{"Refit 24DEC","4\|Report 24DEC",'
                     r'"5\|Roster 24DEC"\}</definedName>', xml.replace("&quot;", '"'))
    # the user's names keep their sheet-local indexes
    assert '<definedName name="LocalAnswer" localSheetId="1">' in xml


def test_the_workbook_opens_in_openpyxl_and_calamine_with_the_new_values(book: Path) -> None:
    rows = [["Name", "Date", "Strength", "Fit", "Note"],
            ["2nd Panzer", dt.date(1942, 12, 24), 12, True, None],
            ["Übungsgruppe «Nord»", dt.datetime(1942, 12, 25, 6, 30), 7.5, False, "  spaced  "]]
    append_sheets(book, [report("Roster 24DEC", rows, kind="roster")], "Refit 24DEC")
    wb = openpyxl.load_workbook(book)
    ws = wb["Roster 24DEC"]
    assert [c.value for c in ws[2]] == ["2nd Panzer", dt.datetime(1942, 12, 24), 12, True, None]
    assert ws["A3"].value == "Übungsgruppe «Nord»" and ws["E3"].value == "  spaced  "
    assert ws["B2"].number_format == "yyyy-mm-dd" and ws["A1"].font.b
    assert wb["Campaign"]["A2"].value == 1 and "CampaignTotal" in wb.defined_names
    calamine = python_calamine.CalamineWorkbook.from_path(str(book))
    assert calamine.sheet_names[-1] == "Roster 24DEC"
    values = calamine.get_sheet_by_name("Roster 24DEC").to_python()
    assert values[0] == rows[0] and values[1][0] == "2nd Panzer" and values[2][2] == 7.5


def test_tab_colour_frozen_header_widths_and_dropdowns_are_in_the_sheet_xml(book: Path) -> None:
    append_sheets(book, [report(kind="orders", column_widths=[10, 12, 12, 30],
                                validations=[ListValidation(3, ("Hold", "Attack", 'Say "no"'), 1, 20)])], "Orders")
    xml = contents(book)["xl/worksheets/sheet4.xml"].decode()
    assert '<tabColor rgb="FFED7D31"/>' in xml
    assert '<pane ySplit="1" topLeftCell="A2" activePane="bottomLeft" state="frozen"/>' in xml
    assert "tabSelected" not in xml
    assert re.search(r'<col min="4" max="4" width="30\.[0-9]+" customWidth="1"/>', xml)
    assert '<formula1>"Hold,Attack,Say ""no"""</formula1>' in xml and 'sqref="D2:D21"' in xml
    ws = openpyxl.load_workbook(book)["Report 24DEC"]
    assert ws.freeze_panes == "A2" and ws.sheet_properties.tabColor.rgb == "FFED7D31"
    assert ws.data_validations.dataValidation[0].formula1 == '"Hold,Attack,Say ""no"""'


def test_each_kind_has_its_own_tab_colour(book: Path) -> None:
    kinds = ["report", "roster", "orders", "ledger", "log", "tables", "settings"]
    append_sheets(book, [report(f"S {k}", kind=k) for k in kinds], "Kinds")
    files = contents(book)
    colours = {re.search(r'<tabColor rgb="(\w+)"/>', files[f"xl/worksheets/sheet{i + 4}.xml"].decode()).group(1)
               for i in range(len(kinds))}
    assert len(colours) == len(kinds)


def test_hidden_sheets_are_marked_hidden(book: Path) -> None:
    append_sheets(book, [report("Settings", kind="settings", hidden=True)], "Setup")
    assert openpyxl.load_workbook(book)["Settings"].sheet_state == "hidden"


def test_formula_looking_text_stays_text(book: Path) -> None:
    rows = [["Text"], *([t] for t in FORMULA_LOOKING)]
    append_sheets(book, [report("Orders 24DEC German", rows, kind="orders")], "Orders")
    xml = contents(book)["xl/worksheets/sheet4.xml"].decode()
    assert "<f>" not in xml
    ws = openpyxl.load_workbook(book)["Orders 24DEC German"]
    for i, text in enumerate(FORMULA_LOOKING, start=2):
        assert ws.cell(i, 1).data_type == "s" and ws.cell(i, 1).value == text


def test_identical_formats_are_reused_so_styles_grow_only_once(book: Path) -> None:
    append_sheets(book, [report("A")], "One")
    once = contents(book)["xl/styles.xml"]
    append_sheets(book, [report("B")], "Two")
    assert contents(book)["xl/styles.xml"] == once


@pytest.mark.parametrize("name", ["Übersicht 24 Dez", "Отчёт за ход", "報告 12月24日", "x" * 31, "🎲" * 15,
                                  "Kampfgruppe \"Peiper\"", "O'Brien's", "R&D <draft>"])
def test_unicode_and_31_character_sheet_names_are_accepted(book: Path, name: str) -> None:
    append_sheets(book, [report(name)], "Names")
    assert sheet_names(book)[-1] == name
    assert openpyxl.load_workbook(book).sheetnames[-1] == name


@pytest.mark.parametrize("name", ["x" * 32, "🎲" * 16, "a/b", "a\\b", "a[b]", "a:b", "a*b", "a?b", "'quoted", "quoted'",
                                  "", "History", "tab\there"])
def test_bad_sheet_names_are_rejected(name: str) -> None:
    with pytest.raises(UsageError):
        report(name)


def test_a_name_already_in_the_book_is_rejected_case_insensitively_and_nothing_is_written(book: Path) -> None:
    before = book.read_bytes()
    with pytest.raises(UsageError, match="already exists"):
        append_sheets(book, [report("CAMPAIGN")], "Clash")
    with pytest.raises(UsageError, match="already exists"):
        append_sheets(book, [report("Twice"), report("twice")], "Clash")
    assert book.read_bytes() == before


@pytest.mark.parametrize("value, message", [(float("nan"), "cannot be stored"), (object(), "type object"),
                                            ("x" * 32_768, "a cell holds")])
def test_values_a_cell_cannot_hold_are_rejected_naming_sheet_and_cell(book: Path, value: object, message: str) -> None:
    before = book.read_bytes()
    with pytest.raises(UsageError, match=rf"Report 24DEC!B3: .*{message}"):
        append_sheets(book, [report(rows=[["A", "B"], [1, 2], [3, value]])], "Bad")
    assert book.read_bytes() == before


def test_dropdowns_and_charts_outside_the_data_are_rejected(book: Path) -> None:
    with pytest.raises(UsageError, match="comma"):
        append_sheets(book, [report(validations=[ListValidation(0, ("a,b",))])], "Bad")
    with pytest.raises(UsageError, match="255"):
        append_sheets(book, [report(validations=[ListValidation(0, tuple("x" * 30 for _ in range(10)))])], "Bad")
    with pytest.raises(UsageError, match="columns"):
        append_sheets(book, [report(chart=LineChartSpec(0, (9,)))], "Bad")
    with pytest.raises(UsageError, match="anchor"):
        append_sheets(book, [report(chart=LineChartSpec(0, (1,), anchor="nowhere"))], "Bad")
    with pytest.raises(UsageError, match="kind"):
        report(kind="memo")


def test_a_workbook_without_app_properties_keeps_none(book: Path) -> None:
    files = contents(book)
    rels = files["_rels/.rels"].decode()
    rels = re.sub(r'<Relationship [^>]*extended-properties[^>]*/>', "", rels)
    types = re.sub(r'<Override PartName="/docProps/app.xml"[^>]*/>', "", files["[Content_Types].xml"].decode())
    rezip(book, {"docProps/app.xml": None, "_rels/.rels": rels.encode(), "[Content_Types].xml": types.encode()})
    append_sheets(book, [report()], "Refit")
    assert "docProps/app.xml" not in contents(book)
    assert openpyxl.load_workbook(book).sheetnames[-1] == "Report 24DEC"


EXCEL_365_WORKBOOK = (
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\r\n'
    '<workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" '
    'xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships" '
    'xmlns:mc="http://schemas.openxmlformats.org/markup-compatibility/2006" mc:Ignorable="x15 xr xr6 xr10 xr2" '
    'xmlns:x15="http://schemas.microsoft.com/office/spreadsheetml/2010/11/main" '
    'xmlns:xr="http://schemas.microsoft.com/office/spreadsheetml/2014/revision" '
    'xmlns:xr6="http://schemas.microsoft.com/office/spreadsheetml/2016/revision6" '
    'xmlns:xr10="http://schemas.microsoft.com/office/spreadsheetml/2016/revision10" '
    'xmlns:xr2="http://schemas.microsoft.com/office/spreadsheetml/2015/revision2">'
    '<fileVersion appName="xl" lastEdited="7" lowestEdited="7" rupBuild="27328"/>'
    '<workbookPr defaultThemeVersion="166925"/>'
    '<mc:AlternateContent xmlns:mc="http://schemas.openxmlformats.org/markup-compatibility/2006">'
    '<mc:Choice Requires="x15"><x15ac:absPath url="C:\\Users\\umpire\\" '
    'xmlns:x15ac="http://schemas.microsoft.com/office/spreadsheetml/2010/11/ac"/></mc:Choice></mc:AlternateContent>'
    '<xr:revisionPtr revIDLastSave="0" documentId="8_{5A4B2C1D-0000-4000-8000-000000000001}" '
    'xr6:coauthVersionLast="47" xr6:coauthVersionMax="47" xr10:uidLastSave="{00000000-0000-0000-0000-000000000000}"/>'
    '<bookViews><workbookView xWindow="-120" yWindow="-120" windowWidth="29040" windowHeight="15840" activeTab="1" '
    'xr2:uid="{00000000-000D-0000-FFFF-FFFF00000000}"/></bookViews>'
    '<sheets><sheet name="Campaign" sheetId="1" r:id="rId1"/><sheet name="Notes" sheetId="2" r:id="rId2"/>'
    '<sheet name="Secrets" sheetId="3" state="hidden" r:id="rId3"/></sheets><calcPr calcId="191029"/>'
    '<extLst><ext uri="{140A7094-0E35-4892-8432-C4D2E57EDEB5}" '
    'xmlns:x15="http://schemas.microsoft.com/office/spreadsheetml/2010/11/main">'
    '<x15:workbookPr chartTrackingRefBase="1"/></ext></extLst></workbook>'
)


def test_excel_365_workbook_markup_is_kept_and_only_extended(book: Path) -> None:
    rezip(book, {"xl/workbook.xml": EXCEL_365_WORKBOOK.encode()})
    append_sheets(book, [report("Report 1"), report("Roster 1", kind="roster")], "Refit 1")
    xml = contents(book)["xl/workbook.xml"].decode()
    inserted = re.findall(r'<sheet name="R[^>]*/>|<definedNames>.*?</definedNames>', xml)
    assert len(inserted) == 3
    for text in inserted:
        xml = xml.replace(text, "", 1)
    assert xml == EXCEL_365_WORKBOOK
    assert "</sheets><definedNames>" in contents(book)["xl/workbook.xml"].decode()
    assert openpyxl.load_workbook(book).sheetnames[-2:] == ["Report 1", "Roster 1"]
    remove_last_batch(book)
    assert contents(book)["xl/workbook.xml"].decode() == EXCEL_365_WORKBOOK


def test_prefixed_workbook_markup_gets_prefixed_new_elements(book: Path) -> None:
    xml = contents(book)["xl/workbook.xml"].decode()
    xml = re.sub(r"<(/?)(?!\?)(\w+)", r"<\1x:\2", xml).replace('<x:workbook xmlns="', '<x:workbook xmlns:x="')
    xml = xml.replace(' r:id="', ' rel:id="').replace("xmlns:r=", "xmlns:rel=")
    rezip(book, {"xl/workbook.xml": xml.encode()})
    before = raw_members(book)
    append_sheets(book, [report()], "Refit")
    new_xml = contents(book)["xl/workbook.xml"].decode()
    assert '<x:sheet name="Report 24DEC" sheetId="4" rel:id="rId7"/>' in new_xml
    assert "<x:definedName name=\"_mr_batch_0001\"" in new_xml
    assert openpyxl.load_workbook(book).sheetnames[-1] == "Report 24DEC"
    remove_last_batch(book)
    assert contents(book)["xl/workbook.xml"].decode() == xml
    assert_untouched(before, book)


# --------------------------------------------------------------------------- undo

def test_undo_restores_every_part_and_leaves_only_grown_styles(book: Path) -> None:
    before_raw, before = raw_members(book), contents(book)
    append_sheets(book, [report(chart=LineChartSpec(0, (1, 2), "F2", "CPP")), report("Roster", kind="roster")], "Refit")
    assert remove_last_batch(book) == ["Report 24DEC", "Roster"]
    after = contents(book)
    assert set(after) == set(before)
    for name in RESTORED_BY_UNDO:
        assert after[name] == before[name], f"{name} differs after undo"
    assert_untouched(before_raw, book)
    assert list_batches(book) == []


def test_several_appends_and_an_undo_keep_every_original_part_and_the_book_opens(book: Path) -> None:
    before = raw_members(book)
    append_sheets(book, [report("Report 1")], "Refit 1")
    after_first = contents(book)
    append_sheets(book, [report("Report 2", chart=LineChartSpec(0, (1,), "F2")), report("Roster 2")], "Refit 2")
    append_sheets(book, [report("Report 3")], "Refit 3")
    assert remove_last_batch(book) == ["Report 3"]
    assert remove_last_batch(book) == ["Report 2", "Roster 2"]
    assert_untouched(before, book)
    now = contents(book)
    assert {n: now[n] for n in RESTORED_BY_UNDO} == {n: after_first[n] for n in RESTORED_BY_UNDO}
    assert openpyxl.load_workbook(book).sheetnames == ["Campaign", "Notes", "Secrets", "Report 1"]
    assert python_calamine.CalamineWorkbook.from_path(str(book)).get_sheet_by_name("Report 1").to_python()[1][1] == 12


def test_undo_twice_removes_two_batches_newest_first(book: Path) -> None:
    append_sheets(book, [report("Old")], "Refit 1")
    append_sheets(book, [report("New A"), report("New B")], "Refit 2")
    assert [b.name for b in list_batches(book)] == ["Refit 1", "Refit 2"]
    assert remove_last_batch(book) == ["New A", "New B"]
    assert [b.name for b in list_batches(book)] == ["Refit 1"]
    assert remove_last_batch(book) == ["Old"]
    assert sheet_names(book) == ["Campaign", "Notes", "Secrets"]


def test_undo_with_no_batch_is_a_clear_error(book: Path) -> None:
    before = book.read_bytes()
    with pytest.raises(WorkbookFileError, match="nothing to undo"):
        remove_last_batch(book)
    assert book.read_bytes() == before


def test_undo_when_a_removed_sheet_was_the_active_tab_leaves_a_valid_active_tab(book: Path) -> None:
    append_sheets(book, [report("One"), report("Two")], "Refit")
    xml = contents(book)["xl/workbook.xml"].decode()
    rezip(book, {"xl/workbook.xml": xml.replace("<workbookView ", '<workbookView firstSheet="3" activeTab="4" ').encode()})
    remove_last_batch(book)
    xml = contents(book)["xl/workbook.xml"].decode()
    assert 'firstSheet="1" activeTab="1"' in xml  # "Notes": the nearest visible sheet before
    wb = openpyxl.load_workbook(book)
    assert wb.active.title == "Notes"


def test_undo_leaves_view_settings_alone_when_no_removed_sheet_was_shown(book: Path) -> None:
    xml = contents(book)["xl/workbook.xml"].decode().replace("<workbookView ", '<workbookView firstSheet="2" activeTab="1" ')
    rezip(book, {"xl/workbook.xml": xml.encode()})
    append_sheets(book, [report()], "Refit")
    remove_last_batch(book)
    assert contents(book)["xl/workbook.xml"].decode() == xml


def test_a_damaged_batch_record_is_reported_by_name(book: Path) -> None:
    append_sheets(book, [report()], "Refit")
    xml = contents(book)["xl/workbook.xml"].decode()
    rezip(book, {"xl/workbook.xml": re.sub(r'(name="_mr_batch_0001" hidden="1">)[^<]*', r"\1#REF!", xml).encode()})
    with pytest.raises(WorkbookFileError, match="batch record _mr_batch_0001 is damaged"):
        remove_last_batch(book)
    append_sheets(book, [report("Next")], "Next")  # a later refit is not blocked by it
    assert "_mr_batch_0002" in contents(book)["xl/workbook.xml"].decode()


def test_undo_finds_a_renamed_or_moved_sheet_and_renumbers_local_names(book: Path) -> None:
    original = contents(book)["xl/workbook.xml"].decode()
    append_sheets(book, [report("Report")], "Refit")
    xml = contents(book)["xl/workbook.xml"].decode()
    moved = re.search(r'<sheet name="Report"[^>]*/>', xml).group(0)
    xml = xml.replace(moved, "").replace("<sheets>", "<sheets>" + moved.replace('"Report"', '"Renamed"'))
    xml = xml.replace('localSheetId="1"', 'localSheetId="2"').replace('localSheetId="0"', 'localSheetId="1"')
    rezip(book, {"xl/workbook.xml": xml.encode()})
    assert remove_last_batch(book) == ["Renamed"]
    assert contents(book)["xl/workbook.xml"].decode() == original


def test_undo_finds_its_sheets_by_name_after_another_program_renumbered_the_sheet_ids(book: Path) -> None:
    append_sheets(book, [report("R1"), report("R2")], "Refit")
    xml = contents(book)["xl/workbook.xml"].decode()
    # the umpire deleted "Notes" in LibreOffice, which numbers sheetIds 1, 2, 3... on save
    xml = re.sub(r'<sheet name="Notes"[^>]*/>', "", xml)
    xml = re.sub(r'<definedName name="LocalAnswer"[^>]*>[^<]*</definedName>', "", xml)
    for old, new in (("3", "2"), ("4", "3"), ("5", "4")):
        xml = xml.replace(f'sheetId="{old}"', f'sheetId="{new}"')
    rezip(book, {"xl/workbook.xml": xml.encode()})
    assert remove_last_batch(book) == ["R1", "R2"]
    assert sheet_names(book) == ["Campaign", "Secrets"]


def test_undo_drops_a_calc_chain_that_refers_to_a_removed_sheet(book: Path) -> None:
    append_sheets(book, [report("Report")], "Refit")
    files = contents(book)
    rels = files["xl/_rels/workbook.xml.rels"].decode().replace(
        "</Relationships>", '<Relationship Id="rId99" Type="http://schemas.openxmlformats.org/officeDocument/2006/'
                            'relationships/calcChain" Target="calcChain.xml"/></Relationships>')
    types = files["[Content_Types].xml"].decode().replace(
        "</Types>", '<Override PartName="/xl/calcChain.xml" ContentType="application/vnd.openxmlformats-'
                    'officedocument.spreadsheetml.calcChain+xml"/></Types>')
    chain = (b'<calcChain xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">'
             b'<c r="G1" i="1"/><c r="B5" i="4"/></calcChain>')
    rezip(book, {"xl/_rels/workbook.xml.rels": rels.encode(), "[Content_Types].xml": types.encode(),
                 "xl/calcChain.xml": chain})
    remove_last_batch(book)
    files = contents(book)
    assert "xl/calcChain.xml" not in files and "calcChain" not in files["[Content_Types].xml"].decode()
    assert "calcChain" not in files["xl/_rels/workbook.xml.rels"].decode()


# --------------------------------------------------------------------------- safety

def test_file_digest_is_the_sha256_of_the_bytes(book: Path) -> None:
    assert file_digest(book) == hashlib.sha256(book.read_bytes()).hexdigest()


def test_expected_digest_mismatch_leaves_the_bytes_untouched(book: Path) -> None:
    stale = file_digest(book)
    append_sheets(book, [report("Saved meanwhile")], "Someone else", expected_digest=stale)
    before = book.read_bytes()
    with pytest.raises(WorkbookFileError, match="changed since it was read") as err:
        append_sheets(book, [report()], "Refit", expected_digest=stale)
    assert str(book) in str(err.value)
    with pytest.raises(WorkbookFileError, match="changed since it was read"):
        remove_last_batch(book, expected_digest=stale)
    assert book.read_bytes() == before


@pytest.mark.parametrize("lock", ["~${}", ".~lock.{}#"])
def test_a_workbook_open_in_excel_or_libreoffice_is_refused(book: Path, lock: str) -> None:
    (book.parent / lock.format(book.name)).write_bytes(b"owner")
    before = book.read_bytes()
    with pytest.raises(WorkbookFileError, match="open in Excel or LibreOffice"):
        append_sheets(book, [report()], "Refit")
    assert book.read_bytes() == before
    assert sorted(p.name for p in book.parent.iterdir()) == sorted([book.name, lock.format(book.name)])


def test_no_temporary_file_is_left_behind(book: Path) -> None:
    append_sheets(book, [report()], "Refit")
    remove_last_batch(book)
    assert [p.name for p in book.parent.iterdir()] == [book.name]


@pytest.mark.parametrize("payload, message", [
    (b"", "not a zip"), (b"hello, not a workbook", "not a zip"), (b"PK\x03\x04garbage" * 10, "not a zip")])
def test_a_file_that_is_not_a_zip_is_refused(tmp_path: Path, payload: bytes, message: str) -> None:
    path = tmp_path / "bad.xlsx"
    path.write_bytes(payload)
    with pytest.raises(WorkbookFileError, match=message):
        append_sheets(path, [report()], "Refit")
    assert path.read_bytes() == payload


def test_a_password_protected_or_old_xls_file_is_refused_with_advice(tmp_path: Path) -> None:
    path = tmp_path / "locked.xlsx"
    path.write_bytes(b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + bytes(600))
    with pytest.raises(WorkbookFileError, match="password-protected or an old .xls"):
        append_sheets(path, [report()], "Refit")


def test_a_workbook_that_cannot_be_opened_for_writing_is_refused(book: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import automation.workbook.package as package

    def refuse(file: object, mode: str = "r", *args: object, **kwargs: object) -> object:
        if "+" in mode or "w" in mode:
            raise PermissionError(13, "Permission denied")
        return open(file, mode, *args, **kwargs)  # type: ignore[call-overload]

    monkeypatch.setattr(package, "open", refuse, raising=False)
    before = book.read_bytes()
    with pytest.raises(WorkbookFileError, match="cannot be opened for writing"):
        append_sheets(book, [report()], "Refit")
    assert book.read_bytes() == before


def test_a_zip_that_is_not_a_workbook_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "plain.xlsx"
    with zipfile.ZipFile(path, "w") as zf:
        zf.writestr("[Content_Types].xml", '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"/>')
        zf.writestr("readme.txt", "hello")
    with pytest.raises(WorkbookFileError, match="xl/workbook.xml is missing"):
        append_sheets(path, [report()], "Refit")
    with pytest.raises(WorkbookFileError):
        sheet_names(tmp_path / "missing.xlsx")


def _patch_central(data: bytes, field_offset: int, value: int, every: bool = False) -> bytes:
    data = bytearray(data)
    at = struct.unpack_from("<I", data, len(data) - 6)[0]
    while data[at:at + 4] == b"PK\x01\x02":
        struct.pack_into("<I", data, at + field_offset, value)
        if not every:
            break
        nlen, elen, clen = struct.unpack_from("<HHH", data, at + 28)
        at += 46 + nlen + elen + clen
    return bytes(data)


def test_a_zip_bomb_is_refused_by_its_declared_sizes(book: Path) -> None:
    good = book.read_bytes()
    book.write_bytes(_patch_central(good, 24, 300 * 1024 * 1024))
    with pytest.raises(WorkbookFileError, match="200 MB"):
        append_sheets(book, [report()], "Refit")
    book.write_bytes(_patch_central(good, 24, 150 * 1024 * 1024, every=True))
    with pytest.raises(WorkbookFileError, match="1 GB"):
        sheet_names(book)


def test_zip64_archives_are_refused_clearly(book: Path) -> None:
    data = book.read_bytes()
    eocd = len(data) - 22
    _, _, _, _, count, cd_size, cd_off, _ = struct.unpack_from("<IHHHHIIH", data, eocd)
    record = struct.pack("<IQHHIIQQQQ", 0x06064B50, 44, 45, 45, 0, 0, count, count, cd_size, cd_off)
    locator = struct.pack("<IIQI", 0x07064B50, 0, eocd, 1)
    end = struct.pack("<IHHHHIIH", 0x06054B50, 0, 0, 0xFFFF, 0xFFFF, 0xFFFFFFFF, 0xFFFFFFFF, 0)
    book.write_bytes(data[:eocd] + record + locator + end)
    assert zipfile.ZipFile(book).testzip() is None  # a valid ZIP64 archive
    with pytest.raises(WorkbookFileError, match="ZIP64"):
        append_sheets(book, [report()], "Refit")


def test_encrypted_members_are_refused(book: Path) -> None:
    book.write_bytes(_patch_central(book.read_bytes(), 8, 0x0001))  # flag bits start at +8 (2 bytes)
    with pytest.raises(WorkbookFileError, match="encrypted"):
        append_sheets(book, [report()], "Refit")


class _Unseekable(io.RawIOBase):
    def __init__(self) -> None:
        self.data = bytearray()

    def writable(self) -> bool:
        return True

    def write(self, b: bytes) -> int:  # type: ignore[override]
        self.data += b
        return len(b)


def test_members_with_data_descriptors_and_stored_members_are_copied_raw(book: Path) -> None:
    sink = _Unseekable()
    with zipfile.ZipFile(sink, "w", zipfile.ZIP_DEFLATED) as zf:
        for name, data in contents(book).items():
            zf.writestr(name, data, compress_type=zipfile.ZIP_STORED if name.endswith(".png") else zipfile.ZIP_DEFLATED)
    book.write_bytes(bytes(sink.data))
    assert all(i.flag_bits & 0x08 for i in zipfile.ZipFile(book).infolist())
    before = raw_members(book)
    append_sheets(book, [report()], "Refit")
    assert_untouched(before, book)
    remove_last_batch(book)
    assert_untouched(before, book)
    assert zipfile.ZipFile(book).testzip() is None


def test_a_custom_ribbon_part_survives_append_and_undo(book: Path) -> None:
    before = raw_members(book)
    assert "customUI/customUI14.xml" in before
    append_sheets(book, [report()], "Refit")
    remove_last_batch(book)
    assert raw_members(book)["customUI/customUI14.xml"] == before["customUI/customUI14.xml"]
    assert b"ui/extensibility" in contents(book)["_rels/.rels"]


def test_errors_are_musterroll_errors_with_the_bad_input_exit_code(tmp_path: Path) -> None:
    path = tmp_path / "bad.xlsx"
    path.write_bytes(b"not a workbook")
    with pytest.raises(MusterrollError) as err:
        remove_last_batch(path)
    assert err.value.exit_code == 2


# --------------------------------------------------------------------------- properties

OPS = st.lists(st.one_of(st.just("undo"), st.tuples(st.integers(1, 3), st.booleans())), min_size=1, max_size=6)


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(ops=OPS)
def test_random_appends_and_undos_leave_the_original_parts_identical(ops: list[object]) -> None:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "book.xlsx"
        shutil.copyfile(RICH, path)
        original_raw, original = raw_members(path), contents(path)
        stack: list[list[str]] = []
        counter = 0
        for op in ops:
            if op == "undo":
                if stack:
                    assert remove_last_batch(path) == stack.pop()
                else:
                    with pytest.raises(WorkbookFileError):
                        remove_last_batch(path)
            else:
                count, chart = op  # type: ignore[misc]
                names = [f"R{counter + i}" for i in range(count)]
                counter += count
                spec = LineChartSpec(0, (1, 2), "F2") if chart else None
                append_sheets(path, [report(n, chart=spec) for n in names], f"Batch {counter}")
                stack.append(names)
            assert_untouched(original_raw, path)
            assert sheet_names(path) == ["Campaign", "Notes", "Secrets", *[n for b in stack for n in b]]
        while stack:
            assert remove_last_batch(path) == stack.pop()
        now = contents(path)
        assert set(now) == set(original)
        assert all(now[n] == original[n] for n in original if n != "xl/styles.xml")


@settings(max_examples=30, deadline=None)
@given(texts=st.lists(st.text(st.characters(blacklist_categories=("Cs", "Cc")), min_size=1, max_size=40),
                      min_size=1, max_size=8))
def test_any_printable_text_reads_back_exactly(texts: list[str]) -> None:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "book.xlsx"
        shutil.copyfile(RICH, path)
        append_sheets(path, [report("Texts", [["Text"], *([t] for t in texts)])], "Texts")
        ws = openpyxl.load_workbook(path)["Texts"]
        assert [ws.cell(i + 2, 1).value for i in range(len(texts))] == texts


# --------------------------------------------------------------------------- LibreOffice

def test_libreoffice_reads_the_new_sheet_values_and_keeps_formula_looking_text(book: Path, tmp_path: Path) -> None:
    rows = [["Unit", "Order", "CPP"], *([f"Unit {i}", t, i] for i, t in enumerate(FORMULA_LOOKING))]
    append_sheets(book, [report("Orders 24DEC German", rows, kind="orders")], "Orders")
    sheets = libreoffice_csv(book, tmp_path / "csv")
    assert sheets["Orders 24DEC German"][0] == ["Unit", "Order", "CPP"]
    assert [r[1] for r in sheets["Orders 24DEC German"][1:]] == FORMULA_LOOKING
    assert sheets["Campaign"][1][:4] == ["1", "12", "15", "Clear"]


def test_libreoffice_opens_the_chart_part(book: Path, tmp_path: Path) -> None:
    append_sheets(book, [report(chart=LineChartSpec(0, (1, 2), "F2", "CPP by turn"))], "Refit")
    chart_xml = contents(book)["xl/charts/chart2.xml"].decode()
    assert "<c:lineChart>" in chart_xml and "'Report 24DEC'!$B$2:$B$4" in chart_xml
    libreoffice(book, "xlsx", tmp_path / "out")
    saved = tmp_path / "out" / book.name
    assert saved.exists(), "LibreOffice could not open and save the workbook"
    files = contents(saved)
    charts = [files[n].decode() for n in files if n.startswith("xl/charts/chart")]
    assert any("lineChart" in c and "Report 24DEC" in c for c in charts)
    assert openpyxl.load_workbook(saved).sheetnames[-1] == "Report 24DEC"


def test_libreoffice_reads_the_workbook_after_several_appends_and_an_undo(book: Path, tmp_path: Path) -> None:
    before = raw_members(book)
    append_sheets(book, [report("Report 1")], "Refit 1")
    append_sheets(book, [report("Report 2", chart=LineChartSpec(0, (1,), "F2"))], "Refit 2")
    remove_last_batch(book)
    assert_untouched(before, book)
    sheets = libreoffice_csv(book, tmp_path / "csv")
    assert list(sheets) == ["Campaign", "Notes", "Secrets", "Report 1"]
    assert sheets["Report 1"][2] == ["2", "14", "13", "Attack"]


def test_a_workbook_saved_by_libreoffice_keeps_its_parts_and_batches(book: Path, tmp_path: Path) -> None:
    append_sheets(book, [report("Report 1")], "Refit 1")
    libreoffice(book, "xlsx", tmp_path / "lo")
    saved = tmp_path / "lo" / book.name
    assert saved.exists()
    assert list_batches(saved) == [Batch("Refit 1", ("Report 1",))]
    before = raw_members(saved)
    append_sheets(saved, [report("Report 2")], "Refit 2")
    assert_untouched(before, saved)
    assert remove_last_batch(saved) == ["Report 2"]
    assert remove_last_batch(saved) == ["Report 1"]
    assert openpyxl.load_workbook(saved).sheetnames == ["Campaign", "Notes", "Secrets"]

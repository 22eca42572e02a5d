"""The package writer appends new sheets: nothing a user wrote moves."""
from __future__ import annotations

from package_helpers import *  # noqa: F403 - the shared helpers, fixture and imports


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



"""Undo takes out exactly the sheets a batch added."""
from __future__ import annotations

from package_helpers import *  # noqa: F403 - the shared helpers, fixture and imports


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
    xml = xml.replace('localSheetId="3"', 'localSheetId="0"')  # the moved sheet's own print titles
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



"""An append's lists are checked by what it adds: a part that only gains
elements at the end of located elements, and has attributes set in the start
tags of located elements, stays well-formed when each element added is
well-formed where it goes and each start tag changed is well-formed with its
attributes (automation.workbook.xmlparts.inserted_well_formed), so the thousand
items a long campaign's lists hold are not parsed again; any other edit has
the part checked whole."""
from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest

from automation.errors import WorkbookFileError
from automation.workbook import pkgfile
from automation.workbook.xmlparts import Edit, apply_edits, insert_child, inserted_well_formed, parse_xml, set_attr

MAIN = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
REL = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
PART = (f'<?xml version="1.0" encoding="UTF-8"?>\n<workbook xmlns="{MAIN}" xmlns:r="{REL}"><sheets>'
        '<sheet name="A" sheetId="1" r:id="rId1"/><sheet name="B" sheetId="2" r:id="rId2"/></sheets>'
        '<definedNames/><calcPr calcId="1"/></workbook>').encode()


def doc():
    return parse_xml(PART, "xl/workbook.xml")


def test_elements_added_at_the_ends_of_lists_are_checked_alone_and_the_part_stays_well_formed() -> None:
    d = doc()
    sheets, names = d.root.find("sheets"), d.root.find("definedNames")
    edits = [insert_child(d, sheets, '<sheet name="C &amp; D" sheetId="3" r:id="rId3"/>'),
             insert_child(d, names, '<definedName name="_mr_batch_0001" hidden="1">{"x"}</definedName>')]
    assert inserted_well_formed(d, edits, d.part)
    new = ET.fromstring(apply_edits(d.text, edits).encode())
    assert [s.get("name") for s in new.iter(f"{{{MAIN}}}sheet")] == ["A", "B", "C & D"]
    assert [n.get("name") for n in new.iter(f"{{{MAIN}}}definedName")] == ["_mr_batch_0001"]


@pytest.mark.parametrize("fragment, why", [
    ('<sheet name="C" sheetId="3" r:id="rId3">', "mismatched tag"),  # not closed
    ('<sheet name="C & D" sheetId="3"/>', "not well-formed"),  # a bare ampersand
    ('<sheet name="C" x:id="rId3"/>', "unbound prefix"),  # a prefix the place does not bind
    ('</sheets><sheets>', "mismatched tag"),  # closes the list it is put in
])
def test_an_element_added_that_is_not_well_formed_where_it_goes_is_refused(fragment: str, why: str) -> None:
    d = doc()
    with pytest.raises(WorkbookFileError, match=f"part xl/workbook.xml is not usable XML.*{why}"):
        inserted_well_formed(d, [insert_child(d, d.root.find("sheets"), fragment)], d.part)


def test_attributes_set_in_located_start_tags_are_checked_with_their_tags_alone() -> None:
    d = doc()
    sheets = d.root.find("sheets")
    first, second = sheets.children
    edits = [set_attr(d, first, "name", "_mr_0001_1"), set_attr(d, first, "state", "veryHidden"),
             set_attr(d, second, "name", 'B & "C"'),
             insert_child(d, sheets, '<sheet name="A" sheetId="3" r:id="rId3"/>')]
    assert inserted_well_formed(d, edits, d.part)
    new = ET.fromstring(apply_edits(d.text, edits).encode())
    assert [(s.get("name"), s.get("state")) for s in new.iter(f"{{{MAIN}}}sheet")] == [
        ("_mr_0001_1", "veryHidden"), ('B & "C"', None), ("A", None)]


@pytest.mark.parametrize("attribute, why", [
    (' name="C"', "duplicate attribute"),  # set twice
    (' x:state="hidden"', "unbound prefix"),  # a prefix the element does not bind
    (' state="a<b"', "not well-formed"),  # markup in a value
    (' state="\x01"', "not well-formed"),  # a character XML does not allow
])
def test_an_attribute_set_that_leaves_its_start_tag_not_well_formed_is_refused(attribute: str, why: str) -> None:
    d = doc()
    sheet = d.root.find("sheets").children[0]
    cut = sheet.inner_start - 2  # before the "/>" of <sheet .../>
    with pytest.raises(WorkbookFileError, match=f"part xl/workbook.xml is not usable XML.*{why}"):
        inserted_well_formed(d, [Edit(cut, cut, attribute, tag_of=sheet)], d.part)


def test_an_edit_of_another_kind_leaves_the_part_to_be_checked_whole() -> None:
    d = doc()
    sheets = d.root.find("sheets")
    outside = Edit(sheets.start, sheets.start, " ", tag_of=sheets.children[0])  # not in the tag it names
    assert not inserted_well_formed(d, [outside], d.part)
    assert not inserted_well_formed(d, [Edit(sheets.inner_start, sheets.inner_start, "<sheet/>")], d.part)
    misplaced = Edit(sheets.inner_end - 3, sheets.inner_end - 3, "<sheet/>", sheets)  # not where the list ends
    assert not inserted_well_formed(d, [misplaced], d.part)


def test_an_append_parses_what_the_lists_gained_not_the_lists_and_the_workbook_reads_back(
        tmp_path, monkeypatch) -> None:
    import shutil
    import zipfile

    import python_calamine

    from automation.workbook.package import NewSheet, append_sheets
    from tests.workbook.package_helpers import RICH

    path = tmp_path / "campaign.xlsx"
    shutil.copyfile(RICH, path)
    for k in range(1, 4):  # a few appends first: the lists grow
        append_sheets(path, [NewSheet(f"Report {k}", [["Turn", "Order"], [k, "Hold"]])], batch=f"Refit {k}")
    with zipfile.ZipFile(path) as z:
        lists = {name: len(z.read(name)) for name in ("xl/workbook.xml", "xl/_rels/workbook.xml.rels",
                                                      "[Content_Types].xml")}
    parsed: list[tuple[str, int]] = []
    whole = pkgfile.check_well_formed
    monkeypatch.setattr(pkgfile, "check_well_formed", lambda data, part: (parsed.append((part, len(data))),
                                                                         whole(data, part))[1])
    append_sheets(path, [NewSheet("Report 4 & <more>", [["Turn", "Order"], [4, "Attack"]])], batch="Refit 4")
    assert not [part for part, size in parsed if part in lists]  # none of the three lists parsed whole
    with zipfile.ZipFile(path) as z:
        assert z.testzip() is None
        for name in lists:
            ET.fromstring(z.read(name))  # each well-formed, the items it gained with it
    book = python_calamine.CalamineWorkbook.from_path(str(path))
    assert book.sheet_names[-4:] == ["Report 1", "Report 2", "Report 3", "Report 4 & <more>"]
    assert book.get_sheet_by_name("Report 4 & <more>").to_python()[1] == [4.0, "Attack"]


def test_an_append_that_replaces_a_sheet_checks_the_start_tags_it_changed_not_the_workbook_part(
        tmp_path, monkeypatch) -> None:
    import shutil
    import zipfile

    import python_calamine

    from automation.workbook.package import NewSheet, append_sheets
    from tests.workbook.package_helpers import RICH

    path = tmp_path / "campaign.xlsx"
    shutil.copyfile(RICH, path)
    append_sheets(path, [NewSheet("Orders", [["Subject", "Order"]])], batch="Export")
    parsed: list[str] = []
    whole = pkgfile.check_well_formed
    monkeypatch.setattr(pkgfile, "check_well_formed", lambda data, part: (parsed.append(part), whole(data, part))[1])
    append_sheets(path, [NewSheet("Orders", [["Subject", "Order"], ["Tiger 1", "Hold"]])], batch="Import Orders",
                  replace=["Orders"])
    assert "xl/workbook.xml" not in parsed  # the replaced sheet's name and state set in its own start tag
    with zipfile.ZipFile(path) as z:
        sheets = ET.fromstring(z.read("xl/workbook.xml")).find(f"{{{MAIN}}}sheets")
    states = {s.get("name"): s.get("state") for s in sheets}
    assert states["_mr_0002_1"] == "veryHidden" and states["Orders"] is None
    book = python_calamine.CalamineWorkbook.from_path(str(path))
    assert book.get_sheet_by_name("Orders").to_python()[1] == ["Tiger 1", "Hold"]

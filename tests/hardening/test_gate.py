"""One gate for every file: the same hostile master gets the same refusal from
every command (exit 2, a message, bounded memory and time), the master's bytes
unchanged; parts are found as the reader finds them."""
from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from automation.workbook.gate import MASTER, Gate
from tests.hardening.hostile_masters import FAR, ROSTER, Parts, argv_for, capped, master, zipped

COMMANDS = ["refit", "undo", "verify", "stats", "export"]


def far_cell_behind_a_case_changed_target(parts: Parts) -> Parts:
    parts[ROSTER] = parts[ROSTER].replace(b"</sheetData>", FAR.encode())
    rels = "xl/_rels/workbook.xml.rels"
    parts[rels] = parts[rels].replace(b'Target="worksheets/sheet8.xml"', b'Target="Worksheets/SHEET8.XML"')
    return parts


def far_cell_behind_a_percent_encoded_name(parts: Parts) -> Parts:
    sheet = parts.pop(ROSTER).replace(b"</sheetData>", FAR.encode())
    parts["xl/worksheets/sheet%38.xml"] = sheet  # the reader takes the target as written
    rels = "xl/_rels/workbook.xml.rels"
    parts[rels] = parts[rels].replace(b'Target="worksheets/sheet8.xml"', b'Target="worksheets/sheet%38.xml"')
    return parts


def far_cell_behind_an_absolute_target(parts: Parts) -> Parts:
    parts[ROSTER] = parts[ROSTER].replace(b"</sheetData>", FAR.encode())
    rels = "xl/_rels/workbook.xml.rels"
    parts[rels] = parts[rels].replace(b'Target="worksheets/sheet8.xml"', b'Target="/XL/worksheets/sheet8.xml"')
    return parts


def far_cell_spelled(old: str, new: str) -> Callable[[Parts], Parts]:
    """The far cell with ``old`` in its tag written ``new``, which the parser reads as the same cell."""
    def change(parts: Parts) -> Parts:
        parts[ROSTER] = parts[ROSTER].replace(b"</sheetData>", FAR.replace(old, new).encode())
        return parts
    return change


def date_cell_with_no_date(parts: Parts) -> Parts:
    """A cell formatted as a date holding -1E+308: the parser panics converting it."""
    styles = parts["xl/styles.xml"]
    count = int(re.search(rb'<cellXfs count="(\d+)"', styles).group(1))
    date = b'<xf numFmtId="14" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/>'
    styles = re.sub(rb'<cellXfs count="\d+">', b'<cellXfs count="%d">' % (count + 1), styles)
    parts["xl/styles.xml"] = styles.replace(b"</cellXfs>", date + b"</cellXfs>")
    cell = b'<row r="900"><c r="A900" s="%d"><v>-1e308</v></c></row></sheetData>' % count
    parts[ROSTER] = parts[ROSTER].replace(b"</sheetData>", cell)
    return parts


def shared_strings_overstated(parts: Parts) -> Parts:
    sst = parts["xl/sharedStrings.xml"]
    parts["xl/sharedStrings.xml"] = re.sub(rb'uniqueCount="\d+"', b'uniqueCount="2000000000"', sst, count=1)
    return parts


def one_long_shared_string_in_many_cells(parts: Parts) -> Parts:
    """A string of 2 MB (random letters: it does not compress away) taken by 200 cells: 400 MB once read."""
    sst = parts["xl/sharedStrings.xml"]
    count = int(re.search(rb'uniqueCount="(\d+)"', sst).group(1))
    text = bytes(__import__("random").Random(1).choices(b"abcdefghijklmnopqrstuvwxyz", k=2 * 2**20))
    parts["xl/sharedStrings.xml"] = sst.replace(b"</sst>", b"<si><t>" + text + b"</t></si></sst>")
    cells = b"".join(b'<row r="%d"><c r="T%d" t="s"><v>%d</v></c></row>' % (r, r, count) for r in range(900, 1100))
    parts[ROSTER] = parts[ROSTER].replace(b"</sheetData>", cells + b"</sheetData>")
    return parts


def namespace_flood(parts: Parts) -> Parts:
    types = parts["[Content_Types].xml"].decode()
    decls = "".join(f' xmlns:n{i}="urn:n{i}"' for i in range(3000))
    many = "".join(f'<Default Extension="x{i}" ContentType="application/x{i}"/>' for i in range(1500))
    types = types.replace("<Types ", f"<Types{decls} ", 1).replace("</Types>", many + "</Types>")
    parts["[Content_Types].xml"] = types.encode()
    return parts


def dtd_in_a_sheet(parts: Parts) -> Parts:
    head, _, rest = parts[ROSTER].partition(b"?>")
    parts[ROSTER] = head + b'?><!DOCTYPE worksheet [<!ENTITY a "aaaa">]>' + rest
    return parts


def compressed_workbook_part(parts: Parts) -> Parts:
    wb = parts["xl/workbook.xml"]
    parts["xl/workbook.xml"] = wb.replace(b"<sheets>", b"<!--" + b" " * (8 * 2**20) + b"--><sheets>", 1)
    return parts


def twin_parts(parts: Parts) -> Parts:
    parts["xl/worksheets/SHEET8.xml"] = parts[ROSTER].replace(b"</sheetData>", FAR.encode())
    return parts


FAR_REFUSED = r"Roster Start!XFD1048576: a value in column XFD"  # beyond the 500 columns read
ATTACKS = {
    "far cell, case-changed target": (far_cell_behind_a_case_changed_target, FAR_REFUSED),
    "far cell, %-encoded part": (far_cell_behind_a_percent_encoded_name, FAR_REFUSED),
    "far cell, absolute target": (far_cell_behind_an_absolute_target, FAR_REFUSED),
    "far cell, a tab before its reference": (far_cell_spelled("<c r=", "<c\tr="), FAR_REFUSED),
    "far cell, a line break before its reference": (far_cell_spelled("<c r=", "<c\r\n  r="), FAR_REFUSED),
    "far cell, a quoted > before its reference": (far_cell_spelled("<c r=", '<c x=">" r='), FAR_REFUSED),
    "far cell, a leading zero in its row": (far_cell_spelled('r="XFD1048576"', 'r="XFD01048576"'), FAR_REFUSED),
    "shared strings overstated": (shared_strings_overstated,
                                  r"xl/sharedStrings\.xml says it holds 2000000000 strings and holds \d+"),
    "one long shared string in many cells": (one_long_shared_string_in_many_cells,
                                             r"Roster Start!A1: its cells take 400 MB of text from the shared strings"),
    "a date cell with no date": (date_cell_with_no_date, r"Roster Start!A1: the sheet cannot be read"),
    "namespace flood": (namespace_flood, r"\[Content_Types\]\.xml declares more than 200 namespaces"),
    "DTD in a sheet": (dtd_in_a_sheet, r"xl/worksheets/sheet8\.xml declares a DTD or entities"),
    "compressed workbook part": (compressed_workbook_part, r"xl/workbook\.xml is compressed \d+:1, a zip bomb"),
    "parts differing in case": (twin_parts, r"have the same name but for case"),
}

UNREAD = {"undo": (2, f"musterroll: {{}}: nothing to undo: no Musterroll batch is recorded in this workbook\n"),
          "stats": (0, "no rolls yet\n")}
SHEET_LEVEL = {"far cell, case-changed target", "far cell, %-encoded part", "far cell, absolute target",
               "DTD in a sheet", "far cell, a tab before its reference", "far cell, a line break before its reference",
               "one long shared string in many cells", "far cell, a quoted > before its reference",
               "far cell, a leading zero in its row", "a date cell with no date"}


@pytest.mark.parametrize("command", COMMANDS)
@pytest.mark.parametrize("attack", sorted(ATTACKS))
def test_every_command_refuses_a_hostile_master_alike(tmp_path: Path, attack: str, command: str) -> None:
    change, message = ATTACKS[attack]
    book = master(tmp_path / "m", change)
    before = book.read_bytes()
    proc = capped(*argv_for(command, book, tmp_path))
    if attack in SHEET_LEVEL and command in UNREAD:  # the command parses no sheet the attack is in
        code, text = UNREAD[command]
        assert (proc.returncode, proc.stdout + proc.stderr) == (code, text.replace("{}", str(book)))
    else:
        assert proc.returncode == 2, proc.stderr[-3000:]
        assert "Traceback" not in proc.stderr and proc.stdout == ""
        assert re.search(message, proc.stderr), proc.stderr
    assert book.read_bytes() == before
    assert not (tmp_path / "out.xlsx").exists()


@pytest.mark.parametrize("command", COMMANDS)
def test_a_part_listed_twice_is_refused_as_listed_twice_by_every_command(tmp_path: Path, command: str) -> None:
    import warnings
    import zipfile

    book = master(tmp_path / "m")
    with zipfile.ZipFile(book) as z:
        roster = z.read(ROSTER)
    with warnings.catch_warnings(), zipfile.ZipFile(book, "a") as z:
        warnings.simplefilter("ignore")  # (zipfile warns of the name it is asked to write again)
        z.writestr(ROSTER, roster.replace(b"</sheetData>", FAR.encode()))
    before = book.read_bytes()
    proc = capped(*argv_for(command, book, tmp_path))
    assert proc.returncode == 2 and proc.stdout == "" and "Traceback" not in proc.stderr, proc.stderr[-3000:]
    assert f"refused: part {ROSTER} is listed twice in the zip directory" in proc.stderr
    assert "but for case" not in proc.stderr
    assert book.read_bytes() == before


def test_parts_are_found_as_the_reader_finds_them(tmp_path: Path) -> None:
    from python_calamine import CalamineWorkbook

    for change, part in ((far_cell_behind_a_case_changed_target, ROSTER),
                         (far_cell_behind_a_percent_encoded_name, "xl/worksheets/sheet%38.xml"),
                         (far_cell_behind_an_absolute_target, ROSTER)):
        data = master(tmp_path / change.__name__, change).read_bytes()
        assert part in Gate("book", data, MASTER).sheet_targets()["Roster Start"]
        names = CalamineWorkbook.from_filelike(__import__("io").BytesIO(data)).sheet_names
        assert "Roster Start" in names


def test_a_legitimate_master_passes_the_gate_without_its_sheets_being_scanned(tmp_path: Path) -> None:
    gate = Gate("book", master(tmp_path / "m").read_bytes(), MASTER)
    assert not any(p.startswith("xl/worksheets/sheet") for p in gate._checked)  # sheets wait until they are read
    gate.check_sheet("Roster Start")
    assert ROSTER in gate._checked


def test_the_same_limits_hold_for_a_file_read_directly(tmp_path: Path) -> None:
    from automation.errors import WorkbookFileError
    from automation.workbook.reader import Workbook

    book = master(tmp_path / "m", namespace_flood)
    with pytest.raises(WorkbookFileError, match="declares more than 200 namespaces"):
        Workbook(book)
    assert zipped  # the helper module is shared with the fuzz test


def _column(n: int) -> str:
    out = ""
    while n:
        n, rem = divmod(n - 1, 26)
        out = chr(65 + rem) + out
    return out


@settings(max_examples=120, deadline=None)
@given(cells=st.lists(st.tuples(st.one_of(st.integers(1, 30), st.integers(1, 16384)),
                                st.one_of(st.integers(1, 12000), st.integers(1, 1048576))), min_size=1, max_size=40),
       odd=st.sampled_from(["", '<c r="b2"><v>1</v></c>', '<c r="A007"><v>1</v></c>', "<c><v>1</v></c>"]))
def test_the_quick_extent_bound_is_the_furthest_cell_named(cells, odd) -> None:
    import io
    import zipfile

    from automation.workbook.safety import sheet_extent

    body = "".join(f'<row><c r="{_column(c)}{r}"><v>1</v></c></row>' for c, r in cells) + (f"<row>{odd}</row>" if odd else "")
    xml = f'<worksheet xmlns="x"><sheetData>{body}</sheetData></worksheet>'.encode()
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        z.writestr("s.xml", xml)
    extent = sheet_extent(zipfile.ZipFile(io.BytesIO(buf.getvalue())), "s.xml", "book")
    assert extent.rows >= max(r for _, r in cells) and extent.columns >= max(c for c, _ in cells)
    if not odd:
        assert (extent.rows, extent.columns) == (max(r for _, r in cells), max(c for c, _ in cells))


def test_a_part_parsed_later_is_checked_when_it_is_parsed(tmp_path: Path) -> None:
    from automation.errors import WorkbookFileError

    def bomb_in_sheet_rels(parts: Parts) -> Parts:
        parts["xl/worksheets/_rels/sheet8.xml.rels"] = (
            b'<?xml version="1.0"?><!DOCTYPE r [<!ENTITY a "aaaa">]><Relationships '
            b'xmlns="http://schemas.openxmlformats.org/package/2006/relationships">&a;</Relationships>')
        return parts

    gate = Gate("book", master(tmp_path / "m", bomb_in_sheet_rels).read_bytes(), MASTER)  # not parsed yet: not read
    with pytest.raises(WorkbookFileError, match=r"sheet8\.xml\.rels declares a DTD or entities"):
        gate.check_part("xl/worksheets/_rels/SHEET8.xml.rels")


SEGMENT = st.sampled_from(["worksheets", "Worksheets", "sheet1.xml", "SHEET1.XML", "a.b", ".", "..", "", "x%2Ey",
                           "sheet%31.xml", "a..b", "x-y_z", "q.r.s", "\\", "xl"])


@settings(max_examples=300, deadline=None)
@given(target=st.lists(SEGMENT, min_size=1, max_size=4).map("/".join), rooted=st.booleans())
def test_a_plain_target_is_found_where_the_full_resolution_finds_it(target: str, rooted: bool) -> None:
    import io
    import zipfile

    from automation.workbook import gate as gate_module

    names = ["[Content_Types].xml", "xl/workbook.xml", "xl/worksheets/sheet1.xml", "worksheets/sheet1.xml",
             "xl/a.b/x-y_z", "xl/x-y_z/q.r.s", "xl/xl/worksheets/sheet1.xml"]
    data = io.BytesIO()
    with zipfile.ZipFile(data, "w") as z:
        for name in names:
            z.writestr(name, "<x/>" if name.endswith(".xml") else "x")
    gate = Gate.__new__(Gate)
    gate._by_lower = {i.filename.lower(): i for i in zipfile.ZipFile(io.BytesIO(data.getvalue())).infolist()}
    target = ("/" if rooted else "") + target
    fast = gate.resolve(target)
    plain = gate_module.PLAIN_PATH
    gate_module.PLAIN_PATH = re.compile(r"(?!)")  # every target resolved in full
    try:
        assert fast == gate.resolve(target)
    finally:
        gate_module.PLAIN_PATH = plain


def _app_with(body: bytes) -> Callable[[Parts], Parts]:
    def change(parts: Parts) -> Parts:
        more = b"<y/>" * 100 + body  # app.xml the part with most elements
        parts["docProps/app.xml"] = parts["docProps/app.xml"].replace(b"</Properties>", more + b"</Properties>")
        return parts
    return change


@pytest.mark.parametrize("extra, refused", [
    (b"<x/>" * 60, True),  # 60 more elements than the limit allows: counted one by one, refused
    (b"<x>" + b"<!-- < -->" * 200 + b"</x>", False),  # many "<", few elements: passes
    (b"<x></x>" * 20, False),  # an end tag is a "<" but not an element
])
def test_a_part_with_more_elements_than_the_limit_is_refused_and_no_other(tmp_path: Path, extra: bytes,
                                                                         refused: bool) -> None:
    import dataclasses

    from automation.errors import WorkbookFileError

    data = master(tmp_path / "m", _app_with(extra)).read_bytes()
    app = Gate("book", data, MASTER).archive.read("docProps/app.xml")
    elements = len(re.findall(rb"<[A-Za-z]", app))
    limits = dataclasses.replace(MASTER, elements=elements - 60 if refused else elements)
    if refused:
        with pytest.raises(WorkbookFileError, match=f"part docProps/app.xml holds more than {elements - 60} elements"):
            Gate("book", data, limits)
    else:
        assert app.count(b"<") > limits.elements  # so the count of "<" alone would have refused it
        Gate("book", data, limits)


def test_the_sheet_lists_are_refused_with_a_dtd_before_any_parse_of_their_sheets(tmp_path: Path) -> None:
    """The sheet list is parsed with ElementTree only after the part passed the
    streaming scan: a document type there never reaches that parser."""
    from automation.errors import WorkbookFileError

    for part in ("xl/_rels/workbook.xml.rels", "xl/workbook.xml"):
        def dtd(parts: Parts, part: str = part) -> Parts:
            head, _, rest = parts[part].partition(b"?>")
            parts[part] = head + b'?><!DOCTYPE r [<!ENTITY a "aaaa">]>' + rest
            return parts

        with pytest.raises(WorkbookFileError, match=re.escape(part) + " declares a DTD or entities"):
            Gate("book", master(tmp_path / part.replace("/", "_"), dtd).read_bytes(), MASTER).sheet_targets()


def test_sheets_are_found_through_any_prefix_of_the_relationships_namespace(tmp_path: Path) -> None:
    def other_prefix(parts: Parts) -> Parts:
        wb = parts["xl/workbook.xml"]
        parts["xl/workbook.xml"] = wb.replace(b"xmlns:r=", b"xmlns:rel=").replace(b" r:id=", b" rel:id=")
        return parts

    plain = Gate("book", master(tmp_path / "plain").read_bytes(), MASTER).sheet_targets()
    other = Gate("book", master(tmp_path / "other", other_prefix).read_bytes(), MASTER).sheet_targets()
    assert dict(other) and {name: other[name] for name in other} == {name: plain[name] for name in plain}


def test_a_sheet_named_twice_or_a_relationship_id_given_twice_may_be_read_from_every_part_named(
        tmp_path: Path) -> None:
    import io
    import zipfile

    main = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
    rel = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
    sheet_type = f"{rel}/worksheet"
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as z:
        z.writestr("[Content_Types].xml", '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"/>')
        z.writestr("xl/workbook.xml", f'<workbook xmlns="{main}" xmlns:r="{rel}"><sheets>'
                   '<sheet name="Twice" sheetId="1" r:id="rId1"/><sheet name="Twice" sheetId="2" r:id="rId2"/>'
                   '<sheet name="Doubled id" sheetId="3" r:id="rId3"/><sheet name="Plain" sheetId="4" r:id="rId5"/>'
                   '</sheets></workbook>')
        z.writestr("xl/_rels/workbook.xml.rels",
                   '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
                   f'<Relationship Id="rId1" Type="{sheet_type}" Target="worksheets/sheet1.xml"/>'
                   f'<Relationship Id="rId2" Type="{sheet_type}" Target="worksheets/sheet2.xml"/>'
                   f'<Relationship Id="rId3" Type="{sheet_type}" Target="worksheets/sheet3.xml"/>'
                   f'<Relationship Id="rId3" Type="{sheet_type}" Target="/xl/worksheets/sheet4.xml"/>'
                   f'<Relationship Id="rId5" Type="{sheet_type}" Target="worksheets/sheet5.xml"/>'
                   '</Relationships>')
        for n in range(1, 6):
            z.writestr(f"xl/worksheets/sheet{n}.xml", f'<worksheet xmlns="{main}"><sheetData/></worksheet>')
    targets = Gate("book", out.getvalue(), MASTER).sheet_targets()
    assert targets["Twice"] == ("xl/worksheets/sheet1.xml", "xl/worksheets/sheet2.xml")
    assert targets["Doubled id"] == ("xl/worksheets/sheet3.xml", "xl/worksheets/sheet4.xml")
    assert targets["Plain"] == ("xl/worksheets/sheet5.xml",)
    assert set(targets) == {"Twice", "Doubled id", "Plain"}


def test_shared_strings_that_cannot_be_read_when_a_sheet_is_checked_are_told_as_a_refusal(tmp_path: Path,
                                                                                         monkeypatch) -> None:
    """As when the findings kept for a file let it open without its parts streamed, and one is damaged since."""
    from automation.errors import WorkbookFileError
    from automation.workbook import gate as gate_module

    gate = Gate("book", master(tmp_path / "m", one_long_shared_string_in_many_cells).read_bytes(), MASTER)

    whole = gate._stream

    def damaged(name: str):
        if name != "xl/sharedStrings.xml":
            yield from whole(name)
            return
        raise gate_module._Refused(f"part {name} is damaged (CRC); use the last good copy of the workbook")

    monkeypatch.setattr(gate, "_stream", damaged)
    with pytest.raises(WorkbookFileError, match=r"refused: part xl/sharedStrings\.xml is damaged"):
        gate.check_sheet("Roster Start")

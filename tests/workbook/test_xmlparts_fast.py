"""The package's XML toolkit after its speed work: the one parse still finds
every element as a real parser does, refuses a document type, the check of
edited parts refuses what is not well-formed, the byte comparison before the
rename notices a change, and undo and the key module load nothing they do
not use."""
from __future__ import annotations

import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from automation.errors import WorkbookFileError
from automation.workbook.pkgfile import same_bytes as _same_bytes
from automation.workbook.xmlparts import XNode, check_well_formed, parse_xml

ROOT = Path(__file__).resolve().parents[2]

PART = (b'<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
        b'<workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" '
        b'xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships" '
        b'xmlns:mc="urn:mc" mc:Ignorable="x"><sheets>'
        b'<sheet name="A &amp; B" sheetId="1" r:id="rId1"/>'
        b"<sheet name='Fish &lt;Chips&gt;' sheetId='2' r:id='rId2' state=\"hidden\"/>"
        b'<sheet name="" sheetId="3" r:id="rId3"></sheet></sheets>'
        b'<definedNames><definedName name="_mr_batch_0001" hidden="1">{"Refit 1","3|x &gt; y"}</definedName>'
        b'</definedNames><x:ext xmlns:x="urn:other" x:v="1"><!-- a <comment/> --><![CDATA[<not/>]]></x:ext>'
        b'</workbook>')


def _walk(node: XNode) -> list[XNode]:
    return [node] + [n for c in node.children for n in _walk(c)]


def test_every_element_is_found_with_its_namespace_and_attributes_as_elementtree_reads_them() -> None:
    doc = parse_xml(PART, "xl/workbook.xml")
    ours = _walk(doc.root)
    theirs = list(ET.fromstring(PART).iter())
    assert [f"{{{n.ns}}}{n.local}" if n.ns else n.local for n in ours] == [e.tag for e in theirs]
    for node, element in zip(ours, theirs):
        plain = {k: v for k, v in node.attrs.items() if ":" not in k and k != "xmlns"}
        assert plain == {k: v for k, v in element.attrib.items() if not k.startswith("{")}
    sheets = doc.root.find("sheets")
    assert sheets is not None
    assert [s.get("name") for s in sheets.children] == ["A & B", "Fish <Chips>", ""]
    rel = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
    assert [s.attr("id", rel) for s in sheets.children] == ["rId1", "rId2", "rId3"]
    assert sheets.children[1].attr("state") == "hidden" and sheets.children[0].attr("state") is None
    # positions: each element's text is where the node says it is
    assert doc.text[sheets.children[0].start:sheets.children[0].end] == \
        '<sheet name="A &amp; B" sheetId="1" r:id="rId1"/>'
    names = doc.root.find("definedNames").children[0]  # type: ignore[union-attr]
    assert doc.inner_text(names) == '{"Refit 1","3|x > y"}'


def test_a_start_tag_whose_attribute_value_holds_a_bare_greater_than_sign_is_located_whole() -> None:
    part = (b'<w xmlns="urn:w"><a v="x>y" n="1"/><b v=\'1>2\'><c/></b>'
            b'<d xmlns:q="urn:q" q:v="a > b">t</d><e v="&gt;"/></w>')
    a, b, d, e = parse_xml(part, "xl/workbook.xml").root.children
    text = part.decode()
    assert text[a.start:a.end] == '<a v="x>y" n="1"/>' and a.inner_start == a.end and a.get("n") == "1"
    assert text[b.start:b.inner_start] == "<b v='1>2'>" and text[b.children[0].start:b.children[0].end] == "<c/>"
    assert text[d.start:d.inner_start] == '<d xmlns:q="urn:q" q:v="a > b">' and d.attr("v", "urn:q") == "a > b"
    assert d.children == () and text[d.inner_start:d.inner_end] == "t" and text[e.start:e.end] == '<e v="&gt;"/>'


@pytest.mark.parametrize("bad", [
    b'<!DOCTYPE w [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;">]><w>&b;</w>',
    b'<!DOCTYPE w SYSTEM "http://example.com/w.dtd"><w/>',
])
def test_a_document_type_is_refused_by_the_parse_and_by_the_check(bad: bytes) -> None:
    with pytest.raises(WorkbookFileError, match="document type"):
        parse_xml(bad, "xl/workbook.xml")
    with pytest.raises(WorkbookFileError, match="document type"):
        check_well_formed(bad, "xl/workbook.xml")


@pytest.mark.parametrize("bad", [b"<w><a></w>", b"<w>&nope;</w>", b"<p:w/>", b"<w/><w/>", b""])
def test_what_is_not_well_formed_is_refused_naming_the_part(bad: bytes) -> None:
    with pytest.raises(WorkbookFileError, match=r"xl/workbook\.xml"):
        check_well_formed(bad, "xl/workbook.xml")
    with pytest.raises(WorkbookFileError, match=r"xl/workbook\.xml"):
        parse_xml(bad, "xl/workbook.xml")
    check_well_formed(PART, "xl/workbook.xml")  # and the good part passes


def test_the_comparison_before_the_rename_notices_any_change(tmp_path: Path) -> None:
    data = bytes(range(256)) * 9000  # a little over 2 MB: several chunks
    book = tmp_path / "b.xlsx"
    book.write_bytes(data)
    assert _same_bytes(book, data)
    changed = bytearray(data)
    changed[len(data) - 5] ^= 1  # same length, one bit in the last chunk
    book.write_bytes(bytes(changed))
    assert not _same_bytes(book, data)
    for at in (0, 2**20 - 1, 2**20):  # the first byte, either side of the first chunk's end
        changed = bytearray(data)
        changed[at] ^= 1
        book.write_bytes(bytes(changed))
        assert not _same_bytes(book, data)
    book.write_bytes(data + b"x")
    assert not _same_bytes(book, data)
    book.write_bytes(data[:-1])
    assert not _same_bytes(book, data)
    book.write_bytes(b"")
    assert _same_bytes(book, b"") and not _same_bytes(book, data)


def test_undo_and_the_key_module_load_no_renderer_and_no_network_modules() -> None:
    code = ("import sys; import automation.keys, automation.service, automation.workbook.package; "
            "print(sorted(m for m in ('xlsxwriter', 'ssl', 'http.client', 'urllib.request', 'openpyxl') "
            "if m in sys.modules))")
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip() == "[]"


def _located(doc) -> list[str]:  # type: ignore[no-untyped-def]
    return [doc.text[n.start:n.end] for n in _walk(doc.root)]


@pytest.mark.parametrize("encoding", ["utf-8", "utf-8-sig", "utf-16"])
def test_elements_are_placed_exactly_in_a_part_with_accents_and_in_every_encoding(encoding: str) -> None:
    text = ('<?xml version="1.0" encoding="ENC"?>\n'
            '<workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheets>'
            '<sheet name="Straße ä &gt; ö" sheetId="1"/><sheet name="Ölfeld → 𝔘" sheetId="2" a=\'x>y\'></sheet>'
            '</sheets><definedNames><definedName name="n">\'Straße ä &gt; ö\'!$A$1</definedName></definedNames>'
            '</workbook>').replace("ENC", "UTF-16" if encoding == "utf-16" else "UTF-8")
    doc = parse_xml(text.encode(encoding), "xl/workbook.xml")
    sheets = doc.root.find("sheets")
    assert sheets is not None
    assert _located(doc)[2:4] == ['<sheet name="Straße ä &gt; ö" sheetId="1"/>',
                                  '<sheet name="Ölfeld → 𝔘" sheetId="2" a=\'x>y\'></sheet>']
    assert [s.get("name") for s in sheets.children] == ["Straße ä > ö", "Ölfeld → 𝔘"]
    assert sheets.children[1].get("a") == "x>y"
    assert sheets.children[1].inner_start == sheets.children[1].inner_end  # open and closed, nothing inside
    names = doc.root.find("definedNames")
    assert names is not None and doc.inner_text(names.children[0]) == "'Straße ä > ö'!$A$1"
    assert doc.text[doc.root.start:doc.root.end].endswith("</workbook>")


def test_a_large_part_is_located_element_by_element_as_elementtree_reads_it() -> None:
    sheets = "".join(f'<sheet name="Réport {i} &amp; co" sheetId="{i}" r:id="rId{i}"/>' for i in range(1, 3000))
    part = ('<workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" '
            'xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships">'
            f'<sheets>{sheets}</sheets></workbook>').encode()
    doc = parse_xml(part, "xl/workbook.xml")
    found = doc.root.find("sheets")
    assert found is not None and len(found.children) == 2999
    assert [n.get("name") for n in found.children] == [e.get("name") for e in ET.fromstring(part)[0]]
    last = found.children[-1]
    assert doc.text[last.start:last.end] == '<sheet name="Réport 2999 &amp; co" sheetId="2999" r:id="rId2999"/>'


def test_the_file_read_back_must_hold_the_directory_and_every_part_written_anew() -> None:
    import io
    import mmap
    import tempfile
    import zipfile

    from automation.workbook.pkgfile import inflates_to as _inflates_to
    from automation.workbook.zipraw import parse_zip, write_zip

    source = io.BytesIO()
    with zipfile.ZipFile(source, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("[Content_Types].xml", "<Types/>")
        z.writestr("xl/worksheets/sheet1.xml", "<worksheet>" + "x" * 500 + "</worksheet>")
    raw = parse_zip(source.getvalue(), "book.xlsx")
    out = io.BytesIO()
    text = b"<Types><Override/></Types>"
    wrote = write_zip(out, raw, {"[content_types].xml": text}, set(), [("xl/worksheets/sheet2.xml", b"<w/>")])
    data = out.getvalue()
    assert wrote.size == len(data) and wrote.check(data)
    assert parse_zip(data, "new").read("[Content_Types].xml") == text  # a zip as any reader reads it
    record = wrote.new["[content_types].xml"]
    with tempfile.TemporaryFile() as fh:
        fh.write(data)
        fh.flush()
        with mmap.mmap(fh.fileno(), 0, access=mmap.ACCESS_READ) as back:
            assert _inflates_to(back, record, text) and not _inflates_to(back, record, text + b" ")

    def flipped(at: int) -> bytes:
        return data[:at] + bytes([data[at] ^ 1]) + data[at + 1:]
    at, head, body = wrote.new["xl/worksheets/sheet2.xml"]
    assert not wrote.check(flipped(at + len(head)))  # a part written anew
    assert not wrote.check(flipped(wrote.directory_at + 3))  # the directory
    assert not wrote.check(data[:-1])
    untouched = raw.get("xl/worksheets/sheet1.xml")
    assert untouched is not None and data.find(bytes(untouched.local)) >= 0  # copied as it was


def test_elements_skipped_by_name_are_read_but_not_located_and_all_else_is_located_alike() -> None:
    whole = parse_xml(PART, "xl/workbook.xml")
    shell = parse_xml(PART, "xl/workbook.xml", frozenset({"sheet", "definedName"}))
    assert [n.local for n in shell.root.children] == [n.local for n in whole.root.children]
    for a, b in zip(shell.root.children, whole.root.children):
        assert (a.start, a.inner_start, a.inner_end, a.end, a.attrs) == (b.start, b.inner_start, b.inner_end, b.end,
                                                                        b.attrs)
    sheets, names = shell.root.find("sheets"), shell.root.find("definedNames")
    assert sheets is not None and sheets.children == () and names is not None and names.children == ()
    nested = b'<w xmlns="urn:w"><a><s><a/><b/></s></a><b/></w>'  # nothing inside a skipped element is listed
    assert [n.local for n in _walk(parse_xml(nested, "x.xml", frozenset({"s"})).root)] == ["w", "a", "b"]
    with pytest.raises(WorkbookFileError, match="not usable XML"):  # a skipped element is still read
        parse_xml(b'<w><s><a></s></w>', "x.xml", frozenset({"s"}))
    accented = ('<w xmlns="urn:w"><s n="Straße"/><é a="ö">t</é></w>').encode()
    doc = parse_xml(accented, "x.xml", frozenset({"s"}))
    e = doc.root.children[0]
    assert doc.text[e.start:e.end] == '<é a="ö">t</é>'  # places after a skipped element, counted in characters


def test_member_names_are_read_as_zipfile_reads_them_in_ascii_in_utf_8_and_in_the_old_code_page() -> None:
    import io
    import zipfile

    from automation.workbook.zipraw import parse_zip

    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as z:
        for name in ("xl/worksheets/sheet1.xml", "xl/media/Straße → 𝔘.png"):  # the second flagged UTF-8
            z.writestr(name, b"x")
        z.writestr("xl/media/cafe.png", b"y")
    data = out.getvalue().replace(b"cafe.png", "café.png".encode("cp437"))  # as an old zip program names it
    assert [m.name for m in parse_zip(data, "book.xlsx").members] == \
        [i.filename for i in zipfile.ZipFile(io.BytesIO(data)).infolist()] == \
        ["xl/worksheets/sheet1.xml", "xl/media/Straße → 𝔘.png", "xl/media/café.png"]

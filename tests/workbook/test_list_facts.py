"""An append keeps where the lists of the parts it wrote lie (automation.workbook.listfacts),
and the next append to that file takes them instead of parsing the parts: it writes
what it writes when it parses them, and anything that does not lie where it is said
to is parsed as before."""
from __future__ import annotations

from package_helpers import *  # noqa: F403 - the shared helpers, fixture and imports

import xml.etree.ElementTree as ET

from automation.cachesetting import CACHE_SETTING
from automation.workbook import gatememo, listfacts, package
from automation.workbook.gate import MASTER
from automation.workbook.xmlparts import Edit, parse_xml

from test_package_lists import KINDS, _variant

WORKBOOK = (
    '<?xml version="1.0" encoding="UTF-8"?>\n'
    '<x:workbook xmlns:x="http://schemas.openxmlformats.org/spreadsheetml/2006/main" '
    'xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships">'
    '<x:bookViews><x:workbookView activeTab="1"\n firstSheet="0" note="a&amp;b &#10;c"/></x:bookViews>'
    '<x:sheets><x:sheet name="A" sheetId="1" r:id="rId1"/><x:sheet name="B &lt;1&gt;" sheetId="2" r:id="rId2"/>'
    '</x:sheets><x:definedNames><x:definedName name="n">A!$A$1</x:definedName></x:definedNames>'
    '<x:calcPr/></x:workbook>'
)
LISTED = frozenset({"sheet", "definedName"})


def _nodes(node):  # type: ignore[no-untyped-def]
    yield node
    for child in node.children:
        yield from _nodes(child)


def _same(a, b) -> None:  # type: ignore[no-untyped-def]
    """Two parses place the same elements alike, with the same attributes and namespaces."""
    pairs = list(zip(_nodes(a.root), _nodes(b.root), strict=True))
    assert [(x.qname, x.ns, x.local, dict(x.attrs), dict(x.nsmap), x.start, x.inner_start, x.inner_end, x.end)
            for x, _ in pairs] == \
        [(y.qname, y.ns, y.local, dict(y.attrs), dict(y.nsmap), y.start, y.inner_start, y.inner_end, y.end)
         for _, y in pairs]


def test_a_part_is_placed_from_its_facts_as_a_parse_places_it_attributes_read_as_expat_reads_them() -> None:
    parsed = parse_xml(WORKBOOK.encode(), "xl/workbook.xml", LISTED)
    placed = listfacts.doc_from("xl/workbook.xml", WORKBOOK.encode(), listfacts.facts_of(parsed.root))
    assert placed is not None
    _same(placed, parsed)
    view = placed.root.find("bookViews").find("workbookView")
    assert view.get("note") == "a&b \nc" and view.get("firstSheet") == "0"  # a newline typed in a value: a space


def test_facts_that_do_not_lie_where_they_say_are_refused() -> None:
    parsed = parse_xml(WORKBOOK.encode(), "xl/workbook.xml", LISTED)
    facts = listfacts.facts_of(parsed.root)
    moved = listfacts.shifted(facts, [Edit(0, 0, " ")])
    assert listfacts.doc_from("xl/workbook.xml", WORKBOOK.encode(), moved) is None
    assert listfacts.doc_from("xl/workbook.xml", WORKBOOK.encode(), ("x:workbook", 0, 1)) is None  # another form
    renamed = WORKBOOK.replace("x:calcPr", "x:calcPx")
    assert listfacts.doc_from("xl/workbook.xml", renamed.encode(), facts) is None


def test_insertions_and_attributes_set_move_the_elements_as_a_parse_of_the_text_finds_them() -> None:
    doc = parse_xml(WORKBOOK.encode(), "xl/workbook.xml", LISTED)
    sheets, names = doc.root.find("sheets"), doc.root.find("definedNames")
    view = doc.root.find("bookViews").find("workbookView")
    edits = [package.insert_child(doc, sheets, '<x:sheet name="C" sheetId="3" r:id="rId3"/>'),
             package.insert_child(doc, names, '<x:definedName name="m">C!$1:$1</x:definedName>'),
             package.set_attr(doc, view, "activeTab", "12"), package.set_attr(doc, view, "added", "yes")]
    text = package.apply_edits(doc.text, edits)
    moved = listfacts.shifted(listfacts.facts_of(doc.root), edits)
    placed = listfacts.doc_from("xl/workbook.xml", text.encode(), moved)
    assert placed is not None
    _same(placed, parse_xml(text.encode(), "xl/workbook.xml", LISTED))
    assert placed.root.find("bookViews").find("workbookView").get("activeTab") == "12"


def test_an_edit_across_an_element_s_tags_or_a_list_made_anew_carries_nothing() -> None:
    doc = parse_xml(WORKBOOK.encode(), "xl/workbook.xml", LISTED)
    calc = doc.root.find("calcPr")
    assert listfacts.shifted(listfacts.facts_of(doc.root), [Edit(calc.start + 1, calc.end, "")]) is None
    kept: dict = {}
    listfacts.keep_doc(kept, doc, LISTED, [Edit(calc.start, calc.start, "<x:fileRecoveryPr/>")])
    assert kept == {}
    listfacts.keep_doc(kept, doc, LISTED, [package.insert_child(doc, doc.root.find("sheets"), "<x:sheet/>")])
    assert list(kept) == [("xl/workbook.xml", "definedName,sheet")]


def sheets_in(text: str) -> int:
    """How many sheet elements the part holds, as the gate's parse counts them."""
    return sum(1 for e in ET.fromstring(text.encode()).iter() if isinstance(e.tag, str) and e.tag.endswith("}sheet"))


def test_the_sheets_an_append_replaces_are_found_among_the_items_only_when_every_item_is_a_sheet() -> None:
    doc = parse_xml(WORKBOOK.encode(), "xl/workbook.xml", LISTED)
    holder = doc.root.find("sheets")
    [second] = listfacts.sheet_items(doc, holder, "sheet", [1], sheets_in(WORKBOOK))
    assert second.get("name") == "B <1>" and doc.text[second.start:second.end].startswith("<x:sheet name=\"B")
    commented = WORKBOOK.replace("</x:sheets>", "<!-- <x:sheet/> --></x:sheets>")
    odd = parse_xml(commented.encode(), "xl/workbook.xml", LISTED)
    assert listfacts.sheet_items(odd, odd.root.find("sheets"), "sheet", [1], sheets_in(commented)) is None
    assert listfacts.sheet_items(doc, holder, "sheet", [2], sheets_in(WORKBOOK)) is None


@pytest.mark.parametrize("items, found", [
    ("<x:sheet name='A' sheetId='1' r:id='rId1'/>\n\t<x:sheet name=\"B > 2\"  sheetId = \"2\" r:id=\"rId2\" />"
     "\r\n<x:sheet name=\"C\" sheetId=\"3\" r:id=\"rId3\"/>  ", ["A", "C"]),
    ("<x:sheet name=\"A\"/><x:sheet name=\"B\"></x:sheet><x:sheet name=\"C\"/>", None),  # an item not empty
    ("<x:sheet name=\"A\"/><x:sheetX name=\"B\"/><x:sheet name=\"C\"/>", None),  # an item of another name
    ("<x:sheet name=\"A\"/><sheet xmlns=\"http://schemas.openxmlformats.org/spreadsheetml/2006/main\" name=\"B\"/>"
     "<x:sheet name=\"C\"/>", ["A", "C"]),  # another prefix, on an item not asked for
    ("<x:sheet name=\"A\"/><sheet xmlns=\"http://schemas.openxmlformats.org/spreadsheetml/2006/main\" name=\"B\"/>"
     "<sheet xmlns=\"http://schemas.openxmlformats.org/spreadsheetml/2006/main\" name=\"C\"/>", None),  # and asked for
    ("<x:sheet name=\"A\"/>text<x:sheet name=\"B\"/><x:sheet name=\"C\"/>", ["A", "C"]),  # text between items
    ("<x:sheet name=\"A\"/><?pi x?><x:sheet name=\"B\"/><x:sheet name=\"C\"/>", None),  # an instruction
    ("<x:sheet name=\"A\"/><![CDATA[ ]]><x:sheet name=\"C\"/>", None),  # a section of text
    ("<x:sheet name=\"A\"/><x:sheet name=\"B\"/>", None),  # fewer items than asked for
])
def test_the_items_of_a_list_are_read_from_its_text_only_when_each_is_an_empty_sheet(items, found) -> None:
    text = WORKBOOK[:WORKBOOK.index("<x:sheets>") + 10] + items + WORKBOOK[WORKBOOK.index("</x:sheets>"):]
    doc = parse_xml(text.encode(), "xl/workbook.xml", LISTED)
    got = listfacts.sheet_items(doc, doc.root.find("sheets"), "sheet", [2, 0], sheets_in(text))
    assert (None if got is None else [n.get("name") for n in got][::-1]) == found
    if got is not None:
        whole = parse_xml(text.encode(), "xl/workbook.xml", frozenset({"definedName"}))
        listed = whole.root.find("sheets").children
        assert [(n.start, n.end, dict(n.attrs)) for n in got] == \
            [(listed[i].start, listed[i].end, dict(listed[i].attrs)) for i in (2, 0)]


def _chain(book: Path, kind: str) -> list[dict[str, bytes]]:
    """The workbook after each of a run of appends (sheets added, a form
    answered, names to escape) and an undo."""
    _variant(book, kind)
    steps = []
    for batch, sheets, replace in (
            ("Refit 5", [report("Report 5"), report("Orders 6")], []),
            ("Answer", [report("Orders 6", rows=[["Turn"], [7]])], ["Orders 6"]),
            ("Refit 6", [report("Rosé & <co> \"6\""), report("Notes 6", hidden=True)], []),
            ("Refit 7", [report("Report 7")], [])):
        append_sheets(book, sheets, batch, replace=replace)
        steps.append(contents(book))
    remove_last_batch(book)
    append_sheets(book, [report("Report 8")], "Refit 8")
    steps.append(contents(book))
    return steps


def spied(monkeypatch: pytest.MonkeyPatch, owner: object, name: str) -> list[tuple[tuple, bool]]:
    """The calls of ``owner.name`` made from now on: the arguments of each,
    and whether it found what it looked for (gave something, not None)."""
    calls: list[tuple[tuple, bool]] = []
    real = getattr(owner, name)

    def spy(*args):  # type: ignore[no-untyped-def]
        found = real(*args)
        calls.append((args, found is not None))
        return found

    monkeypatch.setattr(owner, name, spy)
    return calls


def kept_and_parsed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, kind: str
                    ) -> tuple[list[dict[str, bytes]], list[dict[str, bytes]]]:
    """The workbook after each step of :func:`_chain`, from appends that take
    what the append before them kept, and from appends that keep nothing."""
    kept, parsed = tmp_path / "kept.xlsx", tmp_path / "parsed.xlsx"
    shutil.copyfile(RICH, kept)
    shutil.copyfile(RICH, parsed)
    with_facts = _chain(kept, kind)
    monkeypatch.setenv(CACHE_SETTING, "off")
    return with_facts, _chain(parsed, kind)


@pytest.mark.parametrize("kind", KINDS)
def test_appends_that_take_where_the_lists_lie_write_what_appends_that_parse_them_write(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, kind: str) -> None:
    calls = spied(monkeypatch, package, "doc_from")
    with_facts, parsed = kept_and_parsed(tmp_path, monkeypatch, kind)
    assert {"xl/workbook.xml", "xl/_rels/workbook.xml.rels", "[Content_Types].xml"} <= \
        {args[0] for args, taken in calls if taken}
    assert with_facts == parsed


def appended_once(tmp_path: Path) -> tuple[Path, Path, str, gatememo.Found | None]:
    """A workbook after one append, a copy of it, the key of what its gate
    found and what the append kept under it."""
    book, again = tmp_path / "book.xlsx", tmp_path / "again.xlsx"
    shutil.copyfile(RICH, book)
    append_sheets(book, [report("Report 1")], "Refit 1")
    shutil.copyfile(book, again)
    key = gatememo.key_for(book.read_bytes(), MASTER)
    found = gatememo.find(key)
    return book, again, key, found


def test_facts_kept_wrong_are_not_taken_and_the_append_parses(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    book, again, key, found = appended_once(tmp_path)
    assert found is not None and set(found.docs) == {("xl/workbook.xml", "definedName,sheet"),
                                                     ("xl/_rels/workbook.xml.rels", "Relationship"),
                                                     ("[Content_Types].xml", "Override"),
                                                     ("docProps/app.xml", "#titles")}  # (test_app_titles_kept.py)
    askew = {where: listfacts.shifted(facts, [Edit(0, 0, "  ")]) for where, facts in found.docs.items()
             if where[1] != "#titles"}
    gatememo.keep(key, gatememo.Found(found.checked, found.marks, found.lists, found.names, found.workbook, askew))
    append_sheets(book, [report("Report 2")], "Refit 2")
    monkeypatch.setenv(CACHE_SETTING, "off")
    append_sheets(again, [report("Report 2")], "Refit 2")
    assert contents(book) == contents(again)

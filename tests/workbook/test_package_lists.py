"""An append adds to the ends of the workbook's lists (its sheets, defined
names, relationships and content types), and undo takes its own items out of
them, without locating every item one by one: both read the lists as the gate
parsed them and locate only the items they change, and write the very parts
they write when they locate every element."""
from __future__ import annotations

import collections
import zlib

from package_helpers import *  # noqa: F403 - the shared helpers, fixture and imports

from automation.workbook import package, undoimage
from automation.workbook.gate import Gate

from test_package_append import EXCEL_365_WORKBOOK


def _prefixed(xml: str) -> str:
    xml = re.sub(r"<(/?)(?!\?)(\w+)", r"<\1x:\2", xml).replace('<x:workbook xmlns="', '<x:workbook xmlns:x="')
    return xml.replace(' r:id="', ' rel:id="').replace("xmlns:r=", "xmlns:rel=")


def _variant(book: Path, kind: str) -> None:
    """The rich fixture as another program may have left it."""
    files = contents(book)
    xml = files["xl/workbook.xml"].decode()
    if kind == "excel 365":
        rezip(book, {"xl/workbook.xml": EXCEL_365_WORKBOOK.encode()})
    elif kind == "prefixed":
        rezip(book, {"xl/workbook.xml": _prefixed(xml).encode()})
    elif kind == "no defined names":
        rezip(book, {"xl/workbook.xml": re.sub(r"<definedNames>.*?</definedNames>|<definedNames/>", "", xml,
                                                flags=re.S).encode()})
    elif kind == "titles and records taken":
        append_sheets(book, [report("Report 1")], "Refit 1")
        append_sheets(book, [report("Report 2"), report("Roster 2", kind="roster")], "Refit 2")
    elif kind == "a form answered":  # the last batch put back a sheet it replaced
        append_sheets(book, [report("Orders 1")], "Orders")
        append_sheets(book, [report("Orders 1", rows=[["Turn"], [7]])], "Answer", replace=["Orders 1"])
    elif kind == "odd relationships":  # a default namespace declared on a prefixed root, one comment
        rels = files["xl/_rels/workbook.xml.rels"].decode()
        rels = re.sub(r"<(/?)Relationship", r"<\1p:Relationship", rels).replace(
            '<p:Relationships xmlns="', '<p:Relationships xmlns:p="').replace("</p:Relationships>",
                                                                              "<!-- kept --></p:Relationships>")
        rezip(book, {"xl/_rels/workbook.xml.rels": rels.encode()})


def _located_one_by_one(monkeypatch: pytest.MonkeyPatch) -> None:
    """The writer as it was: no list from the gate, every element located."""
    parse = package.parse_xml
    monkeypatch.setattr(Gate, "list_part", lambda self, name: None)
    monkeypatch.setattr(package, "parse_xml", lambda data, part, skip=frozenset(), keep=None: parse(data, part))


def _tabs_moved(book: Path) -> None:
    """The first sheet dragged to the end, its local names following it (as Excel does)."""
    xml = contents(book)["xl/workbook.xml"].decode()
    sheets = re.findall(r"<(?:x:)?sheet .*?/>", xml)
    xml = xml.replace(sheets[0], "", 1).replace(sheets[-1], sheets[-1] + sheets[0], 1)
    xml = re.sub(r'localSheetId="(\d+)"', lambda m: f'localSheetId="{(int(m.group(1)) - 1) % len(sheets)}"', xml)
    rezip(book, {"xl/workbook.xml": xml.encode()})


def _titles_twice(book: Path) -> None:
    """A careless workbook: the last sheet's print titles named twice."""
    xml = contents(book)["xl/workbook.xml"].decode()
    title = re.findall(r"<(?:x:)?definedName name=\"_xlnm.Print_Titles\".*?</(?:x:)?definedName>", xml)[-1]
    rezip(book, {"xl/workbook.xml": xml.replace(title, title + title, 1).encode()})


@pytest.fixture(autouse=True)
def _worked_out_from_the_lists(monkeypatch: pytest.MonkeyPatch) -> None:
    """Undo here works the change out from the workbook's lists: no image of the
    last append is found (tests/workbook/test_undo_image.py has undo with one)."""
    monkeypatch.setattr(undoimage, "find", lambda data: None)


KINDS = ["rich", "excel 365", "prefixed", "no defined names", "titles and records taken", "a form answered",
         "odd relationships"]


@pytest.mark.parametrize("then", [None, _tabs_moved, _titles_twice], ids=["as written", "tabs moved", "titles twice"])
@pytest.mark.parametrize("kind", KINDS)
def test_an_append_and_undo_write_the_parts_they_write_when_they_locate_every_element(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, kind: str, then) -> None:  # type: ignore[no-untyped-def]
    fast, slow = tmp_path / "fast.xlsx", tmp_path / "slow.xlsx"
    shutil.copyfile(RICH, fast)
    _variant(fast, kind)
    shutil.copyfile(fast, slow)
    sheets = [report("Report 9"), report("Roster 9", kind="roster"), report("Notes 9", hidden=True)]
    append_sheets(fast, sheets, "Refit 9")
    with monkeypatch.context() as m:
        _located_one_by_one(m)
        append_sheets(slow, sheets, "Refit 9")
    assert contents(fast) == contents(slow)
    assert openpyxl.load_workbook(fast).sheetnames[-3:] == ["Report 9", "Roster 9", "Notes 9"]
    if then is not None:
        then(fast)
        then(slow)
    while list_batches(slow):  # this batch, then those of the workbook, down to none
        assert remove_last_batch(fast) == remove_last_batch_located_one_by_one(slow, monkeypatch)
        assert contents(fast) == contents(slow)
    assert not list_batches(fast)


def remove_last_batch_located_one_by_one(book: Path, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    with monkeypatch.context() as m:
        _located_one_by_one(m)
        return remove_last_batch(book)


@pytest.mark.parametrize("keeping", [False, True], ids=["nothing kept", "kept"])
def test_an_append_locates_no_sheet_defined_name_relationship_or_content_type_override(
        book: Path, monkeypatch: pytest.MonkeyPatch, keeping: bool) -> None:
    if not keeping:
        monkeypatch.setenv("MUSTERROLL_CACHE", "off")
    append_sheets(book, [report("Report 1")], "Refit 1")
    parsed: list[tuple[str, frozenset[str]]] = []
    parse = package.parse_xml

    def spy(data: bytes, part: str, skip: frozenset[str] = frozenset(), keep=None):  # type: ignore[no-untyped-def]
        parsed.append((part, skip))
        return parse(data, part, skip, keep)

    monkeypatch.setattr(package, "parse_xml", spy)
    append_sheets(book, [report("Report 2")], "Refit 2")
    lists = {part: skip for part, skip in parsed if part in ("xl/workbook.xml", "xl/_rels/workbook.xml.rels",
                                                            "[Content_Types].xml")}
    # the first append kept where the lists' elements lie in the parts it wrote (automation.workbook.listfacts):
    # the second parses none of them
    assert lists == ({} if keeping else {"xl/workbook.xml": frozenset({"sheet", "definedName"}),
                                         "xl/_rels/workbook.xml.rels": frozenset({"Relationship"}),
                                         "[Content_Types].xml": frozenset({"Override"})})
    assert [b.name for b in list_batches(book)] == ["Refit 1", "Refit 2"]


@pytest.mark.parametrize("keeping", [False, True], ids=["nothing kept", "kept"])
def test_a_sheet_answered_elsewhere_is_replaced_locating_no_other_sheet(
        book: Path, monkeypatch: pytest.MonkeyPatch, keeping: bool) -> None:
    if not keeping:
        monkeypatch.setenv("MUSTERROLL_CACHE", "off")
    append_sheets(book, [report("Orders 1")], "Orders")
    append_sheets(book, [report("Orders 2")], "Orders")
    docs: list = []
    parse = package.parse_xml

    def spy(data: bytes, part: str, skip: frozenset[str] = frozenset(), keep=None):  # type: ignore[no-untyped-def]
        found = parse(data, part, skip, keep)
        docs.extend([(found, skip, keep)] if part == "xl/workbook.xml" else [])
        return found

    with monkeypatch.context() as m:
        m.setattr(package, "parse_xml", spy)
        append_sheets(book, [report("Orders 1", rows=[["Turn"], [7]])], "Answer", replace=["Orders 1"])
    if keeping:  # where the lists lie was kept by the append before: the sheet is found among the items
        assert docs == []
    else:  # the part is parsed once, its lists skipped; the sheet is found among the items of <sheets>
        [(wb, skip, keep)] = docs
        assert skip == frozenset({"sheet", "definedName"}) and keep is None
        assert wb.root.find("sheets").children == () and wb.root.find("definedNames").children == ()
    names = sheet_names(book)
    assert names.count("Orders 1") == 1 and "_mr_0003_1" in names
    remove_last_batch(book)
    assert "_mr_0003_1" not in sheet_names(book) and "Orders 1" in sheet_names(book)


def test_undo_locates_only_the_elements_it_removes_or_changes(book: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    append_sheets(book, [report("Report 1")], "Refit 1")
    append_sheets(book, [report("Report 2"), report("Roster 2", kind="roster")], "Refit 2")
    before = set(contents(book))
    docs: dict[str, list] = {}
    parse = package.parse_xml

    def spy(data: bytes, part: str, skip: frozenset[str] = frozenset(), keep=None):  # type: ignore[no-untyped-def]
        docs.setdefault(part, []).append(found := parse(data, part, skip, keep))
        return found

    monkeypatch.setattr(package, "parse_xml", spy)
    assert remove_last_batch(book) == ["Report 2", "Roster 2"]
    gone = {"/" + name for name in before - set(contents(book))}
    [wb] = docs["xl/workbook.xml"]
    assert [n.get("name") for n in wb.root.find("sheets").children] == ["Report 2", "Roster 2"]
    assert [(n.get("name"), n.get("localSheetId")) for n in wb.root.find("definedNames").children] == [
        ("_mr_batch_0002", ""), ("_xlnm.Print_Titles", "4"), ("_xlnm.Print_Titles", "5")]
    [rels] = docs["xl/_rels/workbook.xml.rels"]
    assert sorted("/xl/" + n.get("Target") for n in rels.root.children) == sorted(
        g for g in gone if g.startswith("/xl/worksheets/sheet"))
    [types] = docs["[Content_Types].xml"]
    located = {n.get("PartName") for n in types.root.children if n.local == "Override"}
    assert located and located <= gone
    assert sheet_names(book)[-1] == "Report 1"


def test_items_are_paired_with_their_elements_by_order_among_those_of_one_name() -> None:
    item = collections.namedtuple("item", "index name")
    every = [item(0, "A"), item(1, "B"), item(2, "A"), item(3, "C")]
    nodes = ["A-first", "A-second", "C-only"]
    key = lambda node: node.split("-")[0]  # noqa: E731
    assert package._paired([every[2], every[0], every[3]], every, nodes, key, lambda i: i.name) == [
        "A-second", "A-first", "C-only"]
    assert package._paired([every[0]], every, nodes[:1], key, lambda i: i.name) is None  # one "A" too few


def test_undo_locates_the_workbook_part_whole_when_its_two_parses_disagree(
        book: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    append_sheets(book, [report("Report 1")], "Refit 1")
    append_sheets(book, [report("Report 2")], "Refit 2")
    other = book.with_name("other.xlsx")
    shutil.copyfile(book, other)
    with monkeypatch.context() as m:
        m.setattr(package, "_paired", lambda *args: None)
        assert remove_last_batch(book) == ["Report 2"]
    assert remove_last_batch(other) == ["Report 2"]
    assert contents(book) == contents(other)


def _stored(book: Path, name: str) -> bytes:
    """A member's data as the zip holds it (deflated)."""
    with zipfile.ZipFile(book) as zf:
        info = zf.getinfo(name)
    raw = book.read_bytes()
    nlen, elen = struct.unpack_from("<HH", raw, info.header_offset + 26)
    start = info.header_offset + 30 + nlen + elen
    return raw[start:start + info.compress_size]


def _deflated(data: bytes, level: int) -> bytes:
    packer = zlib.compressobj(level, zlib.DEFLATED, -15)
    return packer.compress(data) + packer.flush()


def test_the_lists_every_change_writes_again_are_deflated_fast_and_new_sheets_well(book: Path) -> None:
    append_sheets(book, [report("Report 1", rows=ROWS * 50)], "Refit 1")
    files = contents(book)
    for part in ("xl/workbook.xml", "xl/_rels/workbook.xml.rels", "[Content_Types].xml", "docProps/app.xml"):
        assert _stored(book, part) == _deflated(files[part], 1), part
    [sheet] = [n for n in files if n.startswith("xl/worksheets/sheet") and n not in contents(RICH)]
    # a new sheet stays in the file: deflated once at level 3 (a third of level 6's time, 7% more bytes)
    assert _stored(book, sheet) == _deflated(files[sheet], 3)

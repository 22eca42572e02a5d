"""An append adds to the ends of the workbook's lists (its sheets, defined
names, relationships and content types) without locating their items one by
one: it reads them as the gate parsed them, and writes the very parts it
writes when it locates every element."""
from __future__ import annotations

from package_helpers import *  # noqa: F403 - the shared helpers, fixture and imports

from automation.workbook import package
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
    monkeypatch.setattr(package, "parse_xml", lambda data, part, skip=frozenset(): parse(data, part))


@pytest.mark.parametrize("kind", ["rich", "excel 365", "prefixed", "no defined names", "titles and records taken",
                                  "odd relationships"])
def test_an_append_writes_the_parts_it_writes_when_it_locates_every_element(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, kind: str) -> None:
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
    remove_last_batch(fast)
    remove_last_batch(slow)
    assert contents(fast) == contents(slow)


def test_an_append_locates_no_sheet_defined_name_relationship_or_content_type_override(
        book: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    append_sheets(book, [report("Report 1")], "Refit 1")
    parsed: list[tuple[str, frozenset[str]]] = []
    parse = package.parse_xml

    def spy(data: bytes, part: str, skip: frozenset[str] = frozenset()):  # type: ignore[no-untyped-def]
        parsed.append((part, skip))
        return parse(data, part, skip)

    monkeypatch.setattr(package, "parse_xml", spy)
    append_sheets(book, [report("Report 2")], "Refit 2")
    lists = {part: skip for part, skip in parsed if part in ("xl/workbook.xml", "xl/_rels/workbook.xml.rels",
                                                            "[Content_Types].xml")}
    assert lists == {"xl/workbook.xml": frozenset({"sheet", "definedName"}),
                     "xl/_rels/workbook.xml.rels": frozenset({"Relationship"}),
                     "[Content_Types].xml": frozenset({"Override"})}
    assert [b.name for b in list_batches(book)] == ["Refit 1", "Refit 2"]


def test_a_sheet_answered_elsewhere_is_replaced_with_every_element_located(book: Path) -> None:
    append_sheets(book, [report("Orders 1")], "Orders")
    append_sheets(book, [report("Orders 1", rows=[["Turn"], [7]])], "Answer", replace=["Orders 1"])
    names = sheet_names(book)
    assert names.count("Orders 1") == 1 and "_mr_0002_1" in names
    remove_last_batch(book)
    assert "_mr_0002_1" not in sheet_names(book) and "Orders 1" in sheet_names(book)

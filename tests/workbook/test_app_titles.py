"""docProps/app.xml's titles follow the sheets an append adds and undo removes,
and only the titles edited are located in the part's text."""
from __future__ import annotations

import pytest

from automation.workbook.apptitles import app_titles_edits
from automation.workbook.xmlparts import apply_edits, parse_xml

HEAD = ('<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<Properties xmlns="http://schemas.openxmlformats.org/'
        'officeDocument/2006/extended-properties" xmlns:vt="http://schemas.openxmlformats.org/officeDocument/2006/'
        'docPropsVTypes"><Application>Microsoft Excel</Application>')


def app(groups: list[tuple[str, list[str]]], count_tag: str = "vt:i4", item_tag: str = "vt:lpstr") -> bytes:
    pairs = "".join(f"<vt:variant><vt:lpstr>{name}</vt:lpstr></vt:variant>"
                    f"<vt:variant><{count_tag}>{len(titles)}</{count_tag}></vt:variant>" for name, titles in groups)
    titles = [t for _, group in groups for t in group]
    items = "".join(f"<{item_tag}>{t}</{item_tag}>" for t in titles)
    return (f'{HEAD}<HeadingPairs><vt:vector size="{2 * len(groups)}" baseType="variant">{pairs}</vt:vector>'
            f'</HeadingPairs><TitlesOfParts><vt:vector size="{len(titles)}" baseType="lpstr">{items}</vt:vector>'
            '</TitlesOfParts><Company></Company></Properties>').encode()


SHEETS = ["Campaign", "Notes", "Report 1", "Report 2", "Report 1 (2)"]
EXCEL = app([("Worksheets", SHEETS), ("Named Ranges", ["Campaign!Print_Area", "Report 1"])])


def edited(data: bytes, whole: bool, **change: list[str]) -> tuple[str | None, list[str]]:
    """The part's text after the edits, and the titles located on the way."""
    located: list[str] = []

    def parse(skip, keep):  # type: ignore[no-untyped-def]
        doc = parse_xml(data, "docProps/app.xml", *((frozenset(), None) if whole else (skip, keep)))
        located.extend(doc.inner_text(n) for n in _walk(doc.root) if n.local == "lpstr")
        return doc

    found = app_titles_edits(data, parse, SHEETS + change.get("add", []), **change)
    return (apply_edits(found[0].text, found[1]) if found else None), located


def _walk(node):  # type: ignore[no-untyped-def]
    for child in node.children:
        yield child
        yield from _walk(child)


@pytest.mark.parametrize("data", [EXCEL, app([("Charts", ["Chart1"]), ("Worksheets", SHEETS)]),
                                  app([("Worksheets", SHEETS)], count_tag="vt:lpstr"),
                                  app([("Worksheets", SHEETS)], item_tag="vt:bstr"),
                                  app([("Worksheets", ["Elsewhere"])])],
                         ids=["as Excel writes it", "charts first", "a count as text", "titles as bstr", "no match"])
@pytest.mark.parametrize("change", [{"add": ["Report 3", "Roster 3"]}, {"remove": ["Report 1"]},
                                    {"remove": ["Report 2", "Campaign"]}, {"remove": ["Gone"]}])
def test_titles_edited_locating_only_them_read_as_when_the_part_is_located_whole(data: bytes, change) -> None:  # type: ignore[no-untyped-def]
    assert edited(data, whole=False, **change)[0] == edited(data, whole=True, **change)[0]


def test_an_append_adds_its_titles_after_the_worksheets_locating_only_the_last_of_them() -> None:
    text, located = edited(EXCEL, whole=False, add=["Report 3"])
    assert located == ["Report 1 (2)"]
    assert text is not None
    assert "<vt:lpstr>Report 1 (2)</vt:lpstr><vt:lpstr>Report 3</vt:lpstr><vt:lpstr>Campaign!Print_Area" in text
    assert '<vt:i4>6</vt:i4>' in text and '<vt:vector size="8" baseType="lpstr">' in text


def test_undo_takes_out_the_last_title_of_a_name_locating_only_that_one() -> None:
    text, located = edited(EXCEL, whole=False, remove=["Report 2"])
    assert located == ["Report 2"]
    assert text is not None and "Report 2" not in text and "<vt:i4>4</vt:i4>" in text
    assert text.count("Report 1") == 3  # the worksheet, its copy and the named range stay


def test_titles_that_do_not_list_the_worksheets_are_left_alone() -> None:
    assert edited(app([("Worksheets", ["Elsewhere"])]), whole=False, add=["Report 3"]) == (None, [])

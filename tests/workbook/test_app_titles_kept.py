"""An append keeps where its titles of docProps/app.xml leave the places the
next append edits (automation.workbook.apptitles), and the next append to that
file edits them there instead of parsing a thousand titles twice: it writes
what an append that parses them writes, and facts that do not hold are not
taken."""
from __future__ import annotations

from package_helpers import *  # noqa: F403 - the shared helpers, fixture and imports

from automation.cachesetting import CACHE_SETTING
from automation.workbook import apptitles, gatememo
from automation.workbook.gate import MASTER

from test_list_facts import appended_once, kept_and_parsed, spied
from test_package_lists import KINDS

APP = "docProps/app.xml"


def _titles(path: Path) -> list[str]:
    """The titles of parts, as a reader of app.xml finds them."""
    import xml.etree.ElementTree as ET

    root = ET.fromstring(zipfile.ZipFile(path).read(APP))
    ep = "{http://schemas.openxmlformats.org/officeDocument/2006/extended-properties}"
    vt = "{http://schemas.openxmlformats.org/officeDocument/2006/docPropsVTypes}"
    return [e.text or "" for e in root.find(f"{ep}TitlesOfParts").iter(f"{vt}lpstr")]


@pytest.mark.parametrize("kind", KINDS)
def test_appends_that_add_titles_where_the_last_append_left_them_write_what_appends_that_parse_them_write(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, kind: str) -> None:
    calls = spied(monkeypatch, apptitles, "_told")
    with_facts, parsed = kept_and_parsed(tmp_path, monkeypatch, kind)
    if kind != "titles and records taken":  # (app.xml's titles no longer list the worksheets: left alone)
        assert any(taken for _, taken in calls)
    assert with_facts == parsed


def test_an_append_with_the_titles_facts_adds_its_titles_after_the_worksheets_and_counts_them(
        tmp_path: Path) -> None:
    book = tmp_path / "book.xlsx"
    shutil.copyfile(RICH, book)
    append_sheets(book, [report("Report 1")], "Refit 1")
    before = _titles(book)
    append_sheets(book, [report("Report 2 & <3>"), report("Report 3")], "Refit 2")
    after = _titles(book)
    at = before.index("Report 1") + 1
    assert after == before[:at] + ["Report 2 & <3>", "Report 3"] + before[at:]
    text = zipfile.ZipFile(book).read(APP).decode()
    assert f'size="{len(after)}"' in text
    found = gatememo.find(gatememo.key_for(book.read_bytes(), MASTER))
    assert found is not None and (APP, apptitles.TITLES) in found.docs


@pytest.mark.parametrize("wrong", [
    lambda f: (*f[:1], f[1] + 1, *f[2:]),  # another count
    lambda f: (*f[:2], f[2] - 1, *f[3:]),  # another size
    lambda f: (*f[:8], f[8] - 1),  # not the end of a title
    lambda f: (*f[:4], f[4] + 1, f[5] + 1, *f[6:]),  # the count's place moved
    lambda f: ("titles 0", *f[1:]),  # another form
    lambda f: f[:5],  # cut short
], ids=["count", "size", "end", "moved", "form", "short"])
def test_titles_facts_that_do_not_hold_are_not_taken_and_the_append_parses(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, wrong) -> None:  # type: ignore[no-untyped-def]
    book, again, key, found = appended_once(tmp_path)
    assert found is not None
    docs = dict(found.docs)
    docs[(APP, apptitles.TITLES)] = wrong(docs[(APP, apptitles.TITLES)])
    gatememo.keep(key, gatememo.Found(found.checked, found.marks, found.lists, found.names, found.workbook, docs))
    calls = spied(monkeypatch, apptitles, "_told")
    append_sheets(book, [report("Report 2")], "Refit 2")
    assert [taken for _, taken in calls] == [False]
    monkeypatch.setenv(CACHE_SETTING, "off")
    append_sheets(again, [report("Report 2")], "Refit 2")
    assert contents(book) == contents(again)

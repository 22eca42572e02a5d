"""An export that carries some of its sheets is laid out as XlsxWriter lays
out one that built every sheet: the same bytes, whatever the sheets are
called (quotes, ampersands, digits first, escapes) and wherever the carried
ones fall among the others."""
from __future__ import annotations

import zipfile

import pytest
from xlsxwriter.exceptions import DuplicateWorksheetName

from automation.pbem.partstore import PartStore
import automation.pbem.xlsx as xlsx
from automation.pbem.xlsx import OutSheet, write

NAMES = ["Export", "O'Brien's roll", "A & B <c>", "1942 Roster", "Dice audit", "_x0041_ log", "Plain",
         "Ünïcödé ✓", "Refit Dec 24 1"]


def sheets(sealed: set[str]) -> list[OutSheet]:
    return [OutSheet(name, [["Stand", "Notes"], [f"G-{i}", f"row of {name}"], [f"G-{i}b", i]],
                     source=f"stamp of {name}" if name in sealed else "")
            for i, name in enumerate(NAMES)]


@pytest.mark.parametrize("sealed", [
    set(NAMES[1:]),  # every sheet but the first carried
    {"A & B <c>", "_x0041_ log", "Refit Dec 24 1"},  # some, the last one among them
    {"O'Brien's roll"},  # one
])
def test_an_export_carrying_sheets_is_the_export_that_built_them(tmp_path, monkeypatch, sealed) -> None:
    store = tmp_path / "store"
    store.mkdir()
    cold, warm = tmp_path / "cold.xlsx", tmp_path / "warm.xlsx"
    first = PartStore.of(store, "German")
    write(cold, sheets(sealed), first)
    first.save()
    again = PartStore.of(store, "German")
    drawn: list[str] = []
    real = xlsx._workbook_class

    def counting():
        book = real()

        class Counting(book):
            def add_worksheet(self, name=None, *a, **k):
                drawn.append(name)
                return super().add_worksheet(name, *a, **k)
        return Counting
    monkeypatch.setattr(xlsx, "_workbook_class", counting)
    write(warm, sheets(sealed), again)
    assert drawn == [n for n in NAMES if n not in sealed or n == NAMES[0]]  # carried sheets are not drawn
    assert warm.read_bytes() == cold.read_bytes()
    with zipfile.ZipFile(warm) as z:
        assert z.testzip() is None


def test_two_sheets_named_alike_are_refused_when_one_is_carried(tmp_path) -> None:
    store = tmp_path / "store"
    store.mkdir()
    first = PartStore.of(store, "German")
    write(tmp_path / "a.xlsx", sheets({"Plain"}), first)
    first.save()
    twice = sheets({"Plain"}) + [OutSheet("PLAIN", [["Stand"], ["x"]])]
    with pytest.raises(DuplicateWorksheetName, match="PLAIN"):
        write(tmp_path / "b.xlsx", twice, PartStore.of(store, "German"))


@pytest.mark.parametrize("change", ["a name of its own", "a hidden sheet", "another active sheet"])
def test_what_an_export_never_holds_is_refused_rather_than_laid_out_wrong(change) -> None:
    import io

    from automation.errors import WorkbookFileError
    from automation.pbem.xlsxcarry import Titles, layout
    from automation.workbook.zipraw import parse_zip

    out = io.BytesIO()
    book = xlsx._workbook_class()(out, {"in_memory": True})
    first, second = book.add_worksheet("Export"), book.add_worksheet("Orders")
    if change == "a name of its own":
        book.define_name("Total", "=Export!$A$1")
    elif change == "a hidden sheet":
        second.hide()
    else:
        second.activate()
    book.close()
    with pytest.raises(WorkbookFileError, match="internal error"):
        layout(book, parse_zip(out.getvalue(), "x"), ["Export", "Carried", "Orders"], [1, 3],
               {1: Titles(), 2: Titles.header_row("Carried"), 3: Titles()}, {})


def test_names_escaped_at_once_are_each_escaped_as_alone() -> None:
    from automation.pbem.xlsxcarry import _escaped, _writer

    w = _writer()
    names = [*NAMES, "tab\there", "_x005F_x0041_", "\ufffe end", "'Roster'!$1:$1", ""]
    for escape in (w._escape_attributes, lambda t: w._escape_control_characters(w._escape_data(t))):
        assert _escaped(names, escape) == [escape(name) for name in names]
        assert _escaped(["a/b", "c"], escape) == [escape("a/b"), escape("c")]  # (no sheet is so named)


def test_carried_sheets_print_their_header_row_under_the_name_xlsxwriter_quotes() -> None:
    from xlsxwriter.utility import quote_sheetname

    from automation.pbem.xlsxcarry import Titles

    names = [*NAMES, "A1", "XFD1048576", "XFE1", "R1C1", "RC", "R", "C12x", "Sheet.1", ".dot", "_under",
             "'quoted'", "it's", "Roster", "R0C0", "ab-cd"]
    expected = [Titles(print_titles=f"{quote_sheetname(name)}!$1:$1") for name in names]
    assert Titles.header_rows(names) == expected
    assert [Titles.header_row(name) for name in names] == expected

"""Undo leaves no dangling reference: a defined name or a formula of the
umpire's that points into a sheet undo would remove makes undo refuse, naming
each; once they are changed, undo goes ahead."""
from __future__ import annotations

from pathlib import Path

import pytest

from automation.cli import main
from automation.workbook.package import list_batches, sheet_names
from automation.workbook.undo_refs import in_names, in_sheet
from tests.hardening.hostile_masters import master, parts_of, zipped

REMOVED = "Refit Dec 23 1"


def refitted(folder: Path) -> Path:
    book = master(folder)
    assert main(["refit", str(book)]) == 0
    assert REMOVED in sheet_names(book)
    return book


def edited(book: Path, formula: str | None = None, name: str | None = None) -> None:
    parts = parts_of(book)
    if formula is not None:  # typed by the umpire on the Campaign sheet, in F2
        sheet = "xl/worksheets/sheet1.xml"
        parts[sheet] = parts[sheet].replace(b'<c r="B2" t="s"><v>5</v></c></row>',
                                            b'<c r="B2" t="s"><v>5</v></c><c r="F2"><f>' + formula.encode()
                                            + b"</f><v>0</v></c></row>", 1)
    if name is not None:
        parts["xl/workbook.xml"] = parts["xl/workbook.xml"].replace(
            b"<definedNames>", b'<definedNames><definedName name="Total">' + name.encode() + b"</definedName>", 1)
    book.write_bytes(zipped(parts))


def undo(capsys, book: Path) -> tuple[int, str]:
    capsys.readouterr()
    code = main(["undo", str(book)])
    return code, capsys.readouterr().err


@pytest.mark.parametrize("formula, name, expected", [
    (f"'{REMOVED}'!A1+1", None, [f"Campaign!F2: the formula ='{REMOVED}'!A1+1 refers to a sheet undo would remove"]),
    (None, f"'{REMOVED}'!$B$2", [f"Defined names!Total: the name 'Total' refers to \"'{REMOVED}'!$B$2\""]),
    (f"SUM('{REMOVED}'!B2:B9)", f"'{REMOVED}'!$A$1:$C$3",
     ["Campaign!F2: the formula =SUM(", "Defined names!Total: the name 'Total'"]),
])
def test_undo_refuses_naming_what_points_into_a_sheet_it_would_remove(capsys, tmp_path, formula, name, expected):
    book = refitted(tmp_path / "m")
    edited(book, formula, name)
    before = book.read_bytes()
    code, err = undo(capsys, book)
    assert code == 2 and "Traceback" not in err
    for text in expected:
        assert text in err, err
    assert "then undo again" in err
    assert book.read_bytes() == before


def test_undo_goes_ahead_once_the_references_are_gone_or_point_elsewhere(capsys, tmp_path):
    book = refitted(tmp_path / "m")
    edited(book, "Sides!C2*2", "Sides!$A$1")  # references to sheets that stay
    code, err = undo(capsys, book)
    assert code == 0, err
    assert REMOVED not in sheet_names(book) and list_batches(book) == []


def test_the_search_tells_names_apart_and_reads_escaped_formulas() -> None:
    removed = ["Report 1", "O'Brien"]
    assert in_names([("a", "'Report 10'!A1"), ("b", "'Report 1'!A1"), ("c", "'O''Brien'!A1"),
                     ("d", "'Other'!A1:'Report 1'!B2"), ("e", "NotReport 1!A1")], removed) and \
        [p.cell for p in in_names([("a", "'Report 10'!A1"), ("b", "'Report 1'!A1"), ("c", "'O''Brien'!A1"),
                                   ("e", "XReport!A1")], removed)] == ["b", "c"]
    data = (b'<worksheet><sheetData><row r="1"><c r="A1"><f>\'Report 1\'!A1&amp;"x"</f><v>1</v></c>'
            b'<c r="B1"><f>\'Report 10\'!A1</f></c><c r="C1" t="s"><v>3</v></c></row></sheetData></worksheet>')
    found = in_sheet("Notes", data, removed)
    assert [p.cell for p in found] == ["A1"] and "='Report 1'!A1&\"x\"" in found[0].message
    assert in_sheet("Notes", data.replace(b"Report 1'", b"Report 2'"), removed) == []

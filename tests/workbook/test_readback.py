"""The sheets an append writes are kept as the parser reads them back
(automation.workbook.readback): the command after a refit reads the refit's
roster and reports without parsing them, and what it reads is exactly what
the parser gives. A sheet whose reading back is not certain is parsed."""
from __future__ import annotations

import datetime as dt
import io
import math
import os
import zipfile
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from python_calamine import CalamineWorkbook

from automation.cachesetting import CACHE_SETTING
from automation.samples_demo import SPEND_DEC23
from automation.service import refit
from automation.workbook import bf_sheets as K
from automation.workbook.package import append_sheets
from automation.workbook.readback import cells_of
from automation.workbook.reader import Workbook
from automation.workbook.sheetgraft import NewSheet, render
from tests.workbook.test_row_cache import calamine_parsed
from tests.pbem.helpers import build, enter
from tests.workbook.workbook_helpers import copy_of, copy_sample


def parser_reads(rows: list[list[object]]) -> list[list[object]]:
    """The cells the parser reads from a sheet written with ``rows``."""
    data, _ = render([NewSheet("Sheet", rows)])
    sheet = CalamineWorkbook.from_filelike(io.BytesIO(data)).get_sheet_by_name("Sheet")
    return [list(r) for r in sheet.to_python(skip_empty_area=False)]


def typed(rows: list[list[object]]) -> list[list[tuple[type, object]]]:
    """Each value with its type (1.0 and True are equal, but not read alike)."""
    return [[(type(v), v) for v in row] for row in rows]


def from_parser(path: Path, name: str) -> list[list[object]]:
    sheet = CalamineWorkbook.from_path(str(path)).get_sheet_by_name(name)
    return [list(r) for r in sheet.to_python(skip_empty_area=False)]


# --------------------------------------------------------------------------- a refit and the command after it

def before_the_roster(system: str, folder: Path) -> Path:
    """A copy of a bundled campaign whose next refit writes the roster: the
    Advance to Rostov sample's Dec 23 spending entered, or A Bridge Too
    Far's 17N purchases."""
    if system == "battlefront":
        book = build(folder, "spend_dec23")
        enter(book, K.SPEND, SPEND_DEC23, "Dec 23")
        return book
    from automation import samples_abtf as S

    book = copy_of(S.SAMPLE, folder)
    refit(book)
    S.enter_purchases(book, "17N", S.PURCHASES_17N)
    return book


def refitted(system: str, folder: Path, musterroll) -> tuple[Path, list[str]]:
    """The campaign refitted through the command line, and the sheets the refit wrote."""
    book = before_the_roster(system, folder)
    before = set(Workbook(book).sheet_names)
    assert musterroll("refit", book).code == 0
    return book, [n for n in Workbook(book).sheet_names if n not in before]


@pytest.mark.parametrize("system", ["battlefront", "abtf"])
def test_the_command_after_a_refit_reads_its_sheets_unparsed_exactly_as_the_parser_would(
        system: str, tmp_path: Path, musterroll, monkeypatch: pytest.MonkeyPatch) -> None:
    book, new = refitted(system, tmp_path / "campaign", musterroll)
    seen = calamine_parsed(monkeypatch)
    after = Workbook(book)
    taken = {name: after.raw(name) for name in new}
    kept = [name for name in new if name not in seen]
    assert any(name.startswith(("Roster", "Units")) for name in kept) and len(kept) >= 3  # (each system's roster)
    assert [name for name in seen if not name.startswith(("Spend", "Orders", "Forces"))] == []  # (forms: parsed)
    for name in kept:
        assert typed(taken[name]) == typed(from_parser(book, name)), name


def test_the_export_after_a_refit_parses_none_of_the_refit_s_plain_sheets(
        tmp_path: Path, musterroll, monkeypatch: pytest.MonkeyPatch) -> None:
    book, new = refitted("battlefront", tmp_path / "campaign", musterroll)
    seen = calamine_parsed(monkeypatch)
    assert musterroll("export", book, "--side", "German", "-o", tmp_path / "german.xlsx").code == 0
    read = [name for name in new if name in seen]
    assert read == [] and any(name.startswith("Roster") for name in new)


def test_with_keeping_off_the_refit_s_sheets_are_parsed(tmp_path: Path, musterroll,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    book = before_the_roster("battlefront", tmp_path / "campaign")
    before = set(Workbook(book).sheet_names)
    own = os.environ[CACHE_SETTING]  # (this test's own folder: tests/conftest.py)
    monkeypatch.setenv(CACHE_SETTING, "off")
    assert musterroll("refit", book).code == 0
    roster = next(n for n in Workbook(book).sheet_names if n not in before and n.startswith("Roster"))
    monkeypatch.setenv(CACHE_SETTING, own)
    seen = calamine_parsed(monkeypatch)
    assert Workbook(book).raw(roster) == from_parser(book, roster)
    assert seen == [roster]


# --------------------------------------------------------------------------- what is kept, what is parsed

AWKWARD = ["", " ", "  padded ", "\t", "x\n", "a\r\nb", "\x01", "\x7f", "é", "😀", "\u2028", "a&b<c>", "=1+1", "'0042",
           "<r>x</r>", "+49", "a\ud800b", "x" * 20_000, "é" * 17_000, 0, 1, -1, 1.5, -0.0, 0.1 + 0.2, 1e20, 1e-300,
           2 ** 53 + 1, 123456789012345678, True, False]  # (a lone surrogate is written, and read, as U+FFFD)


def test_awkward_texts_numbers_and_yes_no_cells_are_kept_as_the_parser_reads_them() -> None:
    rows: list[list[object]] = [["Value", "Note"]] + [[v, None] for v in AWKWARD] + [[None, None], [None, None, ""]]
    kept = cells_of(rows)
    assert kept is not None
    assert typed(kept) == typed(parser_reads(rows))
    assert kept[-1] == ["", "", ""] and len(kept) == len(rows)  # (an empty text is a cell: it widens the sheet)


@pytest.mark.parametrize("value", [dt.date(1943, 7, 5), dt.datetime(1943, 7, 5, 4, 30), "_x0041_", "a_x005f_x0041_b",
                                   "\ufffe", "\uffff", object()], ids=repr)
def test_a_sheet_holding_a_value_whose_reading_back_is_not_certain_is_not_kept(value: object) -> None:
    assert cells_of([["Value"], ["plain"], [value]]) is None


def test_such_a_sheet_appended_is_parsed_by_the_next_read(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    book = copy_sample(tmp_path)
    append_sheets(book, [NewSheet("Dated", [["Day", "Note"], [dt.date(1943, 7, 5), "Kursk"]]),
                         NewSheet("Escaped", [["Text"], ["_x0041_"]]),
                         NewSheet("Plain", [["Text", "Count"], ["Kursk", 3], [None, True]])], "test")
    seen = calamine_parsed(monkeypatch)
    read = Workbook(book)
    assert read.raw("Escaped") == [["Text"], ["_x0041_"]]
    assert read.raw("Plain") == [["Text", "Count"], ["Kursk", 3.0], ["", True]]
    assert read.raw("Dated")[1][1] == "Kursk"
    assert seen == ["Escaped", "Dated"]


def test_rows_with_trailing_blanks_are_cut_to_the_last_cell_as_the_parser_cuts_them() -> None:
    rows: list[list[object]] = [["A", None, None], [None, "b", None, None], [None], [None, None]]
    assert cells_of(rows) == parser_reads(rows) == [["A", ""], ["", "b"]]
    data, _ = render([NewSheet("Sheet", rows)])
    assert '<dimension ref="A1:B2"/>' in zipfile.ZipFile(io.BytesIO(data)).read("xl/worksheets/sheet1.xml").decode()


cell_values = st.one_of(
    st.none(), st.booleans(), st.integers(min_value=-(10 ** 20), max_value=10 ** 20),
    st.floats(allow_nan=False, allow_infinity=False), st.text(max_size=12),
    st.sampled_from(["_x0041_", "_x005F_", "\r", "\x00", " ", ""]),
)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.lists(cell_values, max_size=5), min_size=1, max_size=6))
def test_whatever_is_kept_is_what_the_parser_reads(body: list[list[object]]) -> None:
    rows: list[list[object]] = [["Head"]] + body
    kept = cells_of(rows)
    if kept is not None:
        assert typed(kept) == typed(parser_reads(rows))
    else:
        assert any(isinstance(v, str) and ("_x" in v or "\ufffe" in v or "\uffff" in v) for r in body for v in r)


def test_a_number_is_kept_as_the_sixteen_digits_written() -> None:
    sum_ = 0.1 + 0.2  # 0.30000000000000004: seventeen digits
    kept = cells_of([["n"], [sum_], [2 ** 60]])
    assert kept is not None and kept[1][0] == 0.3 != sum_ and math.isclose(kept[1][0], sum_)
    assert kept == parser_reads([["n"], [sum_], [2 ** 60]])

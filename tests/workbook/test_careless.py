"""Workbooks as a careless umpire makes them: copies of the sample edited in a
spreadsheet. Every mistake is named by Sheet!Cell with what is there and what
would be valid, all of a sheet's mistakes together; `musterroll refit` exits 2
with the message on stderr and leaves the workbook's bytes as they were. Blank
rows, extra columns and dates Excel made of typed text are read as meant."""
from __future__ import annotations

import datetime as dt
import re
import zipfile
from pathlib import Path
from typing import Any

import pytest
from workbook_helpers import Run, copy_sample, edit, sheet_values

from automation.samples_demo import SPEND_DEC23
from automation.workbook import bf_sheets as K
from automation.workbook.forms.enter import enter as append_sheets  # in place of the refit's forms
from automation.workbook.package import NewSheet

REPORT = "Refit Dec 23 1"


def refused(musterroll, book: Path) -> str:
    """Run the refit, check it refused cleanly, and return stderr."""
    before = book.read_bytes()
    run: Run = musterroll("refit", book)
    assert run.code == 2, run.out
    assert run.out == "" and run.err.startswith("musterroll: ") and "Traceback" not in run.err
    assert book.read_bytes() == before, "a refused refit must leave the workbook's bytes untouched"
    return run.err


def rolls(book: Path) -> list[list[Any]]:
    """The refit report's lines, without its tamper evidence (a digest of the
    sheets as stored, which blank rows and extra columns change)."""
    return [r for r in sheet_values(book, REPORT) if r[0] != "Tamper evidence"]


def problems(err: str) -> list[str]:
    """Each problem is on its own line: 'Sheet!Cell: message'."""
    return [line.removeprefix("musterroll: ") for line in err.strip().splitlines()]


@pytest.fixture
def book(tmp_path: Path) -> Path:
    return copy_sample(tmp_path)


@pytest.fixture(scope="module")
def plain_report(tmp_path_factory: pytest.TempPathFactory) -> list[list[Any]]:
    """The first refit's report of the sample, after a round trip through the spreadsheet."""
    book = edit(copy_sample(tmp_path_factory.mktemp("plain")), lambda wb: None)
    from automation.service import refit

    refit(book)
    report = rolls(book)
    assert [r[2] for r in report if r[0] == "CPP replenishment"] == ["German", "Russian"]
    return report


# ------------------------------------------------------------------ missing things

def test_a_missing_sheet_is_named_with_the_header_it_needs(book: Path, musterroll) -> None:
    edit(book, lambda wb: wb.remove(wb["Sides"]))
    assert problems(refused(musterroll, book)) == [
        "Sides!A1: the sheet is missing. Add a sheet named 'Sides'; its first row holds: Side, Nationality, "
        "Starting CPP, Starting FPP, Armor withdrawal, First posture. It holds: The two sides: nationality, "
        "starting CPP and FPP, armor withdrawal, first scenario's posture."]


def test_a_renamed_sheet_is_pointed_out(book: Path, musterroll) -> None:
    def rename(wb: Any) -> None:
        wb["Roster Start"].title = "Roster Strat"

    edit(book, rename)
    err = refused(musterroll, book)
    assert err.startswith("musterroll: Roster Start!A1: the sheet is missing (is 'Roster Strat' meant to be it? "
                          "rename it 'Roster Start'). Add a sheet named 'Roster Start'; its first row holds: Side, ME,")


def test_a_missing_column_is_named_with_the_whole_header(book: Path, musterroll) -> None:
    edit(book, lambda wb: wb["Roster Start"].delete_cols(9))  # I: Kind
    assert problems(refused(musterroll, book)) == [
        "Roster Start!S1: missing column 'Kind'; the header row must hold: Side, ME, ME class, ME type, RG, "
        "Discipline, Stand, Stand type, Kind, Tracks, Status, Situation, Wreck lines, In minefield, Breakpoint base, "
        "Losses today, Full strength, Ammunition, Notes"]


# ------------------------------------------------------------------ wrong values

def test_a_number_where_text_is_expected(book: Path, musterroll) -> None:
    edit(book, lambda wb: wb["Roster Start"].__setitem__("G3", 123))
    assert problems(refused(musterroll, book)) == [
        "Roster Start!G3: Stand: the number 123 where text is expected "
        "(to keep a number as text, type it with an apostrophe first: '123)"]


def test_text_where_a_number_is_expected(book: Path, musterroll) -> None:
    edit(book, lambda wb: wb["Sides"].__setitem__("C2", "ten"))
    assert problems(refused(musterroll, book)) == ["Sides!C2: Starting CPP: text 'ten' where a whole number is expected"]


def test_a_fraction_where_a_whole_number_is_expected(book: Path, musterroll) -> None:
    edit(book, lambda wb: wb["Sides"].__setitem__("D3", 2.5))
    assert problems(refused(musterroll, book)) == ["Sides!D3: Starting FPP: the number 2.5 where a whole number is expected"]


def test_a_side_name_that_cannot_be_part_of_a_sheet_name_is_refused(book: Path, musterroll) -> None:
    edit(book, lambda wb: (wb["Sides"].__setitem__("A2", "US/UK"), wb["Sides"].__setitem__("A3", "Soviet Union")))
    assert problems(refused(musterroll, book)) == [
        "Sides!A2: Side: 'US/UK' holds '/', which a sheet name cannot; use none of [ ] : * ? / \\",
        "Sides!A3: Side: 'Soviet Union' has 12 characters; at most 10, as it is part of sheet names"]


def test_a_value_outside_its_dropdown_names_the_valid_ones(book: Path, musterroll) -> None:
    edit(book, lambda wb: wb["Roster Start"].__setitem__("K4", "Destroyed"))
    assert problems(refused(musterroll, book)) == [
        "Roster Start!K4: Status: text 'Destroyed' is not allowed; valid: Available, Wreck, Abandoned, Used"]


def test_a_value_outside_a_list_of_the_lists_sheet_names_the_lists_values(book: Path, musterroll) -> None:
    edit(book, lambda wb: wb["Roster Start"].__setitem__("F5", "Green"))
    assert problems(refused(musterroll, book)) == [
        "Roster Start!F5: Discipline: text 'Green' is not allowed; valid: Raw, Trained, Experienced, Veteran, Elite"]


def test_a_value_differing_from_its_dropdown_only_in_case_or_spaces_is_accepted(book: Path, musterroll,
                                                                                 plain_report: list[list[Any]]) -> None:
    edit(book, lambda wb: (wb["Roster Start"].__setitem__("K4", "available"),
                           wb["Roster Start"].__setitem__("F5", "  Veteran ")))
    assert musterroll("refit", book).code == 0
    assert rolls(book) == plain_report


def test_a_duplicate_stand_id_names_both_cells(book: Path, musterroll) -> None:
    edit(book, lambda wb: wb["Roster Start"].__setitem__("G5", "G-Pz-3"))
    assert problems(refused(musterroll, book)) == [
        "Roster Start!G5: Stand: 'G-Pz-3' is already used at G4; it must be unique"]


def test_all_mistakes_of_a_sheet_are_reported_together(book: Path, musterroll) -> None:
    def careless(wb: Any) -> None:
        ws = wb["Roster Start"]
        ws["G3"], ws["K4"], ws["G5"], ws["F6"], ws["I7"] = 123, "Destroyed", "G-Pz-3", "Green", "Tank"

    edit(book, careless)
    found = problems(refused(musterroll, book))
    assert [p.split(":")[0] for p in found] == ["Roster Start!G3", "Roster Start!K4", "Roster Start!G5",
                                                "Roster Start!F6", "Roster Start!I7"]
    assert found[4] == ("Roster Start!I7: Kind: text 'Tank' is not allowed; valid: Troops, Engineers, Command, Gun, "
                        "AFV, Soft vehicle, OBA module, Aircraft, Fortification")


def test_a_value_far_beyond_the_table_is_refused_before_it_is_laid_out(book: Path, musterroll) -> None:
    edit(book, lambda wb: wb["Roster Start"].__setitem__("XFD1048576", "note to self"))
    assert problems(refused(musterroll, book)) == [  # row 1048576 is a sheet's last: the column is what is refused
        "Roster Start!XFD1048576: a value in column XFD; at most 500 columns are read: clear the cells right of the table"]


# ------------------------------------------------------------------ references

def _orders_sheet(wb: Any, name: str, rows: list[list[Any]]) -> None:
    if name in wb.sheetnames:  # the form the refit wrote, replaced by a sheet made by hand
        del wb[name]
    ws = wb.create_sheet(name)
    ws.append(K.SPEND.header)
    for r in rows:
        ws.append(r)


def test_a_purchase_of_an_unknown_rg_and_a_repair_of_an_unknown_stand_are_named(book: Path, musterroll) -> None:
    assert musterroll("refit", book).code == 0  # stage 1: the CPP rolls; now waiting for the Spend sheets
    edit(book, lambda wb: (_orders_sheet(wb, "Spend Dec 23 German", [["Purchase", "Z9", 1, None],
                                                                      ["Repair", "G-Nope", 1, None]]),
                           _orders_sheet(wb, "Spend Dec 23 Russian", [])))
    err = "\n".join(problems(refused(musterroll, book)))
    assert re.search(r"^Spend Dec 23 German!B2: .*'Z9'.*valid: I1, A1, E1, O3, F1, P1$", err, re.M), err
    assert re.search(r"^Spend Dec 23 German!B3: .*'G-Nope'", err, re.M), err


@pytest.fixture(scope="module")
def after_dec23(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The sample with Dec 23's refit done (the demo's spending)."""
    from automation.service import refit

    book = copy_sample(tmp_path_factory.mktemp("dec23"))
    refit(book)
    append_sheets(book, [NewSheet(K.SPEND.name_for(date="Dec 23", side=s), [K.SPEND.header] + rows, kind="orders")
                         for s, rows in SPEND_DEC23.items()], batch="Spend Dec 23")
    assert refit(book).waiting is None
    return book


def test_a_result_for_a_stand_not_on_the_roster_is_named(after_dec23: Path, tmp_path: Path, musterroll) -> None:
    book = tmp_path / "campaign.xlsx"
    book.write_bytes(after_dec23.read_bytes())
    book.with_suffix(".key").write_bytes(after_dec23.with_suffix(".key").read_bytes())

    def results(wb: Any) -> None:
        ws = wb.create_sheet("Results Dec 23")
        ws.append(K.RESULTS.header)
        ws.append(["German", "G-Pz-2", "Knocked out", "Direct fire"])
        ws.append(["German", "G-Tiger-1", "Knocked out", "Direct fire"])

    edit(book, results)
    assert problems(refused(musterroll, book)) == ["Results Dec 23!B3: 'G-Tiger-1' is not a stand on the roster"]


# ------------------------------------------------------------------ read as meant

def test_dates_excel_made_of_typed_text_are_read_as_typed(book: Path, musterroll, plain_report: list[list[Any]]) -> None:
    """Typing 'Dec 23' makes a date of this year; typing 1942-12-23 a date of 1942."""
    def typed_in_excel(wb: Any) -> None:
        for row in range(2, 7):
            wb["Dates"].cell(row, 1).value = dt.datetime(2026, 12, 21 + row)
            wb["Dates"].cell(row, 2).value = dt.datetime(1942, 12, 21 + row)
        for row in range(2, 12):
            day = int(wb["Historical DRM"].cell(row, 1).value.split()[1])
            wb["Historical DRM"].cell(row, 1).value = dt.date(2026, 12, day)

    edit(book, typed_in_excel)
    assert musterroll("refit", book).code == 0
    assert rolls(book) == plain_report


def test_a_calendar_date_written_another_way_is_refused(book: Path, musterroll) -> None:
    edit(book, lambda wb: wb["Dates"].__setitem__("B3", "24/12/1942"))
    assert problems(refused(musterroll, book)) == [
        "Dates!B3: Calendar date: text '24/12/1942' where a date (a date cell, or text written YYYY-MM-DD) is expected"]


def test_blank_rows_in_the_middle_are_skipped(book: Path, musterroll, plain_report: list[list[Any]]) -> None:
    edit(book, lambda wb: (wb["Roster Start"].insert_rows(10, 3), wb["Dates"].insert_rows(3),
                           wb["RG Chart"].insert_rows(4, 2), wb["Sides"].insert_rows(3)))
    assert musterroll("refit", book).code == 0
    assert rolls(book) == plain_report


def test_extra_columns_of_the_umpire_are_ignored(book: Path, musterroll, plain_report: list[list[Any]]) -> None:
    def extra(wb: Any) -> None:
        roster = wb["Roster Start"]
        roster.insert_cols(1)
        roster["A1"], roster["A2"], roster["A3"] = "Umpire's mark", "x", 3.5
        roster["Z1"], roster["Z2"], roster["AB7"] = "My notes", "=SUM(1,2)", "a value under no header"
        wb["Sides"]["H1"], wb["Sides"]["H2"] = "Commander", "von Manstein"

    edit(book, extra)
    assert musterroll("refit", book).code == 0
    assert rolls(book) == plain_report


def part_of(parts: dict[str, bytes], sheet: str) -> str:
    """The zip part holding the sheet named ``sheet`` (workbook.xml and its rels)."""
    import re

    rid = re.search(rb'<sheet [^>]*name="' + re.escape(sheet.encode()) + rb'"[^>]*r:id="([^"]+)"',
                    parts["xl/workbook.xml"]).group(1)
    target = re.search(rb'Id="' + re.escape(rid) + rb'"[^>]*Target="([^"]+)"|Target="([^"]+)"[^>]*Id="' + re.escape(rid) + rb'"',
                       parts["xl/_rels/workbook.xml.rels"])
    path = (target.group(1) or target.group(2)).decode().lstrip("/")
    return path if path.startswith("xl/") else f"xl/{path}"


def test_a_sheet_the_refit_does_not_need_is_never_parsed(book: Path, musterroll, plain_report: list[list[Any]]) -> None:
    """A damaged Charts sheet does not stop the refit: only the sheets a step needs are read."""
    with zipfile.ZipFile(book) as z:
        parts = {n: z.read(n) for n in z.namelist()}
    charts = part_of(parts, "Charts")
    assert b"bf.discipline_ladder" in parts[charts] or b"<sheetData" in parts[charts]
    parts[charts] = b"<worksheet><sheetData><row><c>damaged"
    with zipfile.ZipFile(book, "w", zipfile.ZIP_DEFLATED) as z:
        for name, data in parts.items():
            z.writestr(name, data)
    assert musterroll("refit", book).code == 0
    assert rolls(book) == plain_report

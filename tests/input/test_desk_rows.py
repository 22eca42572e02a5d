"""The dice desk and the trackers report every problem of their sheet in one
run, each at its cell, and one bad line does not hold up the others: they are
resolved and logged."""
from __future__ import annotations

from pathlib import Path

import openpyxl

from automation.desk.audit import without_record
from automation.samples import SAMPLE
from automation.workbook.desk_sheets import ROLL_REQUESTS
from automation.workbook.reader import Workbook
from tests.input.conftest import copy_of
from tests.workbook.workbook_helpers import Run

TARGETS = [["Target", h] for h in ("1512", "1211", "0913", "1707", "2005")]


def sheet_rows(path: Path, name: str) -> list[dict]:
    rows = without_record(Workbook(path).raw(name))  # the rolls, not the record of what the run read
    return [dict(zip(rows[0], r)) for r in rows[1:]]


def fill(book: Path, sheet: str, records: list[list]) -> None:
    wb = openpyxl.load_workbook(book)
    ws = wb[sheet]
    ws.delete_rows(2, ws.max_row)
    for record in records:
        ws.append(record)
    wb.save(book)


def test_every_bad_request_is_named_in_one_run_and_the_good_ones_are_rolled(tmp_path: Path, musterroll) -> None:
    book = copy_of(SAMPLE, tmp_path)
    assert musterroll("desk-add", book, "roll-requests").code == 0
    fill(book, ROLL_REQUESTS.title, [
        ["G1", "bfta.greif_clearance", None, None, "clear 1512", "T5", "All"],
        ["B1", "bfta.greif_clearence", None, None, None, "T5", None],  # misspelt table
        ["B2", "house.fire", None, None, None, "T5", "Everyone"],  # nobody of that name
        ["B3", "house.fire", None, "napalm", None, "T5", None],  # no such condition
        ["E1", "BF.ESCAPE ", " infantry", None, "escape of R-1RR-7", "T5", " all"],  # case and spaces
        ["G1", "house.fire", None, None, None, "T5", None],  # the ID is taken
    ])
    run: Run = musterroll("roll-requests", book)
    assert run.code == 0, run.err
    problems = [line.removeprefix("musterroll: ") for line in run.err.splitlines()]
    assert [p.split(":")[0] for p in problems] == ["Roll requests!B3", "Roll requests!G4", "Roll requests!D5",
                                                   "Roll requests!A7"]
    logged = sheet_rows(book, "Desk T5 1")
    assert [r["ID"] for r in logged] == ["G1", "E1"]
    assert logged[1]["Column"] == "Infantry" and logged[1]["Visible to"] == "All"
    assert "4 problem(s): the lines they name were left out" in run.out


def test_a_bad_tracker_line_is_named_and_the_others_are_tracked(tmp_path: Path, musterroll) -> None:
    book = copy_of(SAMPLE, tmp_path)
    assert musterroll("desk-add", book, "greif", "settings").code == 0
    fill(book, "Greif", TARGETS + [["Entered", "1211", None, None, 2],
                                   ["Supply phase", "9999", None, None, 3],  # not a target hex
                                   ["Entered", "0913", None, None, "two"],  # not a turn
                                   ["Supply phase", "1211", None, None, 3]])
    run: Run = musterroll("trackers", book)
    assert run.code == 0, run.err
    problems = [line.removeprefix("musterroll: ") for line in run.err.splitlines()]
    assert [p.split(":")[0] for p in problems] == ["Greif!E9", "Greif!B8"]
    assert "hex 9999 is not on the target list" in problems[1]
    logged = sheet_rows(book, "Greif log 1")
    assert any(r["Label"] == "desk/greif/1211/clear/T3" for r in logged)
    assert not any("0913" == str(r.get("Subject")) and r.get("Turn") == 2 for r in logged)

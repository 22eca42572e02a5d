"""verify replays every dice desk and tracker run from the record of what it
read, through the real command line: each attack below exits 1 naming the cell."""
from __future__ import annotations

import openpyxl
import pytest

from automation.cli import main
from automation.desk.audit import READ_ROW, RECORD_MARKS, Record
from automation.engine.dice import CampaignKey
from automation.workbook.desk_sheets import ROLL_REQUESTS
from automation.workbook.package import NewSheet, append_sheets
from automation.workbook.reader import Workbook
from tests.audit.test_audit_desk import REQUESTS, cell, run, set_cell
from tests.desk.desk_helpers import edit, fill, sample_copy

GREIF = [["Target", h] for h in ("1512", "1211", "0913", "1707", "2005")] + [["Entered", "1211", None, None, 2],
                                                                             ["Supply phase", "1211", None, None, 3]]


@pytest.fixture
def book(tmp_path, capsys):
    path = sample_copy(tmp_path)
    fill(path, ROLL_REQUESTS, REQUESTS)
    assert run(capsys, "roll-requests", path)[0] == 0
    assert run(capsys, "desk-add", path, "greif")[0] == 0
    edit(path, "Greif", GREIF)
    assert run(capsys, "trackers", path)[0] == 0
    return path


def test_every_desk_and_tracker_run_is_run_again_and_matches(book, capsys):
    record = Record.of(Workbook(book).raw("Desk T5 1"))
    assert record is not None and sorted(record.rows["Roll requests"]) == [1, 2, 3, 4]
    assert "Campaign" in record.digests
    code, out, err = run(capsys, "verify", book)
    assert code == 0, err
    assert "2 dice desk and tracker run(s) run again from what they read: all 2 log sheet(s) they wrote" in out


def test_the_record_stays_out_of_a_players_export(book, tmp_path, capsys):
    out_path = tmp_path / "german.xlsx"
    assert run(capsys, "export", book, "--side", "German", "-o", out_path)[0] == 0
    for ws in openpyxl.load_workbook(out_path):
        for row in ws.iter_rows(values_only=True):
            assert not any(v in RECORD_MARKS for v in row), ws.title


def test_a_desk_result_edited_is_named(book, capsys):
    where = set_cell(book, "Desk T5 1", "desk/request/K1", "Result", "Destroyed")
    code, _, err = run(capsys, "verify", book)
    assert code == 1 and where in err


@pytest.mark.parametrize("column, value, letter", [("Modifiers", "engineer_present", "D"),
                                                   ("Table", "house.fire", "B")])
def test_a_request_edited_after_its_roll_is_named(book, capsys, column, value, letter):
    wb = openpyxl.load_workbook(book)
    ws = wb["Roll requests"]
    ws[f"{letter}2"] = value
    wb.save(book)
    code, _, err = run(capsys, "verify", book)
    assert code == 1 and f"Roll requests!{letter}2: request G1 was edited after its roll in Desk T5 1" in err


def test_a_log_edited_consistently_is_caught_by_the_run_again(book, capsys):
    """Modifiers, DRM, Final and Result edited so that each roll still adds up: only the replay sees it."""
    ws, r, _ = cell(book, "Desk T5 1", "desk/request/G1", "Modifiers")
    head = [c.value for c in ws[1]]
    col = {h: head.index(h) + 1 for h in head}
    mods = ws.cell(r, col["Modifiers"]).value
    ws.cell(r, col["Modifiers"]).value = f"{mods}; -1 fog (umpire)"
    ws.cell(r, col["DRM"]).value = int(ws.cell(r, col["DRM"]).value) - 1
    ws.cell(r, col["Final"]).value = int(ws.cell(r, col["Final"]).value) - 1
    ws.parent.save(book)
    from automation.audit.desk import check_desk

    wb = Workbook(book)
    found = [str(p) for p in check_desk(wb, None).problems]
    code, _, err = run(capsys, "verify", book)
    assert code == 1
    letter = openpyxl.utils.get_column_letter(col["Modifiers"])
    assert not found, found  # each roll still adds up: only the run again sees the change
    assert f"Desk T5 1!{letter}{r}: edited value" in err, err


def test_a_tracker_entry_edited_after_its_run_is_named(book, capsys):
    wb = openpyxl.load_workbook(book)
    wb["Greif"]["E8"] = 4  # the Supply phase entry moved to turn 4
    wb.save(book)
    code, _, err = run(capsys, "verify", book)
    assert code == 1 and "Greif!E8: edited after Greif log 1 read it (then '3', now '4')" in err


def test_a_tracker_entry_added_after_its_run_is_fine_until_run(book, capsys):
    edit(book, "Greif", GREIF + [["Supply phase", "1211", None, None, 4]])
    code, _, err = run(capsys, "verify", book)
    assert code == 0, err


def test_the_record_of_a_tracker_run_edited_is_caught_by_the_run_again(book, capsys):
    """The entry and the log's record of it both changed: the tracker run again gives other rolls."""
    wb = openpyxl.load_workbook(book)
    wb["Greif"]["E8"] = 4
    ws = wb["Greif log 1"]
    head = [c.value for c in ws[1]]
    for row in ws.iter_rows(min_row=2):
        if row[head.index("Entry")].value == READ_ROW and row[head.index("Subject")].value == "Greif!8":
            text = row[head.index("Result")].value
            row[head.index("Result")].value = text.replace(",3.0]", ",4]").replace(",3]", ",4]")
    wb.save(book)
    code, _, err = run(capsys, "verify", book)
    assert code == 1 and "Greif log 1!" in err and "the rules give" in err


def test_a_desk_batch_made_with_another_key_is_named(tmp_path, capsys):
    path = sample_copy(tmp_path)
    fill(path, ROLL_REQUESTS, REQUESTS)
    other = sample_copy(tmp_path, "other")
    fill(other, ROLL_REQUESTS, REQUESTS)
    forged = CampaignKey(bytes(range(32)))  # a fixed key of another campaign: its rolls differ from the sample's
    other.with_suffix(".key").write_text(forged.to_hex() + "\n")
    wb = openpyxl.load_workbook(other)
    ws = wb["Campaign"]
    row = next(r for r in range(1, ws.max_row + 1) if ws.cell(r, 1).value == "Key commitment")
    ws.cell(row, 2).value = forged.commitment
    wb.save(other)
    assert run(capsys, "roll-requests", other)[0] == 0
    rows = [list(r) for r in Workbook(other).raw("Desk T5 1")]
    append_sheets(path, [NewSheet("Desk T5 1", rows, kind="log")], batch="Desk Desk T5 1")
    code, _, err = run(capsys, "verify", path)
    assert code == 1 and "Desk T5 1!" in err and "desk/request/" in err


def test_physical_dice_turned_keyed_or_back_are_named(book, capsys):
    wb = openpyxl.load_workbook(book)
    wb["Roll requests"]["H4"] = None  # P1 was rolled at the table
    wb["Roll requests"]["H2"] = 4  # G1 was rolled from the key
    wb.save(book)
    code, _, err = run(capsys, "verify", book)
    assert code == 1
    assert "Roll requests!H2: request G1 was edited after its roll in Desk T5 1 (then '(empty)', now '4')" in err
    assert "Roll requests!H4: request P1 was edited after its roll in Desk T5 1 (then '5', now '(empty)')" in err


def test_a_keyed_roll_passed_off_as_physical_in_log_and_record_is_named(book, capsys):
    """The log says physical and its record says so too: Roll requests still shows the request as keyed."""
    ws, r, _ = cell(book, "Desk T5 1", "desk/request/G1", "Label")
    head = [c.value for c in ws[1]]
    col = {h: head.index(h) + 1 for h in head}
    ws.cell(r, col["Label"]).value = "physical/request/G1"
    ws.cell(r, col["Dice"]).value = f"{ws.cell(r, col['Dice']).value} (physical)"
    for row in ws.iter_rows(min_row=2):
        if row[head.index("ID")].value == READ_ROW and row[head.index("For")].value == "Roll requests!2":
            die = str(ws.cell(r, col["Dice"]).value).split(": ")[1].split(" ")[0]
            row[head.index("Result")].value = row[head.index("Result")].value.rstrip("]") + f',"{die}"]'
    ws.parent.save(book)
    code, _, err = run(capsys, "verify", book)
    assert code == 1 and "Roll requests!H2: request G1 was edited after its roll in Desk T5 1" in err

"""The desk's and the trackers' rolls are checked by verify: derived again from
the key and their labels; physical dice are listed, never taken for keyed ones."""
from __future__ import annotations

import openpyxl
import pytest

from automation.cli import main
from automation.workbook.desk_sheets import ROLL_REQUESTS
from automation.workbook.reader import Workbook
from tests.desk.desk_helpers import edit, fill, sample_copy

REQUESTS = [
    ["G1", "bfta.greif_clearance", None, "engineer_present; combat_unit_present", "clear hex 1512", "T5", "All", None],
    ["K1", "house.ko_vehicle", None, "soft; -1 burning village", "truck 3", "T5", None, None],
    ["P1", "bfta.greif_clearance", None, "engineer_present", "rolled at the table", "T5", "All", "5"],
]


def run(capsys, *argv):
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def book(tmp_path, capsys):
    path = sample_copy(tmp_path)
    fill(path, ROLL_REQUESTS, REQUESTS)
    assert run(capsys, "roll-requests", path)[0] == 0
    return path


def cell(path, sheet, label, column):
    ws = openpyxl.load_workbook(path)[sheet]
    head = [c.value for c in ws[1]]
    r = next(i for i in range(2, ws.max_row + 1) if ws.cell(i, head.index("Label") + 1).value == label)
    return ws, r, head.index(column) + 1


def set_cell(path, sheet, label, column, value):
    ws, r, c = cell(path, sheet, label, column)
    ws.cell(r, c).value = value
    ws.parent.save(path)
    return f"{sheet}!{openpyxl.utils.get_column_letter(c)}{r}"


def test_desk_rolls_verify_and_physical_dice_are_marked_and_listed(book, capsys):
    rows = Workbook(book).raw("Desk T5 1")
    head = rows[0]
    by_id = {r[head.index("ID")]: dict(zip(head, r)) for r in rows[1:]}
    assert by_id["P1"]["Label"] == "physical/request/P1" and by_id["P1"]["Dice"] == "d6: 5 (physical)"
    assert by_id["P1"]["Natural"] == 5 and by_id["G1"]["Label"] == "desk/request/G1"
    code, out, err = run(capsys, "verify", book)
    assert code == 0, err
    assert "2 dice desk and tracker roll(s) re-derived from the key" in out
    assert "1 roll(s) of physical dice entered by hand: not derivable from the key" in out
    assert "physical/request/P1 on bfta.greif_clearance, d6: 5 (physical)" in out


def test_an_edited_desk_roll_is_named(book, capsys):
    ws, r, c = cell(book, "Desk T5 1", "desk/request/G1", "Dice")
    die = int(str(ws.cell(r, c).value).split(": ")[1])
    other = 1 if die != 1 else 2
    where = set_cell(book, "Desk T5 1", "desk/request/G1", "Dice", f"d6: {other}")
    set_cell(book, "Desk T5 1", "desk/request/G1", "Natural", other)
    code, _, err = run(capsys, "verify", book)
    assert code == 1 and f"{where}: shows 'd6: {other}' but the key gives 'd6: {die}' for desk/request/G1" in err


def test_a_relabelled_desk_roll_is_named(book, capsys):
    where = set_cell(book, "Desk T5 1", "desk/request/G1", "Label", "desk/request/G1b")
    code, _, err = run(capsys, "verify", book)
    assert code == 1 and f"{where}: relabelled roll: written 'desk/request/G1b', the request's ID gives" in err


def test_a_keyed_roll_passed_off_as_physical_is_named(book, capsys):
    where = set_cell(book, "Desk T5 1", "desk/request/G1", "Label", "physical/request/G1")
    code, _, err = run(capsys, "verify", book)
    assert code == 1 and where.replace("!", "!") .split("!")[0] in err and "physical dice carry a 'physical/' label" in err


def test_physical_dice_that_are_no_throw_of_the_table_are_refused_at_their_cell(tmp_path, capsys):
    path = sample_copy(tmp_path)
    fill(path, ROLL_REQUESTS, [["P1", "bfta.greif_clearance", None, None, None, "T5", None, "7"]])
    before = path.read_bytes()
    code, _, err = run(capsys, "roll-requests", path)
    assert code == 2 and "Roll requests!H2" in err and "'7' is not a throw of d6" in err
    assert path.read_bytes() == before


def test_a_tracker_roll_edited_is_named(tmp_path, capsys):
    path = sample_copy(tmp_path)
    assert run(capsys, "desk-add", path, "greif")[0] == 0
    edit(path, "Greif", [["Target", h] for h in ("1512", "1211", "0913", "1707", "2005")] + [["Entered", "1211", None, None, 2],
                                                                      ["Supply phase", "1211", None, None, 3]])
    assert run(capsys, "trackers", path)[0] == 0
    code, out, err = run(capsys, "verify", path)
    assert code == 0, err
    ws, r, c = cell(path, "Greif log 1", "desk/greif/1211/clear/T3", "Final")
    where = f"Greif log 1!{openpyxl.utils.get_column_letter(c)}{r}"
    ws.cell(r, c).value = int(ws.cell(r, c).value) + 3
    ws.parent.save(path)
    code, _, err = run(capsys, "verify", path)
    assert code == 1 and where in err


def test_stats_list_physical_dice_apart(book, capsys):
    code, out, _ = run(capsys, "stats", book)
    assert code == 0
    assert "physical dice entered by hand (not derived from the key, not in the counts above): 1" in out
    assert "Desk T5 1!G4: physical/request/P1 on bfta.greif_clearance, d6: 5 (physical)" in out

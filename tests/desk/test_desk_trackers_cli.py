"""Trackers kept up to date in the workbook: `musterroll desk-add` and `musterroll trackers`."""
import json

import pytest

from automation.cli import main
from automation.desk.audit import without_record
from automation.desk import service
from automation.desk.sheets import ADDABLE
from automation.desk.trackers import TRACKERS
from automation.engine.dice import DiceKind, RollLabel
from automation.keys import read_key
from automation.workbook.package import sheet_names
from automation.workbook.reader import Workbook
from desk_helpers import edit, sample_copy

TARGETS = [["Target", h] for h in ("1512", "1211", "0913", "1707", "2005")]


@pytest.fixture
def book(tmp_path):
    path = sample_copy(tmp_path)
    assert main(["desk-add", str(path), "greif", "settings"]) == 0
    return path


def log(path, name):
    rows = without_record(Workbook(path).raw(name))  # the rolls, not the record of what was read
    return [dict(zip(rows[0], r)) for r in rows[1:]]


def test_every_desk_sheet_can_be_added_and_empty_trackers_wait_for_entries(tmp_path, capsys):
    path = sample_copy(tmp_path)
    assert main(["desk-add", str(path), *ADDABLE]) == 0
    names = sheet_names(path)
    assert {"Roll requests", "Desk settings", "Desk tables", "Desk modifiers"} <= set(names)
    assert all(t.kind.title in names for t in TRACKERS.values())
    capsys.readouterr()
    before = path.read_bytes()
    assert main(["trackers", str(path)]) == 0
    assert "Operation Greif: no entries yet in Greif" in capsys.readouterr().out and path.read_bytes() == before


def test_adding_a_sheet_twice_is_refused(book, capsys):
    assert main(["desk-add", str(book), "greif"]) == 2
    assert "already has Greif" in capsys.readouterr().err


def test_a_tracker_log_holds_entries_rolls_and_status_and_is_written_once(book, capsys):
    edit(book, "Greif", TARGETS + [["Entered", "1211", None, None, 2], ["Supply phase", "1211", None, None, 3, "Yes"]])
    assert main(["trackers", str(book), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["written"] == ["Greif log 1"]
    rows = log(book, "Greif log 1")
    entered, clearing = rows[0], rows[1]
    assert (entered["Entry"], entered["Rule"], entered["From"]) == ("Entered", "16.41", "Greif!B7")
    die = read_key(book.with_suffix(".key")).throw(DiceKind.D6, RollLabel.of("desk", "greif", "1211", "clear", "T3"))[0]
    assert clearing["Label"] == "desk/greif/1211/clear/T3" and clearing["Natural"] == die and clearing["DRM"] == 1
    assert clearing["Modifiers"] == "+1 American engineer unit in the hex (16.44)"
    assert [r["Visible to"] for r in rows if r["Entry"] == "Status" and r["Subject"] == "0913"] == ["Umpire"]
    before = book.read_bytes()
    assert main(["trackers", str(book)]) == 0
    assert "Operation Greif: up to date" in capsys.readouterr().out and book.read_bytes() == before


def test_a_new_entry_brings_a_new_log_with_the_same_earlier_dice(book):
    edit(book, "Greif", TARGETS + [["Entered", "1211", None, None, 2], ["Supply phase", "1211", None, None, 3]])
    service.update_trackers(book)
    edit(book, "Greif", TARGETS + [["Entered", "1211", None, None, 2], ["Supply phase", "1211", None, None, 3],
                                   ["Supply phase", "1211", None, None, 4]])
    outcome = service.update_trackers(book)
    assert outcome.written == ["Greif log 2"]
    first, second = log(book, "Greif log 1"), log(book, "Greif log 2")
    assert second[1]["Natural"] == first[1]["Natural"] and second[1]["Label"] == first[1]["Label"]


def test_changing_the_modifiers_of_a_logged_roll_is_refused_and_nothing_is_written(book, capsys):
    edit(book, "Greif", TARGETS + [["Entered", "1211", None, None, 2], ["Supply phase", "1211", None, None, 3]])
    service.update_trackers(book)
    edit(book, "Greif", TARGETS + [["Entered", "1211", None, None, 2], ["Supply phase", "1211", None, None, 3, "Yes"]])
    before = book.read_bytes()
    assert main(["trackers", str(book)]) == 2
    err = capsys.readouterr().err
    assert "Greif!B8: this roll (desk/greif/1211/clear/T3) was made in Greif log 1 row 3 with modifiers 'none'" in err
    assert book.read_bytes() == before


def test_variants_are_switched_on_in_desk_settings(book, capsys):
    secondary = [["Target", h, "Primary"] for h in ("1512", "1211", "0913")] + \
                [["Target", f"30{i:02d}", "Secondary"] for i in range(7)]
    edit(book, "Greif", secondary)
    assert main(["trackers", str(book)]) == 2
    assert "set 'Variant in use: primary and secondary target hexes' to Yes in Desk settings" in capsys.readouterr().err
    import openpyxl

    wb = openpyxl.load_workbook(book)
    ws = wb["Desk settings"]
    for row in ws.iter_rows(min_row=2):
        if row[0].value == "Variant in use: primary and secondary target hexes":
            row[1].value = "Yes"
    wb.save(book)
    assert main(["trackers", str(book)]) == 0


def test_a_bad_setting_value_names_its_cell(book, capsys):
    import openpyxl

    wb = openpyxl.load_workbook(book)
    ws = wb["Desk settings"]
    for r, row in enumerate(ws.iter_rows(min_row=2), start=2):
        if row[0].value == "Variant in use: primary and secondary target hexes":
            row[1].value = "Maybe"
            where = f"B{r}"
    wb.save(book)
    edit(book, "Greif", TARGETS)
    assert main(["trackers", str(book)]) == 2
    assert f"Desk settings!{where}: Variant in use: primary and secondary target hexes: 'Maybe' is not Yes or No" in \
        capsys.readouterr().err


def test_the_ribbon_plans_the_active_trackers_sheet_without_writing(book):
    edit(book, "Greif", TARGETS + [["Entered", "1211", None, None, 2]])
    before = book.read_bytes()
    key = read_key(book.with_suffix(".key"))
    outcome, sheets = service.plan_active_sheet(Workbook(book), "Greif", key=key)
    assert [s.name for s in sheets] == ["Greif log 1"] and book.read_bytes() == before
    with pytest.raises(Exception, match="is not a desk sheet"):
        service.plan_active_sheet(Workbook(book), "Dates", key=key)


def test_only_names_known_trackers(book, capsys):
    assert main(["trackers", str(book), "--only", "nope"]) == 2
    assert "unknown tracker 'nope'; valid: greif, dumps" in capsys.readouterr().err


def test_the_command_lines_list_of_desk_sheets_is_the_desks():
    from automation.desk import cli

    assert cli.ADDABLE == ADDABLE


def test_a_rolled_entry_deleted_later_is_reported_in_the_next_log(book):
    edit(book, "Greif", TARGETS + [["Entered", "1211", None, None, 2], ["Supply phase", "1211", None, None, 3]])
    service.update_trackers(book)
    edit(book, "Greif", TARGETS + [["Entered", "1211", None, None, 2]])
    service.update_trackers(book)
    notes = [r["Result"] for r in log(book, "Greif log 2") if r["Subject"] == "desk/greif/1211/clear/T3"]
    assert len(notes) == 1 and notes[0].startswith("a roll logged in Greif log 1 row 3 (") and \
        notes[0].endswith(") is no longer among the entries")

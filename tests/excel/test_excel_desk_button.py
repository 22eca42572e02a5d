"""The ribbon button on a desk sheet: with Roll requests (or a tracker's sheet)
active in Excel, the click saves the workbook and runs on the file what
``musterroll roll-requests`` (or ``musterroll trackers --only``) runs on a copy
of the same workbook: the same bytes."""
from __future__ import annotations

import datetime as dt
import json
from pathlib import Path

import openpyxl
import pytest

import fake_xlwings as fx
from excel_helpers import click, open_on, twin
from automation.cli import main as cli
from automation.desk.audit import without_record
from automation.desk.service import desk_job
from automation.desk.sheets import ADDABLE
from automation.desk.trackers import TRACKERS
from automation.errors import UsageError
from automation.workbook.package import list_batches
from automation.workbook.reader import Workbook

FORMS_DEC23 = ["Spend Dec 23 German", "Spend Dec 23 Russian"]  # the forms the first refit writes with its report

REQUESTS = [
    ["G1", "bfta.greif_clearance", None, "engineer_present; combat_unit_present", "clear hex 1512", "T5", "All"],
    ["K1", "house.ko_vehicle", None, "soft; -1 burning village", "truck 3", "T5", None],
    # the umpire typed Dec 24 into Date: Excel keeps a date there, the reader names the log after it
    ["D1", "bfta.supply_dump_destruction", "Engineer", "combat_strength=2", "dump 1211", dt.datetime(2026, 12, 24),
     "All"],
]
GREIF = [["Target", h] for h in ("1512", "1211", "0913", "1707", "2005")] + [
    ["Entered", "1211", None, None, 2], ["Supply phase", "1211", None, None, 3, "Yes"]]


def umpire_enters(path: Path, sheet: str, records: list[list[object]]) -> None:
    """The umpire fills in a sheet in a spreadsheet program and saves."""
    wb = openpyxl.load_workbook(path)
    for record in records:
        wb[sheet].append(record)
    wb.save(path)


@pytest.fixture(scope="module")
def desk_book(tmp_path_factory) -> Path:
    """The Rostov sample with the desk's Roll requests and Greif sheets added by
    `musterroll desk-add`, three requests and the Greif entries filled in."""
    path = fx.copy_sample(tmp_path_factory.mktemp("desk") / "campaign")
    assert cli(["desk-add", str(path), "roll-requests", "greif"]) == 0
    umpire_enters(path, "Roll requests", REQUESTS)
    umpire_enters(path, "Greif", GREIF)
    return path


# ----------------------------------------------------------------- Roll requests active

def test_on_roll_requests_the_click_leaves_what_musterroll_roll_requests_writes(excel, desk_book, tmp_path,
                                                                                monkeypatch, capsys):
    in_excel, on_disk = twin(desk_book, tmp_path / "excel"), twin(desk_book, tmp_path / "cli")
    open_on(excel, in_excel, "Roll requests")

    click(excel, monkeypatch)
    capsys.readouterr()
    assert cli(["roll-requests", str(on_disk)]) == 0
    said = capsys.readouterr().out

    assert in_excel.read_bytes() == on_disk.read_bytes()
    assert Workbook(in_excel).sheet_names[-2:] == ["Desk T5 1", "Desk Dec 24 1"]  # no refit sheet
    assert list_batches(in_excel)[-1].name == "Desk Desk T5 1, Desk Dec 24 1"  # undo takes it back
    (prompt, title, mode), = excel.alerts
    rolls = [line.strip() for line in said.splitlines() if line.strip()[:3] in ("G1:", "K1:", "D1:")]
    assert mode == "info" and title == "Musterroll" and len(rolls) == 3
    assert prompt.splitlines() == ["Roll requests in advance_to_rostov.xlsx", "Added: Desk T5 1, Desk Dec 24 1", *rolls]
    assert excel.books.active.sheets.active.name == "Desk T5 1"


def test_requests_typed_in_excel_before_the_click_are_saved_then_rolled(excel, tmp_path, monkeypatch):
    path = fx.copy_sample(tmp_path / "excel")
    assert cli(["desk-add", str(path), "roll-requests"]) == 0
    book = open_on(excel, path, "Roll requests")
    book.sheets["Roll requests"].range((2, 1), (21, 2)).value = [[f"E{n}", "bf.escape"] for n in range(1, 21)]
    book.sheets["Roll requests"].range((2, 6), (21, 6)).value = "T6"

    click(excel, monkeypatch)

    assert [r[0] for r in without_record(Workbook(path).raw("Desk T6 1"))[1:]] == [f"E{n}" for n in range(1, 21)]
    lines = excel.alerts[-1][0].splitlines()
    assert len(lines) == 15 and lines[1] == "Added: Desk T6 1"
    assert [x.split(":")[0] for x in lines[2:14]] == [f"E{n}" for n in range(1, 13)]
    assert lines[14] == "... and 8 more: see the new sheets."


def test_clicking_again_on_the_new_desk_log_rolls_nothing_again_and_says_so(excel, desk_book, tmp_path, monkeypatch):
    path = twin(desk_book, tmp_path / "excel")
    open_on(excel, path, "Roll requests")
    click(excel, monkeypatch)
    after_first = path.read_bytes()
    assert excel.books.active.sheets.active.name == "Desk T5 1"  # the desk log is in front now

    click(excel, monkeypatch)

    assert path.read_bytes() == after_first
    assert excel.alerts[-1] == ("Roll requests in advance_to_rostov.xlsx\nNothing new to write.\n"
                                "3 request(s) already in a Desk log: not rolled again", "Musterroll", "info")


def test_a_bad_request_is_named_at_its_roll_requests_cell_and_the_others_are_rolled(excel, desk_book, tmp_path,
                                                                                     monkeypatch):
    path = twin(desk_book, tmp_path / "excel")
    book = open_on(excel, path, "Roll requests")
    book.sheets["Roll requests"].range((5, 1), (5, 7)).value = [
        ["T9", "bfta.greif_clearnce", None, None, "a typing slip", "T5", None]]

    click(excel, monkeypatch)

    (prompt, _, mode), = excel.alerts
    assert mode == "info" and "Traceback" not in prompt
    lines = prompt.splitlines()
    assert any(line.startswith("Added: ") for line in lines)
    assert any(line.startswith("Left out (fix it and click again): Roll requests!B5: unknown table "
                               "'bfta.greif_clearnce'; did you mean bfta.greif_clearance") for line in lines)
    assert not path.with_name("advance_to_rostov.musterroll.log").exists()


def test_a_sheet_of_bad_requests_only_is_refused_and_nothing_is_added(excel, desk_book, tmp_path, monkeypatch):
    path = twin(desk_book, tmp_path / "excel")
    book = open_on(excel, path, "Roll requests")
    for row in (2, 3, 4):
        book.sheets["Roll requests"].range((row, 2)).value = "bfta.greif_clearnce"
    names = Workbook(path).sheet_names

    click(excel, monkeypatch)

    (prompt, _, mode), = excel.alerts
    assert mode == "critical" and "Traceback" not in prompt
    lines = prompt.splitlines()
    assert lines[0].startswith("Roll requests!B2: unknown table 'bfta.greif_clearnce'; did you mean ")
    assert lines[-1] == "Nothing was written."
    assert Workbook(path).sheet_names == names


# ----------------------------------------------------------------- a tracker's sheet active

def test_on_a_tracker_sheet_the_click_updates_that_tracker_as_musterroll_trackers_does(excel, desk_book, tmp_path,
                                                                                       monkeypatch, capsys):
    in_excel, on_disk = twin(desk_book, tmp_path / "excel"), twin(desk_book, tmp_path / "cli")
    open_on(excel, in_excel, "Greif")

    click(excel, monkeypatch)
    capsys.readouterr()
    assert cli(["trackers", str(on_disk), "--only", "greif", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)

    assert in_excel.read_bytes() == on_disk.read_bytes()
    assert data["written"] == ["Greif log 1"]  # the requests are not rolled from here
    (prompt, _, mode), = excel.alerts
    assert mode == "info" and prompt.splitlines() == [
        "Operation Greif in advance_to_rostov.xlsx", "Added: Greif log 1", *data["notes"]]


def test_an_empty_tracker_sheet_writes_nothing_and_says_it_waits_for_entries(excel, tmp_path, monkeypatch):
    path = fx.copy_sample(tmp_path / "excel")
    assert cli(["desk-add", str(path), "fire"]) == 0
    open_on(excel, path, "Fires")
    before = path.read_bytes()
    click(excel, monkeypatch)
    assert path.read_bytes() == before
    assert excel.alerts == [("Fires in advance_to_rostov.xlsx\nNothing new to write.\nFires: no entries yet in Fires",
                             "Musterroll", "info")]


# ----------------------------------------------------------------- any other sheet: the refit

def test_the_desk_settings_sheet_is_not_a_desk_job_so_the_click_refits(excel, tmp_path, monkeypatch):
    path = fx.copy_sample(tmp_path / "excel")
    assert cli(["desk-add", str(path), "settings"]) == 0
    open_on(excel, path, "Desk settings")
    click(excel, monkeypatch)
    assert Workbook(path).sheet_names[-3:] == ["Refit Dec 23 1", *FORMS_DEC23]  # the refit, with the forms it waits for


# ----------------------------------------------------------------- which sheet means what

@pytest.fixture(scope="module")
def every_desk_sheet(tmp_path_factory) -> Workbook:
    path = fx.copy_sample(tmp_path_factory.mktemp("all-desk-sheets"))
    assert cli(["desk-add", str(path), *ADDABLE]) == 0
    return Workbook(path)


DESK_NAMES = [("Roll requests", "Roll requests"), ("Desk T5 1", "Roll requests"), ("Desk Dec 24 12", "Roll requests"),
              *[(t.kind.title, t.title) for t in TRACKERS.values()],
              *[(f"{t.kind.title} log 3", t.title) for t in TRACKERS.values()]]
OTHER_NAMES = ["Roster Start", "Campaign", "Refit Dec 23 1", "Desk settings", "Desk tables", "Desk modifiers",
               "Greif log", "Desk T5", "roll requests"]


@pytest.mark.parametrize("sheet,job", DESK_NAMES)
def test_a_desk_sheet_sends_the_button_to_the_job_the_desk_service_runs_for_it(every_desk_sheet, sheet, job):
    from automation.desk.service import plan_active_sheet

    assert desk_job(sheet) == job
    outcome, _ = plan_active_sheet(every_desk_sheet, sheet)
    assert outcome.job == ("roll requests" if job == "Roll requests" else "trackers")


@pytest.mark.parametrize("sheet", OTHER_NAMES)
def test_any_other_sheet_sends_the_button_to_the_refit_and_the_desk_service_refuses_it(every_desk_sheet, sheet):
    from automation.desk.service import plan_active_sheet

    assert desk_job(sheet) is None
    with pytest.raises(UsageError, match="is not a desk sheet"):
        plan_active_sheet(every_desk_sheet, sheet)


def test_no_active_sheet_means_the_refit(excel, monkeypatch, tmp_path):
    path = fx.copy_sample(tmp_path / "excel")
    fx.open_workbook(excel, path)

    def chart_sheet(self):
        raise AttributeError("a chart sheet is in front: xlwings gives no worksheet")

    monkeypatch.setattr(fx.Sheets, "active", property(chart_sheet))
    click(excel, monkeypatch)
    assert "Refit Dec 23 1" in Workbook(path).sheet_names

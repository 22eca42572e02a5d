"""The ribbon button on a desk sheet: with Roll requests (or a tracker's sheet)
active in Excel, musterroll_addin.main resolves the new requests (or updates
that tracker) instead of refitting, and writes what ``musterroll roll-requests``
(or ``musterroll trackers --only``) writes into a copy of the same workbook."""
from __future__ import annotations

import datetime as dt
import json
import shutil
from pathlib import Path

import openpyxl
import pytest
import xlwings

import fake_xlwings as fx
import musterroll_addin
from automation.cli import main as cli
from automation.desk.sheets import ADDABLE
from automation.desk.trackers import TRACKERS
from automation.engine.dice import DiceKind, RollLabel
from automation.errors import UsageError
from automation.desk.service import desk_job
from automation.keys import read_key
from automation.workbook.package import list_batches
from automation.workbook.reader import Workbook

BOOK = "advance_to_rostov.xlsx"
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


def twin(book: Path, folder: Path) -> Path:
    """A copy of ``book`` with its key, in ``folder``."""
    folder.mkdir(parents=True)
    shutil.copyfile(book, folder / book.name)
    shutil.copyfile(book.with_suffix(".key"), folder / book.with_suffix(".key").name)
    return folder / book.name


@pytest.fixture
def excel(monkeypatch, tmp_path):
    """An Excel with the add-in loaded; xw.Book.caller() gives the add-in, as it does for an add-in's macro."""
    app = fx.App()
    addin = fx.add_in(app, tmp_path / "XLSTART")
    monkeypatch.setattr(xlwings.Book, "caller", classmethod(lambda cls: addin))
    return app


def open_on(app: fx.App, path: Path, sheet: str) -> fx.Book:
    book = fx.open_workbook(app, path)
    book.sheets[sheet].activate()
    return book


def added(book: fx.Book, before: list[str]) -> list[str]:
    return [s.name for s in book.sheets if s.name not in before]


# ----------------------------------------------------------------- Roll requests active

def test_on_roll_requests_the_button_writes_the_desk_logs_musterroll_roll_requests_writes(excel, desk_book, tmp_path,
                                                                                          capsys):
    in_excel, on_disk = twin(desk_book, tmp_path / "excel"), twin(desk_book, tmp_path / "cli")
    book = open_on(excel, in_excel, "Roll requests")
    before = book.snapshot()

    musterroll_addin.main()
    capsys.readouterr()
    assert cli(["roll-requests", str(on_disk)]) == 0
    said = capsys.readouterr().out

    file_book = Workbook(on_disk)
    new = added(book, list(before))
    assert new == file_book.sheet_names[len(before):] == ["Desk T5 1", "Desk Dec 24 1"]  # no refit sheet
    for name in new:
        assert book.sheets[name].values() == file_book.raw(name), name
    assert {n: v for n, v in book.snapshot().items() if n in before} == before
    g1 = dict(zip(*book.sheets["Desk T5 1"].values()[:2]))
    die = read_key(desk_book.with_suffix(".key")).throw(DiceKind.D6, RollLabel.of("desk", "request", "G1"))[0]
    assert (g1["Label"], g1["Natural"], g1["DRM"], g1["Final"]) == ("desk/request/G1", die, 3, die + 3)
    (prompt, title, mode), = excel.alerts
    rolls = [line.strip() for line in said.splitlines() if line.strip()[:3] in ("G1:", "K1:", "D1:")]
    assert mode == "info" and title == "Musterroll" and len(rolls) == 3
    assert prompt.splitlines() == ["Roll requests in advance_to_rostov.xlsx", "Added: Desk T5 1, Desk Dec 24 1",
                                   "Save the workbook to keep the new sheets.", *rolls]
    assert book.active_sheet is book.sheets["Desk T5 1"]


def test_the_desk_batch_is_recorded_as_the_command_line_records_it_so_undo_takes_it_back(excel, desk_book, tmp_path):
    in_excel, on_disk = twin(desk_book, tmp_path / "excel"), twin(desk_book, tmp_path / "cli")
    book = open_on(excel, in_excel, "Roll requests")
    names_before = [n.name for n in book.names.items]
    musterroll_addin.main()
    assert cli(["roll-requests", str(on_disk)]) == 0

    record, = [n for n in book.names.items if n.name not in names_before]
    batches = list_batches(on_disk)
    assert batches[-1].name == "Desk Desk T5 1, Desk Dec 24 1"
    assert record.name == f"_mr_batch_{len(batches):04d}"
    assert record.refers_to == "={" + ",".join(f'"{t}"' for t in (batches[-1].name, *batches[-1].sheets)) + "}"
    assert record.api.Visible is False


def test_clicking_again_on_the_new_desk_log_rolls_nothing_again_and_says_so(excel, desk_book, tmp_path):
    book = open_on(excel, twin(desk_book, tmp_path / "excel"), "Roll requests")
    musterroll_addin.main()
    after_first = book.snapshot()
    assert book.sheets.active.name == "Desk T5 1"  # the desk log is in front now

    musterroll_addin.main()

    assert book.snapshot() == after_first
    assert excel.alerts[-1] == ("Roll requests in advance_to_rostov.xlsx\nNothing new to write.\n"
                                "3 request(s) already in a Desk log: not rolled again", "Musterroll", "info")


def test_progress_of_the_desk_shows_in_the_status_bar(excel, desk_book, tmp_path):
    open_on(excel, twin(desk_book, tmp_path / "excel"), "Roll requests")
    musterroll_addin.main()
    shown = [s for s in excel.status_history if s]
    assert shown[:2] == ["Musterroll: reading advance_to_rostov.xlsx...",
                         "Musterroll: Roll requests in advance_to_rostov.xlsx..."]
    assert "Musterroll: writing Desk Dec 24 1 (2 of 2)" in shown
    assert shown[-1] == "Musterroll: Roll requests in advance_to_rostov.xlsx"
    assert excel.status_history[-1] is False and excel.screen_updating is True


def test_a_long_list_of_rolls_is_cut_in_the_alert_and_the_log_sheet_holds_them_all(excel, tmp_path):
    path = fx.copy_sample(tmp_path / "excel")
    assert cli(["desk-add", str(path), "roll-requests"]) == 0
    book = open_on(excel, path, "Roll requests")
    book.sheets["Roll requests"].range((2, 1), (21, 2)).value = [[f"E{n}", "bf.escape"] for n in range(1, 21)]
    book.sheets["Roll requests"].range((2, 6), (21, 6)).value = [["T6"]] * 20

    musterroll_addin.main()

    assert [r[0] for r in book.sheets["Desk T6 1"].values()[1:]] == [f"E{n}" for n in range(1, 21)]
    lines = excel.alerts[-1][0].splitlines()
    assert len(lines) == 15 and lines[1] == "Added: Desk T6 1"
    assert [x.split(":")[0] for x in lines[3:14]] == [f"E{n}" for n in range(1, 12)]
    assert lines[14] == "... and 9 more: see the new sheets."


def test_a_bad_request_is_named_at_its_roll_requests_cell_and_nothing_is_written(excel, desk_book, tmp_path):
    path = twin(desk_book, tmp_path / "excel")
    book = open_on(excel, path, "Roll requests")
    sheet = book.sheets["Roll requests"]
    sheet.range((5, 1), (5, 7)).value = [["T9", "bfta.greif_clearnce", None, None, "a typing slip", "T5", None]]
    before, names = book.snapshot(), len(book.names)

    musterroll_addin.main()

    (prompt, _, mode), = excel.alerts
    assert mode == "critical" and "Traceback" not in prompt
    problem, blank, last = prompt.splitlines()
    assert problem.startswith("Roll requests!B5: unknown table 'bfta.greif_clearnce'; did you mean "
                              "bfta.greif_clearance")
    assert (blank, last) == ("", "Nothing was written.")
    assert book.snapshot() == before and len(book.names) == names
    assert not path.with_name("advance_to_rostov.musterroll.log").exists()


def test_an_unexpected_error_of_the_desk_gives_a_short_alert_and_the_details_in_the_log(excel, desk_book, tmp_path,
                                                                                       monkeypatch):
    import automation.desk.service

    def broken(*args, **kwargs):
        raise RuntimeError("the dice cup cracked")

    monkeypatch.setattr(automation.desk.service, "plan_roll_requests", broken)
    path = twin(desk_book, tmp_path / "excel")
    book = open_on(excel, path, "Roll requests")
    before = book.snapshot()
    musterroll_addin.main()

    log = path.with_name("advance_to_rostov.musterroll.log")
    (prompt, _, mode), = excel.alerts
    assert mode == "critical" and prompt.startswith("The desk (Roll requests) stopped on an unexpected error; "
                                                    "nothing was written to the workbook.")
    assert str(log) in prompt and "dice cup" not in prompt
    assert "RuntimeError: the dice cup cracked" in log.read_text() and book.snapshot() == before


# ----------------------------------------------------------------- a tracker's sheet active

def test_on_a_tracker_sheet_the_button_updates_that_tracker_as_musterroll_trackers_does(excel, desk_book, tmp_path,
                                                                                       capsys):
    in_excel, on_disk = twin(desk_book, tmp_path / "excel"), twin(desk_book, tmp_path / "cli")
    book = open_on(excel, in_excel, "Greif")
    before = [s.name for s in book.sheets]

    musterroll_addin.main()
    capsys.readouterr()
    assert cli(["trackers", str(on_disk), "--only", "greif", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)

    file_book = Workbook(on_disk)
    assert added(book, before) == data["written"] == ["Greif log 1"]  # the requests are not rolled from here
    assert book.sheets["Greif log 1"].values() == file_book.raw("Greif log 1")
    assert list_batches(on_disk)[-1].name == "Trackers Greif log 1"
    assert book.names.items[-1].refers_to == '={"Trackers Greif log 1","Greif log 1"}'
    (prompt, _, mode), = excel.alerts
    assert mode == "info" and prompt.splitlines() == [
        "Operation Greif in advance_to_rostov.xlsx", "Added: Greif log 1", "Save the workbook to keep the new sheets.",
        *data["notes"]]


def test_clicking_again_on_the_tracker_log_finds_the_tracker_up_to_date(excel, desk_book, tmp_path):
    book = open_on(excel, twin(desk_book, tmp_path / "excel"), "Greif")
    musterroll_addin.main()
    after_first = book.snapshot()
    musterroll_addin.main()  # Greif log 1 is the active sheet now
    assert book.snapshot() == after_first
    assert excel.alerts[-1][0] == ("Operation Greif in advance_to_rostov.xlsx\nNothing new to write.\n"
                                   "Operation Greif: up to date")


def test_an_empty_tracker_sheet_writes_nothing_and_says_it_waits_for_entries(excel, tmp_path):
    path = fx.copy_sample(tmp_path / "excel")
    assert cli(["desk-add", str(path), "fire"]) == 0
    book = open_on(excel, path, "Fires")
    before = book.snapshot()
    musterroll_addin.main()
    assert book.snapshot() == before
    assert excel.alerts == [("Fires in advance_to_rostov.xlsx\nNothing new to write.\nFires: no entries yet in Fires",
                             "Musterroll", "info")]


# ----------------------------------------------------------------- any other sheet: the refit

def test_with_the_roster_sheet_active_the_button_refits_as_before(excel, desk_book, tmp_path):
    in_excel, on_disk = twin(desk_book, tmp_path / "excel"), twin(desk_book, tmp_path / "cli")
    book = open_on(excel, in_excel, "Roster Start")
    before = [s.name for s in book.sheets]

    musterroll_addin.main()
    assert cli(["refit", str(on_disk)]) == 0

    file_book = Workbook(on_disk)
    assert added(book, before) == file_book.sheet_names[len(before):] == ["Refit Dec 23 1"]
    assert book.sheets["Refit Dec 23 1"].values() == file_book.raw("Refit Dec 23 1")
    (prompt, _, mode), = excel.alerts
    assert mode == "info" and prompt.startswith("Refit of Dec 23 in advance_to_rostov.xlsx\nAdded: Refit Dec 23 1\n")


def test_the_desk_settings_sheet_is_not_a_desk_job_so_the_button_refits(excel, tmp_path):
    path = fx.copy_sample(tmp_path / "excel")
    assert cli(["desk-add", str(path), "settings"]) == 0
    book = open_on(excel, path, "Desk settings")
    before = [s.name for s in book.sheets]
    musterroll_addin.main()
    assert added(book, before) == ["Refit Dec 23 1"]


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


def test_no_active_sheet_means_the_refit(excel, tmp_path):
    book = fx.open_workbook(excel, fx.copy_sample(tmp_path / "excel"))
    book.active_sheet = None  # a chart sheet in front: xlwings gives no worksheet
    musterroll_addin.main()
    assert "Refit Dec 23 1" in [s.name for s in book.sheets]

"""The dice desk: roll requests resolved into dated Desk log sheets."""
import datetime as dt

import pytest

from automation.cli import main
from automation.desk.audit import without_record
from automation.desk import service
from automation.engine.dice import CampaignKey, DiceKind, RollLabel
from automation.keys import read_key
from automation.workbook.desk_sheets import DESK_LOG, DESK_TABLES, ROLL_REQUESTS
from automation.workbook.package import sheet_names
from automation.workbook.reader import Workbook
from desk_helpers import edit, fill, sample_copy

TODAY = dt.date(2026, 3, 14)
REQUESTS = [
    ["G1", "bfta.greif_clearance", None, "engineer_present; combat_unit_present", "clear hex 1512", "T5", "All"],
    ["K1", "house.ko_vehicle", None, "soft; -1 burning village", "truck 3", "T5", None],
    ["D1", "bfta.supply_dump_destruction", "Engineer", "combat_strength=2", "dump 1211", None, "All"],
]


@pytest.fixture
def book(tmp_path):
    path = sample_copy(tmp_path)
    fill(path, ROLL_REQUESTS, REQUESTS)
    return path


def log(path, name):
    rows = without_record(Workbook(path).raw(name))  # the rolls, not the record of what was read
    header = rows[0]
    return [dict(zip(header, r)) for r in rows[1:]]


def key_of(path):
    return read_key(path.with_suffix(".key"))


def test_new_requests_go_to_one_log_sheet_per_date_with_the_whole_audit_trail(book):
    outcome = service.roll_requests(book, today=TODAY)
    assert outcome.written == ["Desk T5 1", f"Desk {TODAY.isoformat()} 1"]
    g1, k1 = log(book, "Desk T5 1")
    assert list(g1) == DESK_LOG.header
    die = key_of(book).throw(DiceKind.D6, RollLabel.of("desk", "request", "G1"))[0]
    assert g1["Natural"] == die and g1["DRM"] == 3 and g1["Final"] == die + 3
    assert g1["Result"] == ("Cleared" if die >= 3 else "Not cleared")
    assert g1["Modifiers"] == ("+1 American engineer unit in the hex (16.44); +2 Non-artillery, non-engineer unit in "
                               "the hex (not one stopped there on the turn the hex was first encountered) (16.44)")
    assert g1["Label"] == "desk/request/G1" and g1["Visible to"] == "All" and g1["For"] == "clear hex 1512"
    assert g1["Rule"] == "16.43" and g1["Dice"] == f"d6: {die}" and g1["Odds"].endswith("%")
    assert k1["Modifiers"] == "-1 Soft vehicle (8. Knocked Out Vehicle Table); -1 burning village (umpire)"
    assert k1["Visible to"] == "Umpire"  # the default keeps a roll secret
    (d1,) = log(book, f"Desk {TODAY.isoformat()} 1")
    assert d1["Column"] == "Engineer" and d1["DRM"] == -3


def test_running_again_never_rerolls_and_leaves_the_workbook_untouched(book):
    service.roll_requests(book, today=TODAY)
    before = book.read_bytes()
    outcome = service.roll_requests(book, today=TODAY)
    assert outcome.written == [] and book.read_bytes() == before
    assert "3 request(s) already in a Desk log: not rolled again" in outcome.notes


def test_a_later_request_gets_the_next_log_of_its_date(book):
    service.roll_requests(book, today=TODAY)
    first = log(book, "Desk T5 1")
    edit(book, "Roll requests", REQUESTS + [["G2", "bfta.greif_clearance", None, None, "clear 1211", "T5", "All"]])
    outcome = service.roll_requests(book, today=TODAY)
    assert outcome.written == ["Desk T5 2"] and [r["ID"] for r in log(book, "Desk T5 2")] == ["G2"]
    assert log(book, "Desk T5 1") == first


def test_changing_a_logged_requests_modifiers_is_refused_at_its_cell(book, capsys):
    service.roll_requests(book, today=TODAY)
    edit(book, "Roll requests", [["G1", "bfta.greif_clearance", None, "engineer_present", "clear hex 1512", "T5", "All"]]
         + REQUESTS[1:])
    before = book.read_bytes()
    assert main(["roll-requests", str(book)]) == 2
    err = capsys.readouterr().err
    assert "Roll requests!A2: request G1: this roll (desk/request/G1) was made in Desk T5 1 row 2 with modifiers" in err
    assert book.read_bytes() == before


@pytest.mark.parametrize("row, message", [
    (["B1", "bfta.greif_clearence", None, None, None, None, None],
     "Roll requests!B2: unknown table 'bfta.greif_clearence'; did you mean bfta.greif_clearance, "),
    (["B1", "house.fire", "Spread", None, None, None, None],
     "Roll requests!C2: 'Spread' is not a column of house.fire; valid: Result"),
    (["B1", "house.fire", None, "napalm", None, None, None],
     "Roll requests!D2: 'napalm' is not a condition of table house.fire"),
    (["B1", "house.fire", None, "open_ground; water_feature", None, None, None],
     "Roll requests!D2: table house.fire: modifiers 'water' and 'open_ground' exclude each other"),
    (["B1", "bfta.supply_dump_destruction", "Plain", "engineer", None, None, None],
     "Roll requests!D2: 'engineer' is not a condition: table bfta.supply_dump_destruction applies it by itself on "
     "Engineer, Both; choose the column instead"),
    (["B1", "house.minefield_passage", None, "scattered; combat_engineer", None, None, None],
     "Roll requests!B2: house.minefield_passage (Minefield Passage table, 15. Minefield Rules) is not printed"),
    (["B1", "bfta.saturation_fire", "Normal", None, None, None, None],
     "Roll requests!B2: bfta.saturation_fire (Artillery Saturation Fire Table, 16.79) is not printed by the rules"),
    (["B1", "house.fire", None, None, None, None, "Everyone"],
     "Roll requests!G2: 'Everyone' is not one of All, Umpire, German, Russian"),
])
def test_a_bad_request_names_its_cell_and_the_others_are_resolved(tmp_path, capsys, row, message):
    path = sample_copy(tmp_path)
    fill(path, ROLL_REQUESTS, [REQUESTS[0], row])
    code = main(["roll-requests", str(path)])
    out, err = capsys.readouterr()
    assert code == 0 and message.replace("!B2", "!B3").replace("!C2", "!C3").replace("!D2", "!D3").replace(
        "!G2", "!G3") in err
    assert "1 problem(s): the lines they name were left out" in out
    assert [r["ID"] for r in log(path, "Desk T5 1")] == [REQUESTS[0][0]]
    # alone, the bad request is refused and nothing is written
    (tmp_path / "alone").mkdir()
    alone = sample_copy(tmp_path / "alone")
    fill(alone, ROLL_REQUESTS, [row])
    before = alone.read_bytes()
    assert main(["roll-requests", str(alone)]) == 2
    assert message in capsys.readouterr().err and alone.read_bytes() == before


def test_a_missing_sheet_tells_the_umpire_how_to_add_it(tmp_path, capsys):
    path = sample_copy(tmp_path)
    assert main(["roll-requests", str(path)]) == 2
    assert "Roll requests!A1: the sheet is missing; add it with `musterroll desk-add BOOK.xlsx roll-requests`" in \
        capsys.readouterr().err
    assert main(["desk-add", str(path), "roll-requests"]) == 0
    assert sheet_names(path)[-1] == "Roll requests"


def test_a_table_entered_in_desk_tables_can_be_rolled(tmp_path):
    path = sample_copy(tmp_path)
    rows = [["bfta.saturation_fire", "Artillery Saturation Fire Table", "16.79", "d6", d, d, c, None,
             f"{d}/2/1, {d + 1}", None] for d in range(1, 7) for c in ("Normal", "Withering")]
    fill(path, DESK_TABLES, rows)
    fill(path, ROLL_REQUESTS, [["S1", "bfta.saturation_fire", "Withering", None, "174 FA", "T3", "All"]])
    service.roll_requests(path, today=TODAY)
    (s1,) = log(path, "Desk T3 1")
    die = int(s1["Natural"])
    assert s1["Result"] == f"{die}/2/1, {die + 1}" and s1["Column"] == "Withering"


def test_the_ribbon_plans_for_the_active_sheet_without_writing(book):
    before = book.read_bytes()
    key = key_of(book)
    outcome, sheets = service.plan_active_sheet(Workbook(book), "Roll requests", key=key, today=TODAY)
    assert [s.name for s in sheets] == ["Desk T5 1", f"Desk {TODAY.isoformat()} 1"] and book.read_bytes() == before
    with pytest.raises(Exception, match="the key given does not match"):
        service.plan_roll_requests(Workbook(book), key=CampaignKey.from_text("other"))


def test_undo_takes_back_a_desk_log(book):
    service.roll_requests(book, today=TODAY)
    assert main(["undo", str(book)]) == 0
    assert not any(n.startswith("Desk ") for n in sheet_names(book))

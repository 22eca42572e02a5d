"""The ABtF campaign workbook end to end: a new campaign from the template, the
sample refitted through automation.service.refit, every roll re-derived from
the sample's public key, and bad input refused with Sheet!Cell and the
workbook's bytes untouched."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from automation.engine.dice import DiceKind, RollLabel
from automation.errors import WorkbookError
from automation.samples import whole_sheet as _sheet
from automation.samples_abtf import (
    END_17N, ORDERS_18AM, PURCHASES_17N, SAMPLE, SAMPLE_KEY, UMPIRE_18AM, build_sample, end_17n,
    enter_first_scenario, enter_purchases, play,
)
from automation.service import new_campaign, refit, undo
from automation.workbook import abtf_sheets as K
from automation.workbook.forms.enter import enter as append_sheets  # in place of the refit's forms
from automation.workbook.reader import Workbook


@pytest.fixture
def book(tmp_path: Path) -> Path:
    out = tmp_path / SAMPLE.name
    shutil.copyfile(SAMPLE, out)
    shutil.copyfile(SAMPLE.with_suffix(".key"), out.with_suffix(".key"))
    return out


def rows(book: Path, sheet: str, kind) -> list:
    return Workbook(book).read(kind, sheet, {"quality": list(K.QUALITY_LADDER)})


def test_the_committed_sample_is_what_the_sample_module_builds(tmp_path):
    assert build_sample(tmp_path / "a.xlsx").read_bytes() == SAMPLE.read_bytes()
    assert (tmp_path / "a.key").read_text() == SAMPLE.with_suffix(".key").read_text()


def test_the_committed_template_is_what_the_template_module_builds(tmp_path):
    from automation.rulebook import load_rulebook
    from automation.workbook.template import build_template, template_path

    build_template(load_rulebook().system("asl-abtf"), tmp_path / "t.xlsx")
    assert (tmp_path / "t.xlsx").read_bytes() == template_path("asl-abtf").read_bytes()


def test_the_sample_holds_the_seeds_cpp_chart_exhaustion_drms_and_reinforcement_schedule():
    dates = {r["CG Date"]: r for r in Workbook(SAMPLE).read(K.CG_DATES)}
    assert list(dates)[:5] == ["17N", "18AM", "18PM", "18EVE", "18N"] and len(dates) == 16
    assert (dates["19EVE"]["British CPP"], dates["19EVE"]["German CPP"], dates["19EVE"]["Campaign Exhaustion"]) == (0, 30, 2)
    assert dates["21EVE"]["Campaign Exhaustion"] == 4 and dates["18N"]["Night"] == "Yes"
    schedule = [(r["CG Date"], r["Side"], r["Item"]) for r in Workbook(SAMPLE).read(K.REINFORCEMENTS)]
    assert ("18PM", "British", "G1") in schedule and ("20AM", "German", "SAN +1") in schedule and len(schedule) == 12
    roster = Workbook(SAMPLE).read(K.UNITS, "Units Start", {"quality": list(K.QUALITY_LADDER)})
    assert roster and all(r["Notes"].startswith("ILLUSTRATIVE") for r in roster)


def test_a_new_abtf_campaign_starts_from_the_template_and_asks_for_its_starting_values(tmp_path):
    out = new_campaign("asl-abtf", tmp_path / "cg.xlsx", "Arnhem")
    names = Workbook(out).sheet_names
    assert {"CG Dates", "Reinforcements", "RG Chart British", "RG Chart German", "Unit Classes", "Units Start",
            "Blocks Start", "CG Roster Start"} <= set(names)
    before = out.read_bytes()
    with pytest.raises(WorkbookError, match=r"CG Roster Start!K2: SAN: is empty"):
        refit(out)
    assert out.read_bytes() == before


def test_the_sample_refits_end_to_end_and_every_roll_comes_from_its_public_key(book):
    asked, initial, part_1, second = play(book)
    assert asked.date == "17N" and asked.written == ["RePh 17N 1"] and asked.waiting.sheet == "Purchases 17N British"
    assert initial.written == ["RePh 17N 2", "Units 17N", "Blocks 17N", "CG Roster 17N", "RG Record 17N"]
    assert part_1.date == "18AM" and part_1.written == ["RePh 18AM 1"] and part_1.waiting.who == "British"
    assert second.date == "18AM" and second.waiting is None
    assert second.written == ["RePh 18AM 2", "Units 18AM", "Blocks 18AM", "CG Roster 18AM", "RG Record 18AM"]
    for e in second.entries:
        if e.roll is not None:
            assert SAMPLE_KEY.throw(e.roll.dice_kind, RollLabel.parse(e.roll.label)) == e.roll.dice
    itc = next(e for e in second.entries if e.rule == "9.6041" and e.roll)
    assert SAMPLE_KEY.throw(DiceKind.TWO_D6, RollLabel.parse(itc.roll.label)) == itc.roll.dice == (1, 4)
    blocks = {r["Area"]: r["Controlled by"] for r in rows(book, "Blocks 18AM", K.BLOCKS)}
    assert blocks["C"] == "British" and blocks["R"] is None
    units = {r["Unit"]: r for r in rows(book, "Units 18AM", K.UNITS)}
    assert units["G-1"]["Area"] == "F" and units["G-L1"]["Area"] == "F" and units["G-V1 crew"]["Area"] == "F"
    assert (units["G-V1"]["Side"], units["G-V1"]["Status"]) == ("British", "Immobile, Abandoned, Captured")
    assert units["B-4"]["Class"] == "Squad" and "B-5" not in units and "B-Hero" not in units
    assert units["B-2"]["Status"] == "Fanatic"
    cpp = {e.side: e.roll for e in second.entries if e.rule == "9.6162"}
    roster = {(r["CG Date"], r["Side"]): r for r in rows(book, "CG Roster 18AM", K.CG_ROSTER)}
    british, german = roster[("18AM", "British")], roster[("18AM", "German")]
    assert british["CPP replenished"] == 20 + cpp["British"].final and british["CPP spent"] == 12
    assert british["CPP left"] == -(-(12 + 20 + cpp["British"].final - 12) // 2)
    assert german["CPP left"] == -(-(7 + 15 + cpp["German"].final - 8) // 2)
    assert (british["Final CVP"], german["Final CVP"]) == (0, 2) and german["FPP"] == 0 and british["SAN"] == 5
    assert (british["Scenario"], british["Chit"], german["Chit"], british["Idle chits"], german["Attack chits"]) == (
        "German Assault", "Idle", "Attack", 1, 1)
    assert roster[("17N", "German")]["Scenario"] == "Initial" and british["Weather"] == "Clear"
    assert (british["RG purchased"], german["RG purchased"], roster[("17N", "German")]["RG purchased"]) == (
        "I3 12", "I1(K) 8", "I3(S) 6")
    record = [(r["Side"], r["CG Date"], r["RG ID"], r["#P"], r["#R"], r["Counts"]) for r in rows(book, "RG Record 18AM", K.RG_RECORD)]
    assert record == [("British", "17N", "I1", None, None, "No"), ("German", "17N", "I1(K)", None, None, "No"),
                      ("German", "17N", "I3(S)", 1, 4, "Yes"), ("British", "18AM", "I3", 1, 1, "Yes"),
                      ("German", "18AM", "I1(K)", 1, 5, "Yes"), ("British", "18AM", "I1", None, None, "No"),
                      ("British", "18AM", "I2", None, None, "No")]
    report = Workbook(book).raw("RePh 18AM 2")
    visible = {r[12] for r in report[1:] if r[1] in ("9.617", "9.6181", "9.6178")}
    assert visible <= {"British", "German"} and any(r[1] == "9.621" and "German Assault" in r[10] for r in report)


def test_the_next_refit_waits_for_the_end_of_the_18am_scenario_and_undo_takes_the_refit_back(book):
    play(book)
    outcome = refit(book)
    assert outcome.date == "18PM" and outcome.waiting is not None and outcome.waiting.sheet == "End 18AM"
    assert outcome.written == [] and outcome.forms[0] == "End 18AM"  # only the forms it waits for
    assert undo(book) == outcome.forms
    assert undo(book) == ["RePh 18AM 2", "Units 18AM", "Blocks 18AM", "CG Roster 18AM", "RG Record 18AM"]


def _enter(book: Path, end=None, umpire=UMPIRE_18AM, orders=ORDERS_18AM) -> bytes:
    """The sample up to 18AM's RePh; ``end`` edits the End 17N rows the sample makes."""
    refit(book)
    enter_purchases(book, "17N", PURCHASES_17N)
    refit(book)
    full = end_17n(book)
    enter_first_scenario(book, end(full) if end else full, umpire, orders)
    return book.read_bytes()


def _edit(rows, unit: str, column: str, value) -> list:
    i = [c.name for c in K.UNITS.columns].index(column)
    return [r[:i] + [value] + r[i + 1:] if r[1] == unit else r for r in rows]


def _b8(rows) -> list:
    b7 = next(r for r in rows if r[1] == "B-7")
    return rows + _edit(_edit([b7], "B-7", "Unit", "B-8"), "B-8", "Location", "E5")


@pytest.mark.parametrize("change, message", [
    (dict(end=lambda rows: _edit(rows, "G-3", "Area", "Q")), r"End 17N!H17: unknown Setup Area 'Q'; valid: A, B, C"),
    (dict(end=lambda rows: _edit(rows, "G-L2", "Strength", "9-3")),
     r"End 17N!E20: '9-3' is not a possible leader rating; valid: 6\+1"),
    (dict(orders={**ORDERS_18AM, "German": [["Shift", "KG", "F", "G-4", "U1 > D", None]]}),
     r"Orders 18AM German!E2: Shift: the path crosses D, British territory"),
    (dict(end=_b8, umpire=UMPIRE_18AM + [["Escape", "E5", None, "D", 2, None]],
          orders={**ORDERS_18AM, "British": [["Escape stack", "S", None, "B-7, B-8", None, None]]}),
     r"Orders 18AM British!D2: Escape stack: an Escape stack may not mix Locations \(B-7 in E3, B-8 in E5\)"),
    (dict(end=lambda rows: [r for r in rows if r[1] not in ("B-1", "G-17N-I3S.1-2")]),
     r"End 17N!B\d+: 2 unit\(s\) of Units 17N missing: B-1, G-17N-I3S.1-2; list every unit as it stands at CG Scenario "
     r"End, with Status Eliminated for one eliminated in play"),
    (dict(end=lambda rows: _edit(rows, "B-2", "Status", "Eliminated")),
     r"End 17N!J12: B-2 is Eliminated: clear the With of B-PIAT1 \(left unpossessed\) or name its new possessor"),
])
def test_bad_input_names_sheet_and_cell_and_writes_nothing(book, change, message):
    before = _enter(book, **change)
    with pytest.raises(WorkbookError, match=message):
        refit(book)
    assert book.read_bytes() == before


def test_9_603_the_end_sheet_lists_every_unit_and_one_eliminated_in_play_leaves_play(book):
    _enter(book)
    ended = {r["Unit"]: r for r in rows(book, "End 17N", K.END)}
    created = {r["Unit"] for r in rows(book, "Units 17N", K.UNITS)}
    assert created <= set(ended) and len(created - {r[1] for r in END_17N}) == 15
    assert ended["B-1"]["Status"] == "Eliminated"
    outcome = refit(book)
    assert any(e.subject == "B-1" and e.text == "eliminated in play (End sheet): its CVP are in the Final CVP"
               for e in outcome.entries)


def test_the_adapter_reads_an_idle_date_as_a_repeat_of_9_612_on(book):
    refit(book)
    enter_purchases(book, "17N", PURCHASES_17N)
    refit(book)
    idle = [r[:2] + ["Idle" if r[0] == "18AM" else r[2]] + r[3:] for r in Workbook(book).raw("CG Roster 17N")[1:]]
    idle += [["18AM", r[1], "Idle", "Idle"] + r[4:] for r in idle]
    append_sheets(book, [_sheet("Units 18AM", K.UNITS, Workbook(book).raw("Units 17N")[1:], "roster"),
                         _sheet("Blocks 18AM", K.BLOCKS, Workbook(book).raw("Blocks 17N")[1:], "roster"),
                         _sheet("CG Roster 18AM", K.CG_ROSTER, idle, "ledger")], batch="idle 18AM")
    outcome = refit(book)
    assert outcome.date == "18PM" and outcome.waiting is not None and outcome.waiting.sheet == "Orders 18PM British"
    assert outcome.completed[:3] == ["RePh sequence", "Orders check", "New CG Date and SAN"]


def _to_18am_purchases(book: Path) -> None:
    _enter(book)
    outcome = refit(book)
    assert outcome.waiting is not None and outcome.waiting.sheet == "Purchases 18AM British"


@pytest.mark.parametrize("british, german, message", [
    ([["RG", "I3", None, 1, "A", None, None], ["RG", "I4", None, 1, "A", None, None], ["RG", "I1", None, 1, "A", None, None],
      ["RG", "I2", None, 1, "A", None, None], ["Chit", "Idle", None, None, None, None, None]], None,
     r"Purchases 18AM British!B2: RG: the British purchases cost 45 CPP, more than the 39 CPP it has"),
    (None, [["RG", "I1", None, 1, "F", None, None], ["Chit", "Attack", None, None, None, None, None]],
     r"Purchases 18AM German!C2: RG: German RG I1 needs its KG"),
    ([["RG", "I1", None, 2, "A", None, None], ["Chit", "Idle", None, None, None, None, None]], None,
     r"Purchases 18AM British!D2: RG: 2 I1 this CG Date; the CG Date maximum is 1"),
    (None, [["Fortification", "ap_mine_factor_german", None, 13, "G", None, None], ["Chit", "Attack", None, None, None, None, None]],
     r"Purchases 18AM German!D2: Fortification: 13 A-P minefield factors"),
    (None, [["Chit", "Attack", None, None, None, None, None], ["Chit", "Idle", None, None, None, None, None]],
     r"Purchases 18AM German!A3: Chit: a second Chit"),
])
def test_purchases_that_break_the_rules_name_their_cell_and_write_nothing(book, british, german, message):
    from automation.samples_abtf import PURCHASES_18AM

    _to_18am_purchases(book)
    enter_purchases(book, "18AM", {"British": british or PURCHASES_18AM["British"], "German": german or PURCHASES_18AM["German"]})
    before = book.read_bytes()
    with pytest.raises(WorkbookError, match=message):
        refit(book)
    assert book.read_bytes() == before


def test_9_6215_a_dual_assaults_first_move_is_a_later_stage_after_the_umpires_setup_sheet(book):
    from automation.pbem.checks import verify
    from automation.samples_abtf import PURCHASES_18AM

    _to_18am_purchases(book)
    attack = [r if r[0] != "Chit" else ["Chit", "Attack", None, None, None, None, None] for r in PURCHASES_18AM["British"]]
    enter_purchases(book, "18AM", {"British": attack, "German": PURCHASES_18AM["German"]})
    stage_2 = refit(book)
    assert stage_2.written == ["RePh 18AM 2", "Units 18AM", "Blocks 18AM", "CG Roster 18AM", "RG Record 18AM"]
    assert stage_2.waiting.sheet == "Setup 18AM" and stage_2.waiting.who == "Umpire"
    assert not any(e.rule == "9.6215" and e.roll for e in stage_2.entries)
    roster = {r["Side"]: r for r in rows(book, "CG Roster 18AM", K.CG_ROSTER) if r["CG Date"] == "18AM"}
    assert roster["British"]["Scenario"] == "Dual Assault"
    notes = roster["British"]["Notes"]
    assert notes.startswith("first to set up: ") and notes.endswith("; first move by dr after all setup (9.6215)")
    again = refit(book)
    assert again.date == "18AM" and again.written == [] and again.waiting.sheet == "Setup 18AM"
    append_sheets(book, [_sheet("Setup 18AM", K.SETUP, [["British", "Yes", None], ["German", "Yes", None]], "results")],
                  batch="Setup 18AM")
    stage_3 = refit(book)
    assert stage_3.date == "18AM" and stage_3.waiting is None and stage_3.written == ["RePh 18AM 3"]
    [roll] = [e for e in stage_3.entries if e.roll]
    assert roll.roll.label == "18AM/9.6215/German" and roll.roll.table_id == "abtf.first_move"
    assert SAMPLE_KEY.throw(DiceKind.D6, RollLabel.parse(roll.roll.label)) == roll.roll.dice
    report = Workbook(book).raw("RePh 18AM 3")
    assert any(r[1] == "9.6215" and r[10].endswith("moves first (determined after all setup)") for r in report[1:])
    following = refit(book)
    assert following.date == "18PM" and following.waiting.sheet == "End 18AM"
    checked = verify(book, book.with_suffix(".key"))
    assert checked.problems == [] and "RePh 18AM 3" in checked.reports

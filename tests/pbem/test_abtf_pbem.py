"""Play by email for an A Bridge Too Far campaign: the sample (automation.samples_abtf)
exported for each side, its orders and purchases returned, checked and merged,
and the played campaign verified and counted."""
from __future__ import annotations

import json
import re
import shutil
from pathlib import Path
from typing import Any
from xml.sax.saxutils import escape

import openpyxl
import pytest

from automation import samples_abtf as S
from automation.pbem.sidesheets import alias
from automation.samples import whole_sheet
from automation.service import refit
from automation.workbook import abtf_sheets as K
from automation.workbook.forms.enter import enter as append_sheets  # sheets in place of the refit's forms
from automation.workbook.reader import Workbook
from tests.pbem.helpers import abtf_purchased, parts, private_copy, rows_of, run

SIDES = ("British", "German")
STAGES = ("orders_18am", "purchases_18am", "german_purchases_in", "complete")
# What each side decides, each line marked with a note only that side's files may hold.
ORDERS = {"British": [["Battle Harden", "B-2", None, "B-Hero", None, "british-orders-hero"]],
          "German": [["Shift", "Kampfgruppe move", "F", "G-4", "U2", "german-orders-shift"]]}
PURCHASES = {side: [row[:6] + [f"{side.lower()}-purchase-{i}"] for i, row in enumerate(rows, start=1)]
             for side, rows in S.PURCHASES_18AM.items()}


def enter(book: Path, kind: Any, rows: dict[str, list[list[Any]]], date: str, batch: str) -> None:
    append_sheets(book, [whole_sheet(kind.name_for(date=date, side=s), kind, r, "orders") for s, r in rows.items()],
                  batch=batch)


def build(folder: Path, stage: str) -> Path:
    """The sample at ``stage``: 17N refitted with its purchases, the 17N scenario
    ended (End 17N, Umpire 18AM), then 18AM's orders and purchases as far as asked."""
    folder.mkdir(parents=True)
    book = abtf_purchased(folder)
    append_sheets(book, [whole_sheet(K.END.name_for(date="17N"), K.END, S.end_17n(book), "results"),
                         whole_sheet(K.UMPIRE.name_for(date="18AM"), K.UMPIRE, S.UMPIRE_18AM, "results")], batch="End of 17N")
    assert refit(book).waiting.sheet == "Orders 18AM British"
    if stage == "orders_18am":
        return book
    enter(book, K.ORDERS, ORDERS, "18AM", "Orders 18AM")
    assert refit(book).waiting.sheet == "Purchases 18AM British"
    if stage == "purchases_18am":
        return book
    enter(book, K.PURCHASES, {"German": PURCHASES["German"]}, "18AM", "Purchases 18AM German")
    if stage == "german_purchases_in":
        return book
    enter(book, K.PURCHASES, {"British": PURCHASES["British"]}, "18AM", "Purchases 18AM British")
    assert refit(book).waiting is None  # 18AM complete; the next refit waits for End 18AM
    assert stage == "complete", stage
    return book


@pytest.fixture(scope="module")
def abtf_stages(tmp_path_factory) -> dict[str, Path]:
    root = tmp_path_factory.mktemp("abtf")
    return {s: build(root / s, s) for s in STAGES}


@pytest.fixture
def abtf(abtf_stages, tmp_path):
    """A private copy (with its key) of the ABtF sample at a stage."""

    def copy(stage: str) -> Path:
        return private_copy(abtf_stages[stage], tmp_path / stage)

    return copy


def exported(capsys, book: Path, side: str, folder: Path, *extra: object) -> Path:
    out = folder / f"{side.lower()}.xlsx"
    code, _, err = run(capsys, "export", book, "--side", side, "-o", out, *extra)
    assert code == 0, err
    return out


def fill(export: Path, out: Path, rows: list[list[Any]], sheet: str) -> Path:
    """A player fills the decision sheet from row 2 (whatever was there is cleared) and saves it as ``out``."""
    wb = openpyxl.load_workbook(export)
    ws = wb[sheet]
    top = next((r for r in range(1, 4) if ws.cell(r, 1).value in ("Order", "Purchase")), 1)  # below a form's title
    for r in range(top + 1, ws.max_row + 1):
        for c in range(1, 9):
            ws.cell(r, c).value = None
    for r, row in enumerate(rows, start=top + 1):
        for c, value in enumerate(row, start=1):
            cell = ws.cell(r, c, value)
            if isinstance(value, str):
                cell.data_type = "s"
    wb.save(out)
    return out


def refused(capsys, book: Path, orders: Path, *extra: object) -> str:
    before = book.read_bytes()
    code, _, err = run(capsys, "import", book, orders, *extra)
    assert code == 2 and "Traceback" not in err
    assert book.read_bytes() == before  # nothing merged
    return err


# ------------------------------------------------------------------ what an export holds

def secrets_of(book: Path, side: str) -> set[str]:
    """What ``side``'s enemy must never read: its unit IDs, every report line
    visible to it alone (its CPP DR and totals, purchases, RG rolls, Shifts),
    those lines' roll labels, its RG Purchase Record and CG Roster purchase lines,
    and the marked notes of its orders and purchases (its chit among them)."""
    wb = Workbook(book)
    found: set[str] = set()
    for name in wb.sheet_names:
        rows = wb.raw(name)
        if not rows:
            continue
        head = {h: i for i, h in enumerate(rows[0])}
        for r in rows[1:]:
            cell = lambda column: r[head[column]] if column in head and head[column] < len(r) else None  # noqa: E731
            mine = cell("Side") == side
            if name.startswith(("Units ", "End ")) and mine:
                found.add(cell("Unit"))
            if name.startswith("RePh ") and cell("Visible to") == side:
                found.add(cell("Label"))
                if cell("Result") != cell("Table result") and len(str(cell("Result"))) > 12:
                    found.add(cell("Result"))  # not a bare table result ('Full'): that word is no secret, its roll is
            if name.startswith("RG Record ") and mine and cell("Counts") == "Yes":
                found.add(cell("Group Type"))  # an RG bought (OB-given ones are announced to all, 9.615)
            if name.startswith("CG Roster ") and mine:
                found.add(cell("RG purchased"))
            if name.startswith(("Orders ", "Purchases ")) and name.endswith(side):
                found.add(cell("Notes"))
    return {s for s in found if isinstance(s, str) and len(s) > 2 and s not in SIDES}


def taken_over(book: Path, side: str) -> set[str]:
    """Units the report says ``side`` now holds: an enemy vehicle Captured in its
    Setup Area is its own from 9.6071 on."""
    wb = Workbook(book)
    found = set()
    for name in [n for n in wb.sheet_names if n.startswith("RePh ")]:
        rows = wb.raw(name)
        head = {h: i for i, h in enumerate(rows[0])}
        found |= {r[head["Subject"]] for r in rows[1:] if r[head["Side"]] == side and "(Captured)" in r[head["Result"]]}
    return found


def patterns(value: str) -> list[re.Pattern[bytes]]:
    """``value`` as a whole word (an ID B-1 is not found inside B-18AM-L-1), raw and XML-escaped."""
    forms = {value, escape(value), escape(value, {'"': "&quot;", "'": "&apos;"})}
    return [re.compile(rb"(?<![\w-])" + re.escape(f.encode()) + rb"(?![\w-])") for f in forms]


def other(side: str) -> str:
    return SIDES[1 - SIDES.index(side)]


@pytest.mark.parametrize("stage", ["german_purchases_in", "complete"])
@pytest.mark.parametrize("side", SIDES)
def test_no_part_of_an_abtf_export_holds_a_secret_of_the_other_side(capsys, abtf, tmp_path, stage, side):
    book = abtf(stage)
    out = exported(capsys, book, side, tmp_path)
    secret = secrets_of(book, other(side)) - secrets_of(book, side) - taken_over(book, side)  # what both have is no secret
    assert len(secret) > 20
    leaks = [(part, s) for part, data in parts(out).items() for s in sorted(secret)
             if any(p.search(data) for p in patterns(s))]
    assert leaks == []


def test_the_secrets_searched_for_include_the_cpp_roll_purchases_chit_and_unit_ids(abtf):
    secret = secrets_of(abtf("complete"), "German")
    assert {"G-1", "G-V1 crew", "G-18AM-F3", "18AM/9.616/German", "I1(K) 8", "german-purchase-4", "german-orders-shift",
            "+10 Variable Arrival Points: 25 CPP replenished; 7 + 25 = 32",
            "CPP spent 8 of 32; 24 unspent, divided by 2 (FRU): 12 Left"} <= secret
    assert PURCHASES["German"][3][:2] == ["Chit", "Attack"]  # german-purchase-4 marks the German chit


def test_an_export_before_the_chits_are_revealed_holds_no_trace_of_the_enemy_purchases(capsys, abtf, tmp_path):
    book = abtf("german_purchases_in")
    wb = Workbook(exported(capsys, book, "British", tmp_path))
    assert "Purchases 18AM German" not in wb.sheet_names and "RePh 18AM 2" not in wb.sheet_names
    texts = {str(v) for n in wb.sheet_names for r in wb.raw(n) for v in r}
    assert not any(t.startswith("german-purchase") for t in texts)
    assert [r[:4] for r in wb.raw("Enemy CG Roster")] == [["CG Date", "Side", "Scenario", "Chit"],
                                                          ["17N", "German", "Initial", ""]]


def test_each_side_gets_its_own_sheets_and_the_public_ones(capsys, abtf, tmp_path):
    wb = Workbook(exported(capsys, abtf("complete"), "British", tmp_path))
    assert wb.sheet_names == [
        "Export", "Orders 18PM British", "Choices", "CG Dates", "Reinforcements", "Chit Limits", "RePh 17N 1",
        "Purchases 17N British", "RePh 17N 2", "End 17N", "Orders 18AM British", "RePh 18AM 1", "Purchases 18AM British",
        "RePh 18AM 2", "Units 18AM", "Blocks 18AM", "CG Roster 18AM", "RG Record 18AM", "RG Chart British",
        "Enemy CG Roster", "Dice audit"]
    for name in ("Units 18AM", "CG Roster 18AM", "RG Record 18AM", "End 17N", "Chit Limits"):
        rows = wb.raw(name)
        assert {r[rows[0].index("Side")] for r in rows[1:]} == {"British"}, name
    for name in [n for n in wb.sheet_names if n.startswith("RePh")]:
        rows = wb.raw(name)
        assert {r[rows[0].index("Visible to")] for r in rows[1:]} <= {"British", "All"}, name
        assert "Tamper evidence" not in {r[0] for r in rows}
    assert len(wb.raw("Blocks 18AM")) == 13  # every Block and Entry Area: the map is known to both


def test_the_enemy_cg_roster_shows_only_what_the_rules_make_known_to_both(capsys, abtf, tmp_path):
    wb = Workbook(exported(capsys, abtf("complete"), "British", tmp_path))
    rows = wb.raw("Enemy CG Roster")
    assert rows[0] == ["CG Date", "Side", "Scenario", "Chit", "Final CVP", "RePh CVP", "SAN", "ELR", "Ammunition shortage",
                       "Attack chits", "Idle chits", "Weather", "EC", "Wind"]
    assert rows[2] == ["18AM", "German", "German Assault", "Attack", 2, 1, 2, 4, 0, 1, 0, "Clear", "Moderate", "No Wind"]


def test_the_enemy_units_in_public_report_lines_are_shown_by_alias(capsys, abtf, tmp_path):
    wb = Workbook(exported(capsys, abtf("complete"), "German", tmp_path))
    rows = [r for r in wb.raw("RePh 18AM 1") if r[0] == "Escape" and r[1] == "9.60541"]
    assert [r[3] for r in rows] == [alias(S.SAMPLE_KEY, "B-7")]
    units = wb.raw("Units 18AM")
    assert "G-V1 crew" in {r[1] for r in units}  # the German's own IDs stay as they are


def test_the_purchases_sheet_waits_with_dropdowns_the_cpp_and_fpp_left_and_the_choices(capsys, abtf, tmp_path):
    out = exported(capsys, abtf("purchases_18am"), "German", tmp_path)
    wb = openpyxl.load_workbook(out)
    ws = wb["Purchases 18AM German"]
    assert ws["A1"].value.startswith("German: RG purchases, fortifications and the Initiative Chit (9.617-9.621)")
    assert [ws.cell(2, c).value for c in (8, 9, 10)] == ["CPP left and FPP left (of 32 CPP, 20 FPP; red: overspent):",
                                                         "=32-SUM(I4:I29)", "=20-SUM(J4:J29)"]
    assert [c.value for c in ws[3]] == K.PURCHASES.header + ["CPP", "FPP"]
    assert ws["A4"].value == "Chit"
    lists = {str(dv.sqref).split(":")[0]: dv.formula1 for dv in ws.data_validations.dataValidation}
    assert lists["B4"] == '"Attack,Idle"'  # the chits the side has left (9.62131)
    offered = {(ws.cell(r, 2).value, ws.cell(r, 3).value) for r in range(5, 40) if ws.cell(r, 8).value}
    assert ("I1", "K") in offered and ("wire", None) in offered and ("at_mine_factor", None) not in offered
    choices = {r[0]: r[1] for r in Workbook(out).raw("Choices")[1:]}
    assert choices["Attack"] == "Initiative Chit: 0 of 7 Attack Chits used (9.62131)"
    assert choices["wire"] == "fortification: Wire, 10 FPP"
    assert "at_mine_factor" not in choices  # British only (9.619)
    info = {r[0]: r[1] for r in Workbook(out).raw("Export")[1:]}
    assert (info["Orders sheet"], info["CPP left"], info["FPP left"]) == ("Purchases 18AM German", 32, 20)


def test_the_orders_sheet_lists_the_sides_units_and_says_where_the_refit_stopped(capsys, abtf, tmp_path):
    book = abtf("orders_18am")
    out = exported(capsys, book, "British", tmp_path)
    ws = openpyxl.load_workbook(out)["Orders 18AM British"]  # the form (automation.workbook.forms.abtf_orders)
    assert ws["A1"].value.startswith("British: your RePh decisions for 18AM (9.6054-9.6143).")
    assert [c.value for c in ws[3]] == K.ORDERS.header
    offered = {(ws.cell(r, 1).value, ws.cell(r, 2).value): r for r in range(4, ws.max_row + 1) if ws.cell(r, 7).value}
    lists = {str(dv.sqref).split(":")[0]: dv.formula1 for dv in ws.data_validations.dataValidation}
    assert lists[f"C{offered[('Battle Harden', 'B-2')]}"] == '"Yes"'  # B-2 is Elite: it becomes Fanatic (9.6112)
    assert lists[f"A{4 + len(offered)}"] == '"' + ",".join(K.ORDER_KINDS) + '"'  # the free rows below
    choices = {r[0]: r[1] for r in Workbook(out).raw("Choices")[1:]}
    assert choices["B-Hero"] == "Hero: Hero 1-4-9, in D (D1)"
    assert choices["G-V1"] == "Vehicle: PzKpfw IIIL, in C (C5), Immobile, Abandoned, Captured"  # taken in C (9.6071)
    assert not any(c.startswith("G-") and c not in ("G-V1", "G-V1-MA", "G-V1-CMG") for c in choices)
    info = {r[0]: r[1] for r in Workbook(out).raw("Export")[1:]}
    assert info["Note"] == "the refit stopped at: which MMC each hero Battle Hardens (9.6112) (an empty sheet means none)"
    german = {r[0]: r[1] for r in Workbook(exported(capsys, book, "German", tmp_path)).raw("Export")[1:]}
    assert german["Orders sheet"] == "Orders 18AM German" and "Note" not in german  # the British' wait is theirs


def test_an_export_made_while_the_umpire_enters_the_scenario_end_already_holds_the_orders_sheet(capsys, abtf, tmp_path):
    out = exported(capsys, abtf("complete"), "German", tmp_path)
    info = {r[0]: r[1] for r in Workbook(out).raw("Export")[1:]}
    assert info["Orders sheet"] == "Orders 18PM German" and info["Date"] == "18PM"
    assert "the umpire still enters End 18AM" in info["Note"]


# ------------------------------------------------------------------ importing

def test_valid_orders_are_appended_and_the_refit_continues(capsys, abtf, tmp_path):
    book = abtf("orders_18am")
    british = fill(exported(capsys, book, "British", tmp_path), tmp_path / "b.xlsx", ORDERS["British"],
                   "Orders 18AM British")
    german = fill(exported(capsys, book, "German", tmp_path), tmp_path / "g.xlsx", ORDERS["German"], "Orders 18AM German")
    code, out, err = run(capsys, "import", book, british)
    assert code == 0, err
    assert "imported Orders 18AM British" in out and "1 order(s)" in out
    assert rows_of(book, "Orders 18AM British") == [K.ORDERS.header,
                                                    ["Battle Harden", "B-2", "", "B-Hero", "", "british-orders-hero", ""]]
    assert run(capsys, "import", book, german)[0] == 0
    code, out, _ = run(capsys, "refit", book)
    assert code == 0 and "wrote RePh 18AM 1" in out and "waiting for Purchases 18AM British" in out


def test_valid_purchases_are_appended_and_the_refit_completes_the_cg_date(capsys, abtf, tmp_path):
    book = abtf("purchases_18am")
    for side in SIDES:
        back = fill(exported(capsys, book, side, tmp_path), tmp_path / f"{side}-back.xlsx", PURCHASES[side],
                    f"Purchases 18AM {side}")
        code, out, err = run(capsys, "import", book, back)
        assert code == 0, err
        assert f"{len(PURCHASES[side])} order(s)" in out
    assert rows_of(book, "Purchases 18AM German")[4] == ["Chit", "Attack", "", "", "", "", "german-purchase-4", ""]
    code, out, _ = run(capsys, "refit", book)
    assert code == 0 and "wrote CG Roster 18AM" in out
    roster = rows_of(book, "CG Roster 18AM")
    assert [r[:4] + [r[8]] for r in roster[-2:]] == [["18AM", "British", "German Assault", "Idle", 14],
                                                    ["18AM", "German", "German Assault", "Attack", 12]]


def test_purchases_are_checked_while_the_other_side_has_not_decided_yet(capsys, abtf, tmp_path):
    book = abtf("purchases_18am")  # neither side's purchases are in: the other side's stand-in chooses nothing
    back = fill(exported(capsys, book, "German", tmp_path), tmp_path / "g.xlsx", PURCHASES["German"],
                "Purchases 18AM German")
    code, out, err = run(capsys, "import", book, back)
    assert code == 0, err
    from automation.workbook.forms.enter import unanswered_sheets

    assert unanswered_sheets(book, ["Purchases 18AM British"]) == ["Purchases 18AM British"]  # still the form


@pytest.mark.parametrize("side, rows, cell, words", [
    ("British", [["Battle Harden", "B-99", None, "B-Hero", None, None]], "Orders 18AM British!B4",
     "Battle Harden: 'B-99' is not a unit on the roster"),
    ("German", [["Shift", "Kampfgruppe move", "F", "G-4, B-6", "U2", None]], "Orders 18AM German!D4",
     "Shift: 'B-6' is not a unit on the roster"),  # an enemy unit reads as an unknown one (no oracle)
    ("German", [["Charge", "G-1", None, None, None, None]], "Orders 18AM German!A4", "'Charge'"),
])
def test_bad_orders_are_refused_naming_the_returned_files_sheet_and_cell(capsys, abtf, tmp_path, side, rows, cell, words):
    book = abtf("orders_18am")
    back = fill(exported(capsys, book, side, tmp_path), tmp_path / "back.xlsx", rows, f"Orders 18AM {side}")
    err = refused(capsys, book, back)
    assert any(ln.strip().startswith(f"back.xlsx: {cell}:") and words in ln for ln in err.splitlines()), err
    assert "nothing was imported" in err


@pytest.mark.parametrize("side, rows, cell, words", [
    ("British", [["RG", "I9", None, 1, "A"], ["Chit", "Idle"]], "B4", "I9 is not on the British RG Chart"),
    ("British", [["RG", "I1", None, 2, "A"], ["Chit", "Idle"]], "D4", "the CG Date maximum is 1"),
    ("British", [["RG", "I4", None, 1, "A"], ["RG", "I3", None, 1, "A"], ["RG", "I1", None, 1, "A"],
                 ["RG", "I2", None, 1, "A"], ["Chit", "Idle"]], "B4", "cost 45 CPP, more than the 39 CPP it has"),
    ("British", [["RG", "I3", None, 1, "E"], ["Chit", "Idle"]], "E4", "'E' is not a Setup or Entry Area of the British"),
    ("German", [["RG", "I1", None, 1, "F"], ["Chit", "Attack"]], "C4", "German RG I1 needs its KG"),
    ("German", [["Fortification", "at_mine_factor", None, 1, "G"], ["Chit", "Attack"]], "B4", "is for the British only"),
    ("German", [["Fortification", "wire", None, 3, "G"], ["Chit", "Attack"]], "B4",
     "the German fortifications cost 30 FPP, more than the 20 FPP it has"),
    ("German", [["Chit", "Charge"]], "B4", "Chit: 'Charge' is not allowed; valid: Attack, Idle"),
    ("German", [], "A2", "Chit: no Chit line"),  # the step names the first row of a sheet
])
def test_bad_purchases_are_refused_naming_the_returned_files_sheet_and_cell(capsys, abtf, tmp_path, side, rows, cell,
                                                                            words):
    book = abtf("purchases_18am")
    sheet = f"Purchases 18AM {side}"
    back = fill(exported(capsys, book, side, tmp_path), tmp_path / "back.xlsx", rows, sheet)
    err = refused(capsys, book, back)
    assert any(ln.strip().startswith(f"back.xlsx: {sheet}!{cell}:") and words in ln for ln in err.splitlines()), err


def test_purchases_returned_for_the_other_side_are_refused(capsys, abtf, tmp_path):
    book = abtf("purchases_18am")
    back = exported(capsys, book, "British", tmp_path)
    wb = openpyxl.load_workbook(back)
    for row in wb["Export"].iter_rows(min_row=2):
        if row[0].value == "Side":
            row[1].value = "German"
        if row[0].value == "Orders sheet":
            row[1].value = "Purchases 18AM German"
    wb["Purchases 18AM British"].title = "Purchases 18AM German"
    wb.save(back)
    err = refused(capsys, book, back)
    assert "Return code: does not match this campaign's key for German and 'Purchases 18AM German'" in err


def test_importing_the_same_purchases_twice_is_refused(capsys, abtf, tmp_path):
    book = abtf("purchases_18am")
    back = fill(exported(capsys, book, "German", tmp_path), tmp_path / "g.xlsx", PURCHASES["German"],
                "Purchases 18AM German")
    assert run(capsys, "import", book, back)[0] == 0
    assert "'Purchases 18AM German' is already in abtf.xlsx" in refused(capsys, book, back)


def test_orders_returned_while_the_umpire_still_enters_the_scenario_end_are_taken(capsys, abtf, tmp_path):
    """The export offered the side's next orders while the umpire enters End 18AM
    ("may be filled now; checked once End 18AM is in"): import takes them, and
    the refit still waits for the umpire."""
    book = abtf("complete")
    back = fill(exported(capsys, book, "German", tmp_path), tmp_path / "g.xlsx", [], "Orders 18PM German")
    code, out, err = run(capsys, "import", book, back)
    assert code == 0 and "imported Orders 18PM German" in out, err
    code, out, _ = run(capsys, "refit", book)
    assert code == 0 and "waiting for End 18AM (the umpire fills it)" in out
    assert "waiting for Orders 18PM German" not in out  # answered: only the British is still to send


# ------------------------------------------------------------------ verify and stats

@pytest.fixture(scope="module")
def played(tmp_path_factory) -> Path:
    book = tmp_path_factory.mktemp("played") / "abtf.xlsx"
    shutil.copyfile(S.SAMPLE, book)
    shutil.copyfile(S.SAMPLE.with_suffix(".key"), book.with_suffix(".key"))
    S.play(book)
    return book


def test_verify_with_the_key_passes_on_the_played_sample(capsys, played):
    code, out, err = run(capsys, "verify", played, "--key", played.with_suffix(".key"))
    assert code == 0, err
    assert "dates: 17N, 18AM" in out and "4 seal(s) match the campaign key" in out


def test_stats_lists_both_sides_of_the_played_sample(capsys, played):
    code, out, _ = run(capsys, "stats", played)
    assert code == 0
    # the weather, EC and wind rolls (9.6216) are the umpire's, made for both sides
    assert [ln.rstrip(":") for ln in out.splitlines() if ln and not ln.startswith(" ")] == ["British", "German", "Umpire"]
    code, out, _ = run(capsys, "stats", played, "--json")
    sides = json.loads(out)["sides"]
    assert list(sides) == ["British", "German", "Umpire"]
    assert {t["table"] for t in sides["Umpire"]["tables"]} == {"abtf.weather", "abtf.ec", "abtf.wind_force"}

    def table(side: str, table_id: str) -> dict[str, Any] | None:
        return next((t for t in sides[side]["tables"] if t["table"] == table_id), None)

    # 18AM's secret CPP DR (9.6162): British 4+3 -> +7, German 5+5 -> +10; 17N (Initial) rolls none
    for side, result in (("British", "+7"), ("German", "+10")):
        cpp = table(side, "abtf.cpp_variable_arrival")
        assert cpp["rolls"] == 1 and [r["result"] for r in cpp["results"] if r["observed"]] == [result]
    assert table("German", "abtf.shift")["rolls"] == 1 and table("British", "abtf.shift") is None


def test_an_encrypted_export_is_read_back_only_with_its_password(capsys, abtf, tmp_path):
    book = abtf("purchases_18am")
    sealed = exported(capsys, book, "British", tmp_path, "--password", "Oosterbeek").rename(tmp_path / "sealed.xlsx")
    assert "the workbook is encrypted; give its password with --password" in refused(capsys, book, sealed)
    err = refused(capsys, book, sealed, "--password", "Oosterbeek")  # opened: its Chit line still lacks the chit
    assert "sealed.xlsx: Purchases 18AM British!B4:" in err


def test_once_the_cg_has_ended_an_export_holds_no_decision(capsys, abtf, tmp_path):
    book = abtf("complete")
    rows = rows_of(book, "CG Roster 18AM")
    append_sheets(book, [whole_sheet(K.CG_ROSTER.name_for(date="End"), K.CG_ROSTER, rows[1:], "ledger")], batch="CG over")
    code, out, err = run(capsys, "export", book, "--side", "German", "-o", tmp_path / "g.xlsx")
    assert code == 0, err
    assert "no orders sheet (every date's refit is done: the campaign is over)" in out
    assert "Orders End German" not in Workbook(tmp_path / "g.xlsx").sheet_names

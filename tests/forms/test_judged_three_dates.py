"""A new umpire's Battlefront campaign (made with `musterroll new`, not the
sample) played for three dates only through the forms the refit writes: each
player fills the form of their export and the umpire imports it, the umpire
types the Results into the master's form; nobody writes a sheet of their own.
Each side's next orders may be sent while the umpire still enters the results
(the export offers them), and every value a form's dropdown offers is taken
on import."""
from __future__ import annotations

import shutil
from pathlib import Path

import openpyxl
import pytest

from automation.cli import main
from automation.pbem.export import export
from automation.pbem.importer import import_orders
from automation.service import refit
from automation.workbook.forms.fill import fill, fill_in_place
from automation.workbook.forms.model import HEADER_ROW
from automation.workbook.reader import Workbook
from tests.forms.test_forms_own_campaign import DRM, FP, RG, ROSTER, SIDES

DATES = [["Feb 19", "1943-02-19", "Full day", None], ["Feb 20", "1943-02-20", "Full day", None],
         ["Feb 21", "1943-02-21", "Full day", None]]
DRM3 = DRM + [["Feb 21", s, 0, "2.1.1.1"] for s in ("Axis", "Soviet")]


def new_campaign(folder: Path) -> Path:
    book = folder / "kharkov.xlsx"
    assert main(["new", "bf-campaign", str(book), "--campaign", "Kharkov 1943"]) == 0
    wb = openpyxl.load_workbook(book)
    for title, rows in (("Sides", SIDES), ("Dates", DATES), ("Historical DRM", DRM3), ("RG Chart", RG),
                        ("FP Chart", FP), ("Roster Start", ROSTER)):
        for row in rows:
            wb[title].append(row)
    wb.save(book)
    return book


def by_player(book: Path, sheet: str, lines: list[dict]) -> str:
    """The side exports, fills the form it finds there and sends it back; the umpire imports it."""
    sent = book.parent / f"{sheet}.xlsx"
    export(book, sheet.split()[-1], sent)
    fill(sent, sheet, lines)
    return import_orders(book, sent)


@pytest.fixture(scope="module")
def played(tmp_path_factory) -> dict:
    book = new_campaign(tmp_path_factory.mktemp("judged"))
    seen: dict = {}
    assert refit(book).forms == ["Spend Feb 19 Axis", "Spend Feb 19 Soviet"]
    by_player(book, "Spend Feb 19 Axis", [])
    seen["soviet buys"] = by_player(book, "Spend Feb 19 Soviet", [{"Order": "Purchase", "Subject": "I1", "Value": 1}])
    assert refit(book).waiting is None  # Feb 19 complete
    waits = refit(book)
    assert waits.forms == ["Results Feb 19", "Forces Feb 19 Axis", "Orders Feb 20 Soviet"]
    seen["forces"] = by_player(book, "Forces Feb 19 Axis", [{"ME": "1/LAH", "Deploy": "Yes"},
                                                           {"ME": "13/LAH", "Deploy": "Yes"}])
    seen["early orders"] = by_player(book, "Orders Feb 20 Soviet", [{"Order": "Posture", "Value": "Defend"}])
    fill_in_place(book, "Results Feb 19", [
        *({"Side": "Axis", "Stand": f"LAH1-{n}", "Outcome": "Unharmed"} for n in (1, 2, 3)),
        {"Side": "Axis", "Stand": "Tiger-1", "Outcome": "Unharmed", "Kills by fire": 1},
        {"Side": "Axis", "Stand": "Tiger-2", "Outcome": "Knocked out", "Knocked out by": "Direct fire",
         "Ends in": "Enemy lines"},
        {"Side": "Soviet", "Stand": "S69-1", "Outcome": "Knocked out", "Knocked out by": "Direct fire"},
        {"Side": "Soviet", "Stand": "S69-2", "Outcome": "Unharmed", "Kills by fire": 1},
        {"Side": "Soviet", "Stand": "S69-3", "Outcome": "Unharmed"}])
    assert refit(book).forms == ["Orders Feb 20 Axis"]
    by_player(book, "Orders Feb 20 Axis", [{"Order": "Posture", "Value": "Attack"}])
    assert refit(book).forms == ["Spend Feb 20 Axis", "Spend Feb 20 Soviet"]
    seen["spend Feb 20"] = book.with_name("spend_feb20.xlsx")
    shutil.copyfile(book, seen["spend Feb 20"])
    shutil.copyfile(book.with_suffix(".key"), seen["spend Feb 20"].with_suffix(".key"))
    by_player(book, "Spend Feb 20 Axis", [])
    by_player(book, "Spend Feb 20 Soviet", [])
    assert refit(book).waiting is None  # Feb 20 complete
    seen["third"] = refit(book)
    seen["book"] = book
    return seen


def test_three_dates_are_played_through_the_forms_and_exports_alone(played):
    assert "1 order(s)" in played["soviet buys"] and "3 order(s)" in played["forces"]
    assert "1 order(s)" in played["early orders"]  # sent before the umpire entered the results: taken
    assert played["third"].forms == ["Results Feb 20", "Forces Feb 20 Axis", "Orders Feb 21 Soviet"]
    names = Workbook(played["book"]).sheet_names
    assert {"Roster Feb 19", "Roster Feb 20", "Ledger Feb 20"} <= set(names)
    roster = Workbook(played["book"]).raw("Roster Feb 20")
    stands = {r[6] for r in roster[1:] if r and len(r) > 6}
    assert "I1-2 Rifle 1" in stands  # the Soviet company bought on Feb 19 (2.1.1.4) is on the roster
    assert "S69-1" not in stands  # a knocked-out rifle stand leaves the roster


def test_the_campaign_played_through_the_forms_verifies_with_its_key(played, capsys):
    from tests.pbem.helpers import run

    code, out, err = run(capsys, "verify", played["book"])  # the key beside the workbook: every refit run again
    assert code == 0 and "refit(s) run again" in out, out + err


def offered_values(path: Path, sheet: str) -> list[tuple[int, str, object]]:
    """Every (row, column, value) a form offers: each dropdown's values and each whole number's bounds."""
    ws = openpyxl.load_workbook(path)[sheet]
    header = {c.column: str(c.value) for c in ws[HEADER_ROW + 1] if c.value}
    out = []
    for dv in ws.data_validations.dataValidation:
        for ref in str(dv.sqref).split():
            if ref == "B2" or ":" in ref:
                continue  # the status cell; free rows take a kind of order first
            cell = ws[ref]
            if dv.type == "list" and dv.formula1.startswith('"'):
                out += [(cell.row, header[cell.column], v) for v in dv.formula1.strip('"').split(",")]
            elif dv.type == "whole":
                out += [(cell.row, header[cell.column], int(dv.formula1))]
    return out


def test_every_value_the_spend_forms_offer_is_taken_on_import(played, tmp_path):
    start = played["spend Feb 20"]
    for side in ("Axis", "Soviet"):
        sheet = f"Spend Feb 20 {side}"
        sent = tmp_path / f"{side}.xlsx"
        export(start, side, sent)
        offered = offered_values(sent, sheet)
        assert offered, sheet
        ws = openpyxl.load_workbook(sent)[sheet]
        for row, column, value in offered:
            line = {"Order": ws.cell(row, 1).value, "Subject": ws.cell(row, 2).value, column: value}
            book = tmp_path / f"{side}-{row}-{value}" / start.name
            book.parent.mkdir()
            shutil.copyfile(start, book)
            shutil.copyfile(start.with_suffix(".key"), book.with_suffix(".key"))
            answer = book.with_name("answer.xlsx")
            export(book, side, answer)
            fill(answer, sheet, [line])
            assert "1 order(s)" in import_orders(book, answer), (sheet, line)

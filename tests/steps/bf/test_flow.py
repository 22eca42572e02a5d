"""The refit over a real workbook (the bundled Advance to Rostov sample):
bad orders leave the file untouched, both sides defending skips the next
Results sheet, and the same key gives the same rolls."""
from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest

from automation.cli import main
from automation.errors import WorkbookError
from automation.samples import SAMPLE
from automation.service import plan_refit, refit
from automation.workbook import bf_sheets as K
from automation.workbook.forms.enter import enter as append_sheets  # in place of the refit's forms
from automation.workbook.package import NewSheet
from automation.workbook.reader import Workbook


@pytest.fixture
def book(tmp_path: Path) -> Path:
    path = tmp_path / "rostov.xlsx"
    shutil.copyfile(SAMPLE, path)
    shutil.copyfile(SAMPLE.with_suffix(".key"), path.with_suffix(".key"))
    return path


def enter(path: Path, kind, name: str, rows: list[list[Any]]) -> None:
    append_sheets(path, [NewSheet(name, [kind.header] + rows, kind="orders")], batch=f"enter {name}")


def spend(path: Path, date: str, side: str, *rows: list[Any]) -> None:
    enter(path, K.SPEND, K.SPEND.name_for(date=date, side=side), list(rows))


def test_bad_orders_are_refused_cell_by_cell_and_the_workbook_is_untouched(book: Path, capsys):
    refit(book)  # Dec 23, stage 1: the CPP rolls
    spend(book, "Dec 23", "German", ["Purchase", "O9", 1, None], ["Purchase", "O3", 3, None],
          ["Purchase", "A1", 1, None])
    spend(book, "Dec 23", "Russian", ["Combine", "1/1378 RR", "2/1378 RR", None], ["Repair", "R-T34-2", 1, None])
    before = book.read_bytes()
    with pytest.raises(WorkbookError) as err:
        refit(book)
    assert [str(p) for p in err.value.problems] == [
        "Spend Dec 23 German!B2: Purchase: 'O9' is not on the RG chart of German; valid: I1, A1, E1, O3, F1, P1",
        # 3 x O3 is beyond its scenario maximum of 2 but may be bought: the maximum limits deployment (2.1.1.7)
        # 10 at the start + 10 rolled (Dec 23: natural 6, -2 historical = 4: +10)
        "Spend Dec 23 German!A4: the orders of German spend 30 CPP, with 20 to spend; this is the first order that does "
        "not fit (3 x O3 at 6 CPP: 18; 1 x A1 at 12 CPP: 12)",
        "Spend Dec 23 Russian!B2: Combine: 1/1378 RR has 11 of 11 stands (0% casualties); both MEs need 50% or more "
        "casualties (2.1.1.3.2)",
        "Spend Dec 23 Russian!B3: Repair: R-T34-2 is not a wreck awaiting repair",
    ]
    assert book.read_bytes() == before
    assert main(["refit", str(book)]) == 2
    err_text = capsys.readouterr().err
    assert "Spend Dec 23 German!B2" in err_text and "Spend Dec 23 Russian!B3" in err_text and "Traceback" not in err_text
    assert book.read_bytes() == before


def test_when_both_sides_defend_no_results_are_expected_next_time(book: Path):
    refit(book)
    spend(book, "Dec 23", "German")
    spend(book, "Dec 23", "Russian")
    refit(book)
    enter(book, K.RESULTS, K.RESULTS.name_for(date="Dec 23"), [])
    for side in ("German", "Russian"):
        enter(book, K.ORDERS, K.ORDERS.name_for(date="Dec 24", side=side), [["Posture", None, "Defend", None]])
    outcome = refit(book)
    assert outcome.waiting is not None and outcome.waiting.sheet == "Spend Dec 24 German"
    spend(book, "Dec 24", "German")
    spend(book, "Dec 24", "Russian")
    outcome = refit(book)
    assert outcome.waiting is None
    assert ["", "Scenario", "Attacker: none"] == Workbook(book).raw("Ledger Dec 24")[-1][:3]
    for side in ("German", "Russian"):
        enter(book, K.ORDERS, K.ORDERS.name_for(date="Dec 25", side=side), [["Posture", None, "Attack", None]])
    outcome = refit(book)  # no Results Dec 24 asked for
    assert outcome.waiting is not None and outcome.waiting.sheet == "Spend Dec 25 German"
    assert ("Scenario cleanup", "no previous scenario to clean up") in [(e.step, e.text) for e in outcome.entries]


def test_the_same_workbook_and_key_give_the_same_rolls(book: Path, tmp_path: Path):
    refit(book)
    spend(book, "Dec 23", "German", ["Purchase", "O3", 2, None])
    spend(book, "Dec 23", "Russian", ["Purchase", "F1", 1, None])
    first, _ = plan_refit(Workbook(book))
    again, _ = plan_refit(Workbook(book))
    dice = [(e.roll.label, e.roll.dice) for e in first.entries if e.roll is not None]
    assert len(dice) >= 5 and dice == [(e.roll.label, e.roll.dice) for e in again.entries if e.roll is not None]

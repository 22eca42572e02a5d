"""The Battlefront decision forms: each offered row is one decision the rules
allow now, picked by its Value; the export carries the form, import reads it
back, and an untouched form is a valid answer."""
from __future__ import annotations

from pathlib import Path

import openpyxl
import pytest

from automation.pbem.sidesheets import alias
from automation.samples import SAMPLE_KEY
from automation.workbook.reader import Workbook
from tests.pbem.helpers import build, private_copy, rows_of, run


@pytest.fixture(scope="module")
def rostov(tmp_path_factory) -> dict[str, Path]:
    root = tmp_path_factory.mktemp("forms")
    return {s: build(root / s, s) for s in ("orders_dec24", "spend_dec24")}


def exported(capsys, book: Path, side: str, out: Path) -> Path:
    code, _, err = run(capsys, "export", book, "--side", side, "-o", out)
    assert code == 0, err
    return out


def offered(path: Path, sheet: str) -> dict[tuple[str, str], int]:
    """(Order, Subject) -> the 1-based row of each offered decision."""
    rows = Workbook(path).raw(sheet)
    return {(r[0], r[1]): i for i, r in enumerate(rows, start=1) if i > 3 and r[0] and r[4]}


def choose(export: Path, out: Path, sheet: str, picks: dict[tuple[str, str], object]) -> Path:
    rows = offered(export, sheet)
    wb = openpyxl.load_workbook(export)
    for key, value in picks.items():
        wb[sheet].cell(rows[key], 3, value)
    wb.save(out)
    return out


def test_the_spend_form_offers_each_decision_the_rules_allow_now(capsys, rostov, tmp_path):
    book = private_copy(rostov["spend_dec24"], tmp_path / "a")
    export = exported(capsys, book, "German", tmp_path / "g.xlsx")
    offers = offered(export, "Spend Dec 24 German")
    assert ("Repair", "G-Pz-2") in offers  # the wreck inside its lines, in the overnight refit (2.1.1.2)
    assert {s for o, s in offers if o == "Purchase"} == {"I1", "A1", "E1", "O3", "F1", "P1"}
    assert ("Removal", alias(SAMPLE_KEY, "R-T34-2")) in offers and ("Removal", "R-T34-2") not in offers
    assert {s for o, s in offers if o == "Fortification"} == {"Minefield section", "Wire section", "Roadblock",
                                                               "Improved position"}
    rows = Workbook(export).raw("Spend Dec 24 German")
    e1 = rows[offers[("Purchase", "E1")] - 1]
    assert "1 of the campaign's 2 left" in e1[4]  # and its count is validated from 1 to 1
    repair = rows[offers[("Repair", "G-Pz-2")] - 1]
    assert "20% without CPP, 50% with 1 CPP" in repair[4]


def test_an_untouched_form_is_a_valid_answer_of_nothing(capsys, rostov, tmp_path):
    book = private_copy(rostov["spend_dec24"], tmp_path / "a")
    export = exported(capsys, book, "German", tmp_path / "g.xlsx")
    code, out, err = run(capsys, "import", book, export)
    assert code == 0 and "0 order(s)" in out, err


def test_values_picked_on_the_form_are_imported_as_those_orders(capsys, rostov, tmp_path):
    book = private_copy(rostov["spend_dec24"], tmp_path / "a")
    export = exported(capsys, book, "German", tmp_path / "g.xlsx")
    back = choose(export, tmp_path / "back.xlsx", "Spend Dec 24 German", {
        ("Repair", "G-Pz-2"): 1, ("Purchase", "I1"): 1, ("Removal", alias(SAMPLE_KEY, "R-T34-2")): "Yes",
        ("Fortification", "Wire section"): 1})
    code, out, err = run(capsys, "import", book, back)
    assert code == 0 and "4 order(s)" in out, err
    got = [r[:3] for r in rows_of(book, "Spend Dec 24 German")[1:]]
    assert got == [["Repair", "G-Pz-2", 1], ["Purchase", "I1", 1], ["Removal", "R-T34-2", "Yes"],
                   ["Fortification", "Wire section", 1]]
    code, out, err = run(capsys, "refit", book)  # the refit takes the orders the form gave
    assert code == 0, err


def test_the_umpire_filling_the_form_in_the_master_gets_the_same_orders(capsys, rostov, tmp_path):
    """The master's own form, filled by the umpire and set to Ready: offered rows without a Value are no orders,
    those with one are, as in the player's returned export."""
    from automation.service import plan_refit
    from automation.workbook.forms.fill import fill

    book = private_copy(rostov["spend_dec24"], tmp_path / "a")
    export = exported(capsys, book, "German", tmp_path / "g.xlsx")
    back = choose(export, tmp_path / "back.xlsx", "Spend Dec 24 German", {("Purchase", "I1"): 1})
    other = private_copy(rostov["spend_dec24"], tmp_path / "b")
    fill(other, "Spend Dec 24 German", [{"Order": "Purchase", "Subject": "I1", "Value": 1}])
    assert run(capsys, "import", book, back)[0] == 0
    by_import = plan_refit(Workbook(book))[0]
    by_hand = plan_refit(Workbook(other))[0]
    assert by_import.waiting == by_hand.waiting and by_hand.waiting.sheet == "Spend Dec 24 Russian"
    assert [e.text for e in by_import.entries] == [e.text for e in by_hand.entries]


def test_the_orders_form_asks_for_posture_and_each_trapped_stands_escape(capsys, rostov, tmp_path):
    book = private_copy(rostov["orders_dec24"], tmp_path / "a")
    export = exported(capsys, book, "Russian", tmp_path / "r.xlsx")
    rows = Workbook(export).raw("Orders Dec 24 Russian")
    assert rows[3][:3] == ["Posture", "", ""]
    escapes = [r[1] for r in rows[4:] if r[0] == "Escape"]
    assert escapes and "R-1RR-8" not in escapes
    back = choose(export, tmp_path / "back.xlsx", "Orders Dec 24 Russian", {("Escape", escapes[0]): "Yes"})
    wb = openpyxl.load_workbook(back)
    wb["Orders Dec 24 Russian"].cell(4, 3, "Attack")
    wb.save(back)
    code, out, err = run(capsys, "import", book, back)
    assert code == 0 and "2 order(s)" in out, err

"""The A Bridge Too Far forms the refit waits for, built from the RePh state of
the sample: the umpire's End (every unit, 9.603), Umpire (Final CVP, Location
control, Retain/Escape ...) and Dual Assault Setup (9.6214) forms, and each
side's Orders form (one row per decision offered now, 9.6054-9.6143). Each,
filled in, drives the refit as the same entries typed on a bare sheet; every
value a dropdown offers is read without a problem."""
from __future__ import annotations

from pathlib import Path
from typing import Any

import openpyxl
import pytest

from automation import samples_abtf as S
from automation.errors import WorkbookError
from automation.pbem.abtf import ABtFView
from automation.pbem.planning import Overlay
from automation.samples import whole_sheet
from automation.service import plan_refit, refit
from automation.workbook import abtf_sheets as K
from automation.workbook.forms.model import HEADER_ROW, Choice
from automation.workbook.forms.enter import enter as append_sheets  # in place of the refit's forms
from automation.workbook.reader import Workbook
from tests.forms.form_helpers import drawn, fill, lay_in, planned
from tests.pbem.helpers import abtf_purchased, private_copy, run


def _sample(folder: Path) -> Path:
    return abtf_purchased(folder)


@pytest.fixture(scope="module")
def abtf_waiting_end(tmp_path_factory) -> Path:
    book = _sample(tmp_path_factory.mktemp("end"))
    assert refit(book).waiting.sheet == "End 17N"
    return book


@pytest.fixture(scope="module")
def abtf_waiting_umpire(tmp_path_factory) -> Path:
    book = _sample(tmp_path_factory.mktemp("umpire"))
    append_sheets(book, [whole_sheet("End 17N", K.END, S.end_17n(book), "results")], batch="End 17N")
    assert refit(book).waiting.sheet == "Umpire 18AM"
    return book


@pytest.fixture(scope="module")
def abtf_orders(tmp_path_factory) -> Path:
    book = _sample(tmp_path_factory.mktemp("orders"))
    append_sheets(book, [whole_sheet("End 17N", K.END, S.end_17n(book), "results"),
                         whole_sheet("Umpire 18AM", K.UMPIRE, S.UMPIRE_18AM, "results")], batch="End of 17N")
    assert refit(book).waiting.sheet == "Orders 18AM British"
    return book


@pytest.fixture(scope="module")
def dual_assault(tmp_path_factory) -> Path:
    """18AM's purchases with both sides on Attack Chits: a Dual Assault waits for Setup 18AM (9.6214)."""
    book = _sample(tmp_path_factory.mktemp("dual"))
    S.enter_first_scenario(book)
    refit(book)
    attack = [r if r[0] != "Chit" else ["Chit", "Attack", None, None, None, None, None]
              for r in S.PURCHASES_18AM["British"]]
    S.enter_purchases(book, "18AM", {"British": attack, "German": S.PURCHASES_18AM["German"]})
    assert refit(book).waiting.sheet == "Setup 18AM"
    return book


def form_of(book: Path, sheet: str, side: str = "Umpire"):
    wb, plan, _ = planned(book)
    return ABtFView().form(wb, plan, side, sheet)


def setup_form_of(book: Path):
    return form_of(book, "Setup 18AM")


def entries(outcome) -> list[tuple[Any, ...]]:
    return [(e.step, e.subject, e.text) for e in outcome.entries]


def refused_values(book: Path, form, sheet: str, tmp_path: Path) -> list[str]:
    """Each value of each dropdown filled in alone on its row; the values whose
    reading the refit refuses (a WorkbookError), which must be none."""
    bad = []
    n = 0
    for i, row in enumerate(form.rows):
        for column, rule in row.rules.items():
            if not isinstance(rule, Choice):
                continue
            for value in rule.values:
                pick = {column: value}
                if column == "Entry" and value == "Retain" and "Area" in row.rules:
                    pick["Area"] = row.rules["Area"].values[0]
                elif column == "Entry":
                    pick["Hexes"] = 1
                elif column == "Area" and "Entry" in row.rules:
                    pick["Entry"] = "Retain"
                rows = fill(drawn(form, tmp_path / f"v{n}"), form, lambda j, v, i=i, pick=pick: pick if j == i else {})
                n += 1
                try:
                    plan_refit(Overlay(Workbook(book), {sheet: rows}))
                except WorkbookError as exc:
                    bad.append(f"row {i} {column}={value}: {exc.problems[0]}")
    return bad


# ------------------------------------------------------------------ End (9.603)

def test_the_end_form_lists_every_unit_of_the_units_sheet_as_it_stands(abtf_waiting_end):
    form = form_of(abtf_waiting_end, "End 17N")
    units = Workbook(abtf_waiting_end).raw("Units 17N")
    assert [r.values["Unit"] for r in form.rows] == [r[1] for r in units[1:]]
    first = dict(zip(units[0], units[1]))
    assert {c: form.rows[0].values.get(c) for c in units[0]} == {c: (v if v != "" else None) for c, v in first.items()}
    assert form.rows[0].rules["Area"].values[-2:] == (K.UNCONTROLLED, K.WW_BOX)
    assert form.title.startswith("Umpire: the units at CG Scenario End of 17N (9.603), one row per unit of Units 17N")


def test_an_untouched_end_form_accounts_for_every_unit_and_the_refit_goes_on(abtf_waiting_end, tmp_path):
    form = form_of(abtf_waiting_end, "End 17N")
    rows = fill(drawn(form, tmp_path), form, lambda i, v: {})
    outcome, _ = plan_refit(Overlay(Workbook(abtf_waiting_end), {"End 17N": rows}))
    assert outcome.waiting.sheet == "Umpire 18AM"


def test_the_filled_end_form_drives_the_refit_as_the_samples_end_sheet(abtf_waiting_end, tmp_path):
    form = form_of(abtf_waiting_end, "End 17N")
    typed = {r[1]: r for r in S.end_17n(abtf_waiting_end)}

    def pick(i, values):
        row = dict(zip(K.END.header, typed[values["Unit"]]))
        return {c: row[c] for c in ("Area", "Location", "With", "Status", "Squad/HS", "Replaced by")
                if row[c] != values.get(c)}

    rows = fill(drawn(form, tmp_path / "form"), form, pick)
    umpire = whole_sheet("Umpire 18AM", K.UMPIRE, S.UMPIRE_18AM, "results")
    through_form = private_copy(abtf_waiting_end, tmp_path / "f")
    lay_in(through_form, "End 17N", rows, "results")
    append_sheets(through_form, [umpire], batch="umpire")
    bare = private_copy(abtf_waiting_end, tmp_path / "b")
    append_sheets(bare, [whole_sheet("End 17N", K.END, S.end_17n(bare), "results"), umpire], batch="end")
    a, b = refit(through_form), refit(bare)
    assert a.waiting == b.waiting and a.waiting.sheet == "Orders 18AM British"
    assert entries(a) == entries(b)
    assert any(e.subject == "B-1" for e in a.entries)  # the squad eliminated in play (End 17N)


def test_every_area_the_end_form_offers_is_read_without_a_problem(abtf_waiting_end, tmp_path):
    form = form_of(abtf_waiting_end, "End 17N")
    personnel = next(i for i, r in enumerate(form.rows) if r.values["Class"] == "Squad")
    for area in form.rows[personnel].rules["Area"].values:
        rows = fill(drawn(form, tmp_path / area), form, lambda j, v, a=area: {"Area": a} if j == personnel else {})
        plan_refit(Overlay(Workbook(abtf_waiting_end), {"End 17N": rows}))  # no WorkbookError


# ------------------------------------------------------------------ Umpire (9.601-9.6053)

def test_the_umpire_form_asks_final_cvp_location_control_and_each_isolated_unit(abtf_waiting_umpire):
    form = form_of(abtf_waiting_umpire, "Umpire 18AM")
    kinds = [(r.values.get("Entry"), r.values.get("Subject")) for r in form.rows]
    assert kinds[:2] == [("Final CVP", "British"), ("Final CVP", "German")]
    assert ("Location control", "C3") in kinds and ("Location control", "F3") in kinds
    isolated = {s for e, s in kinds if e is None}
    assert {"B-7", "G-1", "G-2", "G-V1"} <= isolated
    g1 = next(r for r in form.rows if r.values.get("Subject") == "G-1")
    assert g1.rules["Entry"].values == ("Retain", "Escape") and "C" not in g1.rules["Area"].values  # German Areas only
    assert form.rows[0].rules["Value"].low == 0


def test_an_untouched_umpire_form_is_no_entry_and_the_refit_still_waits_for_the_final_cvp(abtf_waiting_umpire, tmp_path):
    form = form_of(abtf_waiting_umpire, "Umpire 18AM")
    rows = fill(drawn(form, tmp_path), form, lambda i, v: {})
    outcome, _ = plan_refit(Overlay(Workbook(abtf_waiting_umpire), {"Umpire 18AM": rows}))
    assert outcome.waiting.sheet == "Umpire 18AM" and "Final CVP of the British" in outcome.waiting.what


def test_the_filled_umpire_form_drives_the_refit_as_the_samples_umpire_sheet(abtf_waiting_umpire, tmp_path):
    form = form_of(abtf_waiting_umpire, "Umpire 18AM")
    given = {(r[0], r[1]): r for r in S.UMPIRE_18AM}

    def pick(i, values):
        entry, subject = values.get("Entry"), values.get("Subject")
        if (entry, subject) in given:
            return {"Value": given[(entry, subject)][2]}
        for kind in ("Retain", "Escape"):
            if entry is None and (kind, subject) in given:
                row = given[(kind, subject)]
                return {"Entry": kind, "Area": row[3], "Hexes": row[4]}
        return {}

    rows = fill(drawn(form, tmp_path / "form"), form, pick)
    # the sample names Retains and an Escape by Location (C3, C6, E3) and has a Melee line: typed in the free rows
    free = [["Retain", "C3", None, "F", None, None], ["Retain", "C6", None, "F", None, None],
            ["Escape", "E3", None, "D", 3, None], ["Melee", "C4", "none left", None, None, None]]
    first_free = HEADER_ROW + 1 + len(form.rows)
    for k, extra in enumerate(free):
        while len(rows) <= first_free + k:
            rows.append([])
        rows[first_free + k] = extra + rows[first_free + k][len(extra):]
    through_form = private_copy(abtf_waiting_umpire, tmp_path / "f")
    lay_in(through_form, "Umpire 18AM", rows, "results")
    bare = private_copy(abtf_waiting_umpire, tmp_path / "b")
    lay_in(bare, "Umpire 18AM", [K.UMPIRE.header] + S.UMPIRE_18AM, "results")
    a, b = refit(through_form), refit(bare)
    assert a.waiting == b.waiting and a.waiting.sheet == "Orders 18AM British"
    assert entries(a) == entries(b)


def test_every_value_the_umpire_form_offers_is_read_without_a_problem(abtf_waiting_umpire, tmp_path):
    form = form_of(abtf_waiting_umpire, "Umpire 18AM")
    assert refused_values(abtf_waiting_umpire, form, "Umpire 18AM", tmp_path) == []


def test_an_umpire_row_typed_without_an_entry_is_refused_at_its_cell(abtf_waiting_umpire):
    rows = [K.UMPIRE.header, [None, "British", 3, None, None, None]]
    with pytest.raises(WorkbookError) as err:
        plan_refit(Overlay(Workbook(abtf_waiting_umpire), {"Umpire 18AM": rows}))
    assert str(err.value.problems[0]).startswith("Umpire 18AM!A2: Entry is empty; one of Final CVP, Melee")


# ------------------------------------------------------------------ Setup (9.6214)

def test_the_setup_form_asks_each_side_and_the_first_move_is_rolled_once_both_say_yes(dual_assault, tmp_path):
    form = setup_form_of(dual_assault)
    assert [(r.values["Side"], r.values["Set up"]) for r in form.rows] == [("British", "No"), ("German", "No")]
    untouched = fill(drawn(form, tmp_path / "a"), form, lambda i, v: {})
    outcome, _ = plan_refit(Overlay(Workbook(dual_assault), {"Setup 18AM": untouched}))
    assert outcome.waiting.sheet == "Setup 18AM" and "British, German not yet" in outcome.waiting.what
    done = fill(drawn(form, tmp_path / "b"), form, lambda i, v: {"Set up": "Yes"})
    book = private_copy(dual_assault, tmp_path / "m")
    lay_in(book, "Setup 18AM", done, "results")
    stage_3 = refit(book)
    assert stage_3.waiting is None and stage_3.written == ["RePh 18AM 3"]
    assert [e.roll.label for e in stage_3.entries if e.roll] == ["18AM/9.6215/German"]


# ------------------------------------------------------------------ Orders (9.6054-9.6143)

def test_the_orders_form_offers_each_decision_with_its_own_values(abtf_orders):
    form = form_of(abtf_orders, "Orders 18AM British", "British")
    rows = {(r.values["Order"], r.values["Subject"]): r for r in form.rows}
    assert rows[("Battle Harden", "B-2")].rules["Value"].values == ("Yes",)  # Elite: becomes Fanatic (9.6112)
    assert rows[("Battle Harden", "B-2")].values["Units"] == "B-Hero"
    assert rows[("Transfer", "B-PIAT1")].rules["Value"].values == ("Drop", "Eliminate", "B-Hero")
    # the PzKpfw IIIL the British capture in this RePh (9.6071) is still German when the orders are checked
    assert ("Reman", "G-V1") not in rows and not any(s.startswith("G-") for o, s in rows)
    german = form_of(abtf_orders, "Orders 18AM German", "German")
    assert {r.values["Order"] for r in german.rows} == {"Transfer"}


def test_every_value_the_orders_form_offers_is_read_without_a_problem(abtf_orders, tmp_path):
    form = form_of(abtf_orders, "Orders 18AM British", "British")
    others = {"Orders 18AM German": [K.ORDERS.header]}
    bad = []
    for i, row in enumerate(form.rows):
        for value in row.rules["Value"].values if "Value" in row.rules else ():
            rows = fill(drawn(form, tmp_path / f"{i}-{value}"), form,
                        lambda j, v, i=i, value=value: {"Value": value} if j == i else {})
            try:
                plan_refit(Overlay(Workbook(abtf_orders), {"Orders 18AM British": rows, **others}))
            except WorkbookError as exc:
                bad.append(f"{row.values['Subject']}={value}: {exc.problems[0]}")
    assert bad == []


def test_the_export_carries_the_orders_form_and_a_chosen_row_imports(capsys, abtf_orders, tmp_path):
    book = private_copy(abtf_orders, tmp_path / "m")
    out = tmp_path / "british.xlsx"
    assert run(capsys, "export", book, "--side", "British", "-o", out)[0] == 0
    ws = openpyxl.load_workbook(out)["Orders 18AM British"]
    assert [c.value for c in ws[HEADER_ROW + 1]][:len(K.ORDERS.header)] == K.ORDERS.header
    row = next(r for r in range(HEADER_ROW + 2, ws.max_row + 1)
               if ws.cell(r, 1).value == "Battle Harden" and ws.cell(r, 2).value == "B-2")
    wb = openpyxl.load_workbook(out)
    wb["Orders 18AM British"].cell(row, 3, "Yes")
    wb.save(tmp_path / "back.xlsx")
    code, text, err = run(capsys, "import", book, tmp_path / "back.xlsx")
    assert code == 0 and "1 order(s)" in text, err
    outcome = refit(book)
    assert any(e.subject == "B-Hero" and "B-2 Elite: becomes Fanatic" in e.text for e in outcome.entries)

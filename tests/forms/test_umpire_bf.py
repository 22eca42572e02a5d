"""The Battlefront umpire's Results form (2.1.2): one row per stand that may
have taken part, built from the roster the refit holds; filled in, it is read
by the refit exactly as the same results typed on a bare sheet; every value
its dropdowns and whole-number cells offer is read without a problem."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from automation.pbem.bf import BattlefrontView
from automation.pbem.planning import Overlay
from automation.samples import SAMPLE
from automation.samples_demo import RESULTS_DEC23, SPEND_DEC23
from automation.service import plan_refit, refit
from automation.workbook import bf_sheets as K
from automation.workbook.reader import Workbook
from tests.forms.form_helpers import drawn, every_value, fill, lay_in, planned, variants
from tests.pbem.helpers import enter, private_copy

UMPIRE = "Umpire"


@pytest.fixture(scope="module")
def waiting_results(tmp_path_factory) -> Path:
    """The sample with Dec 23 refitted: the refit of Dec 24 waits for Results Dec 23."""
    folder = tmp_path_factory.mktemp("results")
    book = folder / "rostov.xlsx"
    shutil.copyfile(SAMPLE, book)
    shutil.copyfile(SAMPLE.with_suffix(".key"), book.with_suffix(".key"))
    refit(book)
    enter(book, K.SPEND, SPEND_DEC23, "Dec 23")
    refit(book)
    assert refit(book).waiting.sheet == "Results Dec 23"
    return book


def results_form(book: Path):
    wb, plan, _ = planned(book)
    return BattlefrontView().form(wb, plan, UMPIRE, "Results Dec 23")


def test_the_results_form_has_a_row_for_every_stand_that_may_have_fought_with_its_own_outcomes(waiting_results):
    form = results_form(waiting_results)
    roster = Workbook(waiting_results).raw("Roster Dec 23")
    h = roster[0]
    expected = [r[h.index("Stand")] for side in ("German", "Russian") for r in roster[1:]
                if r[h.index("Side")] == side and r[h.index("Status")] in ("Available", "Used")
                and r[h.index("Kind")] != "Fortification"]  # by side, in roster order
    assert [r.values["Stand"] for r in form.rows] == expected
    assert form.name == "Results Dec 23" and form.title.startswith("Umpire: the results of the scenario of Dec 23 (2.1.2)")
    by_stand = {r.values["Stand"]: r for r in form.rows}
    assert by_stand["G-Pz-2"].rules["Outcome"].values == ("Unharmed", "Knocked out", "Panicked", "Abandoned")
    assert by_stand["G-PzG-3"].rules["Outcome"].values == ("Unharmed", "Knocked out", "Panicked")
    assert by_stand["O3-1 OBA"].rules["Outcome"].values == ("Unharmed", "Used")
    assert "Kills by fire" not in by_stand["O3-1 OBA"].rules
    enemy_of_german = sum(1 for r in form.rows if r.values["Side"] == "Russian")
    kills = by_stand["G-Pz-2"].rules["Kills by fire"]
    assert (kills.low, kills.high) == (0, enemy_of_german)
    assert by_stand["G-Pz-2"].rules["Turns isolated"].high == 20  # the turn record chart's last turn (2.1.2)
    assert all("Outcome" not in r.values for r in form.rows)  # no Forces sheet: nobody is assumed to have fought


def test_the_filled_form_drives_the_refit_as_the_same_results_typed_on_a_bare_sheet(waiting_results, tmp_path):
    form = results_form(waiting_results)
    typed = {r[1]: r for r in RESULTS_DEC23}
    columns = K.RESULTS.header

    def pick(i, values):
        row = typed.get(values["Stand"])
        return {} if row is None else {c: v for c, v in zip(columns, row) if v is not None and c not in ("Side", "Stand")}

    rows = fill(drawn(form, tmp_path / "form"), form, pick)
    through_form = private_copy(waiting_results, tmp_path / "form_book")
    lay_in(through_form, "Results Dec 23", rows, "results")
    bare = private_copy(waiting_results, tmp_path / "bare_book")
    lay_in(bare, "Results Dec 23", [K.RESULTS.header] + RESULTS_DEC23, "results")
    a, b = refit(through_form), refit(bare)
    assert a.waiting == b.waiting and a.waiting.sheet.startswith("Orders Dec 24")
    assert [(e.step, e.subject, e.text) for e in a.entries] == [(e.step, e.subject, e.text) for e in b.entries]
    assert any(e.subject == "G-Pz-2" and "knocked out" in e.text for e in a.entries)


def test_an_untouched_results_form_means_no_stand_took_part(waiting_results, tmp_path):
    form = results_form(waiting_results)
    rows = fill(drawn(form, tmp_path / "form"), form, lambda i, v: {})
    overlay = Overlay(Workbook(waiting_results), {"Results Dec 23": rows})
    outcome, _ = plan_refit(overlay)
    assert outcome.waiting.sheet.startswith("Orders Dec 24")
    assert not [e for e in outcome.entries if e.step == "Cleanup" and "knocked out" in e.text]


def test_every_value_the_results_form_offers_is_read_without_a_problem(waiting_results, tmp_path):
    form = results_form(waiting_results)
    n = variants(form)
    assert n >= 5  # Knocked out by has five choices
    for variant in range(n):
        rows = fill(drawn(form, tmp_path / f"v{variant}"), form, every_value(form, variant))
        outcome, _ = plan_refit(Overlay(Workbook(waiting_results), {"Results Dec 23": rows}))
        assert outcome.waiting is None or outcome.waiting.sheet != "Results Dec 23"


def test_a_row_typed_without_an_outcome_is_still_refused_at_its_cell(waiting_results):
    from automation.errors import WorkbookError

    rows = [K.RESULTS.header, ["German", "G-Pz-2"] + [None] * (len(K.RESULTS.header) - 2)]
    with pytest.raises(WorkbookError) as err:
        plan_refit(Overlay(Workbook(waiting_results), {"Results Dec 23": rows}))
    assert [str(p) for p in err.value.problems] == [
        "Results Dec 23!C2: Outcome is empty; one of Unharmed, Knocked out, Panicked, Abandoned, Used is required"]


def test_after_a_night_scenario_the_results_form_offers_no_aircraft(waiting_results):
    import dataclasses

    from automation.workbook.forms.bf_umpire import results_form as build

    wb, plan, _ = planned(waiting_results)
    rules = object()  # no table: the turn bound falls back, the rows do not depend on it
    assert "F1-1 Aircraft" in [r.values["Stand"] for r in build(plan, rules).rows]
    night = dataclasses.replace(plan.inputs.previous, part=type(plan.inputs.previous.part)("Night"))
    plan.inputs = dataclasses.replace(plan.inputs, previous=night)
    stands = [r.values["Stand"] for r in build(plan, rules).rows]
    assert "F1-1 Aircraft" not in stands and "R-T34-1" in stands  # no air support at night (2.1.1.4.2)

"""The knocked-out vehicle step as wired into the Battlefront refit (after
scenario cleanup, stage 1), run on the Advance to Rostov sample's
Dec 23 results with the campaign's own key."""
import dataclasses

import pytest

from automation import samples_demo as demo
from automation.samples import whole_sheet
from automation.campaign.model import Dice, run_steps
from automation.service import campaign_settings, system_of
from automation.steps.bf import knocked_out, pipeline
from automation.workbook import bf_adapter
from automation.workbook import bf_sheets as K
from automation.workbook.reader import Workbook
from automation.workbook.tables_io import system_from_workbook
from automation.engine.resolver import Situation, resolve
from automation.engine.tables import RuleSystem
from automation.keys import read_key
from automation.rulebook import load_rulebook
from desk_helpers import sample_copy


def _enter(book, batch, sheets) -> None:
    from automation.workbook.forms.enter import enter

    enter(book, sheets, batch=batch)  # whole sheets in place of the refit's forms


def wired() -> tuple:
    names = [s.name for s in pipeline.STEPS]
    assert names[names.index("Scenario cleanup") + 1] == knocked_out.STEP, "the step follows the cleanup"
    return pipeline.STEPS


@pytest.fixture(scope="module")
def dec24_inputs(tmp_path_factory):
    folder = tmp_path_factory.mktemp("ko")
    book = sample_copy(folder)
    from automation.service import refit

    refit(book)
    _enter(book, "Spend Dec 23", [whole_sheet(K.SPEND.name_for(date="Dec 23", side=s), K.SPEND, rows, "orders")
                                       for s, rows in demo.SPEND_DEC23.items()])
    refit(book)
    _enter(book, "Results Dec 23", [whole_sheet(K.RESULTS.name_for(date="Dec 23"), K.RESULTS,
                                                     demo.RESULTS_DEC23, "results")])
    _enter(book, "Orders Dec 24", [whole_sheet(K.ORDERS.name_for(date="Dec 24", side=s), K.ORDERS, rows, "orders")
                                        for s, rows in demo.ORDERS_DEC24.items()])
    _enter(book, "Spend Dec 24", [whole_sheet(K.SPEND.name_for(date="Dec 24", side=s), K.SPEND,
                                                   [r for r in rows if r[0] != "Repair"], "orders")
                                       for s, rows in demo.SPEND_DEC24.items()])
    wb = Workbook(book)
    settings = campaign_settings(wb)
    system = system_from_workbook(wb, system_of(wb, settings))
    inputs, state = bf_adapter.load(wb, system, settings)
    inputs = dataclasses.replace(inputs, settings={**inputs.settings, knocked_out.SETTING: "Yes"})
    return state, inputs, read_key(book.with_suffix(".key")), system


@pytest.fixture(scope="module")
def dec24(dec24_inputs):
    state, inputs, key, system = dec24_inputs
    return run_steps(wired(), state, inputs, Dice(key, system, inputs.date.label))


def test_every_vehicle_knocked_out_on_dec_23_rolls_once(dec24):
    rolls = [e for e in dec24.entries if e.step == knocked_out.STEP and e.roll]
    assert sorted(e.subject for e in rolls) == ["G-Pz-2", "R-T34-2", "R-T34-3"]
    t34 = next(e for e in rolls if e.subject == "R-T34-2")
    assert {m.id for m in t34.roll.modifiers} == {"russian_tank"} and t34.roll.label == "Dec 24/knocked-out/Russian/R-T34-2"
    assert all(e.stage == 1 for e in rolls)


def test_the_repair_step_sees_only_the_wrecks_that_did_not_burn_fiercely(dec24):
    burnt = {e.subject for e in dec24.entries if e.step == knocked_out.STEP and e.roll and e.roll.effect["burn"] == "fierce"}
    repaired = {e.subject for e in dec24.entries if e.step == "Armor repair" and (e.roll or "no attempt" in e.text)}
    assert not burnt & repaired
    assert {"G-Pz-2", "R-T34-3"} - burnt <= repaired
    for stand_id in burnt:
        assert dec24.state.roster.stand(stand_id) is None


class FiercelyBurning(Dice):
    """The campaign's dice, except that every knocked-out vehicle burns fiercely."""

    def roll(self, table_id, label, situation=Situation(), column=None):
        if table_id == knocked_out.TABLE:
            return resolve(self.system.table(table_id), (10,), situation, column=column, label=str(self.label(*label)))
        return super().roll(table_id, label, situation, column)


def test_a_fiercely_burning_wreck_never_reaches_the_repair_step(dec24_inputs):
    state, inputs, key, system = dec24_inputs
    # the sides spend after stage 1 shows which wrecks burnt: nobody orders the removal of a wreck that is gone
    inputs = dataclasses.replace(inputs, spend={side: tuple(o for o in orders or () if o.subject != "R-T34-2")
                                                for side, orders in inputs.spend.items()})
    merged = RuleSystem(system.id, system.title, system.seed, system.origin,
                        {**system.tables, knocked_out.TABLE: load_rulebook().table(knocked_out.TABLE)},
                        system.charts, system.settings)
    run = run_steps(wired(), state, inputs, FiercelyBurning(key, merged, inputs.date.label))
    assert [e.subject for e in run.entries if e.step == "Armor repair" and e.roll] == []
    assert all(run.state.roster.stand(s) is None for s in ("G-Pz-2", "R-T34-2", "R-T34-3"))

"""9.604: Encirclement ITCs with scripted dice, and the umpire-entered minefield,
bog and shock outcomes."""
from __future__ import annotations

from fractions import Fraction

import pytest

from automation.errors import WorkbookError
from automation.steps.abtf import encirclement
from tests.support.abtf import ScriptedDice, block, inputs, line, rolls, state, texts, unit

BLOCKS = [block("B", "British", "B4"), block("E", "German", "E2")]


def test_an_encircled_squad_passes_its_itc_on_a_dr_at_most_its_morale():
    squad = unit("B-6", cls="Squad", strength="6-5-8", area="B", location="B4", status="Encircled")
    dice = ScriptedDice((4, 4), by_label={})
    result = encirclement.run(state(squad, areas=BLOCKS), inputs(), dice)
    [itc] = rolls(result)
    assert itc.roll.final == 8 and itc.roll.result == "Passes" and itc.roll.probability == Fraction(26, 36)
    assert result.state.unit("B-6") is not None and dice.thrown == [("9.6041/itc/British/B-6", (4, 4))]


def test_the_best_leader_in_the_location_lends_his_drm_and_a_leader_never_helps_himself():
    squad = unit("B-6", strength="6-5-8", area="B", location="B4", status="Encircled")
    leader = unit("B-L", cls="Leader", strength="9-2", area="B", location="B4", status="Encircled")
    weak = unit("B-L0", cls="Leader", strength="8-0", area="B", location="B4")
    dice = ScriptedDice(by_label={"9.6041/itc/British/B-6": (5, 5), "9.6041/itc/British/B-L": (5, 4)})
    result = encirclement.run(state(squad, leader, weak, areas=BLOCKS), inputs(), dice)
    squad_itc, leader_itc = rolls(result)
    assert squad_itc.roll.drm == -2 and squad_itc.roll.final == 8 and squad_itc.roll.result == "Passes"
    assert leader_itc.roll.drm == 0 and leader_itc.roll.final == 9 and leader_itc.roll.result == "Passes"


def test_failing_the_itc_eliminates_the_unit_awards_its_cvp_and_leaves_its_equipment_unpossessed():
    squad = unit("G-2", side="German", strength="4-6-7", area="E", location="E2", status="Encircled")
    lmg = unit("G-LMG", side="German", cls="SW", strength=None, area="E", location="E2", holder="G-2", pp=2)
    prisoner = unit("B-9", cls="HS", area="E", location="E2", holder="G-2", status=("Prisoner", "Unarmed"))
    result = encirclement.run(state(squad, lmg, prisoner, areas=BLOCKS), inputs(), ScriptedDice((6, 2)))
    assert rolls(result)[0].roll.final == 8 and rolls(result)[0].roll.result == "Fails"
    after = result.state
    assert after.unit("G-2") is None and after.reph_cvp == {"British": 2}
    assert after.unit("G-LMG").holder is None and after.unit("G-LMG").location == "E2"
    assert not after.unit("B-9").has("Prisoner") and after.unit("B-9").holder is None
    assert "prisoner not claimed: Rearmed (A20.551)" in texts(result, "B-9")


def test_a_prisoner_of_an_eliminated_guard_is_claimed_by_a_friendly_unit_in_the_location():
    guard = unit("G-2", side="German", strength="4-6-7", area="E", location="E2", status="Encircled")
    other = unit("G-3", side="German", strength="4-4-7", area="E", location="E2")
    prisoner = unit("B-9", cls="HS", area="E", location="E2", holder="G-2", status=("Prisoner", "Unarmed"))
    result = encirclement.run(state(guard, other, prisoner, areas=BLOCKS), inputs(), ScriptedDice((6, 6)))
    assert result.state.unit("B-9").holder == "G-3" and result.state.unit("B-9").has("Prisoner")


def test_encircled_vulnerable_prc_of_an_immobile_vehicle_failing_leave_it_abandoned():
    halftrack = unit("G-V2", side="German", cls="Vehicle", strength=None, area="E", location="E4", vehicle="OT AFV",
                     morale_override=8, status=("Encircled", "Immobile"))
    result = encirclement.run(state(halftrack, areas=BLOCKS), inputs(), ScriptedDice((5, 5)))
    assert result.state.unit("G-V2").has("Abandoned") and result.state.reph_cvp == {"British": 1}


def test_a_unit_with_no_morale_to_test_is_a_clear_error():
    crew = unit("G-C", side="German", cls="Crew", strength=None, area="E", location="E2", status="Encircled")
    with pytest.raises(WorkbookError, match=r"End 18N!B\d+: G-C is Encircled and must take an ITC"):
        encirclement.run(state(crew, areas=BLOCKS), inputs(), ScriptedDice())


def test_a_unit_in_a_minefield_waits_for_the_umpire_and_then_takes_the_entered_outcome():
    squad = unit("B-6", area="B", location="B4", status="Minefield", counterpart="3-4-8")
    waiting = encirclement.run(state(squad, areas=BLOCKS), inputs(), ScriptedDice())
    assert waiting.waiting is not None and "Minefield outcome for B-6" in waiting.waiting.what
    assert waiting.waiting.sheet == "Umpire 19AM" and waiting.waiting.who == "Umpire"
    done = encirclement.run(state(squad, areas=BLOCKS), inputs(umpire=[line("Minefield", "B-6", "Casualty Reduction")]),
                            ScriptedDice())
    hs = done.state.unit("B-6")
    assert hs.cls == "HS" and hs.strength == "3-4-8" and hs.counterpart == "6-5-8" and not hs.has("Minefield")
    assert done.state.reph_cvp == {"German": 1}


def test_bog_and_shock_outcomes_come_from_the_umpire():
    bogged = unit("G-V1", side="German", cls="Vehicle", strength=None, area="E", vehicle="CT AFV", status="Bogged")
    shocked = unit("G-V3", side="German", cls="Vehicle", strength=None, area="E", vehicle="CT AFV", status="Shocked", cvp=5)
    given = inputs(umpire=[line("Bog", "G-V1", "Immobilized"), line("Shock", "G-V3", "Eliminated", row=3)])
    result = encirclement.run(state(bogged, shocked, areas=BLOCKS), given, ScriptedDice())
    assert result.state.unit("G-V1").status == frozenset({"Immobile"})
    assert result.state.unit("G-V3") is None and result.state.reph_cvp == {"British": 5}


def test_an_outcome_that_is_not_on_the_list_names_its_cell():
    bogged = unit("G-V1", side="German", cls="Vehicle", strength=None, area="E", vehicle="CT AFV", status="Bogged")
    with pytest.raises(WorkbookError, match=r"Umpire 19AM!C2: Bog: 'Stuck' is not allowed; valid: Unbogged, Immobilized"):
        encirclement.run(state(bogged, areas=BLOCKS), inputs(umpire=[line("Bog", "G-V1", "Stuck")]), ScriptedDice())

"""9.601-9.603 checklist and final CVP; 9.606-9.610 recorded outcomes with their
consequences on the roster."""
from __future__ import annotations

import pytest

from automation.errors import WorkbookError
from automation.steps.abtf import (
    encircled_markers, equipment, flames, markers, melee, prisoners, rally, wounded,
)
from tests.support.abtf import ScriptedDice, block, inputs, line, mods, rolls, state, texts, unit

AREAS = [block("C", "British", "C3", "n"), block("F", "German", "F3"), block("R", None), block("D", "British", "D1")]


def test_melees_are_listed_in_alphanumeric_order():
    given = inputs(umpire=[line("Melee", "C19"), line("Melee", "B17"), line("Melee", "A1"), line("Melee", "B16")])
    result = melee.run(state(areas=AREAS), given, ScriptedDice())
    assert [e.subject for e in result.entries if e.rule == "9.6011"] == ["A1", "B16", "B17", "C19"]


def test_hidden_units_are_revealed_but_an_emplaced_gun_or_a_mine_may_stay_hidden():
    units = [unit("S", status="Hidden", area="C"), unit("G", cls="Gun", strength=None, area="C", status=("Hidden", "Emplaced")),
             unit("M", cls="Fortification", strength=None, area="C", type="A-P minefield 6", status="Hidden"),
             unit("T", cls="Fortification", strength=None, area="C", type="Trench", status="Hidden"),
             unit("X", status="Fanatic", area="C")]
    after = markers.run(state(*units, areas=AREAS), inputs(), ScriptedDice()).state
    assert [u.id for u in after.units if u.status] == ["G", "M"]


def test_9_602_a_still_hidden_observer_is_exempt_from_the_reveal():
    units = [unit("B-OBS", cls="Leader", strength="8-0", type="Offboard Observer", area="C", location="C3", status="Hidden"),
             unit("B-L", cls="Leader", strength="8-0", type="Lt.", area="C", location="C3", status="Hidden")]
    result = markers.run(state(*units, areas=AREAS), inputs(), ScriptedDice())
    assert result.state.unit("B-OBS").has("Hidden") and not result.state.unit("B-L").has("Hidden")
    assert texts(result, "B-OBS") == ["may stay hidden if it sets up in its Location (HIP at no FPP)"]
    assert texts(result, "B-L") == ["placed on map in C3"]


def test_a_unit_eliminated_in_play_is_listed_at_scenario_end():
    from automation.steps.abtf.state import ELIMINATED_IN_PLAY, Removal

    given = inputs(umpire=[line("Final CVP", "British", 2), line("Final CVP", "German", 0, row=3)])
    start = state(areas=AREAS).with_(removed=(Removal(unit("G-1", side="German"), "9.603", ELIMINATED_IN_PLAY, None, 0),))
    result = rally.run(start, given, ScriptedDice())
    assert texts(result, "G-1") == ["eliminated in play (End sheet): its CVP are in the Final CVP"]
    assert result.state.reph_cvp == {}


def test_scenario_end_records_each_sides_final_cvp():
    given = inputs(umpire=[line("Final CVP", "British", 12), line("Final CVP", "German", 31, row=3)])
    after = rally.run(state(areas=AREAS), given, ScriptedDice()).state
    assert after.final_cvp == {"British": 12, "German": 31} and after.records["German"].final_cvp == 31


def test_scenario_end_waits_for_the_final_cvp_and_refuses_a_bad_one():
    waiting = rally.run(state(), inputs(umpire=[line("Final CVP", "British", 3)]), ScriptedDice())
    assert waiting.waiting is not None and waiting.waiting.what == "Final CVP of the German for the scenario just ended"
    with pytest.raises(WorkbookError, match=r"Umpire 19AM!C2: Final CVP: 'lots' is not a CVP total"):
        rally.run(state(), inputs(umpire=[line("Final CVP", "British", "lots")]), ScriptedDice())


def test_encircled_markers_come_off():
    after = encircled_markers.run(state(unit("B-1", status="Encircled")), inputs(), ScriptedDice()).state
    assert after.unit("B-1").status == frozenset()


def test_loose_equipment_in_a_setup_area_goes_to_its_controller_as_captured_and_fortifications_change_hands():
    units = [unit("G-MG", side="German", cls="SW", strength=None, area="C", location="C3"),
             unit("G-V", side="German", cls="Vehicle", strength=None, area="C", location="C3", vehicle="CT AFV", status="Abandoned"),
             unit("G-V-MA", side="German", cls="Vehicular weapon", strength=None, area="C", holder="G-V"),
             unit("B-MG", cls="SW", strength=None, area="C", location="n", status="Captured", side="German"),
             unit("G-R", side="German", cls="SW", strength=None, area="R", location="R1"),
             unit("G-AP", side="German", cls="Fortification", strength=None, area="C", type="A-P minefield 8", status="Hidden")]
    result = equipment.run(state(*units, areas=AREAS), inputs(), ScriptedDice())
    after = result.state
    assert (after.unit("G-MG").side, after.unit("G-MG").has("Captured")) == ("British", True)
    assert after.unit("G-V").side == "British" and after.unit("G-V-MA").side == "British"
    assert (after.unit("B-MG").side, after.unit("B-MG").has("Captured")) == ("British", False)
    assert after.unit("G-R").side == "German"
    assert after.unit("G-AP").side == "British" and not after.unit("G-AP").has("Hidden")
    assert any("presence, not its strength" in t for t in texts(result, "G-AP"))


def test_prisoners_leave_play_without_cvp_and_unguarded_unarmed_units_rearm():
    units = [unit("B-P", cls="HS", area="F", holder="G-1", status=("Prisoner", "Unarmed")),
             unit("G-1", side="German", strength="4-6-7", area="F"), unit("B-U", cls="HS", area="D", status="Unarmed")]
    after = prisoners.run(state(*units, areas=AREAS), inputs(), ScriptedDice()).state
    assert after.unit("B-P") is None and after.reph_cvp == {} and after.unit("B-U").status == frozenset()


def test_a_burned_building_eliminates_its_fortifications_equipment_and_vehicles_and_woods_burn_out_wrecks():
    units = [unit("F1", cls="Fortification", strength=None, area="C", location="C3", type="Foxhole"),
             unit("MG", cls="SW", strength=None, area="C", location="C3"),
             unit("V1", cls="Vehicle", strength=None, area="C", location="C3", vehicle="CT AFV"),
             unit("S1", area="C", location="C3"),
             unit("V2", cls="Vehicle", strength=None, area="D", location="D5", vehicle="CT AFV")]
    given = inputs(umpire=[line("Blaze", "C3", "Building"), line("Blaze", "D5", "Woods", row=3)])
    result = flames.run(state(*units, areas=AREAS), given, ScriptedDice())
    assert [u.id for u in result.state.units] == ["S1", "V2"] and result.state.unit("V2").has("Burnt-out")
    assert result.state.reph_cvp == {}


@pytest.mark.parametrize("side, heroic, dr, final, outcome", [
    ("British", False, 2, 1, "unwounded"), ("British", True, 4, 2, "wounded"), ("German", False, 5, 5, "eliminated"),
    ("German", True, 2, 1, "unwounded"), ("British", False, 6, 5, "eliminated"),
])
def test_wounded_leaders_roll_with_the_british_and_heroic_drm(side, heroic, dr, final, outcome):
    leader = unit("L", side=side, cls="Leader", strength="8-1", area="C", cvp=1,
                  status=("Wounded", "Heroic") if heroic else "Wounded")
    result = wounded.run(state(leader, areas=AREAS), inputs(), ScriptedDice((dr,)))
    [roll] = rolls(result)
    assert roll.roll.final == final and roll.roll.column == side
    after = result.state.unit("L")
    got = "eliminated" if after is None else ("wounded" if after.has("Wounded") else "unwounded")
    assert got == outcome


def test_walking_wounded_mmc_recovered_by_the_umpire_return_to_a_british_setup_area():
    ww = unit("B-W", cls="HS", area="Walking Wounded Box")
    result = wounded.run(state(ww, areas=AREAS), inputs(umpire=[line("Walking Wounded", "B-W", area="D")]), ScriptedDice())
    assert result.state.unit("B-W").area == "D" and result.state.unit("B-W").has("Walking Wounded")
    with pytest.raises(WorkbookError, match=r"Umpire 19AM!D2: Walking Wounded: 'F' is not a British Setup Area"):
        wounded.run(state(ww, areas=AREAS), inputs(umpire=[line("Walking Wounded", "B-W", area="F")]), ScriptedDice())


def test_heroic_drm_shows_in_the_modifiers():
    leader = unit("L", cls="Leader", strength="8-1", area="C", status=("Wounded", "Heroic"))
    result = wounded.run(state(leader, areas=AREAS), inputs(), ScriptedDice((3,)))
    assert mods(rolls(result)[0]) == {"british": -1, "heroic": -1}

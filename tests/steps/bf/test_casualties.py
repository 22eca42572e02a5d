"""2.1.1.3.1 Casualties and the roster: knocked-out stands and soft vehicles
leave, panicked stands return, "A" wrecks stay unavailable, and enemy "A"
wrecks behind a side's lines may be destroyed on the Fortification Removal
Table at 1 FPP each."""
from __future__ import annotations

from fractions import Fraction

from automation.steps.bf import casualties
from automation.steps.bf.state import Situation, Status
from tests.support.bf import (
    Campaign, afv, engineers, ledger, modifiers, removal, rolls, run, soft, stand_ids, texts, troops, wreck,
)
from tests.support.dice import ScriptedDice, at


def battle() -> Campaign:
    return (Campaign()
            .me("4/114 PzG", "German", "I", "Panzergrenadier company", troops("G-PzG-1"), troops("G-PzG-2"),
                soft("G-Truck-1"), soft("G-Truck-2"), troops("G-PzG-3"))
            .me("II/11 Pz", "German", "A", "Panzer company", afv("G-Pz-1"), afv("G-Pz-2"))
            .me("1/87 TB", "Russian", "A", "Tank company", afv("R-T34-1"), afv("R-T34-2"), afv("R-T34-3"),
                discipline="Trained")
            .me("2/57 Pio", "German", "E", "Pioneer platoon", engineers("G-Pio-1"), engineers("G-Pio-2"),
                engineers("G-Pio-3"))
            .result("G-PzG-1", "Knocked out", ko_by="Direct fire")
            .result("G-Truck-1", "Knocked out")
            .result("G-Truck-2", "Abandoned")
            .result("G-PzG-2", "Panicked")
            .result("G-Pz-2", "Knocked out", ends_in="Own lines")
            .result("R-T34-2", "Knocked out", ends_in="Enemy lines")
            .result("R-T34-3", "Abandoned", ends_in="Own lines"))


def test_knocked_out_stands_and_soft_vehicles_leave_and_panicked_stands_return():
    inputs, state = battle().prepared()
    result = run(casualties, inputs, state, ScriptedDice())
    german = stand_ids(result.state, "German")
    assert {"G-PzG-1", "G-Truck-1", "G-Truck-2"}.isdisjoint(german)
    assert {"G-PzG-2", "G-PzG-3"} <= german
    assert result.state.roster.stand("G-PzG-2").available
    assert texts(result, "G-PzG-1") == ["Rifle (Troops) knocked out: permanently off the roster"]
    assert texts(result, "G-PzG-2") == ["panicked off the map: not eliminated, returns for the next scenario"]


def test_a_vehicles_wrecks_stay_on_the_roster_unavailable():
    inputs, state = battle().prepared()
    result = run(casualties, inputs, state, ScriptedDice())
    for stand_id, abandoned, lines in (("G-Pz-2", False, "Own lines"), ("R-T34-2", False, "Enemy lines"),
                                       ("R-T34-3", True, "Own lines")):
        s = result.state.roster.stand(stand_id)
        assert s is not None and s.status is Status.WRECK and not s.available
        assert (s.abandoned, s.wreck_lines) == (abandoned, lines)
    assert texts(result, "R-T34-3") == [
        "abandoned vehicle kept on the roster, unavailable until repaired or destroyed (own lines)"]


def test_an_enemy_wreck_behind_own_lines_is_destroyed_on_6_or_more_for_1_fpp():
    campaign = battle().me("2/57 Pio", "German", "E", "Pioneer platoon", engineers("G-Pio-1"))  # fewer than 3 engineers
    inputs, state = campaign.spend("German", removal("R-T34-2")).prepared()
    result = run(casualties, inputs, state, ScriptedDice(at("wreck-removal/German/R-T34-2", 6)))
    (roll,) = rolls(result)
    assert roll.table_id == "bf.fortification_removal" and modifiers(roll) == {}
    assert (roll.result, roll.probability) == ("Eliminated", Fraction(5, 10))
    assert "R-T34-2" not in stand_ids(result.state)
    assert ledger(result.state, "German", "FPP") == [("Destroy wreck R-T34-2", -1, 3)]
    assert result.state.wreck_removals == {"R-T34-2"}


def test_three_non_isolated_engineer_squads_add_one_and_a_failure_still_costs_the_fpp():
    inputs, state = battle().spend("German", removal("R-T34-2")).prepared()
    result = run(casualties, inputs, state, ScriptedDice(at("wreck-removal/German/R-T34-2", 4)))
    (roll,) = rolls(result)
    assert modifiers(roll) == {"engineers": 1} and (roll.final, roll.result) == (5, "No effect")
    assert result.state.roster.stand("R-T34-2").status is Status.WRECK
    assert result.state.ledger.fpp["German"] == 3


def test_an_isolated_engineer_squad_does_not_count():
    inputs, state = battle().result("G-Pio-3", situation="Isolated").spend("German", removal("R-T34-2")).prepared()
    result = run(casualties, inputs, state, ScriptedDice(5))
    assert modifiers(rolls(result)[0]) == {}


def test_the_removal_cost_is_the_settings_value():
    inputs, state = (battle().setting("FPP cost of one fortification removal attempt", 2)
                     .spend("German", removal("R-T34-2")).prepared())
    result = run(casualties, inputs, state, ScriptedDice(1))
    assert ledger(result.state, "German", "FPP") == [("Destroy wreck R-T34-2", -2, 2)]


def test_only_enemy_wrecks_behind_the_sides_lines_may_be_destroyed():
    inputs, state = (battle().me("2/87 TB", "Russian", "A", "Tank company", wreck("R-T70-1", lines="Enemy lines"))
                     .spend("German", removal("G-Pz-2"), removal("R-T34-3"), removal("R-T34-1"),
                            removal("R-T70-1"), removal("R-T70-1")).prepared())
    problems, costs = casualties.check(inputs, state, "German", inputs.spend["German"])
    assert [str(p) for p in problems] == [
        "Spend Dec 24 German!B2: Removal: G-Pz-2 belongs to German; only enemy wrecks are destroyed (2.1.1.3.1)",
        "Spend Dec 24 German!B3: Removal: R-T34-3 is not an enemy wreck behind the lines of German "
        "(its Wreck lines must be Enemy lines, 2.1.1.3.1)",
        "Spend Dec 24 German!B4: Removal: R-T34-1 is not an enemy wreck behind the lines of German "
        "(its Wreck lines must be Enemy lines, 2.1.1.3.1)",
        "Spend Dec 24 German!B6: Removal: R-T70-1 is named twice; one attempt per item (2.1.1.5.1)",
    ]
    assert sum(c.amount for c in costs) == 5


def test_2_1_1_3_1_item_3_a_wreck_inside_its_own_sides_cut_off_pocket_cannot_be_destroyed():
    campaign = (battle().me("2/87 TB", "Russian", "A", "Tank company", afv("R-T70-1", situation=Situation.CUT_OFF),
                            afv("R-T70-2", situation=Situation.CUT_OFF))
                .result("R-T70-1", "Knocked out", ends_in="Enemy lines"))
    inputs, state = campaign.spend("German", removal("R-T70-1"), removal("R-T34-2")).prepared()
    kept = state.roster.stand("R-T70-1")
    assert kept.status is Status.WRECK and kept.situation is Situation.CUT_OFF
    problems, costs = casualties.check(inputs, state, "German", inputs.spend["German"])
    assert [str(p) for p in problems] == [
        "Spend Dec 24 German!B2: Removal: R-T70-1 lies inside a cut off pocket of the forces of Russian and cannot be "
        "destroyed; valid: enemy wrecks in Normal situation behind the lines of German (2.1.1.3.1 item 3)"]
    assert [c.amount for c in costs] == [1, 1]

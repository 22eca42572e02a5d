"""2.1.1.5 FPP: carry-over, fortification removal attempts (1 FPP each, one
per item, every modifier) and fortifications bought from the FP chart."""
from __future__ import annotations

from fractions import Fraction

from automation.steps.bf import casualties, fpp
from tests.support.bf import (
    Campaign, build_fortification, engineers, fortification, ledger, modifiers, removal, rolls, run, stand_ids, texts,
)
from tests.support.dice import ScriptedDice, at


def germans(engineer_squads: int = 3) -> Campaign:
    return (Campaign().fpp("German", 5)
            .me("2/57 Pio", "German", "E", "Pioneer platoon", *[engineers(f"G-Pio-{i}") for i in range(1, engineer_squads + 1)])
            .fp("Both", "Minefield section", 2).fp("Both", "Wire section", 1).fp("German", "Improved position", 1))


def test_a_removal_attempt_costs_1_fpp_and_takes_every_modifier():
    inputs, state = germans().spend("German", removal("Wire north of the kolkhoz", "near MLR"),
                                    removal("Roadblock on the Aksai road", "roadblock on MLR")).prepared()
    dice = ScriptedDice(at("removal/German/order-1", 7), at("removal/German/order-2", 6))
    result = run(fpp, inputs, state, dice)
    wire, roadblock = rolls(result)
    assert modifiers(wire) == {"near_mlr": -2, "engineers": 1} and (wire.final, wire.result) == (6, "Eliminated")
    assert wire.probability == Fraction(4, 10)  # naturals 7-10
    assert modifiers(roadblock) == {"roadblock_on_mlr": -2, "engineers": 1} and roadblock.result == "No effect"
    assert ledger(result.state, "German", "FPP") == [("Removal attempt: Wire north of the kolkhoz", -1, 4),
                                                     ("Removal attempt: Roadblock on the Aksai road", -1, 3)]


def test_two_engineer_squads_give_no_bonus():
    inputs, state = germans(2).spend("German", removal("Wire")).prepared()
    assert modifiers(rolls(run(fpp, inputs, state, ScriptedDice(6)))[0]) == {}


def test_one_attempt_per_item_and_known_conditions_only():
    inputs, state = germans().spend("German", removal("Wire A"), removal("wire a"), removal("Wire B", "under fire"),
                                    removal("")).prepared()
    problems, costs = fpp.check(inputs, state, "German", inputs.spend["German"])
    assert [str(p) for p in problems] == [
        "Spend Dec 24 German!B3: Removal: 'wire a' is named twice; one attempt per item (2.1.1.5.1)",
        "Spend Dec 24 German!D4: Removal: unknown condition(s) under fire; valid: near MLR; roadblock on MLR (separate with ;)",
        "Spend Dec 24 German!B5: Removal: name the wire, minefield, roadblock or enemy wreck"]
    assert [c.amount for c in costs] == [1, 1, 1, 1]


def test_fortifications_cost_their_fp_chart_price_and_must_be_placed_next_scenario():
    inputs, state = germans().spend("German", build_fortification("Minefield section", 2),
                                    build_fortification("Improved position")).prepared()
    result = run(fpp, inputs, state)
    forts = result.state.roster.of_me("Fortifications German")
    assert [(s.id, s.type, s.notes) for s in forts] == [
        ("German Minefield section Dec 24 1", "Minefield section", "must be placed in the next scenario (2.1.1.5.2)"),
        ("German Minefield section Dec 24 2", "Minefield section", "must be placed in the next scenario (2.1.1.5.2)"),
        ("German Improved position Dec 24 1", "Improved position", "must be placed in the next scenario (2.1.1.5.2)")]
    assert ledger(result.state, "German", "FPP") == [("2 x Minefield section", -4, 1), ("1 x Improved position", -1, 0)]
    assert "FPP left: 0 (carried over)" in texts(result, "German")


def test_fortifications_bought_earlier_are_in_place_after_the_scenario():
    campaign = germans().me("Fortifications German", "German", "S", "Fortifications",
                            fortification("German Wire section Dec 23 1", "Wire section",
                                          notes="must be placed in the next scenario (2.1.1.5.2)"))
    inputs, state = campaign.prepared()
    assert run(fpp, inputs, state).state.roster.stand("German Wire section Dec 23 1").notes == "in place until removed (2.1.1.5.2)"
    inputs, state = campaign.both_defended_last_time().prepared()
    assert run(fpp, inputs, state).state.roster.stand("German Wire section Dec 23 1").notes.startswith("must be placed")


def test_an_item_not_on_the_fp_chart_is_named_with_the_valid_ones():
    inputs, state = germans().spend("Russian", build_fortification("Improved position"), build_fortification("Wire section", 0)).prepared()
    problems, _ = fpp.check(inputs, state, "Russian", inputs.spend["Russian"])
    assert [str(p) for p in problems] == [
        "Spend Dec 24 Russian!B2: Fortification: 'Improved position' is not on the FP chart for Russian; "
        "valid: Minefield section, Wire section",
        "Spend Dec 24 Russian!C3: Fortification: how many: a whole number of 1 or more, not 0"]


def test_unspent_fpp_carry_over():
    inputs, state = germans().fpp("Russian", 3).prepared()
    result = run(fpp, inputs, state)
    assert result.state.ledger.fpp == {"German": 5, "Russian": 3}
    assert "FPP left: 3 (carried over)" in texts(result, "Russian")


def russian_wire() -> Campaign:
    return germans().me("Fortifications Russian", "Russian", "S", "Fortifications",
                        fortification("Russian Wire section Dec 23 1", "Wire section", notes="in place until removed (2.1.1.5.2)"),
                        fortification("Russian Minefield section Dec 23 1", "Minefield section",
                                      notes="in place until removed (2.1.1.5.2)"))


def test_2_1_1_5_1_an_enemy_fortification_eliminated_by_its_roster_id_leaves_the_owners_roster():
    inputs, state = russian_wire().spend("German", removal("Russian Wire section Dec 23 1", "near MLR")).prepared()
    problems, costs = fpp.check(inputs, state, "German", inputs.spend["German"])
    assert problems == [] and [c.amount for c in costs] == [1]
    wreck_problems, wreck_costs = casualties.check(inputs, state, "German", inputs.spend["German"])
    assert (wreck_problems, wreck_costs) == ([], [])  # a fortification is not an enemy wreck
    dice = ScriptedDice(at("removal/German/Russian Wire section Dec 23 1", 8))
    result = run(fpp, inputs, state, dice)
    (roll,) = rolls(result)
    assert modifiers(roll) == {"near_mlr": -2, "engineers": 1} and (roll.final, roll.result) == (7, "Eliminated")
    assert "Russian Wire section Dec 23 1" not in stand_ids(result.state, "Russian")
    assert "Russian Minefield section Dec 23 1" in stand_ids(result.state, "Russian")
    assert texts(result, "Russian Wire section Dec 23 1") == [
        "Eliminated: Russian Wire section Dec 23 1 (Wire section) leaves the roster of Russian (1 FPP)"]
    assert ledger(result.state, "German", "FPP") == [("Removal attempt: Russian Wire section Dec 23 1", -1, 4)]


def test_2_1_1_5_2_a_fortification_the_removal_roll_misses_stays_in_place():
    inputs, state = russian_wire().spend("German", removal("Russian Minefield section Dec 23 1")).prepared()
    result = run(fpp, inputs, state, ScriptedDice(at("removal/German/Russian Minefield section Dec 23 1", 4)))
    assert rolls(result)[0].final == 5 and rolls(result)[0].result == "No effect"
    fort = result.state.roster.stand("Russian Minefield section Dec 23 1")
    assert fort is not None and fort.notes == "in place until removed (2.1.1.5.2)"
    assert texts(result, "Russian Minefield section Dec 23 1") == [
        "No effect: Russian Minefield section Dec 23 1 (Minefield section) stays in place (1 FPP)"]

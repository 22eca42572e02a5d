"""2.1 Posture determination and the night-attack flag (2.1.1.1.1)."""
from __future__ import annotations

from dataclasses import replace

from automation.steps.bf import cpp, pipeline, posture
from tests.support.bf import Campaign, ledger, modifiers, rolls, run, texts
from tests.support.dice import ScriptedDice, at, bf_system

NIGHT_DAY = (("Dec 23 AM", "1942-12-23", "Morning"), ("Dec 23 PM", "1942-12-23", "Afternoon"),
             ("Dec 23 N", "1942-12-23", "Night"), ("Dec 24 AM", "1942-12-24", "Morning"))


def test_2_1_defender_sets_up_first_attacker_sets_up_second_and_moves_second():
    inputs, state = Campaign().orders("German", ("Posture", None, "Defend", None)).orders(
        "Russian", ("Posture", None, "Attack", None)).build()
    result = run(posture, inputs, state, ScriptedDice())
    assert result.state.attacker == "Russian" and result.state.scenario
    assert result.state.postures == {"German": "Defend", "Russian": "Attack"}
    assert ("attacker Russian; defender German; first to set up: German; second to set up and to move: Russian"
            in texts(result))


def test_both_attacking_roll_off_ties_are_rolled_again_and_the_high_roll_attacks():
    inputs, state = Campaign().orders("German", ("Posture", None, "Attack", None)).orders(
        "Russian", ("Posture", None, "Attack", None)).build()
    dice = ScriptedDice(at("posture/rolloff/German/throw1", 6), at("posture/rolloff/Russian/throw1", 6),
                        at("posture/rolloff/German/throw2", 3), at("posture/rolloff/Russian/throw2", 8))
    result = run(posture, inputs, state, dice)
    assert result.state.attacker == "Russian"
    assert ("both attack: roll-off German 6, Russian 6 (tie: rolled again); German 3, Russian 8: "
            "attacker Russian, defender German; first to set up: German; second to set up and to move: Russian") in texts(result)


def test_the_first_side_wins_the_roll_off_on_a_higher_die():
    inputs, state = Campaign().orders("German", ("Posture", None, "Attack", None)).orders(
        "Russian", ("Posture", None, "Attack", None)).build()
    result = run(posture, inputs, state, ScriptedDice(10, 1))
    assert result.state.attacker == "German"


def test_both_defending_means_no_scenario_and_no_roll():
    inputs, state = Campaign().orders("German", ("Posture", None, "Defend", None)).orders(
        "Russian", ("Posture", None, "Defend", None)).build()
    result = run(posture, inputs, state, ScriptedDice())
    assert result.state.attacker is None and not result.state.scenario
    assert "both defend: no scenario is played; the refit still happens (2.1.1.6)" in texts(result)


def test_both_defending_the_rest_of_the_refit_still_happens():
    inputs, state = (Campaign().orders("German", ("Posture", None, "Defend", None))
                     .orders("Russian", ("Posture", None, "Defend", None))
                     .rg("German", "I1", cpp=8, stands="Rifle x3").spend("German", ("Purchase", "I1", 1, None))
                     .build())
    dice = ScriptedDice(at("cpp/German", 5), at("cpp/Russian", 5))
    done = pipeline.refit(state, inputs, dice)
    dice.assert_used_up()
    assert done.waiting is None
    assert done.completed == [s.name for s in pipeline.STEPS]
    assert "I1-1" in done.state.roster.mes  # purchases still happen
    assert ("Scenario length", "no scenario this date") in [(e.step, e.text) for e in done.entries]


def test_the_first_scenario_takes_its_postures_from_the_sides_sheet():
    inputs, state = Campaign(today="Dec 23").build()
    result = run(posture, inputs, state)
    assert result.state.attacker == "Russian"  # Sides: German Defend, Russian Attack


def test_the_first_scenario_waits_for_the_umpire_if_a_posture_is_missing():
    inputs, state = Campaign(today="Dec 23").build()
    inputs = replace(inputs, sides=(replace(inputs.sides[0], first_posture=None), inputs.sides[1]))
    waiting = run(posture, inputs, state).waiting
    assert waiting is not None and (waiting.who, waiting.sheet) == ("Umpire", "Sides")


def test_a_later_scenario_waits_for_the_sides_orders():
    inputs, state = Campaign().orders("German", ("Posture", None, "Attack", None)).build()
    waiting = run(posture, inputs, state).waiting
    assert waiting is not None and (waiting.who, waiting.sheet) == ("Russian", "Orders Dec 24 Russian")


def test_attacking_at_night_is_flagged_and_costs_five_on_the_cpp_roll():
    inputs, state = (Campaign(today="Dec 23 N").dated(*NIGHT_DAY)
                     .orders("German", ("Posture", None, "Attack", None))
                     .orders("Russian", ("Posture", None, "Defend", None)).build())
    flagged = run(posture, inputs, state)
    assert flagged.state.ledger.night_attackers == ("German",)
    assert "attacker at night: night penalty on the CPP roll" in texts(flagged, "German")
    rolled = run(cpp, inputs, flagged.state, ScriptedDice(at("cpp/German", 8), at("cpp/Russian", 8)))
    german, russian = [e.roll for e in rolled.entries if e.roll is not None]
    assert modifiers(german) == {"night_attack": -5} and (german.final, german.result) == (3, "+10")
    assert modifiers(russian) == {} and (russian.final, russian.result) == (8, "+14")  # the defender: unmodified
    assert ledger(rolled.state, "German")[-1] == ("Replenished", 10, 20)


def test_at_night_only_the_roll_off_winner_attacks_and_takes_the_penalty():
    inputs, state = (Campaign(today="Dec 23 N").dated(*NIGHT_DAY)
                     .orders("German", ("Posture", None, "Attack", None))
                     .orders("Russian", ("Posture", None, "Attack", None)).build())
    flagged = run(posture, inputs, state, ScriptedDice(2, 7))
    assert flagged.state.attacker == "Russian" and flagged.state.ledger.night_attackers == ("Russian",)


def test_a_day_attack_is_not_flagged():
    inputs, state = (Campaign(today="Dec 23 PM").dated(*NIGHT_DAY)
                     .orders("German", ("Posture", None, "Attack", None))
                     .orders("Russian", ("Posture", None, "Defend", None)).build())
    assert run(posture, inputs, state).state.ledger.night_attackers == ()


def test_the_night_penalty_is_read_from_the_table_so_the_umpire_may_edit_it():
    system = bf_system()
    table = system.table("bf.cpp_replenishment")
    edited = replace(table, modifiers=tuple(replace(m, value=-3) if m.id == "night_attack" else m for m in table.modifiers))
    system = replace(system, tables={**system.tables, table.id: edited})
    inputs, state = Campaign(today="Dec 23 N").dated(*NIGHT_DAY).night_attacker("German").build()
    rolled = run(cpp, inputs, state, ScriptedDice(8, 8, system=system))
    assert modifiers(rolls(rolled)[0]) == {"night_attack": -3}

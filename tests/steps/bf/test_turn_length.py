"""2.1.2 Scenario length: the turn record chart's d10 from turn 11."""
from __future__ import annotations

from fractions import Fraction

from automation.engine.resolver import odds
from automation.steps.bf import turn_length
from tests.support.bf import Campaign, rolls, run, texts
from tests.support.dice import ScriptedDice, at, bf_system


def test_from_turn_11_the_chart_ends_the_scenario_on_1_then_1_2_then_1_3():
    inputs, state = Campaign().build()
    dice = ScriptedDice(at("turn-end/Turn 11", 2), at("turn-end/Turn 12", 3), at("turn-end/Turn 13", 3))
    result = run(turn_length, inputs, state, dice)
    assert [(r.column, r.result) for r in rolls(result)] == [
        ("Turn 11", "Play the turn"), ("Turn 12", "Play the turn"), ("Turn 13", "Scenario ends")]
    assert texts(result)[-1] == "unless both players stop sooner, the scenario ends at the start of turn 13"
    assert {e.visible_to for e in result.entries} == {"Umpire"}


def test_turn_20_is_the_last():
    inputs, state = Campaign().build()
    result = run(turn_length, inputs, state, ScriptedDice(*[10] * 10))
    assert rolls(result)[-1].column == "Turn 20" and rolls(result)[-1].result == "Scenario ends"


def test_the_odds_of_ending_grow_by_a_tenth_each_turn():
    table = bf_system().table("bf.scenario_turn_end")
    for turn in range(11, 21):
        ends = {o.result: o.probability for o in odds(table, f"Turn {turn}")}["Scenario ends"]
        assert ends == Fraction(turn - 10, 10)


def test_no_scenario_no_roll():
    inputs, state = Campaign().build()
    result = run(turn_length, inputs, state.with_(scenario=False), ScriptedDice())
    assert texts(result) == ["no scenario this date"]

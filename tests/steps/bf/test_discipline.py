"""2.1.1.3.1 (optional) Discipline rating changes: when they are rolled, for
whom, every modifier of the table, the ends of the ladder and cut-off units'
own rolls."""
from __future__ import annotations

from fractions import Fraction

import pytest

from automation.steps.bf import discipline
from tests.support.bf import Campaign, command, modifiers, rolls, run, texts, troops
from tests.support.dice import ScriptedDice, at

AM_PM = (("Dec 23 AM", "1942-12-23", "Morning"), ("Dec 23 PM", "1942-12-23", "Afternoon"),
         ("Dec 24 AM", "1942-12-24", "Morning"))


def company(campaign: Campaign, rating: str = "Veteran", base: int | None = None, losses: int = 0) -> Campaign:
    stands = [command("G-PzG-1")] + [troops(f"G-PzG-{i}", "Panzergrenadier") for i in range(2, 9)]
    return campaign.me("4/114 PzG", "German", "I", "Panzergrenadier company", *stands, discipline=rating,
                       base=base, losses=losses)


def ratings(state, me_id: str) -> set[str]:
    return {s.discipline for s in state.roster.of_me(me_id)}


def test_the_optional_rule_switched_off_rolls_nothing():
    inputs, state = company(Campaign()).setting(discipline.SETTING, "No").result("G-PzG-2", kills_by_fire=1).prepared()
    result = run(discipline, inputs, state, ScriptedDice())
    assert texts(result) == ["optional rule not in use (Settings sheet): no rolls"]


def test_an_me_that_fought_rolls_and_one_that_did_not_does_not():
    campaign = company(Campaign()).me("2/57 Pio", "German", "E", "Pioneer platoon", troops("G-Pio-1"))
    inputs, state = campaign.result("G-PzG-2").prepared()  # an Unharmed row: the ME took part
    result = run(discipline, inputs, state, ScriptedDice(at(("discipline", "German", "4/114 PzG"), 50)))
    (roll,) = rolls(result)
    assert roll.table_id == "bf.discipline_change" and roll.dice == (5, 10) and roll.natural == 50
    assert roll.result == "Discipline unchanged"


@pytest.mark.parametrize("today, dates, rolls_now", [
    ("Dec 24", None, True),            # a full-day scenario starts the day
    ("Dec 23", None, False),           # the initial scenario
    ("Dec 23 PM", AM_PM, False),       # an afternoon scenario
    ("Dec 24 AM", AM_PM, True),        # the next morning
])
def test_rolled_only_at_a_morning_scenario_other_than_the_first(today, dates, rolls_now):
    campaign = Campaign(today=today)
    if dates:
        campaign.dated(*dates)
    inputs, state = company(campaign).result("G-PzG-2").prepared()
    result = run(discipline, inputs, state, ScriptedDice(50) if rolls_now else ScriptedDice())
    assert bool(rolls(result)) is rolls_now


def test_no_rolls_when_no_scenario_was_played():
    inputs, state = company(Campaign()).both_defended_last_time().prepared()
    assert texts(run(discipline, inputs, state, ScriptedDice())) == ["no scenario was played: no change"]


@pytest.mark.parametrize("lost, band", [(1, None), (2, "casualties_25"), (3, "casualties_25"), (4, "casualties_50"),
                                        (5, "casualties_50"), (6, "casualties_75"), (8, "casualties_75")])
def test_the_casualty_bands_are_25_50_75_percent_and_only_the_highest_applies(lost, band):
    campaign = company(Campaign(), base=8).result("G-PzG-1")
    for i in range(2, 2 + lost):
        campaign.result(f"G-PzG-{i}" if i <= 8 else "G-PzG-1", "Knocked out")
    inputs, state = campaign.prepared()
    (roll,) = rolls(run(discipline, inputs, state, ScriptedDice(50)))
    expected = {"casualties_25": -1, "casualties_50": -2, "casualties_75": -4}
    assert modifiers(roll) == ({band: expected[band]} if band else {})


def test_casualties_come_from_the_scenarios_knocked_out_stands_against_the_breakpoint_base():
    inputs, state = (company(Campaign()).result("G-PzG-2", "Knocked out").result("G-PzG-3", "Knocked out")
                     .result("G-PzG-4", "Knocked out").result("G-PzG-5", "Knocked out").prepared())
    (roll,) = rolls(run(discipline, inputs, state, ScriptedDice(50)))
    assert modifiers(roll) == {"casualties_50": -2}  # 4 of 8


def test_every_modifier_adds_up_and_a_final_of_0_drops_one_level():
    inputs, state = (company(Campaign())
                     .result("G-PzG-2", "Knocked out")
                     .result("G-PzG-3", "Knocked out")                       # 2 of 8: -1
                     .result("G-PzG-4", "Panicked").result("G-PzG-5", "Panicked")  # -2 each
                     .result("G-PzG-6", kills_by_fire=2, cc_wins=1)          # +1 each
                     .result("G-PzG-7", kills_by_fire=1, cc_wins=1, cc_losses=1)
                     .prepared())
    result = run(discipline, inputs, state, ScriptedDice(at(("discipline", "German", "4/114 PzG"), 1)))
    (roll,) = rolls(result)
    assert modifiers(roll) == {"casualties_25": -1, "panicked": -4, "kills_by_fire": 3, "cc_wins": 2, "cc_losses": -1}
    assert (roll.drm, roll.final, roll.result) == (-1, 0, "Discipline drops one level (no effect on Raw)")
    assert roll.probability == Fraction(1, 100)  # only 01 drops
    assert ratings(result.state, "4/114 PzG") == {"Experienced"}
    assert result.state.roster.mes["4/114 PzG"].discipline == "Experienced"
    assert "Discipline drops one level (no effect on Raw): Veteran -> Experienced" in texts(result, "4/114 PzG")


def test_a_final_over_100_improves_one_level():
    inputs, state = company(Campaign(), rating="Trained").result("G-PzG-2", kills_by_fire=1).prepared()
    result = run(discipline, inputs, state, ScriptedDice(100))
    assert rolls(result)[0].final == 101 and ratings(result.state, "4/114 PzG") == {"Experienced"}


def test_no_change_past_elite():
    inputs, state = company(Campaign(), rating="Elite").result("G-PzG-2", cc_wins=3).prepared()
    result = run(discipline, inputs, state, ScriptedDice(99))
    assert ratings(result.state, "4/114 PzG") == {"Elite"}
    assert texts(result, "4/114 PzG") == ["Discipline improves one level (no effect on Elite): already Elite, no change"]


def test_no_change_below_raw():
    inputs, state = company(Campaign(), rating="Raw").result("G-PzG-2", "Panicked").prepared()
    result = run(discipline, inputs, state, ScriptedDice(2))
    assert rolls(result)[0].final == 0 and ratings(result.state, "4/114 PzG") == {"Raw"}


def test_a_unit_that_begins_the_scenario_cut_off_rolls_on_its_own_with_its_turns():
    inputs, state = (Campaign()
                     .me("1/1378 RR", "Russian", "I", "Rifle company", command("R-1"), troops("R-2"), troops("R-3"),
                         discipline="Trained")
                     .result("R-2", kills_by_fire=2)
                     .result("R-3", situation="Cut off", ends_in="Enemy lines", turns_isolated=1, turns_cut_off=2,
                             kills_by_fire=1)
                     .prepared())
    dice = ScriptedDice(at(("discipline", "Russian", "1/1378 RR"), 98),
                        at(("discipline", "Russian", "cut-off", "R-3"), 14))
    result = run(discipline, inputs, state, dice)
    me_roll, unit_roll = rolls(result)
    assert modifiers(me_roll) == {"kills_by_fire": 3}  # no turn modifiers on the ME's roll
    assert me_roll.final == 101
    assert modifiers(unit_roll) == {"kills_by_fire": 1, "turns_isolated": -3, "turns_cut_off": -12}
    assert unit_roll.final == 0
    disciplines = {s.id: s.discipline for s in result.state.roster.of_me("1/1378 RR")}
    assert disciplines == {"R-1": "Experienced", "R-2": "Experienced", "R-3": "Raw"}  # each change is its own


def test_2_1_1_3_1_an_isolated_unit_has_no_roll_of_its_own_its_mes_roll_takes_minus_3_per_turn_isolated():
    inputs, state = (Campaign()
                     .me("1/1378 RR", "Russian", "I", "Rifle company", troops("R-2"), troops("R-3"), discipline="Trained")
                     .result("R-3", situation="Isolated", turns_isolated=3).prepared())
    result = run(discipline, inputs, state, ScriptedDice(at(("discipline", "Russian", "1/1378 RR"), 9)))
    (roll,) = rolls(result)
    assert modifiers(roll) == {"turns_isolated": -9}
    assert (roll.final, roll.result) == (0, "Discipline drops one level (no effect on Raw)")
    assert {s.discipline for s in result.state.roster.of_me("1/1378 RR")} == {"Raw"}


def test_2_1_1_3_1_a_unit_cut_off_in_the_scenario_that_escaped_gives_its_mes_roll_minus_6_per_turn():
    inputs, state = (Campaign()
                     .me("1/1378 RR", "Russian", "I", "Rifle company", troops("R-2"), troops("R-3"), discipline="Trained")
                     .result("R-3", situation="Normal", turns_isolated=1, turns_cut_off=2).prepared())
    result = run(discipline, inputs, state, ScriptedDice(at(("discipline", "Russian", "1/1378 RR"), 60)))
    (roll,) = rolls(result)
    assert modifiers(roll) == {"turns_isolated": -3, "turns_cut_off": -12} and roll.final == 45


def test_2_1_1_3_1_casualties_are_the_previous_scenarios_not_the_whole_days():
    # a third of the company lost in the morning, none in the afternoon: no casualty modifier next morning
    campaign = company(Campaign(today="Dec 24 AM").dated(*AM_PM), base=9, losses=3).result("G-PzG-2", kills_by_fire=1)
    inputs, state = campaign.prepared()
    assert state.roster.mes["4/114 PzG"].losses_today == 3
    (roll,) = rolls(run(discipline, inputs, state, ScriptedDice(at(("discipline", "German", "4/114 PzG"), 50))))
    assert modifiers(roll) == {"kills_by_fire": 1} and roll.final == 51
    # the same company losing 3 of its 9 in the afternoon scenario itself takes -1
    campaign = (company(Campaign(today="Dec 24 AM").dated(*AM_PM), base=9).result("G-PzG-2", "Knocked out")
                .result("G-PzG-3", "Knocked out").result("G-PzG-4", "Knocked out"))
    inputs, state = campaign.prepared()
    (roll,) = rolls(run(discipline, inputs, state, ScriptedDice(50)))
    assert modifiers(roll) == {"casualties_25": -1} and roll.final == 49

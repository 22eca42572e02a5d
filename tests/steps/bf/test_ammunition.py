"""2.1.1.3.3 Ammunition: stands beginning a scenario cut off are marked to
roll whenever they fire; a unit beginning in normal status recovers."""
from __future__ import annotations

from automation.steps.bf import ammunition
from automation.steps.bf.state import Situation
from tests.support.bf import Campaign, run, texts, troops, wreck
from tests.support.dice import ScriptedDice


def rifles(**ammo) -> Campaign:
    return Campaign().me("1/1378 RR", "Russian", "I", "Rifle company",
                         troops("R-1", situation=Situation.CUT_OFF),
                         troops("R-2", situation=Situation.CUT_OFF, ammunition="Short"),
                         troops("R-3", ammunition="Short"), troops("R-4", ammunition="Out"),
                         troops("R-5", ammunition="Roll when firing"),
                         troops("R-6", situation=Situation.ISOLATED, ammunition="Short"),
                         troops("R-7", situation=Situation.ISOLATED), troops("R-8"))


def ammo(state) -> dict[str, str]:
    return {s.id: s.ammunition for s in state.roster.stands}


def test_cut_off_stands_roll_when_firing_and_normal_ones_recover():
    inputs, state = rifles().build()
    result = run(ammunition, inputs, state)
    assert ammo(result.state) == {"R-1": "Roll when firing", "R-2": "Short", "R-3": "Normal", "R-4": "Normal",
                                  "R-5": "Normal", "R-6": "Short", "R-7": "Normal", "R-8": "Normal"}
    assert texts(result, "R-1") == ["begins cut off: rolls for ammunition shortage each time it fires (bf.ammunition)"]
    assert [e.rule for e in result.entries if e.subject == "R-1"] == ["2.1.1.3.3.1"]
    assert [e.rule for e in result.entries if e.subject == "R-4"] == ["2.1.1.3.3.3"]


def test_a_wreck_is_not_marked():
    inputs, state = Campaign().me("T", "Russian", "A", "Tank company", wreck("R-T1", situation=Situation.CUT_OFF)).build()
    assert run(ammunition, inputs, state).entries == ()


def test_the_in_game_roll_is_short_on_a_1_and_out_when_already_short():
    dice = ScriptedDice(1, 1, 2)
    assert dice.roll("bf.ammunition", ("ammo", "R-1"), column="Normal").result == "Short of ammunition"
    assert dice.roll("bf.ammunition", ("ammo", "R-1", "2"), column="Short of ammunition").result == "Out of ammunition"
    assert dice.roll("bf.ammunition", ("ammo", "R-1", "3"), column="Normal").result == "No effect"

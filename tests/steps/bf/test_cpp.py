"""2.1.1.1 CPP replenishment: the historical DRM of the date and side, "No
CPP's", carry-over, and the ledger of each side (start, replenished, each
spending, left)."""
from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

import pytest

from automation.errors import WorkbookError
from automation.steps.bf import cpp, purchases, repair
from automation.workbook.bf_output import ledger_sheet
from tests.support.bf import Campaign, afv, ledger, modifiers, purchase, repair as repair_order, rolls, run, texts
from tests.support.dice import ScriptedDice, at


def test_dec_25_adds_the_german_plus_2_and_the_russian_minus_3():
    inputs, state = Campaign(today="Dec 25").build()
    result = run(cpp, inputs, state, ScriptedDice(at("cpp/German", 9), at("cpp/Russian", 9)))
    german, russian = rolls(result)
    assert modifiers(german) == {"historical": 2} and (german.final, german.result) == (11, "+18")
    assert german.probability == Fraction(2, 10)  # naturals 9 and 10
    assert modifiers(russian) == {"historical": -3} and (russian.final, russian.result) == (6, "+12")
    assert result.state.ledger.cpp == {"German": 28, "Russian": 22}


def test_dec_23_german_minus_2_can_push_the_roll_to_the_bottom_band():
    inputs, state = Campaign(today="Dec 23").build()
    result = run(cpp, inputs, state, ScriptedDice(at("cpp/German", 2), at("cpp/Russian", 1)))
    german, russian = rolls(result)
    assert (german.final, german.result, german.effect["cpp"]) == (0, "+6", 6)
    assert german.probability == Fraction(2, 10)  # naturals 1 and 2 end at 0 or below
    assert (russian.final, russian.result) == (1, "+8")


def test_dec_26_german_plus_4():
    inputs, state = Campaign(today="Dec 26").build()
    result = run(cpp, inputs, state, ScriptedDice(at("cpp/German", 1), at("cpp/Russian", 10)))
    german, russian = rolls(result)
    assert (german.final, german.result) == (5, "+12")
    assert modifiers(russian) == {"historical": -5} and (russian.final, russian.result) == (5, "+12")


def test_no_cpps_gives_none_and_rolls_nothing():
    inputs, state = Campaign(today="Dec 27").build()
    result = run(cpp, inputs, state, ScriptedDice(at("cpp/German", 6)))  # the only roll asked for
    assert [r.label for r in rolls(result)] == ["Dec 24/cpp/German"]
    assert "No CPP's this date (historical DRM chart): no roll, no CPP" in texts(result, "Russian")
    assert ledger(result.state, "Russian") == [("Start", None, 10), ("Replenished (No CPP's)", 0, 10)]
    assert ledger(result.state, "German")[-1] == ("Replenished", 18, 28)  # 6 + 5 = 11: +18


def test_cpp_carry_over_from_the_last_refit():
    inputs, state = Campaign(today="Dec 24").cpp("German", 7).cpp("Russian", 0).build()
    result = run(cpp, inputs, state, ScriptedDice(at("cpp/German", 3), at("cpp/Russian", 8)))
    assert ledger(result.state, "German") == [("Start", None, 7), ("Replenished", 10, 17)]
    assert ledger(result.state, "Russian") == [("Start", None, 0), ("Replenished", 14, 14)]
    assert ledger(result.state, "German", "FPP") == [("Start", None, 4)]


def test_a_date_missing_from_the_historical_chart_is_rolled_without_drm_and_said_so():
    inputs, state = Campaign(today="Dec 24").build()
    inputs = replace(inputs, historical_drm={})
    result = run(cpp, inputs, state, ScriptedDice(4, 4))
    assert all(modifiers(r) == {} for r in rolls(result))
    assert "no historical DRM entered for Dec 24: none applied" in texts(result, "German")


def test_the_ledger_sheet_lists_start_replenished_each_spending_and_left():
    campaign = (Campaign(today="Dec 24").cpp("German", 7)
                .me("II/11 Pz", "German", "A", "Panzer company", afv("G-Pz-1"), afv("G-Pz-2"))
                .result("G-Pz-2", "Knocked out", ends_in="Own lines")
                .rg("German", "I1", cpp=8, stands="Panzergrenadier x6", scenario_max=2, campaign_max=3)
                .spend("German", repair_order("G-Pz-2", cpp=1), purchase("I1", 1)))
    inputs, state = campaign.prepared()
    state = run(cpp, inputs, state, ScriptedDice(at("cpp/German", 3), at("cpp/Russian", 3))).state
    state = run(repair, inputs, state, ScriptedDice(at("repair/German/G-Pz-2", 2))).state
    state = run(purchases, inputs, state).state
    sheet = ledger_sheet("Ledger Dec 24", state, inputs)
    german = [row[1:5] for row in sheet.rows[1:] if row[0] == "German" and row[1] == "CPP"]
    assert german == [["CPP", "Start", None, 7], ["CPP", "Replenished", 10, 17],
                      ["CPP", "Repair attempt G-Pz-2", -1, 16], ["CPP", "Purchase I1 (I1 group)", -8, 8],
                      ["CPP", "Left", None, 8]]

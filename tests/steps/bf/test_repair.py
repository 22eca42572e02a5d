"""2.1.1.2 Armor repair: which wrecks may try, when (overnight), every
modifier, the CPP spent even on failure, and where a repaired vehicle goes."""
from __future__ import annotations

from fractions import Fraction

import pytest

from automation.steps.bf import repair, withdrawal
from automation.steps.bf.state import SideInfo, Status
from tests.support.bf import Campaign, afv, ledger, modifiers, repair as repair_order, rolls, run, texts, troops, wreck
from tests.support.dice import ScriptedDice, at

DAY_PARTS = (("Jun 6 AM", "1944-06-06", "Morning"), ("Jun 6 PM", "1944-06-06", "Afternoon"),
             ("Jun 6 N", "1944-06-06", "Night"), ("Jun 7 AM", "1944-06-07", "Morning"))
NO_NIGHT = (("Jun 6 AM", "1944-06-06", "Morning"), ("Jun 6 PM", "1944-06-06", "Afternoon"),
            ("Jun 7 AM", "1944-06-07", "Morning"))


def panzers(campaign: Campaign, *stands) -> Campaign:
    return campaign.me("II/11 Pz", "German", "A", "Panzer company", afv("G-Pz-1"), *stands)


def test_a_german_wreck_in_own_lines_repairs_on_9_or_more_and_rejoins_its_me():
    inputs, state = panzers(Campaign(), afv("G-Pz-2")).result("G-Pz-2", "Knocked out", ends_in="Own lines") \
        .spend("German", repair_order("G-Pz-2", cpp=1)).prepared()
    result = run(repair, inputs, state, ScriptedDice(at("repair/German/G-Pz-2", 6)))
    (roll,) = rolls(result)
    assert modifiers(roll) == {"cpp_spent": 3} and (roll.final, roll.result) == (9, "Repaired")
    assert roll.probability == Fraction(5, 10)  # naturals 6-10
    stand = result.state.roster.stand("G-Pz-2")
    assert stand is not None and stand.status is Status.AVAILABLE and stand.me == "II/11 Pz" and stand.wreck_lines is None
    assert result.state.repaired == {"G-Pz-2"}
    assert ledger(result.state, "German") == [("Repair attempt G-Pz-2", -1, 9)]


def test_repair_spends_the_cpp_even_when_the_roll_fails():
    inputs, state = panzers(Campaign(), afv("G-Pz-2")).result("G-Pz-2", "Knocked out", ends_in="Own lines") \
        .spend("German", repair_order("G-Pz-2", cpp=1)).prepared()
    result = run(repair, inputs, state, ScriptedDice(at("repair/German/G-Pz-2", 5)))
    (roll,) = rolls(result)
    assert (roll.final, roll.result) == (8, "No effect")
    assert "No effect: stays a wreck, unavailable (the 1 CPP is spent all the same)" in texts(result, "G-Pz-2")
    assert result.state.ledger.cpp["German"] == 9
    assert result.state.roster.stand("G-Pz-2").status is Status.WRECK


def test_without_cpp_the_roll_is_unmodified_and_costs_nothing():
    inputs, state = panzers(Campaign(), afv("G-Pz-2")).result("G-Pz-2", "Knocked out", ends_in="Own lines").prepared()
    result = run(repair, inputs, state, ScriptedDice(at("repair/German/G-Pz-2", 8)))
    (roll,) = rolls(result)
    assert modifiers(roll) == {} and roll.result == "No effect" and roll.probability == Fraction(8, 10)
    assert result.state.ledger.cpp["German"] == 10 and result.state.ledger_lines == ()


def test_every_modifier_minefield_russian_abandoned_and_cpp():
    campaign = (Campaign(today="Aug 2").dated(("Aug 1", "1944-08-01", "Full day"), ("Aug 2", "1944-08-02", "Full day"))
                .me("1/87 TB", "Russian", "A", "Tank company", afv("R-T34-1", "T-34/85"), afv("R-T34-2", "T-34/85"))
                .result("R-T34-2", "Abandoned", ends_in="Own lines", in_minefield=True)
                .spend("Russian", repair_order("R-T34-2", cpp=1)))
    inputs, state = campaign.prepared()
    result = run(repair, inputs, state, ScriptedDice(at("repair/Russian/R-T34-2", 7)))
    (roll,) = rolls(result)
    assert modifiers(roll) == {"minefield": -1, "russian": -1, "abandoned": 1, "cpp_spent": 3}
    assert (roll.drm, roll.final, roll.result) == (2, 9, "Repaired")


@pytest.mark.parametrize("nationality, day, allowed", [
    ("German", "1939-09-02", True), ("German", "1944-12-20", True), ("German", "1945-01-02", False),
    ("American", "1944-06-20", False), ("American", "1944-07-02", True), ("British", "1944-07-02", True),
    ("Russian", "1943-07-10", False), ("Russian", "1944-07-02", True), ("Italian", "1943-07-10", False),
])
def test_nationality_and_date_decide_whether_repairs_are_allowed(nationality, day, allowed):
    before = day[:8] + f"{int(day[8:]) - 1:02d}"
    campaign = (Campaign(today="B").dated(("A", before, "Full day"), ("B", day, "Full day"))
                .sides(SideInfo("Blue", nationality, 0, 0, False), SideInfo("Red", "German", 0, 0, False))
                .me("Tanks", "Blue", "A", "Tank company", afv("T-1"), afv("T-2"))
                .result("T-2", "Knocked out", ends_in="Own lines"))
    inputs, state = campaign.prepared()
    dice = ScriptedDice(9) if allowed else ScriptedDice()
    result = run(repair, inputs, state, dice)
    assert bool(rolls(result)) is allowed
    if not allowed:
        assert any(t.startswith("no attempt: ") for t in texts(result, "T-2"))


def test_the_repair_window_is_judged_on_the_evening_of_the_scenario_just_played():
    campaign = (Campaign(today="Jan 1").dated(("Dec 31", "1944-12-31", "Full day"), ("Jan 1", "1945-01-01", "Full day"))
                .me("II/11 Pz", "German", "A", "Panzer company", afv("G-Pz-1"), afv("G-Pz-2"))
                .result("G-Pz-2", "Knocked out", ends_in="Own lines"))
    inputs, state = campaign.prepared()
    assert rolls(run(repair, inputs, state, ScriptedDice(1)))


def test_only_vehicles_of_an_a_type_me_inside_own_lines_may_try():
    campaign = (panzers(Campaign(), afv("G-Pz-2"), afv("G-Pz-3"))
                .me("4/114 PzG", "German", "I", "Panzergrenadier company", troops("G-PzG-1"), afv("G-StuG-1", "StuG III"))
                .result("G-Pz-2", "Knocked out", ends_in="Own lines")
                .result("G-Pz-3", "Knocked out", ends_in="Enemy lines")
                .result("G-StuG-1", "Knocked out", ends_in="Own lines"))
    inputs, state = campaign.prepared()
    result = run(repair, inputs, state, ScriptedDice(at("repair/German/G-Pz-2", 1)))
    assert texts(result, "G-Pz-3") == ["no attempt: G-Pz-3 is not inside its own lines"]
    assert texts(result, "G-StuG-1") == ['no attempt: G-StuG-1 does not belong to an "A" type ME']


def test_an_older_wreck_still_on_the_roster_tries_again_the_next_night():
    inputs, state = panzers(Campaign(), wreck("G-Pz-2", lines="Own lines")).prepared()
    assert rolls(run(repair, inputs, state, ScriptedDice(at("repair/German/G-Pz-2", 10))))[0].result == "Repaired"


@pytest.mark.parametrize("dates, today, overnight", [
    (DAY_PARTS, "Jun 6 PM", False),   # between morning and afternoon: not overnight
    (DAY_PARTS, "Jun 6 N", True),     # the night refit
    (DAY_PARTS, "Jun 7 AM", False),   # the night refit already did them
    (NO_NIGHT, "Jun 7 AM", True),     # no night scenario: after the afternoon, overnight
    (NO_NIGHT, "Jun 6 AM", False),    # the first refit of the campaign
])
def test_repairs_are_made_overnight_only(dates, today, overnight):
    campaign = (Campaign(today=today).dated(*dates)
                .me("II/11 Pz", "German", "A", "Panzer company", afv("G-Pz-1"), wreck("G-Pz-2")))
    inputs, state = campaign.prepared()
    result = run(repair, inputs, state, ScriptedDice(9) if overnight else ScriptedDice())
    assert bool(rolls(result)) is overnight
    if not overnight:
        assert texts(result) == ["no repairs in this refit: repairs are made overnight"]


def test_a_repaired_vehicle_of_an_me_withdrawn_this_refit_leaves_with_it():
    campaign = (Campaign().side("German", withdrawal=True)
                .me("II/11 Pz", "German", "A", "Panzer company", afv("G-Pz-1"), afv("G-Pz-2"), afv("G-Pz-3"))
                .result("G-Pz-2", "Knocked out", ends_in="Own lines")
                .result("G-Pz-3", "Knocked out", ends_in="Own lines"))
    inputs, state = campaign.prepared()
    state = run(repair, inputs, state, ScriptedDice(at("repair/German/G-Pz-2", 9), at("repair/German/G-Pz-3", 1))).state
    assert state.roster.stand("G-Pz-2").status is Status.AVAILABLE
    result = run(withdrawal, inputs, state, ScriptedDice(at(("withdrawal", "German", "II/11 Pz"), 2)))
    assert "II/11 Pz" not in result.state.roster.mes
    assert result.state.roster.stand("G-Pz-2") is None and result.state.roster.stand("G-Pz-3") is None
    assert texts(result, "G-Pz-2") == ["repaired this refit, but its ME is withdrawn: removed too"]
    assert texts(result, "G-Pz-3") == ["wreck (own lines) leaves with its withdrawn ME"]


def test_repair_orders_are_checked():
    campaign = (panzers(Campaign(), afv("G-Pz-2"), afv("G-Pz-3"))
                .me("1/87 TB", "Russian", "A", "Tank company", afv("R-T34-1"), afv("R-T34-2"))
                .result("G-Pz-2", "Knocked out", ends_in="Own lines")
                .result("G-Pz-3", "Knocked out", ends_in="Enemy lines")
                .result("R-T34-2", "Knocked out", ends_in="Enemy lines"))
    inputs, state = campaign.spend("German", repair_order("G-Pz-2", cpp=2), repair_order("G-Pz-3", cpp=1),
                                   repair_order("R-T34-2", cpp=1), repair_order("G-Pz-9")).prepared()
    problems, costs = repair.check(inputs, state, "German", inputs.spend["German"])
    assert [str(p) for p in problems] == [
        "Spend Dec 24 German!C2: Repair: CPP spent is 0 or 1 (only 1 CPP per attempt, 2.1.1.2), not 2",
        "Spend Dec 24 German!B3: Repair: G-Pz-3 is not inside its own lines",
        "Spend Dec 24 German!B4: Repair: 'R-T34-2' is a vehicle of Russian: no enemy unit may be repaired (2.1.1.2)",
        "Spend Dec 24 German!B5: Repair: 'G-Pz-9' is not on the roster (2.1.1.2)",
    ]
    assert costs == []

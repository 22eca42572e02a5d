"""2.1.1.3.2 Recalculating breakpoints: a new day only, not isolated MEs,
not afternoon or night scenarios."""
from __future__ import annotations

import pytest

from automation.steps.bf import breakpoints
from automation.steps.bf.state import Situation
from tests.support.bf import Campaign, afv, aircraft, oba, run, soft, texts, troops, wreck

PARTS = (("Dec 23 AM", "1942-12-23", "Morning"), ("Dec 23 PM", "1942-12-23", "Afternoon"),
         ("Dec 23 N", "1942-12-23", "Night"), ("Dec 24 AM", "1942-12-24", "Morning"))


def campaign(today: str = "Dec 24 AM") -> Campaign:
    return (Campaign(today=today).dated(*PARTS)
            .me("1/1378 RR", "Russian", "I", "Rifle company", *[troops(f"R-{i}") for i in range(1, 8)],
                base=11, losses=4, full=11)
            .me("1/87 TB", "Russian", "A", "Tank company", afv("R-T1"), afv("R-T2"), wreck("R-T3"), base=3, losses=1)
            .me("2/1378 RR", "Russian", "I", "Rifle company", troops("R-X1", situation=Situation.CUT_OFF),
                troops("R-X2", situation=Situation.ISOLATED), base=10, losses=8)
            .me("O1-1", "Russian", "O", "Artillery regiment", oba("O1-1 OBA"))
            .me("F1-1", "Russian", "F", "Il-2 flight", aircraft("F1-1 Aircraft")))


def test_a_new_day_starts_every_non_isolated_me_with_no_losses_and_new_breakpoints():
    inputs, state = campaign().build()
    result = run(breakpoints, inputs, state)
    rifles = result.state.roster.mes["1/1378 RR"]
    assert (rifles.breakpoint_base, rifles.losses_today) == (7, 0)
    assert rifles.breakpoints() == (2, 4, 6)
    assert texts(result, "1/1378 RR") == ["new day, no losses: 7 stands in play, breakpoints at 2/4/6 losses (25/50/75%)"]
    tanks = result.state.roster.mes["1/87 TB"]
    assert (tanks.breakpoint_base, tanks.losses_today) == (2, 0)  # the wreck is not in play


def test_an_isolated_me_keeps_its_losses_and_breakpoints():
    inputs, state = campaign().build()
    result = run(breakpoints, inputs, state)
    me = result.state.roster.mes["2/1378 RR"]
    assert (me.breakpoint_base, me.losses_today) == (10, 8)
    assert texts(result, "2/1378 RR") == ["isolated: breakpoints not recomputed (8 losses so far count)"]


@pytest.mark.parametrize("today", ["Dec 23 PM", "Dec 23 N"])
def test_afternoon_and_night_scenarios_keep_the_days_losses(today):
    inputs, state = campaign(today).build()
    result = run(breakpoints, inputs, state)
    assert result.state.roster == state.roster
    assert len(texts(result)) == 1 and "breakpoints and the day's losses carry on" in texts(result)[0]


def test_oba_modules_and_aircraft_have_no_breakpoints():
    inputs, state = campaign().build()
    result = run(breakpoints, inputs, state)
    assert texts(result, "O1-1") == [] and texts(result, "F1-1") == []


def test_house_rules_26_soft_transport_is_not_part_of_the_mes_size_for_breakpoints():
    inputs, state = (Campaign(today="Dec 24 AM").dated(*PARTS)
                     .me("4/114 PzG", "German", "I", "Panzergrenadier company", *[troops(f"G-{i}") for i in range(1, 9)],
                         soft("G-Truck-1"), soft("G-Truck-2"), soft("G-Truck-3"), soft("G-Truck-4"))
                     .build())
    result = run(breakpoints, inputs, state)
    me = result.state.roster.mes["4/114 PzG"]
    assert (me.breakpoint_base, me.breakpoints()) == (8, (2, 4, 6))
    assert texts(result, "4/114 PzG") == [
        "new day, no losses: 8 stands in play (soft transport not counted), breakpoints at 2/4/6 losses (25/50/75%)"]


def test_house_rules_26_a_lost_truck_counts_as_a_casualty_of_the_mes_scenario():
    from automation.steps.bf import discipline
    from tests.support.bf import modifiers, rolls
    from tests.support.dice import ScriptedDice

    inputs, state = (Campaign()
                     .me("4/114 PzG", "German", "I", "Panzergrenadier company", *[troops(f"G-{i}") for i in range(1, 9)],
                         soft("G-Truck-1"), soft("G-Truck-2"), soft("G-Truck-3"), soft("G-Truck-4"))
                     .result("G-Truck-1", "Knocked out").result("G-Truck-2", "Knocked out").prepared())
    assert state.roster.mes["4/114 PzG"].breakpoint_base == 8  # not 12
    (roll,) = rolls(run(discipline, inputs, state, ScriptedDice(50)))
    assert modifiers(roll) == {"casualties_25": -1} and roll.final == 49  # 2 of 8, not 2 of 12

"""2.1.1.4 Purchasing reinforcement groups: CPP cost, per-scenario and
campaign limits (the base force counts), aircraft (2.1.1.4.2), OBA modules and
the Advance to Rostov O3 example (2.1.1.4.3), preregistered points and the
Aircraft/Smoke Missions roll (2.1.1.4.4)."""
from __future__ import annotations

from fractions import Fraction

import pytest

from automation.steps.bf import purchases
from automation.steps.bf.state import SideInfo, Status
from tests.support.bf import (
    Campaign, aircraft, command, extra_cpp, ledger, modifiers, oba, preregistered, purchase, rolls, run, texts, troops,
)
from tests.support.dice import ScriptedDice, at

AM_PM = (("Dec 23 AM", "1942-12-23", "Morning"), ("Dec 23 PM", "1942-12-23", "Afternoon"),
         ("Dec 24 AM", "1942-12-24", "Morning"))


def problems(campaign: Campaign, side: str = "German") -> list[str]:
    inputs, state = campaign.prepared()
    found, _ = purchases.check(inputs, state, side, inputs.spend[side])
    return [str(p) for p in found]


def rostov(today: str = "Dec 24") -> Campaign:
    """The German side of Advance to Rostov with the seed's O3 limits: 4 in the game, 2 on any one day."""
    return (Campaign(today=today)
            .rg("German", "I1", cpp=8, scenario_max=2, campaign_max=3, me_class="I", me_type="Panzergrenadier company",
                stands="Command x1; Panzergrenadier x6; HMG x2", discipline="Veteran")
            .rg("German", "O3", "OBA", cpp=6, scenario_max=2, campaign_max=4, description="Medium artillery battalion")
            .rg("German", "F1", "Aircraft", cpp=5, scenario_max=1, campaign_max=3, description="Stuka flight")
            .rg("German", "P1", "FPP", cpp=3, campaign_max=3, fpp=4, description="Engineer stores")
            .me("4/114 PzG", "German", "I", "Panzergrenadier company", command("G-PzG-1"), troops("G-PzG-2"), rg="I1"))


def test_an_me_costs_its_cpp_and_joins_the_roster_with_the_charts_stands():
    inputs, state = rostov().spend("German", purchase("I1")).prepared()
    result = run(purchases, inputs, state)
    me = result.state.roster.mes["I1-2"]  # the base force's company is the first I1
    assert (me.me_class, me.me_type, me.rg, me.discipline, me.breakpoint_base) == ("I", "Panzergrenadier company", "I1", "Veteran", 9)
    kinds = [(s.type, s.kind, s.discipline) for s in result.state.roster.of_me("I1-2")]
    assert kinds[0] == ("Command", "Command", "Veteran") and kinds.count(("Panzergrenadier", "Troops", "Veteran")) == 6
    assert ledger(result.state, "German") == [("Purchase I1 (I1 group)", -8, 2)]
    assert result.state.ledger.rg_used[("German", "I1")] == 2


def test_2_1_1_7_the_scenario_maximum_limits_deployment_not_buying():
    # I1: 2 per scenario, 3 in the campaign; the base force holds one: two more may be bought
    campaign = rostov().cpp("German", 16).spend("German", purchase("I1", 2))
    assert problems(campaign) == []
    inputs, state = campaign.prepared()
    result = run(purchases, inputs, state)
    assert {m for m, me in result.state.roster.mes.items() if me.rg == "I1"} == {"4/114 PzG", "I1-2", "I1-3"}
    assert result.state.ledger.rg_used[("German", "I1")] == 3 and result.state.ledger.cpp["German"] == 0
    assert texts(result, "I1-3") == [
        "buys I1 (I1 group) for 8 CPP as I1-3: 9 stand(s); 3 of 3 in the campaign; 3 on the roster, of which at most 2 "
        "deploy in one scenario (2.1.1.7)"]


def test_the_campaign_total_counts_the_base_force_and_earlier_purchases():
    assert problems(rostov().rg_used("German", "I1", 3).spend("German", purchase("I1"))) == [
        "Spend Dec 24 German!C2: Purchase: 1 x I1 exceeds the campaign total of 3: 3 already used "
        "(base force included, 2.1.1.4.1), so at most 0 more"]


def test_an_unknown_rg_and_a_bad_count_are_named():
    assert problems(rostov().spend("German", purchase("O9"), purchase("I1", 0), purchase("I1", "two"))) == [
        "Spend Dec 24 German!B2: Purchase: 'O9' is not on the RG chart of German; valid: I1, O3, F1, P1",
        "Spend Dec 24 German!C3: Purchase: how many of I1: a whole number of 1 or more, not 0",
        "Spend Dec 24 German!C4: Purchase: how many of I1: a whole number of 1 or more, not 'two'"]


def test_an_fpp_group_gives_its_fpp_for_its_cpp():
    inputs, state = rostov().spend("German", purchase("P1")).prepared()
    result = run(purchases, inputs, state)
    assert ledger(result.state, "German") == [("Purchase P1 (Engineer stores)", -3, 7)]
    assert ledger(result.state, "German", "FPP") == [("FPP from P1", 4, 8)]


# ---------------------------------------------------------------- aircraft
def test_aircraft_roll_for_their_number_and_are_for_the_next_day_only():
    inputs, state = rostov().spend("German", purchase("F1")).prepared()
    result = run(purchases, inputs, state, ScriptedDice(at("aircraft-smoke/German/F1-1", 6)))
    (roll,) = rolls(result)
    assert (roll.column, roll.result, roll.effect["count"]) == ("Aircraft", "2 aircraft", 2)
    assert roll.probability == Fraction(3, 10)  # 6-8
    assert result.state.roster.stand("F1-1 Aircraft").notes == "2 aircraft"
    tomorrow_inputs, _ = rostov("Dec 25").prepared()
    lost = run(purchases, tomorrow_inputs, result.state)
    assert lost.state.roster.stand("F1-1 Aircraft") is None and "F1-1" not in lost.state.roster.mes
    assert texts(lost, "F1-1 Aircraft") == ["aircraft are for the day after their purchase only: lost"]


def test_aircraft_bought_in_the_morning_are_still_there_in_the_afternoon():
    campaign = rostov("Dec 23 PM").dated(*AM_PM).me("F1-1", "German", "F", "Stuka flight", aircraft("F1-1 Aircraft"), rg="F1")
    inputs, state = campaign.prepared()
    assert run(purchases, inputs, state).state.roster.stand("F1-1 Aircraft") is not None


def test_aircraft_may_not_be_bought_for_a_night_scenario():
    night = (("Dec 23 PM", "1942-12-23", "Afternoon"), ("Dec 23 N", "1942-12-23", "Night"))
    assert problems(rostov("Dec 23 N").dated(*night).spend("German", purchase("F1"))) == [
        "Spend Dec 23 N German!B2: Purchase: F1 is aircraft, which may not be used at night (2.1.1.4.2)"]


@pytest.mark.parametrize("nationality, day, expected", [
    ("American", "1944-07-10", {"allied_after_june_1944": 1}),
    ("British", "1944-12-10", {"allied_after_june_1944": 1}),
    ("American", "1944-06-10", {}),
    ("German", "1941-06-22", {"german_before_1942": -1}),
    ("German", "1944-06-10", {}),
    ("German", "1945-03-10", {"german_1945": -3}),
    ("Russian", "1945-03-10", {}),
])
def test_the_aircraft_roll_takes_its_nationality_and_date_modifiers(nationality, day, expected):
    campaign = (Campaign(today="B").dated(("A", day, "Full day"), ("B", day, "Full day"))
                .sides(SideInfo("Blue", nationality, 20, 0, False), SideInfo("Red", "Italian", 0, 0, False))
                .rg("Blue", "F1", "Aircraft", cpp=5).rg("Blue", "O1", "OBA", cpp=5)
                .spend("Blue", purchase("F1"), purchase("O1")))
    inputs, state = campaign.prepared()
    air, smoke = rolls(run(purchases, inputs, state, ScriptedDice(5, 5)))
    assert modifiers(air) == expected
    assert modifiers(smoke) == {}  # the nationality modifiers are for aircraft only


def test_german_1945_aircraft_lose_three():
    campaign = (Campaign(today="B").dated(("A", "1945-01-01", "Full day"), ("B", "1945-01-02", "Full day"))
                .rg("German", "F1", "Aircraft", cpp=5).spend("German", purchase("F1")))
    inputs, state = campaign.prepared()
    (roll,) = rolls(run(purchases, inputs, state, ScriptedDice(10)))
    assert (roll.final, roll.result) == (7, "2 aircraft")


def test_each_additional_cpp_adds_one_to_its_modules_roll():
    inputs, state = rostov().cpp("German", 30).spend("German", purchase("O3", 2), extra_cpp("O3", 1), extra_cpp("O3", 2)).prepared()
    result = run(purchases, inputs, state, ScriptedDice(at("aircraft-smoke/German/O3-1", 7), at("aircraft-smoke/German/O3-2", 7)))
    first, second = rolls(result)
    assert (first.column, modifiers(first), first.final, first.result) == ("Smoke missions", {"additional_cpp": 1}, 8, "2 smoke missions")
    assert (modifiers(second), second.final, second.result) == ({"additional_cpp": 2}, 9, "3 smoke missions")
    assert ledger(result.state, "German") == [
        ("Purchase O3 (Medium artillery battalion)", -6, 24), ("Additional CPP on O3-1", -1, 23),
        ("Purchase O3 (Medium artillery battalion)", -6, 17), ("Additional CPP on O3-2", -2, 15)]


def test_extra_cpp_needs_an_aircraft_or_oba_group_bought_now_one_order_per_module():
    assert problems(rostov().cpp("German", 30).spend("German", purchase("O3"), extra_cpp("O3"), extra_cpp("O3"),
                                                     extra_cpp("I1"))) == [
        "Spend Dec 24 German!B4: Extra CPP: one order per module; 2 orders for 1 x O3 bought",
        "Spend Dec 24 German!B5: Extra CPP: 'I1' is not an aircraft or OBA RG bought in this refit (2.1.1.4.4)"]


# ---------------------------------------------------------------- OBA
def test_oba_is_bought_only_in_the_mornings_refit_when_a_day_has_several_scenarios():
    assert problems(rostov("Dec 23 PM").dated(*AM_PM).spend("German", purchase("O3"))) == [
        "Spend Dec 23 PM German!B2: Purchase: OBA (O3) is bought only in the day's first refit when a day has several "
        "scenarios (2.1.1.4.3)"]
    assert problems(rostov("Dec 24 AM").dated(*AM_PM).spend("German", purchase("O3"))) == []
    assert problems(rostov("Dec 24").spend("German", purchase("O3"))) == []  # one scenario a day


def test_a_used_oba_module_serves_all_day_and_leaves_at_the_days_end():
    campaign = rostov("Dec 23 PM").dated(*AM_PM).me("O3-1", "German", "O", "Medium artillery battalion",
                                                    oba("O3-1 OBA"), rg="O3").result("O3-1 OBA", "Used")
    inputs, state = campaign.prepared()
    afternoon = run(purchases, inputs, state)
    assert afternoon.state.roster.stand("O3-1 OBA").status is Status.USED  # still there for the afternoon
    next_morning, _ = rostov("Dec 24 AM").dated(*AM_PM).prepared()
    gone = run(purchases, next_morning, afternoon.state)
    assert gone.state.roster.stand("O3-1 OBA") is None
    assert texts(gone, "O3-1 OBA") == ["OBA module used during the day: removed at the day's end"]


def test_an_unused_oba_module_is_still_available_the_next_day():
    inputs, state = rostov().me("O3-1", "German", "O", "Medium artillery battalion", oba("O3-1 OBA"), rg="O3").prepared()
    assert run(purchases, inputs, state).state.roster.stand("O3-1 OBA") is not None


def two_o3_bought_dec_23(used: int) -> Campaign:
    campaign = rostov("Dec 24")
    for i in (1, 2):
        campaign.me(f"O3-{i}", "German", "O", "Medium artillery battalion", oba(f"O3-{i} OBA"), rg="O3")
    for i in range(1, used + 1):
        campaign.result(f"O3-{i} OBA", "Used")
    return campaign.cpp("German", 20)


def test_rostov_o3_example_one_used_on_dec_23_leaves_one_for_dec_24():
    inputs, state = two_o3_bought_dec_23(used=1).prepared()
    result = run(purchases, inputs, state)
    assert [s.id for s in result.state.roster.stands if s.kind == "OBA module"] == ["O3-2 OBA"]
    assert problems(two_o3_bought_dec_23(used=1).spend("German", purchase("O3", 1))) == []
    # a third module may be bought too (4 in the game); the scenario maximum of 2 limits its use (2.1.1.7)
    assert problems(two_o3_bought_dec_23(used=1).spend("German", purchase("O3", 2))) == []


def test_rostov_o3_example_two_used_each_day_leaves_none_for_the_rest_of_the_campaign():
    assert problems(two_o3_bought_dec_23(used=2).spend("German", purchase("O3", 2))) == []  # Dec 24: 2 more
    assert problems(two_o3_bought_dec_23(used=2).rg_used("German", "O3", 4).spend("German", purchase("O3"))) == [
        "Spend Dec 24 German!C2: Purchase: 1 x O3 exceeds the campaign total of 4: 4 already used "
        "(base force included, 2.1.1.4.1), so at most 0 more"]


# ---------------------------------------------------------------- preregistered points
def test_preregistered_points_cost_1_cpp_each_and_last_one_day():
    inputs, state = rostov().spend("German", purchase("O3"), preregistered("O3", 2)).prepared()
    bought = run(purchases, inputs, state, ScriptedDice(2))
    module = bought.state.roster.stand("O3-1 OBA")
    assert module.notes == "1 smoke mission; 2 preregistered point(s) until the end of 1942-12-24"
    assert ledger(bought.state, "German")[-1] == ("2 preregistered point(s) for O3-1 OBA", -2, 2)
    tomorrow, _ = rostov("Dec 25").prepared()
    expired = run(purchases, tomorrow, bought.state)
    assert expired.state.roster.stand("O3-1 OBA").notes == "1 smoke mission"
    assert texts(expired, "O3-1 OBA") == ["preregistered points expire with the day"]


def test_at_most_two_preregistered_points_per_module():
    assert problems(rostov().cpp("German", 20).spend("German", purchase("O3"), preregistered("O3", 3))) == [
        "Spend Dec 24 German!C3: Preregistered points: 1 to 2 per OBA module (2.1.1.4.4), not 3"]
    campaign = rostov().me("O3-1", "German", "O", "Medium artillery battalion", oba("O3-1 OBA"), rg="O3")
    assert problems(campaign.spend("German", preregistered("O3-1 OBA", 2), preregistered("O3-1 OBA", 1))) == [
        "Spend Dec 24 German!C3: Preregistered points: O3-1 OBA would have 3 today; at most 2 per OBA module (2.1.1.4.4)"]
    assert problems(rostov().spend("German", preregistered("I1", 1))) == [
        "Spend Dec 24 German!B2: Preregistered points: 'I1' is neither an OBA module of German nor an OBA RG bought now"]

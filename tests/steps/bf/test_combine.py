"""2.1.1.3.2 Combining understrength MEs: who may combine, the new
discipline, one command stand, the campaign total and the new breakpoints."""
from __future__ import annotations

from automation.steps.bf import combine, purchases, withdrawal
from tests.support.bf import Campaign, afv, combine as combine_order, command, purchase, run, texts, troops, wreck
from tests.support.dice import ScriptedDice, at


def two_companies(a_rating: str = "Veteran", b_rating: str = "Experienced", b_full: int = 8) -> Campaign:
    return (Campaign()
            .me("4/114 PzG", "German", "I", "Panzergrenadier company", command("G-A1"),
                *[troops(f"G-A{i}", "Panzergrenadier") for i in range(2, 5)], discipline=a_rating, full=9, rg="I1")
            .me("5/114 PzG", "German", "I", "Panzergrenadier company", command("G-B1"),
                *[troops(f"G-B{i}", "Panzergrenadier") for i in range(2, 5)], discipline=b_rating, full=b_full, rg="I1"))


def test_a_veteran_and_an_experienced_me_make_an_experienced_one():
    inputs, state = two_companies().spend("German", combine_order("4/114 PzG", "5/114 PzG")).prepared()
    result = run(combine, inputs, state)
    roster = result.state.roster
    assert "5/114 PzG" not in roster.mes
    assert {s.discipline for s in roster.of_me("4/114 PzG")} == {"Experienced"}
    assert roster.mes["4/114 PzG"].discipline == "Experienced"


def test_two_experienced_mes_make_a_trained_one():
    inputs, state = two_companies("Experienced", "Experienced").spend("German", combine_order("4/114 PzG", "5/114 PzG")).prepared()
    assert run(combine, inputs, state).state.roster.mes["4/114 PzG"].discipline == "Trained"


def test_one_command_stand_is_kept_and_the_breakpoints_are_recomputed():
    inputs, state = two_companies().spend("German", combine_order("4/114 PzG", "5/114 PzG")).prepared()
    result = run(combine, inputs, state)
    stands = result.state.roster.of_me("4/114 PzG")
    assert sorted(s.id for s in stands) == ["G-A1", "G-A2", "G-A3", "G-A4", "G-B2", "G-B3", "G-B4"]
    me = result.state.roster.mes["4/114 PzG"]
    assert (me.breakpoint_base, me.losses_today, me.full_strength) == (7, 0, 7)
    assert me.breakpoints() == (2, 4, 6)  # 25/50/75% of 7, rounded up
    assert texts(result, "4/114 PzG") == [
        "5/114 PzG joins 4/114 PzG: discipline Experienced (one worse than the best, Veteran); command stand(s) G-B1 "
        "dropped (one kept); 7 stands, breakpoints 2/4/6 (25/50/75%); 5/114 PzG still counts against RG I1's campaign total"]


def test_the_absorbed_me_still_counts_against_the_campaign_total_but_frees_a_scenario_place():
    campaign = (two_companies().rg("German", "I1", cpp=5, scenario_max=2, campaign_max=2, stands="Panzergrenadier x6")
                .spend("German", combine_order("4/114 PzG", "5/114 PzG"), purchase("I1")))
    inputs, state = campaign.prepared()
    problems, _ = purchases.check(inputs, state, "German", inputs.spend["German"])
    assert [str(p) for p in problems] == [
        "Spend Dec 24 German!C3: Purchase: 1 x I1 exceeds the campaign total of 2: 2 already used "
        "(base force included, 2.1.1.4.1), so at most 0 more"]
    after = run(combine, inputs, state).state
    assert after.ledger.rg_used[("German", "I1")] == 2


def test_any_two_i_class_mes_may_combine_and_identical_a_mes_too():
    campaign = (two_companies()
                .me("1/2 Inf", "German", "I", "Rifle company", troops("G-C1"), full=4)
                .me("II/11 Pz", "German", "A", "Panzer company", afv("G-P1"), wreck("G-P2"), full=4)
                .me("II/15 Pz", "German", "A", "Panzer company", afv("G-Q1"), full=3))
    inputs, state = campaign.prepared()
    assert combine.why_not(state, "German", "4/114 PzG", "1/2 Inf") is None
    assert combine.why_not(state, "German", "II/11 Pz", "II/15 Pz") is None  # a wreck is not in play


def test_mes_that_may_not_combine_say_why():
    campaign = (two_companies(b_full=6)
                .me("II/11 Pz", "German", "A", "Panzer company", afv("G-P1"), full=4)
                .me("III/11 Pz", "German", "A", "Panzerjaeger company", afv("G-J1"), full=4)
                .me("1/87 TB", "Russian", "A", "Tank company", afv("R-T1"), full=4))
    _, state = campaign.prepared()
    assert combine.why_not(state, "German", "4/114 PzG", "5/114 PzG") == (
        "5/114 PzG has 4 of 6 stands (33% casualties); both MEs need 50% or more casualties")
    assert combine.why_not(state, "German", "4/114 PzG", "II/11 Pz") == (
        "4/114 PzG (I, Panzergrenadier company) and II/11 Pz (A, Panzer company) are neither of identical class "
        "and type nor both I class")
    assert combine.why_not(state, "German", "II/11 Pz", "III/11 Pz").startswith("II/11 Pz (A, Panzer company) and III/11 Pz")
    assert combine.why_not(state, "German", "II/11 Pz", "1/87 TB") == "'1/87 TB' is not an ME of German on the roster"
    assert combine.why_not(state, "German", "II/11 Pz", "II/11 Pz") == "an ME cannot combine with itself"


def test_an_me_withdrawn_earlier_in_the_refit_does_not_combine():
    campaign = (Campaign().side("German", withdrawal=True)
                .me("II/11 Pz", "German", "A", "Panzer company", afv("G-P1"), full=4)
                .me("II/15 Pz", "German", "A", "Panzer company", afv("G-Q1"), afv("G-Q2"), full=4)
                .result("G-Q2", "Knocked out", ends_in="Own lines")
                .spend("German", combine_order("II/11 Pz", "II/15 Pz")))
    inputs, state = campaign.prepared()
    assert combine.check(inputs, state, "German", inputs.spend["German"]) == ([], [])
    state = run(withdrawal, inputs, state, ScriptedDice(at(("withdrawal", "German", "II/15 Pz"), 1))).state
    result = run(combine, inputs, state)
    assert [s.id for s in result.state.roster.of_me("II/11 Pz")] == ["G-P1"]
    assert texts(result) == ["II/11 Pz and II/15 Pz do not combine: II/15 Pz left the roster in this refit "
                             "(withdrawn, 2.1.1.2)"]

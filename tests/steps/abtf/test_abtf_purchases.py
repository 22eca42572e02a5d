"""9.617 RG purchases against the RG Chart, and the RG Purchase Record (9.6178)."""
from __future__ import annotations

import pytest

from automation.errors import WorkbookError
from automation.steps.abtf import purchases
from automation.steps.abtf.state import Mode, Reinforcement, RGLine
from tests.support.abtf import ScriptedDice, block, entry_area, inputs, purchase, record, rg, state, texts

AREAS = [block("A", "British", "A2"), block("F", "German", "F3"), entry_area("North Entry", "British"),
         entry_area("East Entry", "German")]
CHART = [rg("British", "I1", cpp=10, date_max=1, cg_max=4, group="Para Pltn"), rg("British", "I3", cpp=12, cg_max=2),
         rg("German", "I1", "K", cpp=8, date_max=2, cg_max=6, group="SS Rifle Pltn"), rg("German", "I1", "S", cpp=8)]


def buy(british=(), german=(), cpp=(27, 20), **kw):
    given = inputs(purchases={"British": british, "German": german}, rgs=CHART, **kw)
    start = state(areas=AREAS, british=record("British", cpp=cpp[0]), german=record("German", cpp=cpp[1]))
    return purchases.run(start, given, ScriptedDice())


def test_a_purchase_costs_its_cpp_and_the_unspent_cpp_are_halved_fru():
    result = buy([purchase("British", "RG", "I1", area="A")])
    british = result.state.records["British"]
    assert (british.cpp_spent, british.cpp_left) == (10, 9)  # 27 - 10 = 17, halved FRU
    assert result.state.records["German"].cpp_left == 10 and result.state.records["German"].cpp_spent == 0
    [line] = result.state.rg_lines
    assert (line.label, line.group_type, line.purchased, line.remaining, line.counts, line.area) == (
        "I1", "Para Pltn", 1, 3, True, "A")
    assert {e.visible_to for e in result.entries} == {"British", "German"}


def test_a_german_rg_is_recorded_with_its_kg():
    result = buy(german=[purchase("German", "RG", "I1", 2, area="F", kg="K")])
    assert [(r.label, r.purchased, r.remaining) for r in result.state.rg_lines] == [("I1(K)", 1, 5), ("I1(K)", 2, 4)]
    assert result.state.records["German"].cpp_left == 2  # 20 - 16 = 4, halved


def test_the_record_so_far_counts_towards_the_cg_maximum_but_ob_given_rgs_never_do():
    history = [RGLine("British", d, "I1", None, "Para Pltn", n, 4 - n) for n, d in enumerate(("18AM", "18PM", "18EVE"), 1)]
    history.append(RGLine("British", "18AM", "I1", None, "Para Pltn", None, None, counts=False))
    result = buy([purchase("British", "RG", "I1", area="A")], rg_record=history)
    assert [(r.purchased, r.remaining) for r in result.state.rg_lines] == [(4, 0)]
    with pytest.raises(WorkbookError, match=r"Purchases 19AM British!D2: RG: I1 would be bought 5 times in the CG; the CG "
                                            r"maximum is 4 \(4 bought so far\)"):
        buy([purchase("British", "RG", "I1", area="A")], rg_record=history + [history[0]])


@pytest.mark.parametrize("british, german, message", [
    ([purchase("British", "RG", "I1", 2, area="A")], [], r"Purchases 19AM British!D2: RG: 2 I1 this CG Date; the CG Date "
                                                         r"maximum is 1"),
    ([purchase("British", "RG", "I1", area="A"), purchase("British", "RG", "I3", area="A", row=3)], [],
     r"Purchases 19AM British!B2: RG: the British purchases cost 22 CPP, more than the 20 CPP it has"),
    ([], [purchase("German", "RG", "I1", area="F")], r"Purchases 19AM German!C2: RG: German RG I1 needs its KG \(9.6178\)"),
    ([], [purchase("German", "RG", "I9", area="F", kg="K")], r"Purchases 19AM German!B2: RG: I9\(K\) is not on the German RG "
                                                                r"Chart; valid: I1\(K\), I1\(S\)"),
    ([purchase("British", "RG", "I1", area="F")], [], r"Purchases 19AM British!E2: RG: 'F' is not a Setup or Entry Area of "
                                                      r"the British; valid: A, North Entry"),
    ([purchase("British", "OB RG", "I1", area="A")], [], r"Purchases 19AM British!A2: OB RG: only before a CG Initial Scenario"),
])
def test_purchases_beyond_the_rules_name_their_cell(british, german, message):
    with pytest.raises(WorkbookError, match=message):
        buy(british, german, cpp=(20, 20))


def test_ob_given_and_initial_ob_rgs_are_recorded_outside_the_limits():
    ob = Reinforcement("19AM", "German", "RG", "I1", 1, "K", "German Entry Area", 1)
    start = state(areas=AREAS).with_(ob_given=(ob,))
    given = inputs(purchases={"British": (), "German": ()}, rgs=CHART)
    lines = purchases.run(start, given, ScriptedDice()).state.rg_lines
    assert [(r.label, r.counts, r.purchased, r.area) for r in lines] == [("I1(K)", False, None, "East Entry")]
    initial = inputs(mode=Mode.INITIAL, previous=None, date="17N", rgs=CHART,
                     purchases={"British": [purchase("British", "OB RG", "I1", 2, area="A")], "German": ()})
    result = purchases.run(state(areas=AREAS), initial, ScriptedDice())
    assert [(r.label, r.counts) for r in result.state.rg_lines] == [("I1", False), ("I1", False)]
    assert result.state.records["British"].cpp_spent == 0


def test_the_refit_waits_for_each_sides_purchases():
    given = inputs(purchases={"British": (), "German": None}, rgs=CHART)
    result = purchases.run(state(areas=AREAS), given, ScriptedDice())
    assert result.waiting.who == "German" and result.waiting.sheet == "Purchases 19AM German"
    assert "CPP spent 0 of 0; 0 unspent, divided by 2 (FRU): 0 Left" in texts(buy(cpp=(0, 0)))

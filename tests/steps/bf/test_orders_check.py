"""Bad orders: every problem with its Sheet!Cell, all together, before any
die is rolled; and the sides that must (or need not) send a Spend sheet."""
from __future__ import annotations

import pytest

from automation.errors import WorkbookError
from automation.steps.bf import orders_check
from tests.support.bf import (
    Campaign, afv, combine, command, engineers, escape, order, posture, purchase, removal, repair, run, texts, troops,
)
from tests.support.dice import ScriptedDice


def front() -> Campaign:
    return (Campaign()
            .rg("German", "I1", cpp=8, scenario_max=2, campaign_max=3, stands="Panzergrenadier x6")
            .rg("German", "A1", cpp=12, scenario_max=1, campaign_max=2, me_class="A", me_type="Panzer company",
                stands="PzKpfw IVG x4 [AFV]")
            .rg("German", "F1", "Aircraft", cpp=5, scenario_max=1, campaign_max=3)
            .rg("German", "P1", "FPP", cpp=3, campaign_max=3, fpp=4)
            .me("II/11 Pz", "German", "A", "Panzer company", afv("G-Pz-1"), afv("G-Pz-2"), afv("G-Pz-3"), rg="A1")
            .me("4/114 PzG", "German", "I", "Panzergrenadier company", command("G-PzG-1"), troops("G-PzG-2"), rg="I1", full=8)
            .me("1/87 TB", "Russian", "A", "Tank company", afv("R-T34-1"), afv("R-T34-2"), discipline="Trained")
            .result("G-Pz-2", "Knocked out", ends_in="Own lines")
            .result("G-Pz-3", "Knocked out", ends_in="Enemy lines")
            .result("R-T34-2", "Knocked out", ends_in="Enemy lines"))


def refused(campaign: Campaign) -> list[str]:
    inputs, state = campaign.prepared()
    with pytest.raises(WorkbookError) as err:
        run(orders_check.check_spend, inputs, state, ScriptedDice())
    return [str(p) for p in err.value.problems]


def test_every_bad_order_is_named_by_its_cell_all_together():
    campaign = front().rg_used("German", "A1", 2).spend(
        "German",
        purchase("O9"),                        # row 2: unknown RG
        purchase("A1", 1),                     # row 3: the campaign total, and more CPP than German has
        repair("G-Pz-3", 1),                   # row 4: ineligible, its wreck is in enemy lines
        combine("7/114 PzG", "9/114 PzG"),     # row 5: unknown ME
        combine("II/11 Pz", "4/114 PzG"),      # row 6: ineligible combination
        order("Posture", None, "Attack"),      # row 7: belongs on the Orders sheet
    ).spend("Russian", purchase("I1"))
    assert refused(campaign) == [
        "Spend Dec 24 German!B2: Purchase: 'O9' is not on the RG chart of German; valid: I1, A1, F1, P1",
        "Spend Dec 24 German!A3: the orders of German spend 12 CPP, with 10 to spend; this is the first order that does "
        "not fit (1 x A1 at 12 CPP: 12)",
        "Spend Dec 24 German!C3: Purchase: 1 x A1 exceeds the campaign total of 2: 2 already used "
        "(base force included, 2.1.1.4.1), so at most 0 more",
        "Spend Dec 24 German!B4: Repair: G-Pz-3 is not inside its own lines",
        "Spend Dec 24 German!B5: Combine: '7/114 PzG' is not an ME of German on the roster (2.1.1.3.2)",
        "Spend Dec 24 German!B6: Combine: II/11 Pz (A, Panzer company) and 4/114 PzG (I, Panzergrenadier company) are "
        "neither of identical class and type nor both I class (2.1.1.3.2)",
        "Spend Dec 24 German!A7: Posture belongs on the Orders sheet; here: Repair, Combine, Purchase, Extra CPP, "
        "Preregistered points, Removal, Fortification",
        "Spend Dec 24 Russian!B2: Purchase: 'I1' is not on the RG chart of Russian; valid: none",
    ]


def test_an_overspend_is_reported_at_the_first_order_that_does_not_fit():
    campaign = front().spend("German", repair("G-Pz-2", 1), purchase("I1"), purchase("F1"))
    assert refused(campaign) == [
        "Spend Dec 24 German!A4: the orders of German spend 14 CPP, with 10 to spend; this is the first order that does "
        "not fit (repair of G-Pz-2: 1; 1 x I1 at 8 CPP: 8; 1 x F1 at 5 CPP: 5)"]


def test_fpp_bought_now_arrive_after_enemy_wrecks_are_destroyed():
    campaign = front().fpp("German", 0).spend("German", purchase("P1"), removal("R-T34-2"))
    assert refused(campaign) == [
        "Spend Dec 24 German!A3: FPP left to German: 0, and this order (destroying the wreck R-T34-2) needs 1: the 4 FPP "
        "bought from the RG chart arrive only with the purchases (2.1.1.4), after enemy wrecks are destroyed (2.1.1.3.1)"]


def test_fpp_bought_now_pay_for_fortification_removals_later_in_the_refit():
    inputs, state = front().fpp("German", 0).spend("German", purchase("P1"), removal("Wire", "near MLR")).prepared()
    result = run(orders_check.check_spend, inputs, state, ScriptedDice())
    assert "orders valid: 3 CPP of 10, 1 FPP of 4" in texts(result, "German")


def test_a_side_with_cpp_must_send_a_spend_sheet_even_an_empty_one():
    inputs, state = front().no_spend("German").prepared()
    waiting = run(orders_check.check_spend, inputs, state).waiting
    assert waiting is not None and (waiting.who, waiting.sheet) == ("German", "Spend Dec 24 German")
    inputs, state = front().spend("German").prepared()  # the sheet is there, with no orders
    assert run(orders_check.check_spend, inputs, state).waiting is None


def test_a_side_with_nothing_to_spend_needs_no_spend_sheet():
    campaign = front().cpp("Russian", 0).fpp("Russian", 0).no_spend("Russian").spend("German")
    inputs, state = campaign.prepared()
    result = run(orders_check.check_spend, inputs, state)
    assert result.waiting is None
    assert texts(result, "Russian") == ["no CPP, no FPP and nothing to combine: no Spend sheet needed"]


def test_a_side_that_could_combine_still_gets_its_say():
    campaign = (front().cpp("German", 0).fpp("German", 0).no_spend("German")
                .me("5/114 PzG", "German", "I", "Panzergrenadier company", troops("G-B1"), full=8))
    inputs, state = campaign.prepared()
    assert run(orders_check.check_spend, inputs, state).waiting is not None


def test_bad_orders_sheets_are_named_by_their_cells():
    campaign = (front()
                .result("G-PzG-2", situation="Isolated")
                .me("2/57 Pio", "German", "E", "Pioneer platoon", engineers("G-Pio-1"), engineers("G-Pio-2"))
                .result("G-Pio-1", situation="Cut off").result("G-Pio-2", situation="Isolated")
                .orders("German", posture("Charge"), posture("Defend"), escape("G-Pz-1"), escape("G-Pz-3", "group 1"),
                        escape("R-T34-1"), escape("G-PzG-2", value="Maybe"), escape("G-PzG-2"),
                        escape("G-Pio-1", "pocket"), escape("G-Pio-2", "pocket"), purchase("I1")))
    inputs, state = campaign.build()
    with pytest.raises(WorkbookError) as err:
        run(orders_check.check_orders, inputs, state)
    assert [str(p) for p in err.value.problems] == [
        "Orders Dec 24 German!C2: Posture: 'Charge' is not allowed; valid: Attack, Defend",
        "Orders Dec 24 German!A3: Posture: given twice; one Attack or Defend per side (2.1)",
        "Orders Dec 24 German!B4: Escape: G-Pz-1 is not an isolated or cut-off stand (2.1.2.4.3); see its Situation in Results",
        "Orders Dec 24 German!B5: Escape: G-Pz-3 is not an isolated or cut-off stand (2.1.2.4.3); see its Situation in Results",
        "Orders Dec 24 German!D5: Escape: only troop (T class) stands roll as a group; G-Pz-3 is AFV",
        "Orders Dec 24 German!B6: Escape: 'R-T34-1' is not a stand of German on the roster",
        "Orders Dec 24 German!C7: Escape: 'Maybe' is not allowed; valid: Yes, No",
        "Orders Dec 24 German!B8: Escape: G-PzG-2 is named twice; one roll per stand",
        "Orders Dec 24 German!D10: Escape: group 'pocket' mixes situations: G-Pio-2 is isolated but the group's first "
        "stand (G-Pio-1) is cut off; one roll serves one isolated group",
        "Orders Dec 24 German!A11: Purchase belongs on the Spend sheet; here: Posture, Escape",
    ]

"""2.1.1.4.1 Scheduled reinforcements: groups arriving free of CPP on their
date join the roster and count against the RG chart's limits like the base
force; purchases come on top of them."""
from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

import pytest

from automation.errors import WorkbookError
from automation.steps.bf import purchases, reinforcements
from automation.steps.bf.state import Arrival, Ref
from tests.support.bf import Campaign, command, ledger, purchase, rolls, run, texts, troops
from tests.support.dice import ScriptedDice, at


def germans(today: str = "Dec 24") -> Campaign:
    return (Campaign(today=today)
            .rg("German", "I1", cpp=8, scenario_max=2, campaign_max=3, me_class="I", me_type="Panzergrenadier company",
                stands="Command x1; Panzergrenadier x6; HMG x2; Opel Blitz x3 [Soft vehicle]", discipline="Veteran")
            .rg("German", "O3", "OBA", cpp=6, scenario_max=2, campaign_max=4, description="Medium artillery battalion")
            .rg("German", "P1", "FPP", cpp=3, campaign_max=3, fpp=4, description="Engineer stores")
            .me("4/114 PzG", "German", "I", "Panzergrenadier company", command("G-PzG-1"), troops("G-PzG-2"), rg="I1"))


def scheduled(campaign: Campaign, *rows: tuple[str, str, str, str | None]):
    inputs, state = campaign.prepared()
    schedule = tuple(Arrival(date, side, rg, me, Ref("Scheduled Reinforcements", f"{'D' if me else 'C'}{i}"))
                     for i, (date, side, rg, me) in enumerate(rows, start=2))
    return replace(inputs, schedule=schedule), state


def test_2_1_1_4_1_a_scheduled_me_joins_the_roster_on_its_date_free_of_cpp_and_counts_against_the_rg_limits():
    inputs, state = scheduled(germans(), ("Dec 24", "German", "I1", "5/114 PzG"), ("Dec 25", "German", "I1", None))
    result = run(reinforcements, inputs, state)
    me = result.state.roster.mes["5/114 PzG"]
    assert (me.rg, me.discipline, me.breakpoint_base, me.full_strength) == ("I1", "Veteran", 9, 9)  # trucks not counted
    assert len(result.state.roster.of_me("5/114 PzG")) == 12
    assert result.state.ledger.rg_used[("German", "I1")] == 2
    assert result.state.ledger.cpp == state.ledger.cpp and ledger(result.state, "German") == []
    assert texts(result) == ["I1 (I1 group) arrives as scheduled, free of CPP, as 5/114 PzG: 12 stand(s); 2 of 3 "
                             "in the campaign"]


def test_2_1_1_4_1_purchases_come_on_top_of_the_arrivals_still_to_come():
    inputs, state = scheduled(germans().cpp("German", 30).spend("German", purchase("I1", 2)),
                              ("Dec 26", "German", "I1", None))
    found, _ = purchases.check(inputs, state, "German", inputs.spend["German"])
    assert [str(p) for p in found] == [
        "Spend Dec 24 German!C2: Purchase: 2 x I1 exceeds the campaign total of 3: 1 already used "
        "(base force included, 2.1.1.4.1) and 1 scheduled to arrive later, so at most 1 more"]


def test_2_1_1_4_1_a_schedule_beyond_the_campaign_total_is_refused_at_its_row():
    inputs, state = scheduled(germans().rg_used("German", "I1", 3), ("Dec 24", "German", "I1", None))
    with pytest.raises(WorkbookError) as err:
        run(reinforcements, inputs, state)
    assert [str(p) for p in err.value.problems] == [
        "Scheduled Reinforcements!C2: RG: I1 arriving on Dec 24 would be 4 of German's campaign total of 3 (base force, "
        "scheduled reinforcements and purchases count, 2.1.1.4.1); valid: a later date's row removed or the RG "
        "chart's Campaign max raised"]


def test_2_1_1_4_4_a_scheduled_oba_module_rolls_its_smoke_missions_and_scheduled_fpp_are_booked():
    inputs, state = scheduled(germans(), ("Dec 24", "German", "O3", None), ("Dec 24", "German", "P1", None))
    result = run(reinforcements, inputs, state, ScriptedDice(at("aircraft-smoke/German/O3-1", 9)))
    (roll,) = rolls(result)
    assert (roll.column, roll.result, roll.probability) == ("Smoke missions", "3 smoke missions", Fraction(2, 10))
    assert result.state.roster.stand("O3-1 OBA").notes == "3 smoke missions"
    assert ledger(result.state, "German", "FPP") == [("Scheduled FPP from P1", 4, 8)]
    assert result.state.ledger.rg_used[("German", "P1")] == 1


def test_arrivals_of_other_dates_do_nothing_today():
    inputs, state = scheduled(germans(), ("Dec 25", "German", "I1", None))
    result = run(reinforcements, inputs, state)
    assert result.state == state and result.entries == ()

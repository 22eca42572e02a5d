"""2.1.2 Scenario cleanup: the map-only checklist, the results entered, and
escape attempts from isolation (2.1.2.4.3) with every modifier."""
from __future__ import annotations

from automation.steps.bf import cleanup
from automation.steps.bf.state import Situation, Status
from tests.support.bf import Campaign, afv, escape, modifiers, posture, rolls, run, soft, texts, troops
from tests.support.dice import ScriptedDice, at

AM_PM = (("Dec 23 AM", "1942-12-23", "Morning"), ("Dec 23 PM", "1942-12-23", "Afternoon"))


def pocket(today: str = "Dec 24", dates=None) -> Campaign:
    campaign = Campaign(today=today)
    if dates:
        campaign.dated(*dates)
    return (campaign
            .me("1/1378 RR", "Russian", "I", "Rifle company", troops("R-1"), troops("R-2"), troops("R-3"), troops("R-4"),
                discipline="Trained")
            .me("1/87 TB", "Russian", "A", "Tank company", afv("R-T1", "T-34/76"), soft("R-Truck-1", "ZiS-5"),
                discipline="Trained")
            .result("R-1", situation="Cut off", ends_in="Enemy lines", near_friendly_lines=True)
            .result("R-2", situation="Isolated", ends_in="Enemy lines")
            .result("R-3", situation="Isolated", ends_in="Enemy lines")
            .result("R-4", situation="Isolated", ends_in="Enemy lines")
            .result("R-T1", situation="Isolated", ends_in="Enemy lines")
            .result("R-Truck-1", situation="Isolated", ends_in="Enemy lines"))


def test_the_checklist_lists_the_map_only_steps_with_their_rule_numbers():
    inputs, state = Campaign().build()
    result = run(cleanup, inputs, state)
    checklist = [(e.rule, e.visible_to) for e in result.entries if e.text.startswith("Checklist: ")]
    assert [r for r, _ in checklist] == ["2.1.2.1", "2.1.2.2", "2.1.2.3", "2.1.2.4", "2.1.2.4.1", "2.1.2.4.2",
                                         "2.1.2.5", "2.1.2.6", "2.1.2.7", "2.1.2.8"]
    assert {v for _, v in checklist} == {"Umpire"}


def test_the_refit_waits_for_the_results_of_the_scenario_played():
    inputs, state = Campaign().no_results_sheet().build()
    waiting = run(cleanup, inputs, state).waiting
    assert waiting is not None and (waiting.who, waiting.sheet) == ("Umpire", "Results Dec 23")


def test_no_cleanup_and_no_results_expected_after_both_sides_defended_or_before_the_first_scenario():
    for campaign in (Campaign().both_defended_last_time(), Campaign(today="Dec 23")):
        inputs, state = campaign.build()
        result = run(cleanup, inputs, state)
        assert result.waiting is None and texts(result) == ["no previous scenario to clean up"]


def test_escape_takes_every_modifier_of_the_infantry_column():
    inputs, state = pocket("Dec 23 PM", AM_PM).orders("Russian", posture("Attack"), escape("R-1")).build()
    result = run(cleanup, inputs, state, ScriptedDice(at("escape/Russian/R-1", 2)))
    (roll,) = rolls(result)
    # previous half day AM -1, cut off -2, near friendly lines +1, Russian +1
    assert modifiers(roll) == {"previous_am": -1, "cut_off": -2, "near_friendly_lines": 1, "russian": 1}
    assert (roll.column, roll.final, roll.result) == ("Infantry", 1, "Eliminated")
    assert result.state.roster.stand("R-1") is None


def test_a_fully_tracked_afv_adds_two_and_is_abandoned_on_2_or_3():
    inputs, state = pocket().orders("Russian", posture("Attack"), escape("R-T1")).build()
    result = run(cleanup, inputs, state, ScriptedDice(at("escape/Russian/R-T1", 1)))
    (roll,) = rolls(result)
    assert modifiers(roll) == {"fully_tracked": 2, "russian": 1} and (roll.column, roll.final, roll.result) == ("AFV", 4, "Escape")
    inputs, state = pocket().side("Russian", nationality="Ukrainian partisans").orders(
        "Russian", posture("Attack"), escape("R-T1")).build()
    abandoned = run(cleanup, inputs, state, ScriptedDice(1))
    assert rolls(abandoned)[0].final == 3 and rolls(abandoned)[0].result == "Abandon"
    tank = abandoned.state.roster.stand("R-T1")
    assert tank.status is Status.WRECK and tank.abandoned and tank.wreck_lines == "Enemy lines"


def test_an_unarmored_vehicle_loses_one_and_an_abandoned_soft_vehicle_leaves():
    inputs, state = pocket().orders("Russian", posture("Attack"), escape("R-Truck-1")).build()
    result = run(cleanup, inputs, state, ScriptedDice(at("escape/Russian/R-Truck-1", 2)))
    (roll,) = rolls(result)
    assert modifiers(roll) == {"unarmored_vehicle": -1, "russian": 1} and (roll.final, roll.result) == (2, "Abandon")
    assert result.state.roster.stand("R-Truck-1") is None
    assert "abandoned soft vehicle: leaves the roster" in texts(result, "R-Truck-1")


def test_a_t_class_group_makes_one_roll_and_survivors_rejoin_their_me():
    inputs, state = pocket().orders("Russian", posture("Attack"), escape("R-2", "pocket A"), escape("R-3", "pocket A")).build()
    result = run(cleanup, inputs, state, ScriptedDice(at("escape/Russian/R-2", 1)))
    (roll,) = rolls(result)
    assert (roll.final, roll.result) == (2, "Escape")  # infantry escape on 2-3
    for stand_id in ("R-2", "R-3"):
        s = result.state.roster.stand(stand_id)
        assert s.situation is Situation.NORMAL and s.me == "1/1378 RR"
        assert texts(result, stand_id) == ["ends the scenario isolated", "escapes: rejoins 1/1378 RR"]
    assert texts(result, "R-4") == ["ends the scenario isolated", "stays isolated in place"]
    assert result.state.roster.stand("R-4").situation is Situation.ISOLATED


def test_trapped_stands_wait_for_their_sides_orders():
    inputs, state = pocket().build()
    waiting = run(cleanup, inputs, state).waiting
    assert waiting is not None and waiting.sheet == "Orders Dec 24 Russian"


def test_results_applied_knocked_out_leave_wrecks_stay_and_panicked_return():
    inputs, state = (Campaign()
                     .me("II/11 Pz", "German", "A", "Panzer company", afv("G-Pz-1"), afv("G-Pz-2"))
                     .me("4/114 PzG", "German", "I", "Panzergrenadier company", troops("G-1"), troops("G-2"))
                     .result("G-Pz-2", "Knocked out", ends_in="Own lines", in_minefield=True)
                     .result("G-1", "Knocked out").result("G-2", "Panicked").build())
    result = run(cleanup, inputs, state)
    after = result.state
    assert after.knocked_out == {"G-1"} and after.panicked == {"G-2"} and after.lost_afv == {"II/11 Pz"}
    assert after.fought == {"II/11 Pz", "4/114 PzG"}
    tank = after.roster.stand("G-Pz-2")
    assert (tank.status, tank.wreck_lines, tank.in_minefield) == (Status.WRECK, "Own lines", True)
    assert (after.roster.mes["II/11 Pz"].losses_today, after.roster.mes["4/114 PzG"].losses_today) == (1, 1)
    assert texts(result, "G-Pz-2") == ["PzKpfw IVG knocked out: wreck in own lines, in a minefield"]


def test_2_1_1_3_1_item_3_a_wreck_stays_in_its_pocket_while_the_pocket_holds_and_is_exposed_once_it_is_gone():
    campaign = (Campaign()
                .me("1/87 TB", "Russian", "A", "Tank company", afv("R-T1", "T-34/76"), afv("R-T2", "T-34/76"),
                    discipline="Trained")
                .result("R-T1", "Knocked out", situation="Cut off", ends_in="Enemy lines")
                .result("R-T2", situation="Cut off", ends_in="Enemy lines"))
    inputs, state = campaign.orders("Russian", posture("Defend")).build()
    held = run(cleanup, inputs, state)
    wreck = held.state.roster.stand("R-T1")
    assert (wreck.status, wreck.situation) == (Status.WRECK, Situation.CUT_OFF)
    assert "T-34/76 knocked out: wreck in enemy lines, inside a cut off pocket" in texts(held, "R-T1")
    inputs, state = campaign.orders("Russian", posture("Defend"), escape("R-T2")).build()
    gone = run(cleanup, inputs, state, ScriptedDice(at("escape/Russian/R-T2", 9)))
    assert gone.state.roster.stand("R-T2").situation is Situation.NORMAL
    assert gone.state.roster.stand("R-T1").situation is Situation.NORMAL
    assert texts(gone, "R-T1")[-1] == "wreck no longer inside a pocket: no Russian stand is isolated or cut off"

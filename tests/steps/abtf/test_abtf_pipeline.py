"""The RePh order and its markers: † steps alone before a CG Initial Scenario, +
steps alone after the CG's last scenario, 9.612 on after an Idle CG Date."""
from __future__ import annotations

from dataclasses import replace

from automation.steps.abtf import pipeline
from automation.steps.abtf.state import Mode
from tests.support.abtf import ScriptedDice, inputs, line, state

PART_1 = ["Conclusion of Melee", "Marker Removal", "Rally and Unloading", "Encirclement, Minefields, Bog, Shock",
          "Setup Area Determination", "Escape", "Encircled-Marker Removal", "Equipment Possession and Hidden Fortifications",
          "Prisoners", "Flames and Blazes", "Wounded Leaders and Walking Wounded", "Recombining and Battle Hardening",
          "New CG Date and SAN", "Shift", "Vehicles", "Weapons", "OB-Given Reinforcements", "CPP Replenishment"]
PART_2 = ["Purchasing Reinforcement Groups", "RG Strength, Weapons, Leaders, Composition", "Purchasing Fortifications",
          "Ammunition Shortage and ELR", "Scenario Commencement", "CG Date summary"]
PART_3 = ["First Move Determination"]
FIRST = ["RePh sequence", "Orders check"]


def names(mode):
    return [s.name for s in pipeline.steps_for(mode)]


def test_after_a_scenario_every_step_runs_in_the_seeds_order():
    assert names(Mode.SCENARIO) == FIRST + PART_1 + PART_2 + PART_3
    assert {s.stage for s in pipeline.steps_for(Mode.SCENARIO) if s.name in PART_2} == {2}
    assert {s.stage for s in pipeline.steps_for(Mode.SCENARIO) if s.name in PART_3} == {3}
    rules = [rule for _, rule, _ in pipeline.SEQUENCE]
    assert rules == sorted(rules, key=pipeline._number)


def test_the_plus_steps_are_9_601_to_9_603_and_alone_end_the_last_scenario():
    assert [rule for marker, rule, _ in pipeline.SEQUENCE if marker == "+"] == ["9.601", "9.602", "9.603"]
    assert names(Mode.FINAL) == FIRST + PART_1[:3]


def test_before_a_cg_initial_scenario_only_the_dagger_steps_run():
    assert [rule for marker, rule, _ in pipeline.SEQUENCE if marker == "†"][:5] == ["9.617", "9.618", "9.619", "9.620", "9.621"]
    assert names(Mode.INITIAL) == FIRST + PART_2 + PART_3


def test_after_an_idle_date_the_rephase_starts_again_at_9_612():
    assert names(Mode.IDLE) == FIRST + PART_1[PART_1.index("New CG Date and SAN"):] + PART_2 + PART_3


def test_9_6215_a_dual_assault_after_setup_runs_the_first_move_alone():
    assert names(Mode.FIRST_MOVE) == PART_3


def test_the_last_scenario_reaches_cg_scenario_end_with_its_cvp_and_nothing_more():
    given = replace(inputs(date="21EVE", previous="21PM", mode=Mode.FINAL,
                           umpire=[line("Final CVP", "British", 40), line("Final CVP", "German", 35, row=3)]))
    run = pipeline.refit(state(), given, ScriptedDice())
    assert run.waiting is None and run.completed == FIRST + PART_1[:3]
    assert run.state.records["British"].final_cvp == 40 and run.entries[0].text.startswith("21EVE: after the CG's last")

"""9.615 OB-given reinforcements from the seed's schedule and 9.616 CPP
replenishment (base number + a secret DR)."""
from __future__ import annotations

import pytest

from automation.steps.abtf import cpp, reinforcements
from automation.steps.abtf.state import Mode, Reinforcement
from tests.support.abtf import SYSTEM, ScriptedDice, inputs, record, rolls, state, texts, unit


def schedule() -> tuple[Reinforcement, ...]:
    rows = SYSTEM.charts["abtf.reinforcement_schedule"].rows
    return tuple(Reinforcement(r["CG Date"], r["Side"], r["Kind"], r["Item"], r["Amount"], "K" if r["Side"] == "German" else None,
                               r.get("Entry"), r.get("From turn"), r.get("SAN maximum"), r.get("SAN minimum")) for r in rows)


def test_18am_brings_two_british_rgs_san_plus_two_and_german_fpp_and_san_minus_one():
    start = state(british=record("British", san=6), german=record("German", san=3, fpp=5))
    result = reinforcements.run(start, inputs(date="18AM", previous="17N", reinforcements=schedule()), ScriptedDice())
    after = result.state
    assert after.records["British"].san == 7  # +2, at most 7
    assert after.records["German"].san == 2 and after.records["German"].fpp == 25
    assert [(r.side, r.item) for r in after.ob_given] == [("British", "I1"), ("British", "I2")]


@pytest.mark.parametrize("date, side, before, after", [("18PM", "British", 2, 2), ("18PM", "German", 4, 6),
                                                       ("20AM", "German", 7, 7), ("20AM", "German", 5, 6)])
def test_scheduled_san_changes_respect_the_maximum_and_minimum(date, side, before, after):
    records = {"british": record("British", san=before if side == "British" else 3),
               "german": record("German", san=before if side == "German" else 3)}
    result = reinforcements.run(state(**records), inputs(date=date, previous="18AM", reinforcements=schedule()), ScriptedDice())
    assert result.state.records[side].san == after


def test_reinforcements_that_never_entered_the_scenario_they_were_due_in_are_eliminated():
    late = unit("B-R1", area="North Entry", status="Not entered", cvp=2)
    played = reinforcements.run(state(late), inputs(), ScriptedDice())
    assert played.state.unit("B-R1") is None and played.state.reph_cvp == {"German": 2}
    idle = reinforcements.run(state(late), inputs(mode=Mode.IDLE), ScriptedDice())
    assert idle.state.unit("B-R1") is not None


def test_cpp_replenishment_adds_the_base_number_and_a_secret_dr_to_what_was_left():
    start = state(british=record("British", cpp=3), german=record("German", cpp=0))
    result = cpp.run(start, inputs(date="18PM", previous="18AM"), ScriptedDice(by_label={"9.616/British": (2, 5),
                                                                                        "9.616/German": (6, 6)}))
    assert result.state.records["British"].cpp_replenished == 25 + 7 and result.state.records["British"].cpp_left == 35
    assert result.state.records["German"].cpp_replenished == 15 + 12 and result.state.records["German"].cpp_left == 27
    assert {e.visible_to for e in result.entries} == {"British", "German"}
    assert [e.side for e in rolls(result)] == ["British", "German"]
    assert "CPP Base # for 18PM: 25" in texts(result, "British")

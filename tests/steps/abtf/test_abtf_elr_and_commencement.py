"""9.620 ammunition shortage and ELR (with the seed's 21PM example) and 9.621
scenario commencement: chits, the matrix, setup and move order, weather."""
from __future__ import annotations

from dataclasses import replace

import pytest

from automation.errors import WorkbookError
from automation.steps.abtf import commencement, elr
from automation.steps.abtf.state import Mode
from tests.support.abtf import ScriptedDice, block, inputs, mods, purchase, record, rolls, state, texts

AREAS = [block("A", "British", "A2"), block("H", "British", "H2")]


def example_state():
    history = (record("British", date="20N", scenario="Idle", chit="Idle"), record("German", date="20N", scenario="Idle", chit="Idle"),
               record("British", date="21AM", scenario="Dual Assault", chit="Attack"),
               record("German", date="21AM", scenario="Dual Assault", chit="Attack"))
    start = state(areas=AREAS, british=record("British", date="21PM", shortage=2, attack=1), german=record("German", date="21PM"))
    return start.with_(history=history, final_cvp={"British": 42, "German": 38})


@pytest.mark.parametrize("exhaustion, british, german", [(4, 7, 3), (3, 6, 2)])
def test_the_elr_example_of_9_6202_comes_out_as_printed_with_its_plus_four(exhaustion, british, german):
    given = inputs(date="21PM", previous="21AM")
    given = replace(given, date=replace(given.date, exhaustion=exhaustion))
    result = elr.run(example_state(), given, ScriptedDice((2, 2), (6, 6), (1, 1)))
    shortage, b, g = rolls(result)
    assert shortage.roll.result == "No change" and result.state.records["British"].shortage == 2
    assert b.roll.drm == british and g.roll.drm == german
    assert mods(b) == {"enemy_cvp": -1, "scenarios_since_idle": 1, "attack_chits": 1, "british_exhaustion": exhaustion,
                       "ammunition_shortage": 2}
    assert b.roll.final == 12 + british and b.roll.result == "ELR -1" and result.state.records["British"].elr == 3
    assert g.roll.final == 2 + german


def test_idle_dates_since_the_last_scenario_each_give_minus_three_and_no_shortage_dr_follows_an_idle_date():
    history = (record("British", date="19AM", scenario="British Assault", chit="Attack"),
               record("British", date="19PM", scenario="Idle", chit="Idle"),
               record("German", date="19AM", scenario="British Assault", chit="Idle"),
               record("German", date="19PM", scenario="Idle", chit="Idle"))
    start = state(areas=AREAS).with_(history=history)
    result = elr.run(start, inputs(date="19EVE", previous="19PM", mode=Mode.IDLE), ScriptedDice((3, 3), (3, 3)))
    b, g = rolls(result)
    assert mods(b) == {"idle_dates": -3, "british_exhaustion": 2} and mods(g) == {"idle_dates": -3, "german_exhaustion": 1}
    assert "no Ammunition Shortage DR: the previous CG Date was Idle (Level 0)" in texts(result)


def test_the_ammunition_shortage_rises_on_ten_or_more_from_19am_only():
    start = state(areas=AREAS, british=record("British", attack=3))
    result = elr.run(start, inputs(date="19AM", previous="18N"), ScriptedDice((4, 3), (3, 3), (3, 3)))
    shortage = rolls(result)[0]
    assert mods(shortage) == {"campaign_exhaustion": 1, "attack_chits": 2} and shortage.roll.final == 10
    assert result.state.records["British"].shortage == 1 and mods(rolls(result)[1])["ammunition_shortage"] == 1
    early = elr.run(start, inputs(date="18N", previous="18EVE"), ScriptedDice((3, 3), (3, 3)))
    assert len(rolls(early)) == 2


def chits(british, german, limits=None, **kw):
    given = inputs(purchases={"British": [purchase("British", "Chit", british)], "German": [purchase("German", "Chit", german)]},
                   chit_limits=limits or {"British": (5, 5), "German": (5, 5)}, **kw)
    return given


@pytest.mark.parametrize("british, german, result, setup, move", [
    ("Idle", "Attack", "German Assault", "British", "German"), ("Attack", "Idle", "British Assault", "German", "British"),
])
def test_the_initiative_matrix_gives_the_scenario_and_its_order(british, german, result, setup, move):
    out = commencement.run(state(areas=AREAS), chits(british, german), ScriptedDice((3, 4), (4,), (2,)))
    rec = out.state.records["British"]
    assert (rec.scenario, rec.chit, out.state.records["German"].chit) == (result, british, german)
    assert out.state.next_scenario["sets up first"] == setup and out.state.next_scenario["moves first"] == move
    assert (rec.weather, rec.ec, rec.wind) == ("Clear", "Moderate", "No Wind")
    assert (rec.attack_chits, rec.idle_chits) == ((1, 0) if british == "Attack" else (0, 1))


def test_9_62133a_a_dual_assault_rolls_who_sets_up_first_but_not_who_moves_first():
    dice = ScriptedDice((3,), (3, 4), (4,), (2,))
    out = commencement.run(state(areas=AREAS), chits("Attack", "Attack"), dice)
    assert out.state.next_scenario == {"type": "Dual Assault", "sets up first": "British", "moves first": None,
                                       "weather": "Clear", "EC": "Moderate", "wind": "No Wind"}
    assert [label for label, _ in dice.thrown] == ["9.62133/German", "9.62161/British", "9.62163/British", "9.62164/British"]
    assert out.state.records["German"].notes == "first to set up: British; first move by dr after all setup (9.6215)"
    assert not any(e.rule == "9.6215" for e in out.entries)


def dual_assault(setup=None):
    start = state(areas=AREAS, british=record("British", scenario="Dual Assault"),
                  german=record("German", scenario="Dual Assault"))
    return start.with_(next_scenario={"type": "Dual Assault", "sets up first": "German", "moves first": None}), \
        replace(inputs(), setup=setup)


def setup_line(side, done, row=2):
    from automation.steps.abtf.state import Line, Ref

    refs = {c: Ref("Setup 19AM", f"{letter}{row}") for c, letter in (("Side", "A"), ("Set up", "B"), ("Notes", "C"))}
    return Line("Setup", side, done, refs=refs)


@pytest.mark.parametrize("dr, first", [(4, "German"), (5, "British")])
def test_9_6215_a_dual_assaults_first_move_is_rolled_only_once_both_sides_have_set_up(dr, first):
    from automation.steps.abtf import first_move

    start, given = dual_assault()
    waiting = first_move.run(start, given, ScriptedDice())
    assert waiting.waiting.sheet == "Setup 19AM" and waiting.waiting.who == "Umpire"
    assert "British, German not yet" in waiting.waiting.what
    start, given = dual_assault((setup_line("British", "Yes"), setup_line("German", "No", 3)))
    assert "German not yet" in first_move.run(start, given, ScriptedDice()).waiting.what
    start, given = dual_assault((setup_line("British", "Yes"), setup_line("German", "Yes", 3)))
    dice = ScriptedDice((dr,))
    out = first_move.run(start, given, dice)
    [roll] = rolls(out)
    assert dice.thrown == [("9.6215/German", (dr,))] and roll.roll.result == f"{first} moves first"
    assert out.state.next_scenario["moves first"] == first and out.waiting is None


def test_9_6215_other_scenario_types_and_a_bad_setup_side():
    from automation.errors import WorkbookError
    from automation.steps.abtf import first_move

    out = first_move.run(state(areas=AREAS, british=record("British", scenario="German Assault")), inputs(), ScriptedDice())
    assert out.entries == () and out.waiting is None
    start, given = dual_assault((setup_line("Russian", "Yes"),))
    with pytest.raises(WorkbookError, match=r"Setup 19AM!A2: Setup: 'Russian' is not a side; valid: British, German"):
        first_move.run(start, given, ScriptedDice())


def test_two_idle_chits_make_an_idle_cg_date_with_no_scenario_and_no_weather():
    dice = ScriptedDice()
    out = commencement.run(state(areas=AREAS), chits("Idle", "Idle"), dice)
    assert out.state.records["German"].scenario == "Idle" and dice.thrown == [] and out.state.records["German"].weather is None


def test_the_previous_scenarios_weather_ec_and_night_modify_the_rolls():
    history = (record("British", date="18EVE", scenario="German Assault", weather="Clear & Gusty", ec="Wet"),)
    start = state(areas=AREAS).with_(history=history)
    out = commencement.run(start, chits("Idle", "Attack", date="18N", previous="18EVE"), ScriptedDice((2, 2), (3,), (3,)))
    sky, ec, wind = rolls(out)
    assert mods(sky) == {"night": -1, "previous_clear_gusty": 1} and sky.roll.result == "Overcast"
    assert mods(ec) == {"previous_wet_or_moist": -1, "night": -1} and ec.roll.result == "Wet"
    assert mods(wind) == {"night": -1, "overcast": 2, "previous_clear_gusty": 1} and wind.roll.final == 5
    assert "night CG Scenario: no Moon, Scattered Clouds; Base NVR per E1.11" in texts(out)


def test_a_chit_beyond_the_cgs_maximum_is_refused_at_its_cell():
    start = state(areas=AREAS, british=record("British", attack=3))
    with pytest.raises(WorkbookError, match=r"Purchases 19AM British!B2: Chit: the British have used 3 of their 3 Attack "
                                            r"Chits in this CG"):
        commencement.run(start, chits("Attack", "Idle", limits={"British": (3, 2), "German": (4, 4)}), ScriptedDice())
    with pytest.raises(WorkbookError, match=r"Chit Limits!C3: the German Idle Chit maximum is empty"):
        commencement.run(state(areas=AREAS), chits("Attack", "Idle", limits={"British": (3, 2), "German": (4, None)}),
                         ScriptedDice())


def test_german_control_of_block_h_is_sudden_death():
    out = commencement.run(state(areas=[block("H", "German", "H2")]), chits("Idle", "Idle"), ScriptedDice())
    assert "the German Controls Block H: Sudden Death, the German wins the CG" in texts(out)


def test_9_6202_after_an_idle_date_the_cvp_of_the_last_cg_scenario_played_still_count():
    history = (record("British", date="19AM", scenario="Idle", chit="Idle"), record("German", date="19AM", scenario="Idle",
                                                                                    chit="Idle"))
    history = (replace(history[0], final_cvp=64, reph_cvp=3), replace(history[1], final_cvp=31))
    start = state(areas=AREAS).with_(history=history, reph_cvp={"German": 2})
    result = elr.run(start, inputs(date="19PM", previous="19AM", mode=Mode.IDLE), ScriptedDice((3, 3), (3, 3)))
    b, g = rolls(result)
    assert mods(b) == {"enemy_cvp": -2, "idle_dates": -3, "british_exhaustion": 1}  # 64 CVP: two 30s
    assert mods(g) == {"enemy_cvp": -1, "idle_dates": -3}  # 31 + 2 this RePh; half of +1 FRD is 0
    assert (b.roll.final, g.roll.final) == (2, 2) and result.state.records["British"].elr == 5

"""9.613 Shift: the table and its DRMs, the casualty and ambush follow-ups, and
every refused order."""
from __future__ import annotations

import pytest

from automation.errors import WorkbookError
from automation.steps.abtf import shift
from automation.steps.abtf.state import Mode
from tests.support.abtf import (
    ScriptedDice, block, entry_area, inputs, line, mods, order, rolls, state, texts, unit, with_orders,
)

AREAS = [block("A", "British", "A2"), block("B", "British", "B4"), block("E", "German", "E2"), block("F", "German", "F3"),
         block("R", None), entry_area("East Entry", "German"), entry_area("North Entry", "British")]


def orders(side, *given):
    return with_orders(inputs(orders={"British": (), "German": ()}), side, *given)


def test_british_shift_after_an_idle_date_takes_minus_three_and_one_per_two_hexes_frd():
    given = with_orders(inputs(mode=Mode.IDLE, orders={"British": (), "German": ()}), "British",
                        order("British", "Shift", "West", "B", units=["B-1", "B-L"], path="U3 > A > U2"))
    start = state(unit("B-1", area="A"), unit("B-L", cls="Leader", area="A"), areas=AREAS)
    result = shift.run(start, given, ScriptedDice((4, 5)))
    [dr] = rolls(result)
    assert mods(dr) == {"previous_idle": -1, "british": -2, "hexes": 2} and dr.roll.final == 8
    assert dr.roll.result == "Successful Shift" and dr.visible_to == "British"
    assert {u.area for u in result.state.units} == {"B"}
    assert "A is vacated: its Locations stay Controlled by the British" in texts(result, "A")


def test_an_eleven_shifts_the_group_then_each_unit_rolls_for_casualties():
    squad = unit("G-1", side="German", area="E", counterpart="2-4-7", strength="4-6-7")
    tank = unit("G-V", side="German", cls="Vehicle", strength=None, area="E", vehicle="CT AFV", cvp=5)
    hs = unit("G-2", side="German", cls="HS", strength="2-4-7", area="E")
    lmg = unit("G-LMG", side="German", cls="SW", strength=None, area="E", holder="G-2", pp=2)
    given = with_orders(inputs(orders={"British": (), "German": ()}, umpire=[line("Crew survival", "G-V", "Survives")]),
                        "German", order("German", "Shift", "KG", "F", units=["G-1", "G-V", "G-2"], path="U3"))
    script = {"9.613/German/G-1/casualty/G-1": (4,), "9.613/German/G-1/casualty/G-V": (6,), "9.613/German/G-1/casualty/G-2": (5,)}
    result = shift.run(state(squad, tank, hs, lmg, areas=AREAS), given, ScriptedDice((5, 5), by_label=script))
    assert rolls(result)[0].roll.final == 11 and rolls(result)[0].roll.result == "Successful Shift, Casualty Reduction"
    after = result.state
    assert after.unit("G-1").cls == "HS" and after.unit("G-1").area == "F"
    assert after.unit("G-V") is None and after.unit("G-V crew").area == "F"
    assert after.unit("G-2") is None and after.unit("G-LMG") is None
    assert after.reph_cvp == {"British": 1 + 5 + 1}


def test_a_vehicle_lost_to_a_shift_casualty_waits_for_the_crew_survival_result():
    tank = unit("G-V", side="German", cls="Vehicle", strength=None, area="E", vehicle="CT AFV")
    given = orders("German", order("German", "Shift", "KG", "F", units=["G-V"]))
    result = shift.run(state(tank, areas=AREAS), given, ScriptedDice((5, 6), (4,)))
    assert result.waiting is not None and "Crew Survival result for G-V" in result.waiting.what


def test_twelve_is_an_ambush_that_eliminates_units_and_weapons():
    squad = unit("G-1", side="German", area="E", strength="4-6-7", cvp=2)
    lmg = unit("G-LMG", side="German", cls="SW", strength=None, area="E", holder="G-1", pp=2)
    given = orders("German", order("German", "Shift", "KG", "East Entry", units=["G-1"]))
    result = shift.run(state(squad, lmg, areas=AREAS), given, ScriptedDice((6, 6)))
    assert result.state.units == () and result.state.reph_cvp == {"British": 2}


def test_a_failed_attempt_stays_and_plays_normally():
    given = orders("German", order("German", "Shift", "KG", "F", units=["G-1"]))
    result = shift.run(state(unit("G-1", side="German", area="E", strength="4-6-7"), areas=AREAS), given, ScriptedDice((4, 5)))
    assert result.state.unit("G-1").area == "E" and "stays in E until the next RePh" in texts(result)[-1]


def test_the_refit_waits_for_both_sides_orders_before_shifting():
    result = shift.run(state(areas=AREAS), inputs(orders={"British": (), "German": None}), ScriptedDice())
    assert result.waiting.who == "German" and result.waiting.sheet == "Orders 19AM German"


@pytest.mark.parametrize("side, units, to, path, message", [
    ("British", ["B-1"], "B", "U1 > E", r"Orders 19AM British!E2: Shift: the path crosses E, German territory"),
    ("British", ["B-1"], "B", "R", r"Orders 19AM British!E2: Shift: R is Uncontrolled Territory; give its hexes as U<n>"),
    ("British", ["B-1"], "B", "Q7", r"Orders 19AM British!E2: Shift: 'Q7' is neither U<hexes> nor an Area"),
    ("British", ["B-1"], "North Entry", None, r"Orders 19AM British!C2: Shift: 'North Entry' is not another Friendly Setup"),
    ("German", ["G-9"], "F", None, r"Orders 19AM German!D2: Shift: a unit may not Shift from an Entry Area \(East Entry\)"),
    ("British", ["B-1", "B-3"], "B", None, r"Orders 19AM British!D2: Shift: one group comes from one Setup Area, not A, B"),
    ("British", ["B-2"], "B", None, r"Orders 19AM British!D2: Shift: B-2 portages 6 PP, more than the 5 it may"),
])
def test_a_shift_order_that_breaks_the_rules_names_its_cell(side, units, to, path, message):
    start = state(unit("B-1", area="A"), unit("B-2", area="A"), unit("B-3", area="B"),
                  unit("MMG", cls="SW", strength=None, area="A", holder="B-2", pp=4),
                  unit("LMG", cls="SW", strength=None, area="A", holder="B-2", pp=2),
                  unit("G-9", side="German", area="East Entry", strength="4-6-7"), areas=AREAS)
    with pytest.raises(WorkbookError, match=message):
        shift.run(start, orders(side, order(side, "Shift", "G", to, units=units, path=path)), ScriptedDice())


def test_two_groups_between_the_same_areas_or_one_unit_in_two_groups_are_refused():
    start = state(unit("B-1", area="A"), unit("B-2", area="A"), areas=AREAS)
    given = orders("British", order("British", "Shift", "G1", "B", units=["B-1"]),
                   order("British", "Shift", "G2", "B", units=["B-2", "B-1"], row=3))
    with pytest.raises(WorkbookError) as err:
        shift.run(start, given, ScriptedDice())
    text = str(err.value)
    assert "Orders 19AM British!D3: Shift: B-1 is already in group G1" in text
    assert "Orders 19AM British!D3: Shift: group G1 already goes from A to B" in text


def test_9_613_a_non_dm_gun_hooked_to_a_mobile_vehicle_shifts_with_it():
    truck = unit("G-T", side="German", cls="Vehicle", strength=None, area="E", vehicle="Unarmored")
    gun = unit("G-PAK", side="German", cls="Gun", strength=None, area="E", location="E5", holder="G-T", status="Non-dm")
    squad = unit("G-1", side="German", area="E", strength="4-6-7")
    loose = unit("G-IG", side="German", cls="Gun", strength=None, area="E", location="E6", holder="G-1", status="Non-dm")
    given = orders("German", order("German", "Shift", "KG", "F", units=["G-T", "G-1"], path="U1"))
    result = shift.run(state(truck, gun, squad, loose, areas=AREAS), given, ScriptedDice((3, 4)))
    assert rolls(result)[0].roll.final == 7 and rolls(result)[0].roll.result == "Successful Shift"
    after = result.state
    assert (after.unit("G-PAK").area, after.unit("G-PAK").holder) == ("F", "G-T")
    assert (after.unit("G-IG").area, after.unit("G-IG").location, after.unit("G-IG").holder) == ("E", "E6", None)
    assert "non-dm Gun G-IG cannot Shift unless hooked to a Mobile vehicle: left in E" in texts(result, "G-1")


def test_9_613_a_non_dm_gun_stays_when_its_vehicle_fails_to_shift():
    truck = unit("G-T", side="German", cls="Vehicle", strength=None, area="E", vehicle="Unarmored")
    gun = unit("G-PAK", side="German", cls="Gun", strength=None, area="E", location="E5", holder="G-T", status="Non-dm")
    given = orders("German", order("German", "Shift", "KG", "F", units=["G-T"]))
    result = shift.run(state(truck, gun, areas=AREAS), given, ScriptedDice((5, 5)))
    assert rolls(result)[0].roll.result == "Failed attempt"
    assert (result.state.unit("G-PAK").area, result.state.unit("G-PAK").holder) == ("E", "G-T")


def test_9_613_free_deployment_is_a_checklist_line_with_three_squads_per_leader():
    units = [unit(f"B-{n}", area="A") for n in range(4)] + [unit("B-L", cls="Leader", area="A")]
    given = orders("British", order("British", "Shift", "West", "B", units=[u.id for u in units]))
    result = shift.run(state(*units, areas=AREAS), given, ScriptedDice((2, 2)))
    assert texts(result, "West")[0] == ("before the Shift DR, up to 3 of the group's 4 squads may deploy into HS at no cost "
                                        "(3 per Leader, 1 Leader); a deployed squad is entered as its two HS on the End sheet")
    given = with_orders(inputs(orders={"British": (), "German": ()}, **{"abtf.shift_deploy_per_leader": 2}), "British",
                        order("British", "Shift", "West", "B", units=[u.id for u in units]))
    result = shift.run(state(*units, areas=AREAS), given, ScriptedDice((2, 2)))
    assert texts(result, "West")[0].startswith("before the Shift DR, up to 2 of the group's 4 squads may deploy")
    alone = shift.run(state(*units[:4], areas=AREAS),
                      orders("British", order("British", "Shift", "West", "B", units=[u.id for u in units[:4]])),
                      ScriptedDice((2, 2)))
    assert not any("deploy" in t for t in texts(alone))

"""9.614: vehicles (9.6141) and weapons (9.6142-9.6144), with the Panther example
of 9.6142."""
from __future__ import annotations

import pytest

from automation.errors import WorkbookError
from automation.steps.abtf import vehicles, weapons
from tests.support.abtf import ScriptedDice, block, inputs, line, mods, order, record, rolls, state, texts, unit, with_orders

AREAS = [block("A", "British", "A2"), block("F", "German", "F3"), block("R", None)]


def panther(*flags):
    tank = unit("G-P", side="German", cls="Vehicle", strength=None, area="F", vehicle="CT AFV", cvp=6, type="PzKpfw VG",
                status=flags)
    ma = unit("G-P-MA", side="German", cls="Vehicular weapon", strength=None, area="F", holder="G-P", type="MA 75LL",
              repair=1, status="Malfunctioned")
    return tank, ma


@pytest.mark.parametrize("dr, repaired", [(3, True), (4, False)])
def test_the_panther_ma_repairs_on_an_original_dr_of_3_or_less(dr, repaired):
    result = weapons.run(state(*panther(), areas=AREAS), inputs(), ScriptedDice((dr,)))
    [roll] = rolls(result)
    assert mods(roll) == {"vehicular": -1, "repair_number": -1} and roll.roll.final == dr - 2
    if repaired:
        assert result.state.unit("G-P-MA").status == frozenset()
    else:
        assert result.state.unit("G-P") is None and result.state.unit("G-P-MA") is None
        assert result.state.reph_cvp == {"British": 6} and "its MA is disabled: Recalled (9.6141c again)" in texts(result)


@pytest.mark.parametrize("dr, repaired", [(5, True), (6, False)])
def test_with_its_9_2_armor_leader_the_panther_ma_repairs_on_anything_but_a_6(dr, repaired):
    al = unit("G-AL", side="German", cls="Armor Leader", strength="9-2", area="F")
    start = state(*panther(), al, areas=AREAS)
    start = start.with_(armor_leaders={"G-AL": "G-P"})
    result = weapons.run(start, inputs(), ScriptedDice((dr,)))
    assert mods(rolls(result)[0]) == {"vehicular": -1, "repair_number": -1, "armor_leader": -2}
    assert (result.state.unit("G-P") is not None) is repaired


def test_an_armor_leader_order_assigns_the_vehicle_he_mans_next_scenario():
    al = unit("G-AL", side="German", cls="Armor Leader", strength="9-1", area="F")
    tank = unit("G-P", side="German", cls="Vehicle", strength=None, area="F", vehicle="CT AFV", status="Immobile")
    given = with_orders(inputs(), "German", order("German", "Armor leader", "G-AL", "G-P"))
    result = vehicles.run(state(tank, al, areas=AREAS), given, ScriptedDice((3,)))
    [roll] = rolls(result)
    assert mods(roll) == {"armor_leader": -1} and roll.roll.final == 2 and not result.state.unit("G-P").has("Immobile")


def test_immobilization_repair_takes_non_qualified_use_and_front_line_drms():
    tank = unit("G-P", side="German", cls="Vehicle", strength=None, area="F", vehicle="CT AFV",
                status=("Immobile", "Non-qualified", "Front Line"))
    result = vehicles.run(state(tank, areas=AREAS), inputs(), ScriptedDice((1,)))
    assert mods(rolls(result)[0]) == {"non_qualified_use": 1, "front_line": 1} and rolls(result)[0].roll.final == 3
    assert result.state.unit("G-P").has("Immobile")  # a final 3 is no effect


def test_a_vehicle_repaired_outside_a_friendly_setup_area_goes_where_the_umpire_says():
    tank = unit("G-P", side="German", cls="Vehicle", strength=None, area="R", location="R4", vehicle="CT AFV",
                status="Immobile")
    result = vehicles.run(state(tank, areas=AREAS), inputs(), ScriptedDice((1,)))
    assert result.waiting is not None and "nearest Friendly Setup Area for G-P" in result.waiting.what
    result = vehicles.run(state(tank, areas=AREAS), inputs(umpire=[line("Retain", "G-P", area="F")]), ScriptedDice((1,)))
    assert mods(rolls(result)[0]) == {"front_line": 1} and rolls(result)[0].roll.final == 2
    assert (result.state.unit("G-P").area, result.state.unit("G-P").status) == ("F", frozenset())


def test_captured_and_abandoned_immobile_vehicles_do_not_roll():
    a = unit("G-1", side="German", cls="Vehicle", strength=None, area="F", vehicle="CT AFV", status=("Immobile", "Captured"))
    b = unit("G-2", side="German", cls="Vehicle", strength=None, area="F", vehicle="CT AFV", status=("Immobile", "Abandoned"))
    dice = ScriptedDice()
    vehicles.run(state(a, b, areas=AREAS), inputs(), dice)
    assert dice.thrown == []


def test_a_recalled_afv_leaves_play_with_cvp_unless_it_exited_the_map():
    on_map = unit("G-1", side="German", cls="Vehicle", strength=None, area="F", vehicle="CT AFV", status="Recall", cvp=4)
    exited = unit("G-2", side="German", cls="Vehicle", strength=None, area="F", vehicle="CT AFV", status=("Recall", "Exited"),
                  cvp=4)
    result = vehicles.run(state(on_map, exited, areas=AREAS), inputs(), ScriptedDice())
    assert result.state.units == () and result.state.reph_cvp == {"British": 4}


@pytest.mark.parametrize("dr, outcome", [(2, "recovers"), (4, "stunned"), (6, "eliminated")])
def test_stun_recovery(dr, outcome):
    v = unit("G-1", side="German", cls="Vehicle", strength=None, area="F", vehicle="CT AFV", status="Stunned", cvp=3)
    after = vehicles.run(state(v, areas=AREAS), inputs(), ScriptedDice((dr,))).state
    got = "eliminated" if after.unit("G-1") is None else ("stunned" if after.unit("G-1").has("Stunned") else "recovers")
    assert got == outcome and after.reph_cvp == ({"British": 3} if outcome == "eliminated" else {})


def test_a_remanned_abandoned_vehicle_takes_its_crew_aboard():
    v = unit("B-J", cls="Vehicle", strength=None, area="A", vehicle="Unarmored", status="Abandoned")
    crew = unit("B-C", cls="Crew", strength="2-2-8", area="A")
    given = with_orders(inputs(), "British", order("British", "Reman", "B-J", "B-C"))
    after = vehicles.run(state(v, crew, areas=AREAS), given, ScriptedDice()).state
    assert not after.unit("B-J").has("Abandoned") and after.unit("B-C") is None


def test_9_6141a_personnel_other_than_a_crew_may_reman_with_non_qualified_use():
    v = unit("B-J", cls="Vehicle", strength=None, area="A", vehicle="Unarmored", status="Abandoned")
    squad = unit("B-1", area="A")
    given = with_orders(inputs(), "British", order("British", "Reman", "B-J", "B-1"))
    result = vehicles.run(state(v, squad, areas=AREAS), given, ScriptedDice())
    after = result.state
    assert after.unit("B-J").status == {"Non-qualified"} and after.unit("B-1").holder == "B-J"
    assert "remanned by B-1 (Squad, not a crew: Non-Qualified Use, A21.13)" in texts(result, "B-J")
    leader = unit("B-L", cls="Leader", area="A")
    with pytest.raises(WorkbookError, match=r"Orders 19AM British!C2: Reman: 'B-L' is not a British squad, HS or crew "
                                            r"\(armed Personnel\) Retained in A"):
        vehicles.run(state(v, leader, areas=AREAS), with_orders(inputs(), "British", order("British", "Reman", "B-J", "B-L")),
                     ScriptedDice())


@pytest.mark.parametrize("cls, dr, left, cvp", [("SW", 2, True, {}), ("SW", 3, False, {}), ("Gun", 3, False, {"German": 4})])
def test_a_malfunctioned_weapon_repairs_on_a_final_1_else_is_eliminated(cls, dr, left, cvp):
    w = unit("B-W", cls=cls, strength=None, area="A", repair=1, status="Malfunctioned", cvp=4 if cls == "Gun" else None)
    crew = unit("B-1", area="A")
    after = weapons.run(state(w, crew, areas=AREAS), inputs(), ScriptedDice((dr,))).state
    assert (after.unit("B-W") is not None) is left and after.reph_cvp == cvp


def test_a_weapon_with_no_friendly_personnel_in_its_area_gets_no_repair_dr():
    w = unit("B-W", cls="SW", strength=None, area="A", repair=1, status="Malfunctioned")
    dice = ScriptedDice()
    result = weapons.run(state(w, areas=AREAS), inputs(), dice)
    assert dice.thrown == [] and "no repair dr" in texts(result, "B-W")[0]


def test_a_disabled_vehicular_mg_is_repaired_by_eliminating_an_lmg_in_the_area():
    tank = unit("G-P", side="German", cls="Vehicle", strength=None, area="F", vehicle="CT AFV")
    mg = unit("G-P-CMG", side="German", cls="Vehicular weapon", strength=None, area="F", holder="G-P", type="CMG",
              status="Disabled")
    lmg = unit("G-LMG", side="German", cls="SW", strength=None, area="F", type="LMG")
    given = with_orders(inputs(), "German", order("German", "MG exchange", "G-P-CMG", "G-LMG"))
    after = weapons.run(state(tank, mg, lmg, areas=AREAS), given, ScriptedDice()).state
    assert not after.unit("G-P-CMG").has("Disabled") and after.unit("G-LMG") is None


def test_german_captured_weapons_roll_and_a_captured_vehicle_left_without_a_working_weapon_becomes_a_wreck():
    piat = unit("G-PIAT", side="German", cls="SW", strength=None, area="F", type="PIAT", status="Captured")
    sq = unit("G-1", side="German", area="F", strength="4-6-7")
    jeep = unit("G-J", side="German", cls="Vehicle", strength=None, area="F", vehicle="Unarmored", status="Captured")
    mg = unit("G-J-MG", side="German", cls="Vehicular weapon", strength=None, area="F", holder="G-J", type="AAMG")
    dice = ScriptedDice(by_label={"9.6143/German/G-PIAT": (4,), "9.6143/German/G-J-MG": (5,)})
    result = weapons.run(state(piat, sq, jeep, mg, areas=AREAS), inputs(), dice)
    assert [r.roll.column for r in rolls(result)] == ["Weapon", "Vehicular"]
    after = result.state
    assert after.unit("G-PIAT") is None and after.unit("G-J") is None and after.reph_cvp == {}


@pytest.mark.parametrize("side, shortage, dr, restored", [("British", 2, 1, True), ("British", 2, 2, False),
                                                          ("German", 0, 4, True), ("German", 0, 5, False)])
def test_special_ammo_restoration(side, shortage, dr, restored):
    gun = unit("W", side=side, cls="Gun", strength=None, area="A", ammo_depleted=("APCR",))
    start = state(gun, areas=AREAS, british=record("British", shortage=shortage))
    after = weapons.run(start, inputs(), ScriptedDice((dr,))).state
    assert after.unit("W").ammo_depleted == (() if restored else ("APCR",))

"""9.6054/9.60541 Escape: every DRM, stacks, Random Selection, Heat of Battle and
the equipment dr, with scripted dice through the real Escape Table."""
from __future__ import annotations

from fractions import Fraction

import pytest

from automation.errors import WorkbookError
from automation.steps.abtf import escape
from tests.support.abtf import ScriptedDice, block, inputs, line, mods, order, rolls, state, texts, unit, with_orders

AREAS = [block("E", "German", "E2"), block("D", "British", "D1")]
ESCAPE = line("Escape", "E3", area="D", hexes=3)


def escaping(*units, given=None, **kw):
    s = state(*units, areas=AREAS, **kw)
    return s.with_(escaping={u.id: ESCAPE for u in units if u.is_personnel or u.is_vehicle})


def test_every_infantry_drm_applies_to_a_predesignated_stack():
    squad = unit("B-1", strength="6-5-8", area="E", location="E3", status="Encircled", counterpart="3-4-8",
                 replaced_by="4-5-8/2-4-8", quality="Elite")
    hs = unit("B-2", cls="HS", area="E", location="E3", status="Unarmed")
    leader = unit("B-L", cls="Leader", strength="9-1", area="E", location="E3", status="Wounded")
    mmg = unit("B-MMG", cls="SW", strength=None, area="E", location="E3", holder="B-1", pp=4)
    lmg = unit("B-LMG", cls="SW", strength=None, area="E", location="E3", holder="B-1", pp=2)
    start = escaping(squad, hs, leader, mmg, lmg)
    given = with_orders(inputs(), "British", order("British", "Escape stack", "K", units=["B-1", "B-2", "B-L"]))
    dice = ScriptedDice((1, 2), by_label={"9.6054/British/B-1/random selection/1/B-1": (5,),
                                          "9.6054/British/B-1/random selection/1/B-2": (3,),
                                          "9.6054/British/B-1/random selection/1/B-L": (4,)})
    result = escape.run(start, given, dice)
    dr = rolls(result)[0]
    assert mods(dr) == {"night_cg_date": -1, "leader_drm": -1, "hexes": 2, "extra_hs": 2, "excess_pp": 2, "impaired": 2,
                        "encircled": 2}
    assert dr.roll.natural == 3 and dr.roll.final == 11 and dr.roll.result == "Escapes, Replaced, then Casualty Reduced"
    assert "Random Selection picks B-1 (Escapes, Replaced, then Casualty Reduced)" in texts(result, "B-1")
    assert [e.roll.final for e in rolls(result)[1:]] == [5, 3, 4]
    b1 = result.state.unit("B-1")
    assert (b1.cls, b1.strength, b1.quality, b1.area) == ("HS", "2-4-8", "1st Line", "D")
    assert result.state.reph_cvp == {"German": 1}
    assert {u.area for u in result.state.units} == {"D"} and result.state.unit("B-MMG").holder == "B-1"


def test_random_selection_rolls_again_between_tied_units():
    a = unit("B-1", area="E", location="E3", counterpart="3-4-8")
    b = unit("B-2", area="E", location="E3", counterpart="3-4-8")
    given = with_orders(inputs(), "British", order("British", "Escape stack", "S", units=["B-1", "B-2"]))
    dice = ScriptedDice((3, 3), by_label={"9.6054/British/B-1/random selection/1/B-1": (6,),
                                         "9.6054/British/B-1/random selection/1/B-2": (6,),
                                         "9.6054/British/B-1/random selection/2/B-1": (2,),
                                         "9.6054/British/B-1/random selection/2/B-2": (3,)})
    result = escape.run(escaping(a, b), given, dice)
    assert rolls(result)[0].roll.final == 10  # 6, night -1, hexes +2, three HS-equivalents beyond one +3
    after = result.state
    assert after.unit("B-2").cls == "HS" and after.unit("B-1").cls == "Squad"
    assert after.unit("B-1").area == "D" and after.unit("B-2").area == "D" and after.reph_cvp == {"German": 1}


def test_a_lone_unwounded_smc_takes_minus_one_and_no_leader_drm():
    leader = unit("B-L", cls="Leader", strength="9-2", area="E", location="E3")
    result = escape.run(escaping(leader), inputs(date="19PM", previous="19AM"), ScriptedDice((4, 4)))
    dr = rolls(result)[0]
    assert mods(dr) == {"lone_unwounded_smc": -1, "hexes": 2}
    assert dr.roll.final == 9 and dr.roll.result == "Escapes, Replaced"
    assert result.state.unit("B-L").strength == "9-1" and result.state.unit("B-L").area == "D"


def test_an_original_2_escapes_with_heat_of_battle_for_one_unit_chosen_at_random():
    a = unit("B-1", area="E", location="E3")
    b = unit("B-2", area="E", location="E3", quality="Elite")
    given = with_orders(inputs(), "British", order("British", "Escape stack", "S", units=["B-1", "B-2"]))
    script = {"9.6054/British/B-1/heat of battle/random selection/1/B-1": (1,),
              "9.6054/British/B-1/heat of battle/random selection/1/B-2": (6,)}
    waiting = escape.run(escaping(a, b), given, ScriptedDice((1, 1), by_label=script))
    assert waiting.waiting is not None and "Heat of Battle (A15) result for B-2" in waiting.waiting.what
    given = given.__class__(**{**given.__dict__, "umpire": (line("Heat of Battle", "B-2", "Battle Hardening"),)})
    result = escape.run(escaping(a, b), given, ScriptedDice((1, 1), by_label=script))
    dr = rolls(result)[0]
    assert dr.roll.by_natural and dr.roll.result == "Escapes; Heat of Battle"
    assert result.state.unit("B-2").has("Fanatic") and result.state.unit("B-2").area == "D"
    assert result.state.unit("B-1").area == "D"


def test_heat_of_battle_other_than_hero_or_hardening_eliminates_the_unit():
    a = unit("B-1", area="E", location="E3", cvp=2)
    given = inputs(umpire=[line("Heat of Battle", "B-1", "Other")])
    result = escape.run(escaping(a), given, ScriptedDice((1, 1)))
    assert result.state.unit("B-1") is None and result.state.reph_cvp == {"German": 2}


def test_twelve_or_more_eliminates_every_unit_and_weapon_without_an_equipment_dr():
    squad = unit("B-1", area="E", location="E3")
    lmg = unit("B-LMG", cls="SW", strength=None, area="E", location="E3", holder="B-1", pp=2)
    dice = ScriptedDice((6, 5))
    result = escape.run(escaping(squad, lmg), inputs(), dice)
    assert rolls(result)[0].roll.final == 13 and result.state.units == ()
    assert dice.thrown == [("9.6054/British/B-1", (6, 5))]


@pytest.mark.parametrize("dr, fate", [((5,), None), ((2,), "E3")])
def test_equipment_of_a_unit_eliminated_while_escaping_rolls_4_to_6_eliminated_1_to_3_left(dr, fate):
    hs = unit("B-2", cls="HS", area="E", location="E3")
    lmg = unit("B-LMG", cls="SW", strength=None, area="E", location="E3", holder="B-2", pp=2)
    result = escape.run(escaping(hs, lmg), inputs(), ScriptedDice((4, 5), dr))
    assert rolls(result)[0].roll.final == 10  # 9, night -1, hexes +2; one HS and 2 PP add nothing
    assert result.state.unit("B-2") is None
    left = result.state.unit("B-LMG")
    assert (left.location if left else None) == fate and (left is None or left.holder is None)


def test_a_ct_afv_escapes_with_its_armor_leader_drm_and_an_abandoned_result_saves_the_crew():
    tank = unit("G-V", side="German", cls="Vehicle", strength=None, area="D", location="D9", vehicle="CT AFV",
                morale_override=8)
    al = unit("G-AL", side="German", cls="Armor Leader", strength="9-1", area="D", location="D9", holder="G-V")
    areas = [block("D", "British", "D1"), block("F", "German", "F3")]
    start = state(tank, al, areas=areas).with_(escaping={"G-V": line("Escape", "D9", area="F", hexes=2)})
    result = escape.run(start, inputs(), ScriptedDice((6, 6)))
    dr = rolls(result)[0]
    assert mods(dr) == {"ct_afv": -2, "night_cg_date": -1, "leader_drm": -1, "hexes": 1}
    assert dr.roll.final == 9 and dr.roll.column == "Mobile Vehicle"
    assert result.state.unit("G-V").has("Abandoned") and result.state.unit("G-V").area == "D"
    assert result.state.unit("G-V crew").area == "F" and result.state.unit("G-AL").area == "F"


def test_a_captured_soft_vehicle_takes_minus_one_and_plus_one():
    truck = unit("B-V", cls="Vehicle", strength=None, area="E", location="E3", vehicle="Unarmored", status="Captured")
    result = escape.run(escaping(truck), inputs(date="19PM", previous="19AM"), ScriptedDice((3, 3)))
    assert mods(rolls(result)[0]) == {"vehicle_not_ct_afv": -1, "hexes": 2, "captured_vehicle": 1}
    assert rolls(result)[0].roll.probability == Fraction(15, 36)  # Escapes on a natural 6 or less


def test_several_escapers_in_one_location_wait_for_their_sides_stacks():
    a, b = unit("B-1", area="E", location="E3"), unit("B-2", area="E", location="E3")
    result = escape.run(escaping(a, b), inputs(orders={"British": None}), ScriptedDice())
    assert result.waiting.who == "British" and result.waiting.sheet == "Orders 19AM British"


def test_an_escape_stack_mixing_locations_is_refused_at_its_cell():
    a, b = unit("B-1", area="E", location="E3"), unit("B-2", area="E", location="E4")
    given = with_orders(inputs(), "British", order("British", "Escape stack", "S", units=["B-1", "B-2"], row=5))
    with pytest.raises(WorkbookError, match=r"Orders 19AM British!D5: Escape stack: an Escape stack may not mix "
                                            r"Locations \(B-1 in E3, B-2 in E4\)"):
        escape.run(escaping(a, b), given, ScriptedDice())


def test_a_transfer_before_escaping_lightens_the_load():
    squad = unit("B-1", area="E", location="E3")
    mmg = unit("B-MMG", cls="SW", strength=None, area="E", location="E3", holder="B-1", pp=5)
    given = with_orders(inputs(), "British", order("British", "Transfer", "B-MMG", "Drop"))
    result = escape.run(escaping(squad, mmg), given, ScriptedDice((2, 3)))
    assert "excess_pp" not in mods(rolls(result)[0])
    assert result.state.unit("B-MMG").holder is None and result.state.unit("B-MMG").area == "E"


@pytest.mark.parametrize("dr, eliminated", [((4,), True), ((3,), False)])
def test_9_60541_all_equipment_of_a_unit_eliminated_escaping_shares_one_dr(dr, eliminated):
    hs = unit("B-2", cls="HS", area="E", location="E3")
    lmg = unit("B-LMG", cls="SW", strength=None, area="E", location="E3", holder="B-2", pp=1)
    piat = unit("B-PIAT", cls="SW", strength=None, area="E", location="E3", holder="B-2", pp=1)
    dice = ScriptedDice((4, 5), dr)  # 9, night -1, hexes +2: Casualty Reduced, the HS eliminated
    result = escape.run(escaping(hs, lmg, piat), inputs(), dice)
    assert [label for label, _ in dice.thrown] == ["9.6054/British/B-2", "9.60541/British/B-2"]
    assert dice.unused == []
    if eliminated:
        assert result.state.unit("B-LMG") is None and result.state.unit("B-PIAT") is None
    else:
        assert [(result.state.unit(i).location, result.state.unit(i).holder) for i in ("B-LMG", "B-PIAT")] == \
            [("E3", None), ("E3", None)]


@pytest.mark.parametrize("dice, result, area, holder", [((2, 3), "Escapes", "D", "G-T"),
                                                        ((6, 5), "Eliminated; crew escapes", "E", None)])
def test_9_6054_a_non_dm_gun_hooked_to_a_mobile_vehicle_escapes_only_with_it(dice, result, area, holder):
    truck = unit("G-T", side="German", cls="Vehicle", strength=None, area="E", location="E3", vehicle="Unarmored")
    gun = unit("G-PAK", side="German", cls="Gun", strength=None, area="E", location="E3", holder="G-T", status="Non-dm")
    areas = [block("E", "British", "E2"), block("D", "German", "D1")]
    start = state(truck, gun, areas=areas).with_(escaping={"G-T": line("Escape", "E3", area="D", hexes=0)})
    out = escape.run(start, inputs(date="19PM", previous="19AM"), ScriptedDice(dice))
    assert rolls(out)[0].roll.result == result  # soft vehicle -1
    after = out.state.unit("G-PAK")
    assert (after.area, after.holder) == (area, holder)


def test_9_6054_each_squad_stacked_with_a_leader_may_deploy_freely_a_checklist_line():
    a, b = unit("B-1", area="E", location="E3"), unit("B-2", area="E", location="E3")
    leader = unit("B-L", cls="Leader", area="E", location="E3")
    given = with_orders(inputs(), "British", order("British", "Escape stack", "S", units=["B-1", "B-2", "B-L"]))
    result = escape.run(escaping(a, b, leader), given, ScriptedDice((1, 3)))
    assert texts(result, "S")[0] == ("before the Escape DR, each of the 2 squads stacked with a Leader (B-1, B-2) may deploy "
                                     "into HS at no cost; a deployed squad is entered as its two HS on the End sheet")

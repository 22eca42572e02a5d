"""9.618 RG strength, SW allotment (with the seed's example), leaders and German
vehicle composition."""
from __future__ import annotations

import pytest

from automation.steps.abtf import rg_allotment
from automation.steps.abtf.state import RGLine
from tests.support.abtf import ScriptedDice, block, inputs, mods, rg, rolls, state, texts

AREAS = [block("A", "British", "A2"), block("F", "German", "F3")]
SS = rg("German", "I1", "K", leader_drm="ss_pg", group="SS Rifle Pltn")
VG = rg("German", "I3", "S", unit_type="4-4-7", leader_drm="vg", group="Volksgrenadier Pltn")


def lines(*specs):
    return tuple(RGLine(side, "18AM", rg_id, kg, "x", 1, 1, area=area) for side, rg_id, kg, area in specs)


def test_the_seeds_sw_example_two_ss_rifle_pltns_one_depleted_and_a_full_vg_pltn():
    start = state(areas=AREAS).with_(rg_lines=lines(("German", "I1", "K", "F"), ("German", "I1", "K", "F"),
                                                    ("German", "I3", "S", "F")))
    script = {
        "9.6181/German/I1(K)#1": (3, 3), "9.6181/German/I1(K)#2": (5, 5), "9.6181/German/I3(S)#1": (2, 2),
        "9.6182/German/I1(K)#1/PSK or Lt. Mtr": (1,), "9.6182/German/I1(K)#2/PSK or Lt. Mtr": (4,),
        "9.6182/German/I1(K)#2/LMG/1": (3,), "9.6182/German/I1(K)#2/PSK/1": (3,),
        "9.6183/German/I1(K)#1": (6, 6), "9.6183/German/I1(K)#2": (6, 6), "9.6183/German/I3(S)#1": (6, 6),
    }
    result = rg_allotment.run(start, inputs(date="18AM", previous="17N", rgs=[SS, VG]), ScriptedDice(by_label=script))
    full, depleted, vg = result.state.rg_lines
    assert (full.strength, full.units, full.sw) == ("F", "3 6-5-8", "LMG, Lt. Mtr")
    assert (depleted.strength, depleted.units, depleted.sw) == ("D", "2 6-5-8", "LMG")
    assert (vg.strength, vg.units, vg.sw) == ("F", "3 4-4-7", "LMG")
    assert "PSK 1: Not received (dr ≤ 2)" in texts(result) and "LMG 1: Received (dr ≤ 3)" in texts(result)
    vg_roll = next(e for e in rolls(result) if e.roll.label.endswith("9.6181/German/I3(S)#1"))
    assert mods(vg_roll) == {"vg_pltn": 1} and vg_roll.roll.final == 5
    squads = [u for u in result.state.units if u.cls == "Squad"]
    assert len(squads) == 8 and {u.area for u in squads} == {"F"}
    assert all(u.holder in {s.id for s in squads} for u in result.state.units if u.cls in ("SW", "Leader"))


@pytest.mark.parametrize("date, side, dice, drms, strength", [
    ("20EVE", "British", (5, 5), {"british": -2, "campaign_exhaustion": 1}, "F"),  # 10 - 2 + 3/2 FRD = 9
    ("21EVE", "British", (6, 5), {"british": -2, "campaign_exhaustion": 2}, "D"),
    ("18AM", "German", (4, 5), {}, "F"),
])
def test_rg_strength_takes_british_and_half_the_campaign_exhaustion_frd(date, side, dice, drms, strength):
    chart = [rg("British", "I1", leader="None"), rg("German", "I1", "K", leader="None")]
    start = state(areas=AREAS).with_(rg_lines=lines((side, "I1", "K" if side == "German" else None, "A" if side == "British" else "F")))
    result = rg_allotment.run(start, inputs(date=date, previous="17N", rgs=chart), ScriptedDice(dice, (1,), (1,), (1,), (1,)))
    [dr] = [e for e in rolls(result) if e.roll.table_id == "abtf.rg_strength"]
    assert mods(dr) == drms and result.state.rg_lines[0].strength == strength


def test_an_rg_not_eligible_for_depletion_is_full_without_a_dr():
    chart = [rg("British", "A1", unit_type="Jeep", depletion=False, leader="None", vehicle="Unarmored", full=2)]
    start = state(areas=AREAS).with_(rg_lines=lines(("British", "A1", None, "A")))
    dice = ScriptedDice()
    result = rg_allotment.run(start, inputs(rgs=chart), dice)
    assert dice.thrown == [] and [u.type for u in result.state.units] == ["Jeep", "Jeep"]
    assert result.state.units[0].vehicle == "Unarmored"


@pytest.mark.parametrize("leader_drm, dice, expected", [("hvy_tank", (3, 4), "9-1"), ("med_tank", (3, 4), "none"),
                                                        ("hvy_tank", (6, 4), "none")])
def test_the_armor_leader_table_and_the_hvy_tank_9_1_note(leader_drm, dice, expected):
    chart = [rg("German", "A3", "B", unit_type="see 9.6184", depletion=False, leader="Armor", leader_drm=leader_drm,
                vehicle="CT AFV")]
    start = state(areas=AREAS).with_(rg_lines=lines(("German", "A3", "B", "F")))
    result = rg_allotment.run(start, inputs(rgs=chart), ScriptedDice(by_label={"9.6184/German/A3(B)#1": (2,),
                                                                                "9.6183/German/A3(B)#1": dice}))
    leaders = [u for u in result.state.units if u.cls == "Armor Leader"]
    assert [u.strength for u in leaders] == ([] if expected == "none" else [expected])
    assert [u.type for u in result.state.units if u.is_vehicle] == ["PzKpfw VIE(L)", "PzKpfw VIE(L)"]


def test_british_commando_leader_drm_and_the_graebner_a4_keeps_its_chart_vehicles():
    chart = [rg("British", "I4", leader_drm="commando", depletion=False),
             rg("German", "A4", "G", unit_type="StuG IIIG(L)", depletion=False, leader="None", vehicle="CT AFV", full=2)]
    start = state(areas=AREAS).with_(rg_lines=lines(("British", "I4", None, "A"), ("German", "A4", "G", "F")))
    result = rg_allotment.run(start, inputs(rgs=chart), ScriptedDice(by_label={"9.6183/British/I4#1": (1, 2)}))
    [leader] = [e for e in rolls(result) if e.roll.table_id == "abtf.leader"]
    assert mods(leader) == {"commando": -1} and leader.roll.final == 2 and leader.text == "Leader 10-2"
    assert [u.type for u in result.state.units if u.is_vehicle] == ["StuG IIIG(L)", "StuG IIIG(L)"]
    assert not any(e.roll.table_id == "abtf.german_a4" for e in rolls(result))


def test_ob_given_rg_units_wait_off_map_until_they_enter():
    chart = [rg("British", "I1", leader="None", depletion=False)]
    ob = RGLine("British", "18AM", "I1", None, "Para Pltn", None, None, counts=False, notes="OB-given (9.615): x", area="A")
    result = rg_allotment.run(state(areas=AREAS).with_(rg_lines=(ob,)), inputs(rgs=chart), ScriptedDice())
    assert all(u.has("Not entered") for u in result.state.units) and len(result.state.units) == 5  # 3 squads, LMG, PIAT


def test_9_619_fpp_bought_from_an_rg_chart_line_join_the_sides_fpp_for_its_fortifications():
    from automation.steps.abtf import fortifications, purchases
    from tests.support.abtf import purchase, record

    fpp_line = rg("German", "F1", "K", cpp=5, full=10, depleted=None, unit_type="FPP", depletion=False, leader="None",
                  group="Fortification Points")
    given = inputs(date="18AM", previous="17N", rgs=[fpp_line],
                   purchases={"British": [], "German": [purchase("German", "RG", "F1", kg="K"),
                                                        purchase("German", "Fortification", "wire", 1, "F", row=3)]})
    start = state(areas=AREAS, german=record("German", cpp=12, fpp=4))
    bought = purchases.run(start, given, ScriptedDice())
    assert bought.state.records["German"].cpp_spent == 5 and bought.state.records["German"].cpp_left == 4
    allotted = rg_allotment.run(bought.state, given, ScriptedDice())
    assert allotted.state.records["German"].fpp == 14 and allotted.state.units == ()
    assert [(r.label, r.strength, r.units) for r in allotted.state.rg_lines] == [("F1(K)", "F", "10 FPP")]
    assert "F1(K) Fortification Points: 10 FPP for this CG Date's fortifications (4 + 10 = 14)" in texts(allotted)
    fortified = fortifications.run(allotted.state, given, ScriptedDice())
    assert fortified.state.fortified["German"] == 10 and [u.type for u in fortified.state.units] == ["Wire"]
    assert "FPP spent 10 of 14; 4 unspent are lost" in texts(fortified, "German")


def test_an_rg_line_whose_unit_type_names_the_fpp_gives_that_many():
    line = rg("British", "F2", unit_type="20 FPP", full=None, depleted=None, depletion=False, leader="None")
    assert rg_allotment.fpp_amount(line) == 20 and rg_allotment.fpp_amount(rg("British", "I1")) is None

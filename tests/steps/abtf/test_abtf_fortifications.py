"""9.619 fortification purchases with every cap of the table and its notes."""
from __future__ import annotations

import pytest

from automation.errors import WorkbookError
from automation.steps.abtf import fortifications
from tests.support.abtf import ScriptedDice, block, inputs, purchase, record, state, texts, unit

AREAS = [block("A", "British", "A2"), block("F", "German", "F3")]


def fortify(british=(), german=(), fpp=(30, 30), at_mines=0, date="19AM", units=()):
    given = inputs(date=date, purchases={"British": british, "German": german})
    start = state(*units, areas=AREAS, british=record("British", fpp=fpp[0], at_mines=at_mines),
                  german=record("German", fpp=fpp[1]))
    return fortifications.run(start, given, ScriptedDice())


def test_fortifications_cost_their_fpp_join_the_roster_and_unspent_fpp_are_lost():
    result = fortify(german=[purchase("German", "Fortification", "ap_mine_factor_german", 4, "F"),
                             purchase("German", "Fortification", "wire", 1, "F", row=3),
                             purchase("German", "Fortification", "foxhole_2", 2, "F", front_line=True, row=4)])
    forts = [(u.type, u.area, u.has("Front Line")) for u in result.state.units]
    assert forts == [("A-P minefield factor (4 factors)", "F", False), ("Wire", "F", False),
                     ("Foxhole 2-squad x2", "F", True)]
    assert result.state.records["German"].fpp == 0 and result.state.fortified["German"] == 12 + 10 + 4
    assert "FPP spent 26 of 30; 4 unspent are lost" in texts(result, "German")


def test_british_a_t_mines_count_towards_the_cg_total():
    result = fortify([purchase("British", "Fortification", "at_mine_factor", 2, "A")], at_mines=5)
    assert result.state.records["British"].at_mines == 7 and result.state.records["British"].fpp == 0


@pytest.mark.parametrize("british, german, kw, message", [
    ([], [purchase("German", "Fortification", "at_mine_factor", 1, "F")], {},
     r"Purchases 19AM German!B2: Fortification: A-T Mine factor at 4 FPP is for the British only"),
    ([purchase("British", "Fortification", "wire", 1, "A")], [], {}, r"Wire at 10 FPP is for the German only"),
    ([purchase("British", "Fortification", "ap_mine_factor_german", 1, "A")], [], {}, r"at 3 FPP is for the German only"),
    ([], [purchase("German", "Fortification", "ap_mine_factor_german", 13, "F")], {"fpp": (0, 40)},
     r"Purchases 19AM German!D2: Fortification: 13 A-P minefield factors this CG Date; at most 12"),
    ([purchase("British", "Fortification", "at_mine_factor", 3, "A")], [], {}, r"D2: Fortification: 3 A-T Mines this CG Date; at most 2"),
    ([purchase("British", "Fortification", "at_mine_factor", 2, "A")], [], {"at_mines": 7},
     r"7 A-T Mines bought so far and 2 more; at most 8 in the CG"),
    ([purchase("British", "Fortification", "trench", 1, "A", front_line=True)], [], {},
     r"Purchases 19AM British!F2: Fortification: Trench may not set up in a Front Line Location"),
    ([purchase("British", "Fortification", "fortified_location", 4, "A")], [], {},
     r"Purchases 19AM British!B2: Fortification: the British fortifications cost 40 FPP, more than the 30 FPP it has"),
    ([purchase("British", "Fortification", "foxhole_1", 1, "F")], [], {}, r"E2: Fortification: 'F' is not a Setup Area of the British"),
    ([purchase("British", "Fortification", "bunker", 1, "A")], [], {}, r"B2: Fortification: 'bunker' is not on the Fortification"),
])
def test_fortification_caps_are_enforced_at_their_cells(british, german, kw, message):
    with pytest.raises(WorkbookError, match=message):
        fortify(british, german, **kw)


def test_daytime_hip_is_capped_at_ten_percent_fru_of_the_areas_infantry_but_not_at_night():
    squads = [unit(f"B-{n}", area="A") for n in range(11)]
    hip = [purchase("British", "Fortification", "hip_squad", 3, "A")]
    with pytest.raises(WorkbookError, match=r"3 squads HIP in A \(an HS counts half\); in a daytime scenario at most 10% "
                                            r"\(FRU\) of its 11 Infantry squads \(HS and crews are not squads\): 2"):
        fortify(hip, units=squads)
    assert fortify([purchase("British", "Fortification", "hip_squad", 2, "A")], units=squads).state.records["British"].fpp == 0
    night = fortify(hip, units=squads, date="18N")
    assert "night: if the British is the Scenario Defender, 25% (FRU) of its squads per Setup Area may set up HIP at no " \
           "FPP (E1.2): A 3 of 11" in texts(night, "British")


def test_9_619_note_5_daytime_hip_counts_squads_not_half_squads_or_crews():
    units = [unit(f"B-{n}", area="A") for n in range(10)] + [unit(f"B-H{n}", cls="HS", area="A") for n in range(4)] \
        + [unit("B-C", cls="Crew", strength=None, area="A")]
    hip = [purchase("British", "Fortification", "hip_squad", 2, "A")]
    with pytest.raises(WorkbookError, match=r"Purchases 19AM British!D2: Fortification: 2 squads HIP in A \(an HS counts "
                                            r"half\); in a daytime scenario at most 10% \(FRU\) of its 10 Infantry squads .*: 1"):
        fortify(hip, units=units)
    two_hs = [purchase("British", "Fortification", "hip_hs", 2, "A"), purchase("British", "Fortification", "hip_crew", 2, "A",
                                                                                row=3)]
    assert [u.type for u in fortify(two_hs, units=units).state.units[-2:]] == ["HIP HS x2", "HIP crew x2"]
    with pytest.raises(WorkbookError, match=r"D3: Fortification: 1.5 squads HIP in A"):
        fortify([purchase("British", "Fortification", "hip_squad", 1, "A"),
                 purchase("British", "Fortification", "hip_hs", 1, "A", row=3)], units=units)
    assert fortify([purchase("British", "Fortification", "hip_squad", 1, "A")], units=units).state.units[-1].type == "HIP squad"


def test_9_619_night_defender_hip_percent_is_read_from_its_setting():
    squads = [unit(f"B-{n}", area="A") for n in range(9)]
    given = inputs(date="18N", purchases={"British": [], "German": []}, **{"abtf.hip_night_defender_free_percent": 50})
    start = state(*squads, areas=AREAS)
    result = fortifications.run(start, given, ScriptedDice())
    assert "(E1.2): A 5 of 9" in texts(result, "British")[0]


@pytest.mark.parametrize("date, setting, text", [
    ("19AM", True, "Wire may not set up HIP: a daytime CG Scenario (9.619 note 7)"),
    ("18N", True, "Wire may set up HIP: a Night CG Scenario (9.619 note 7)"),
    ("19AM", False, "Wire may set up HIP (the night-only setting is off)"),
])
def test_9_619_note_7_wire_may_be_hip_only_at_night(date, setting, text):
    given = inputs(date=date, purchases={"British": [], "German": [purchase("German", "Fortification", "wire", 1, "F")]},
                   **{"abtf.wire_hip_night_only": setting})
    result = fortifications.run(state(areas=AREAS, german=record("German", fpp=10)), given, ScriptedDice())
    wire = result.state.units[-1]
    assert texts(result, wire.id) == ["Wire in F: 10 FPP", text]


@pytest.mark.parametrize("forfeit, left, text", [(True, 0, "6 unspent are lost"),
                                                 (False, 6, "6 unspent are kept (the forfeit setting is off)")])
def test_9_619_unspent_fpp_are_forfeit_as_the_setting_says(forfeit, left, text):
    given = inputs(purchases={"British": [purchase("British", "Fortification", "foxhole_1", 2, "A")], "German": []},
                   **{"abtf.unspent_fpp_forfeit": forfeit})
    result = fortifications.run(state(areas=AREAS, british=record("British", fpp=8)), given, ScriptedDice())
    assert result.state.records["British"].fpp == left
    assert f"FPP spent 2 of 8; {text}" in texts(result, "British")

"""9.611 recombining and battle hardening; 9.612 the new CG Date and the SAN
adjustment dr."""
from __future__ import annotations

import pytest

from automation.errors import WorkbookError
from automation.steps.abtf import cg_date, recombining
from tests.support.abtf import ScriptedDice, block, inputs, mods, order, record, rolls, state, texts, unit, with_orders

AREAS = [block("A", "British", "A2"), block("D", "British", "D1")]


def hs(uid, area="A", strength="3-4-8", **kw):
    return unit(uid, cls="HS", strength=strength, area=area, quality=kw.pop("quality", "Elite"), counterpart="6-5-8", **kw)


def test_identical_hs_in_one_area_recombine_into_their_squad_and_keep_their_sw():
    lmg = unit("LMG", cls="SW", strength=None, area="A", holder="H2", pp=2)
    result = recombining.run(state(hs("H1"), hs("H2"), lmg, areas=AREAS), inputs(), ScriptedDice())
    squad = result.state.unit("H1")
    assert (squad.cls, squad.strength, squad.counterpart) == ("Squad", "6-5-8", "3-4-8")
    assert result.state.unit("H2") is None and result.state.unit("LMG").holder == "H1"


def test_hs_of_different_areas_quality_strength_or_walking_wounded_status_stay_apart():
    units = [hs("H1"), hs("H2", area="D"), hs("H3", quality="1st Line"), hs("H4", strength="3-3-8"),
             hs("H5", status="Walking Wounded")]
    result = recombining.run(state(*units, areas=AREAS), inputs(), ScriptedDice())
    assert [u.cls for u in result.state.units] == ["HS"] * 5 and texts(result)[0] == "no HS must recombine"


def test_three_hs_leave_one_and_a_piat_lets_its_hs_stay_apart():
    piat = unit("PIAT", cls="SW", strength=None, area="A", holder="H3", type="PIAT", pp=1)
    result = recombining.run(state(hs("H1"), hs("H2"), hs("H3"), piat, areas=AREAS), inputs(), ScriptedDice())
    assert [(u.id, u.cls) for u in result.state.units if u.cls in ("HS", "Squad")] == [("H1", "Squad"), ("H3", "HS")]
    result = recombining.run(state(hs("H1"), hs("H2"), piat.with_(holder="H2"), areas=AREAS), inputs(), ScriptedDice())
    assert [u.cls for u in result.state.units if u.cls in ("HS", "Squad")] == ["HS", "HS"]


def test_a_hero_battle_hardens_the_mmc_its_side_names_and_leaves_play():
    squad = unit("B-2", strength="4-5-7", area="D", quality="2nd Line")
    hero = unit("B-H", cls="Hero", area="D")
    given = with_orders(inputs(), "British", order("British", "Battle Harden", "B-2", "4-5-8", units=["B-H"]))
    result = recombining.run(state(squad, hero, areas=AREAS), given, ScriptedDice())
    hardened = result.state.unit("B-2")
    assert (hardened.strength, hardened.quality) == ("4-5-8", "1st Line") and result.state.unit("B-H") is None
    assert result.state.reph_cvp == {} and "B-2" in result.state.hardened


def test_an_elite_mmc_battle_hardened_by_a_hero_becomes_fanatic():
    given = with_orders(inputs(), "British", order("British", "Battle Harden", "B-2", units=["B-H"]))
    after = recombining.run(state(unit("B-2", area="D", quality="Elite"), unit("B-H", cls="Hero", area="D"), areas=AREAS),
                            given, ScriptedDice()).state
    assert after.unit("B-2").has("Fanatic") and after.unit("B-2").strength == "6-5-8"


def test_a_hero_with_no_mmc_in_its_area_is_retained():
    result = recombining.run(state(unit("B-H", cls="Hero", area="D"), areas=AREAS), inputs(orders={"British": None}),
                             ScriptedDice())
    assert result.state.unit("B-H") is not None and result.waiting is None


def test_hardening_a_non_elite_mmc_without_its_new_factors_names_the_cell():
    given = with_orders(inputs(), "British", order("British", "Battle Harden", "B-2", units=["B-H"], row=4))
    with pytest.raises(WorkbookError, match=r"Orders 19AM British!C4: Battle Harden: give the factors"):
        recombining.run(state(unit("B-2", strength="4-5-7", area="D", quality="2nd Line"), unit("B-H", cls="Hero", area="D"),
                              areas=AREAS), given, ScriptedDice())


@pytest.mark.parametrize("rating, after", [("8-0", "8-1"), ("9-2", "10-2"), ("10-3", "10-3")])
def test_a_heroic_leader_battle_hardens_one_rating_and_loses_heroic_status(rating, after):
    leader = unit("B-L", cls="Leader", strength=rating, area="A", status="Heroic")
    result = recombining.run(state(leader, areas=AREAS), inputs(), ScriptedDice())
    assert result.state.unit("B-L").strength == after and not result.state.unit("B-L").has("Heroic")


@pytest.mark.parametrize("side, san, dr, drm, final, new", [
    ("British", 5, 3, 1, 4, 3),
    ("British", 4, 3, 0, 3, 4),
    ("German", 5, 4, 0, 4, 3),
    ("German", 6, 2, 1, 3, 6),
])
def test_the_san_adjustment_dr_takes_the_san_minus_four_or_five(side, san, dr, drm, final, new):
    records = {"british": record("British", san=san if side == "British" else 2),
               "german": record("German", san=san if side == "German" else 2)}
    result = cg_date.run(state(**records), inputs(), ScriptedDice(by_label={f"9.6122/{side}": (dr,)}))
    [roll] = rolls(result)
    assert roll.roll.drm == drm and roll.roll.final == final and result.state.records[side].san == new
    assert mods(roll) == ({"british_san": drm} if side == "British" else {"german_san": drm}) or drm == 0


def test_a_san_below_two_is_raised_to_two_without_a_roll():
    dice = ScriptedDice()
    result = cg_date.run(state(british=record("British", san=1), german=record("German", san=0)), inputs(), dice)
    assert result.state.records["British"].san == 2 and result.state.records["German"].san == 2 and dice.thrown == []
    assert "new CG Date 19AM (after 18N): a daylight CG Date, Campaign Exhaustion DRM +1" in texts(result)


@pytest.mark.parametrize("most, refused", [(1, True), (2, False)])
def test_9_6112_an_mmc_battle_hardens_at_most_the_settings_times_per_reph(most, refused):
    squad = unit("B-2", strength="4-5-7", area="D", quality="Green")
    heroes = [unit("B-H1", cls="Hero", area="D"), unit("B-H2", cls="Hero", area="D")]
    given = with_orders(inputs(**{"abtf.battle_harden_per_rephase": most}), "British",
                        order("British", "Battle Harden", "B-2", "4-5-8", units=["B-H1"]),
                        order("British", "Battle Harden", "B-2", "4-6-8", units=["B-H2"], row=3))
    if refused:
        with pytest.raises(WorkbookError, match=r"Orders 19AM British!B3: Battle Harden: 'B-2' is not a non-crew MMC of the "
                                                r"British in D that has not Battle Hardened once this RePh"):
            recombining.run(state(squad, *heroes, areas=AREAS), given, ScriptedDice())
        return
    after = recombining.run(state(squad, *heroes, areas=AREAS), given, ScriptedDice()).state
    assert (after.unit("B-2").strength, after.unit("B-2").quality) == ("4-6-8", "1st Line")
    assert after.hardened == ("B-2", "B-2")

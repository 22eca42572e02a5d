"""rules/bf_house.toml against seed 002 (Battlefront: WWII house rules).

Sections are cited by the body headings' numbers and names; the body prints
"5." twice, so from the night rules on its numbers are one below the contents.
"""
from __future__ import annotations

from fractions import Fraction

import pytest

from automation.engine.dice import DiceKind
from automation.engine.resolver import odds, resolve, Situation
from automation.errors import UsageError
from automation.rulebook import load_rulebook

S4 = "4. British Artillery – Replacement of FOO Casualties"
S8 = "8. Knocked Out Vehicle Table"
S9 = "9. Fire"
S10 = "10. Improved Position Clarifications"
S11 = "11. Flat Featureless Terrain"
S12 = "12. Destroying BUS and Rubble"
S14 = "14. Engineering Manoeuvre Actions"
S15 = "15. Minefield Rules"
S16 = "16. Laying Mines"
S22 = "22. Roadblocks"
S23 = "23. Bridging"
S24 = "24. Concrete Bunkers and Fortifications"
S25 = "25. Hobart's \"Funnies\"-Special Engineering Vehicles"

# Every "## n. Name" heading of the seed's body, as printed.
BODY_HEADINGS = {
    "1. Base Sizes", "2. Grazing Fire", "3. Sneak Manoeuvre Action", S4, "5. Multi-Level BUS",
    "5. Night Rules - Good Visibility", "6. Dawn / Dusk Rules or Day Poor Visibility",
    "7. Night Rules - Poor Visibility", S8, S9, S10, S11, S12, "13. Lanes, Streets & Roads & Rubble",
    S14, S15, S16, "17. Clearing Mines", "18. Barbed Wire", "19. Anti-Tank Ditches",
    "20. Dragons Teeth or AT Obstacles", "21. Bocage Hedgerows", S22, S23, S24, S25,
    "26. Miscellaneous Additional Rules and Restrictions",
}


def tenths(n: int) -> Fraction:
    return Fraction(n, 10)


@pytest.fixture(scope="module")
def house():
    return load_rulebook().system("bf-house")


def bands(table):
    return [(b.low, b.high, b.results["Result"], dict(b.effects.get("Result", {}))) for b in table.bands]


def mods(table):
    return {m.id: (m.value, m.when or m.input, m.group, m.source) for m in table.modifiers}


def chances(table, drm=0):
    return {o.result: o.probability for o in odds(table, drm=drm)}


# ------------------------------------------------------------------ the system
def test_the_whole_rulebook_loads_with_the_house_rules():
    rulebook = load_rulebook()
    system = rulebook.system("bf-house")
    assert system.title == "Battlefront: WWII house rules"
    assert system.seed == "002"


def test_every_id_has_the_house_prefix(house):
    ids = list(house.tables) + list(house.charts) + list(house.settings)
    assert ids and all(i.startswith("house.") for i in ids)


def test_every_dice_table_rolls_one_d10(house):
    assert {t.dice for t in house.tables.values()} == {DiceKind.D10}


def test_sources_cite_body_headings_not_the_contents_list(house):
    sources = [t.source for t in house.tables.values() if t.id != "house.improve_position"]
    sources += [m.source for t in house.tables.values() for m in t.modifiers]
    sources += [c.source for c in house.charts.values() if c.id != "house.main_rule_modifiers"]
    sources += [s["source"] for s in house.settings.values()]
    assert set(sources) <= BODY_HEADINGS
    # the contents list's numbers for the same sections must not appear
    assert "9. Knocked Out Vehicle Table" not in sources
    assert "10. Fire" not in sources


# ------------------------------------------------- 8. Knocked Out Vehicle Table
def test_ko_vehicle_bands_carry_campaign_consequences(house):
    t = house.table("house.ko_vehicle")
    assert t.source == S8
    got = bands(t)
    assert [(lo, hi) for lo, hi, _, _ in got] == [(8, None), (6, 7), (None, 5)]
    assert got[0][3] == {"burn": "fierce", "campaign": "irreparable", "crew_loss": "all"}
    assert got[1][3] == {"burn": "smoke", "campaign": "extensive_repair", "crew_loss": "half"}
    assert got[2][3] == {"burn": "none", "campaign": "recoverable", "crew_loss": "none"}


def test_ko_vehicle_modifiers_restore_the_lost_minus_signs(house):
    m = mods(house.table("house.ko_vehicle"))
    assert m["idf_or_close_combat"][0] == -1
    assert m["soft"][0] == -1
    assert m["small"][0] == -1
    assert m["fire_suppression"][0] == -1
    assert m["large_calibre"][0] == 1
    assert all(v[3] == S8 for v in m.values())


def test_ko_vehicle_prone_to_burn_modifiers_exclude_each_other(house):
    m = mods(house.table("house.ko_vehicle"))
    assert {k: m[k][0] for k in ("panther", "russian_tank", "sherman", "sherman_pre_1944")} == {
        "panther": 1, "russian_tank": 1, "sherman": 1, "sherman_pre_1944": 2,
    }
    assert {m[k][2] for k in ("panther", "russian_tank", "sherman", "sherman_pre_1944")} == {"prone_to_burn"}
    with pytest.raises(UsageError):
        resolve(house.table("house.ko_vehicle"), (5,), Situation.of("sherman", "sherman_pre_1944"))


def test_ko_vehicle_odds_at_no_drm_are_three_two_five_tenths(house):
    assert chances(house.table("house.ko_vehicle")) == {
        "Burns fiercely: irreparable, crew killed": tenths(3),
        "Smokes: extensive repair, half the crew lost": tenths(2),
        "Does not burn: recoverable, crew survives": tenths(5),
    }


def test_ko_vehicle_odds_for_an_early_sherman_hit_by_an_88(house):
    # +2 early Sherman, +1 88mm: natural 5-10 burn, 3-4 smoke, 1-2 no burn
    assert list(chances(house.table("house.ko_vehicle"), drm=3).values()) == [tenths(6), tenths(2), tenths(2)]


def test_ko_vehicle_odds_for_a_soft_vehicle_lost_to_artillery(house):
    # -2: only a natural 10 burns, 8-9 smoke
    assert list(chances(house.table("house.ko_vehicle"), drm=-2).values()) == [tenths(1), tenths(2), tenths(7)]


def test_ko_vehicle_trail_early_sherman_rolling_6_burns(house):
    r = resolve(house.table("house.ko_vehicle"), (6,), Situation.of("sherman_pre_1944"))
    assert r.final == 8
    assert r.effect == {"burn": "fierce", "campaign": "irreparable", "crew_loss": "all"}
    assert [(m.id, m.value, m.source) for m in r.modifiers] == [("sherman_pre_1944", 2, S8)]
    assert r.probability == tenths(5)


def test_ko_vehicle_trail_small_soft_vehicle_rolling_9_smokes(house):
    r = resolve(house.table("house.ko_vehicle"), (9,), Situation.of("soft_vehicle", "small_vehicle"))
    assert r.final == 7
    assert r.effect["campaign"] == "extensive_repair"


# ------------------------------------------------------------------- 9. Fire
def test_fire_bands_are_10_up_8_9_5_7_and_4_down(house):
    t = house.table("house.fire")
    assert t.source == S9
    got = bands(t)
    assert [(lo, hi) for lo, hi, _, _ in got] == [(10, None), (8, 9), (5, 7), (None, 4)]
    assert [e["fire"] for *_, e in got] == ["starts_or_spreads", "continues", "continues", "out"]
    assert [e["aim_points_rubbled"] for *_, e in got] == [0, 1, 0, 0]


def test_fire_modifiers_match_the_seed(house):
    m = mods(house.table("house.fire"))
    values = {k: v[0] for k, v in m.items()}
    assert values == {
        "water": -5, "open_ground": -2, "cleared_woods": -1, "thickets": 0, "wooden_buildings": 1,
        "hot_dry": 1, "damp": -1, "raining": -2, "attack_factor": 1, "flamethrower": 4,
        "extinguishing": -2, "burning_time": -1,
    }
    assert {m[k][2] for k in ("water", "open_ground", "cleared_woods", "thickets", "wooden_buildings")} == {"terrain"}
    assert {m[k][2] for k in ("hot_dry", "damp", "raining")} == {"environment"}
    assert m["attack_factor"][1] == "attack_factor"
    assert m["flamethrower"][2] == m["attack_factor"][2] == "attack"
    burning = house.table("house.fire").modifier("burning_time")
    assert (burning.input, burning.per, burning.rounding.value) == ("turns_burning", 4, "down")
    assert all(v[3] == S9 for v in m.values())


def test_fire_odds_in_open_ground_hot_weather_with_factor_2(house):
    # open -2, hot +1, factor +2: net +1
    assert list(chances(house.table("house.fire"), drm=1).values()) == [tenths(2), tenths(2), tenths(3), tenths(3)]


def test_fire_odds_with_a_flamethrower_on_wooden_buildings(house):
    # +1 wooden, +4 flamethrower: net +5, nothing goes out
    got = chances(house.table("house.fire"), drm=5)
    assert got == {
        "Fire starts or spreads": tenths(6),
        "Burns on; one BUS aim point rubbled": tenths(2),
        "Burns on": tenths(2),
    }


def test_fire_burning_nine_turns_takes_minus_two_rounded_down(house):
    r = resolve(house.table("house.fire"), (7,), Situation.of("open_ground", turns_burning=9))
    assert [(m.id, m.value) for m in r.modifiers] == [("open_ground", -2), ("burning_time", -2)]
    assert r.final == 3
    assert r.effect["fire"] == "out"


def test_fire_trail_spreads_through_wooden_buildings_in_hot_weather(house):
    r = resolve(
        house.table("house.fire"), (8,), Situation.of("wooden_buildings", "hot_and_dry", attack_factor=0)
    )
    assert r.final == 10
    assert r.result == "Fire starts or spreads"
    assert r.probability == tenths(3)


def test_fire_flamethrower_and_fire_factor_are_not_added_together(house):
    with pytest.raises(UsageError):
        resolve(house.table("house.fire"), (5,), Situation.of("flamethrower", attack_factor=2))


# -------------------------------------------------- 4. FOO replacement
def test_foo_replacement_arrives_on_10_or_more(house):
    t = house.table("house.foo_replacement")
    assert t.source == S4
    assert [(lo, hi, e) for lo, hi, _, e in bands(t)] == [
        (10, None, {"foo_arrives": True}), (None, 9, {"foo_arrives": False}),
    ]
    m = mods(t)
    assert m == {
        "turns_rolled": (1, "turns_already_rolled", None, S4),
        "casualties_waiting": (1, "additional_casualties_waiting", None, S4),
        "no_foo_on_table": (1, "no_british_foo_on_table", None, S4),
        "replacements_lost": (-1, "replacement_foos_lost", None, S4),
    }


def test_foo_replacement_odds_first_roll_is_one_in_ten(house):
    assert chances(house.table("house.foo_replacement"))["Replacement FOO arrives"] == tenths(1)


def test_foo_replacement_odds_after_three_turns_with_no_foo_on_table(house):
    assert chances(house.table("house.foo_replacement"), drm=4)["Replacement FOO arrives"] == tenths(5)


def test_foo_replacement_trail_grows_each_turn(house):
    t = house.table("house.foo_replacement")
    r = resolve(t, (7,), Situation.of("no_british_foo_on_table", turns_already_rolled=2))
    assert r.final == 10 and r.effect == {"foo_arrives": True}
    r = resolve(t, (9,), Situation.of(turns_already_rolled=3, replacement_foos_lost=2))
    assert r.drm == 1 and r.final == 10
    assert r.probability == tenths(2)


# ------------------------------------------- 12. Destroying BUS and Rubble
def test_bus_destruction_rubbles_an_aim_point_on_8_or_more(house):
    t = house.table("house.bus_destruction")
    assert t.source == S12
    assert [(lo, hi, e) for lo, hi, _, e in bands(t)] == [
        (8, None, {"aim_points_rubbled": 1}), (None, 7, {"aim_points_rubbled": 0}),
    ]
    assert mods(t) == {
        "idf_factor": (1, "idf_factor", None, S12),
        "aim_points_outside": (-1, "aim_points_outside_template", None, S12),
        "bus_level": (1, "bus_level", None, S12),
    }


def test_bus_destruction_odds_at_drm_0_minus_1_and_minus_3(house):
    t = house.table("house.bus_destruction")
    assert chances(t) == {"One aim point turned to rubble": tenths(3), "No effect": tenths(7)}
    assert chances(t, drm=-1)["One aim point turned to rubble"] == tenths(2)
    assert chances(t, drm=-3) == {"No effect": tenths(10)}


def test_bus_destruction_trail_with_factor_level_and_uncovered_aim_points(house):
    r = resolve(
        house.table("house.bus_destruction"), (5,),
        Situation.of(idf_factor=3, aim_points_outside_template=2, bus_level=2),
    )
    assert [(m.id, m.value) for m in r.modifiers] == [("idf_factor", 3), ("aim_points_outside", -2), ("bus_level", 2)]
    assert r.final == 8 and r.effect == {"aim_points_rubbled": 1}
    assert r.probability == tenths(6)


def test_bus_collapse_counts_and_df_thresholds(house):
    c = house.charts["house.bus_collapse"]
    assert c.source == S12
    assert {r["Structure"]: (r["Stone"], r["Wooden"]) for r in c.rows} == {
        "Normal": (4, 2), "Tower": (2, 1), "Continuous": (3, 1),
    }
    df = house.charts["house.bus_df_rubble"]
    assert df.row("Stone")["Modified KO roll at least"] == 12
    assert df.row("Wooden")["Modified KO roll at least"] == 11


def test_collapsed_bus_bailout_is_umpire_entered_with_three_exclusive_modifiers(house):
    t = house.table("house.collapsed_bus_bailout")
    assert t.umpire_entered and t.is_empty and t.source == S12
    assert mods(t) == {
        "disordered": (1, "disordered", "troop_state", S12),
        "suppressed": (2, "suppressed", "troop_state", S12),
        "good_order": (3, "good_order", "troop_state", S12),
    }
    with pytest.raises(UsageError, match="not printed"):
        resolve(t, (5,), Situation.of("good_order"))


# ------------------------------------------------- 14. Demolition action
def test_demolition_is_a_dud_only_on_1(house):
    t = house.table("house.demolition")
    assert t.source == S14 and not t.modifiers
    assert [(lo, hi, e) for lo, hi, _, e in bands(t)] == [(2, None, {"success": True}), (None, 1, {"success": False})]
    assert chances(t) == {"Demolition succeeds": tenths(9), "Dud: prepare again": tenths(1)}
    assert resolve(t, (1,)).effect == {"success": False}
    assert resolve(t, (2,)).effect == {"success": True}


# --------------------------------------------------------- 25. DD tanks
def test_dd_tank_sinks_on_1_or_on_2_in_rough_water(house):
    t = house.table("house.dd_sinking")
    assert t.source == S25
    assert mods(t) == {"rough_water": (-1, "rough_water", None, S25)}
    assert chances(t)["Sinks, destroyed"] == tenths(1)
    assert chances(t, drm=-1)["Sinks, destroyed"] == tenths(2)
    r = resolve(t, (2,), Situation.of("rough_water"))
    assert r.final == 1 and r.effect == {"sinks": True}


# ---------------------------------------------------- 15. Minefield passage
def test_minefield_passage_is_umpire_entered_with_every_house_modifier(house):
    t = house.table("house.minefield_passage")
    assert t.umpire_entered and t.is_empty and t.source == S15
    assert mods(t) == {
        "dense": (-1, "dense_field", "density", S15),
        "scattered": (1, "scattered_field", "density", S15),
        "surface_laid": (1, "surface_laid", None, S15),
        "marked_lane": (2, "following_lane", None, S15),
        "tracked_in_ap": (1, "tracked_vehicle_in_ap_field", None, S15),
        "discipline": (1, "discipline_rating", None, S15),
        "combat_engineer": (2, "combat_engineer", None, S15),
        "rapid_advance": (-1, "rapid_advance", None, S15),
    }
    with pytest.raises(UsageError):
        odds(t)


# --------------------------------------------------- Improve Position table
def test_improve_position_is_umpire_entered_with_roadblock_bridge_and_flat_modifiers(house):
    t = house.table("house.improve_position")
    assert t.umpire_entered and t.is_empty
    assert mods(t) == {
        "flat_featureless": (-1, "flat_featureless", None, S11),
        "roadblock_clear_road": (-1, "roadblock_clear_road", "roadblock_site", S22),
        "roadblock_forested": (1, "roadblock_forested", "roadblock_site", S22),
        "builder_discipline": (1, "builder_discipline_rating", None, S23),
        "swollen_river": (-1, "swollen_river", None, S23),
        "several_builders": (1, "several_units_on_span", None, S23),
    }


# ---------------------------------------- 10. Improved position matrices
def test_ip_direct_fire_matrix_matches_the_seed(house):
    c = house.charts["house.ip_direct_fire"]
    assert c.source == S10
    printed = {
        "Nil": [0, -1, -1, -1, 1, 0, 0, -1, 0, -1],
        "Improved Position": [-1, -1, -2, -2, 0, 0, -1, -2, 0, -1],
        "Dug-In": [-2, -2, -2, -2, -1, -1, -1, -2, -1, -1],
        "Entrenched": [-2, -2, -2, -2, -2, -2, -2, -2, -1, -1],
        "Pill-box (Log)": [-2] * 10,
        "Pill-box (Conc)": [-3] * 10,
    }
    assert [r["Position"] for r in c.rows] == list(printed)
    for pos, values in printed.items():
        row = c.row(pos)
        assert [row[col] for col in c.columns[1:]] == values, pos
    assert c.columns[1:] == (
        "DF Front Open", "DF Front Soft", "DF Front Hard", "DF Front BUS",
        "DF Enfilade Open", "DF Enfilade Soft", "DF Enfilade Hard", "DF Enfilade BUS",
        "IDF Non-BUS", "IDF BUS",
    )


def test_ip_close_combat_matrix_matches_the_seed(house):
    c = house.charts["house.ip_close_combat"]
    assert c.source == S10
    printed = {
        "Nil": [0, 0, 1, 1, -1, -1, 0, 1, "N/A", "N/A", "N/A", "N/A"],
        "Improved Position": [0, 0, 1, 1, -1, -1, 0, 1, "Lost", "Down 1", 1, "1 roll"],
        "Dug-In": [1, 1, 1, 1, 0, 0, 0, 1, "Remain", "Down 1", 1, "2 rolls"],
        "Entrenched": [1] * 8 + ["Remain", "Down 1", 1, "Scenario"],
        "Pill-box (Log)": [1] * 8 + ["Remain", "Down 1", 1, "Scenario"],
        "Pill-box (Conc)": [1] * 8 + ["Remain", "Down 1", 1, "Scenario"],
    }
    assert [r["Position"] for r in c.rows] == list(printed)
    for pos, values in printed.items():
        row = c.row(pos)
        assert [row[col] for col in c.columns[1:]] == values, pos
    assert c.columns[-4:] == ("Move", "Spotting", "Manoeuvre", "Construct")


# ------------------------------------------- settings: mines, bridges, forts
def test_mine_laying_settings(house):
    s = house.settings
    assert s["house.mine_laying_actions"]["value"] == 9
    assert s["house.mine_laying_max_stands"]["value"] == 3
    assert s["house.dummy_minefield_actions"]["value"] == 5
    assert {s[k]["source"] for k in ("house.mine_laying_actions", "house.mine_laying_max_stands",
                                     "house.dummy_minefield_actions")} == {S16}


def test_fort_demolition_and_bridge_settings(house):
    s = house.settings
    assert s["house.fort_demolition_attack"]["value"] == 4
    assert s["house.fort_demolition_additional"]["value"] == 2
    assert s["house.fort_demolition_attack"]["source"] == S24
    assert s["house.bridge_span_transport"]["value"] == 3
    assert s["house.bridge_dismount_range"]["value"] == 2
    assert s["house.bridge_close_combat_defence"]["value"] == 0
    assert s["house.bridge_span_transport"]["source"] == S23


def test_fort_armor_guidance_chart(house):
    c = house.charts["house.fort_armor"]
    assert c.source == S24
    assert {r["Fortification"]: (r["Armor from"], r["Armor to"]) for r in c.rows} == {
        "Large structure": (4, 6), "Small concrete bunker": (3, 3), "Log bunker": (2, 2),
    }


def test_engineering_action_counts_cite_their_sections(house):
    c = house.charts["house.engineering_actions"]
    assert c.row("Gap bocage with a dozer")["Actions"] == 2
    assert c.row("Prepare a bocage demolition")["Actions"] == 2
    assert c.row("Prepare a roadblock for removal (combat engineer)")["Actions"] == 2
    assert c.row("Prepare a fort demolition")["Section"] == S24
    assert {r["Section"] for r in c.rows} <= BODY_HEADINGS

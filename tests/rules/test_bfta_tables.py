"""BFTA optional rules (seed 000, 16.4-16.8): every table, chart and setting
against the printed numbers, exact odds and a few resolved trails."""
from __future__ import annotations

import math
from fractions import Fraction

import pytest

from automation.engine.dice import DiceKind
from automation.engine.resolver import Situation, applied_modifiers, odds, resolve
from automation.errors import UsageError
from automation.rulebook import load_rulebook


@pytest.fixture(scope="module")
def bfta():
    return load_rulebook().system("bfta-optional")


def chance(table, result, column=None, drm=0):
    return sum((o.probability for o in odds(table, column, drm) if o.result == result), Fraction(0))


def bands(table):
    return [(b.low, b.high) for b in table.bands]


def setting(system, sid):
    return system.settings[sid]["value"]


# --------------------------------------------------------------------- system
def test_system_header_names_seed_000(bfta):
    assert bfta.title == "Battles for the Ardennes: optional rules"
    assert bfta.seed == "000"


def test_every_id_carries_the_bfta_prefix_and_a_16_x_source(bfta):
    for t in bfta.tables.values():
        assert t.id.startswith("bfta.")
        assert t.source.startswith("16.")
        for m in t.modifiers:
            assert m.source.startswith("16.")
    for c in bfta.charts.values():
        assert c.id.startswith("bfta.") and c.source.startswith("16.")
    for sid, s in bfta.settings.items():
        assert sid.startswith("bfta.") and s["source"].startswith("16.")


def test_bfta_rolls_one_d6_except_breakdown_and_ending_checks(bfta):
    two_dice = {"bfta.saturation_breakdown", "bfta.game_ending_check"}
    for t in bfta.tables.values():
        assert t.dice is (DiceKind.TWO_D6 if t.id in two_dice else DiceKind.D6), t.id


def test_optional_rules_and_variants_are_off_until_switched_on(bfta):
    toggles = [k for k in bfta.settings if k.startswith(("bfta.rule_", "bfta.variant_"))]
    assert len(toggles) == 12
    assert all(setting(bfta, k) is False for k in toggles)


# ------------------------------------------------------------- 16.4 Greif
def test_greif_clearance_clears_on_6_or_more(bfta):
    t = bfta.table("bfta.greif_clearance")
    assert t.source == "16.43"
    assert bands(t) == [(6, None), (None, 5)]
    assert [b.results["Result"] for b in t.bands] == ["Cleared", "Not cleared"]
    assert [b.effects["Result"]["cleared"] for b in t.bands] == [True, False]


def test_greif_clearance_modifiers_are_engineer_plus_1_and_combat_unit_plus_2(bfta):
    t = bfta.table("bfta.greif_clearance")
    mods = {m.id: (m.value, m.when, m.source) for m in t.modifiers}
    assert mods == {
        "engineer": (1, "engineer_present", "16.44"),
        "combat_unit": (2, "combat_unit_present", "16.44"),
    }


def test_greif_clearance_odds_are_one_sixth_plain_then_two_thirds_with_both(bfta):
    t = bfta.table("bfta.greif_clearance")
    assert chance(t, "Cleared", drm=0) == Fraction(1, 6)
    assert chance(t, "Cleared", drm=1) == Fraction(1, 3)
    assert chance(t, "Cleared", drm=2) == Fraction(1, 2)
    assert chance(t, "Cleared", drm=3) == Fraction(2, 3)


def test_greif_clearance_trail_with_engineer_and_infantry_on_a_3(bfta):
    t = bfta.table("bfta.greif_clearance")
    r = resolve(t, (3,), Situation.of("engineer_present", "combat_unit_present"))
    assert r.final == 6 and r.result == "Cleared" and r.effect == {"cleared": True}
    assert [(m.value, m.source) for m in r.modifiers] == [(1, "16.44"), (2, "16.44")]
    assert r.probability == Fraction(2, 3)


def test_greif_clearance_unaided_5_does_not_clear(bfta):
    r = resolve(bfta.table("bfta.greif_clearance"), (5,))
    assert r.final == 5 and r.result == "Not cleared"


def test_greif_secondary_target_stops_on_1_or_2(bfta):
    t = bfta.table("bfta.greif_secondary_target")
    assert t.source == "16.46" and not t.modifiers
    assert bands(t) == [(1, 2), (3, 6)]
    assert chance(t, "Stopped") == Fraction(1, 3)
    assert chance(t, "Crossed off, move on") == Fraction(2, 3)
    assert resolve(t, (2,)).effect == {"stopped": True, "crossed_off": False}
    assert resolve(t, (3,)).effect == {"stopped": False, "crossed_off": True}


def test_greif_settings_match_the_printed_numbers(bfta):
    assert setting(bfta, "bfta.greif_primary_targets") == 5
    assert setting(bfta, "bfta.greif_removed_after_turn") == 9
    assert setting(bfta, "bfta.greif_variant_primary_targets") == 3
    assert setting(bfta, "bfta.greif_variant_secondary_targets") == 7
    assert setting(bfta, "bfta.greif_start_hex") == "1125"
    assert bfta.settings["bfta.greif_removed_after_turn"]["source"] == "16.45"


def test_greif_activation_example_19_mp_works_from_turn_4(bfta):
    divisor = setting(bfta, "bfta.greif_activation_mp_divisor")
    assert divisor == 8 and setting(bfta, "bfta.greif_activation_rounding") == "up"
    turns = math.ceil(19 / divisor)
    assert turns == 3 and turns + 1 == 4
    assert math.ceil(16 / divisor) == 2 and math.ceil(17 / divisor) == 3


# ------------------------------------------------------- 16.5 supply dumps
def test_supply_dump_chart_is_left_for_the_umpire(bfta):
    c = bfta.charts["bfta.supply_dump_chart"]
    assert c.umpire_entered and c.rows == () and c.source == "16.57"
    assert c.columns == ("Scenario", "Dump hexes", "Petrol Points")


def test_petrol_points_supply_one_division_rounding_up(bfta):
    assert setting(bfta, "bfta.petrol_point_divisions") == 1
    assert setting(bfta, "bfta.petrol_point_rounding") == "up"
    assert setting(bfta, "bfta.petrol_point_shortage_rolls") == 1
    assert bfta.settings["bfta.petrol_point_divisions"]["source"] == "16.54"
    # one lone unit of a division still costs a whole point
    assert math.ceil(Fraction(1, 4) / setting(bfta, "bfta.petrol_point_divisions")) == 1


def test_supply_dump_units_have_strength_0_and_movement_1(bfta):
    assert setting(bfta, "bfta.dump_unit_combat_strength") == 0
    assert setting(bfta, "bfta.dump_unit_movement_allowance") == 1


def test_supply_dump_destruction_hits_at_or_below_combat_strength(bfta):
    t = bfta.table("bfta.supply_dump_destruction")
    assert t.source == "16.56"
    assert t.columns == ("Plain", "Engineer", "Artillery", "Both")
    assert bands(t) == [(None, 0), (1, None)]
    hit = t.bands[0].effects
    assert [hit[c]["petrol_loss"] for c in t.columns] == ["die", "twice_die", "all", "all"]
    assert all(t.bands[1].effects[c] == {"dump_hit": False, "petrol_loss": "none"} for c in t.columns)


def test_supply_dump_destruction_modifiers(bfta):
    t = bfta.table("bfta.supply_dump_destruction")
    strength = t.modifier("combat_strength")
    assert (strength.value, strength.input, strength.source) == (-1, "combat_strength", "16.56")
    assert (t.modifier("engineer").value, t.modifier("engineer").columns) == (-1, ("Engineer", "Both"))
    assert (t.modifier("artillery").value, t.modifier("artillery").columns) == (2, ("Artillery", "Both"))
    assert setting(bfta, "bfta.dump_engineer_die_multiplier") == 2


@pytest.mark.parametrize(
    "column, strength, expected",
    [
        ("Plain", 3, Fraction(1, 2)),  # die <= 3
        ("Plain", 6, Fraction(1)),
        ("Plain", 0, Fraction(0)),
        ("Engineer", 3, Fraction(2, 3)),  # die - 1 <= 3
        ("Engineer", 0, Fraction(1, 6)),  # a 1 still hits
        ("Artillery", 3, Fraction(1, 6)),  # die + 2 <= 3
        ("Artillery", 2, Fraction(0)),
        ("Both", 3, Fraction(1, 3)),  # die + 1 <= 3
    ],
)
def test_supply_dump_destruction_odds(bfta, column, strength, expected):
    t = bfta.table("bfta.supply_dump_destruction")
    drm = sum(m.value for m in applied_modifiers(t, column, Situation.of(combat_strength=strength)))
    assert 1 - chance(t, "No effect", column, drm) == expected


def test_supply_dump_engineer_roll_of_4_with_strength_3_doubles_the_die(bfta):
    t = bfta.table("bfta.supply_dump_destruction")
    r = resolve(t, (4,), Situation.of(combat_strength=3), column="Engineer")
    assert r.final == 0 and r.result == "Subtract twice the unmodified die"
    assert r.effect == {"dump_hit": True, "petrol_loss": "twice_die"}
    assert [m.value for m in r.modifiers] == [-3, -1]
    assert r.natural * setting(bfta, "bfta.dump_engineer_die_multiplier") == 8


def test_supply_dump_artillery_roll_of_2_with_strength_3_misses(bfta):
    t = bfta.table("bfta.supply_dump_destruction")
    r = resolve(t, (2,), Situation.of(combat_strength=3), column="Artillery")
    assert r.final == 1 and r.result == "No effect"
    r = resolve(t, (1,), Situation.of(combat_strength=3), column="Artillery")
    assert r.result == "All Petrol Points lost" and r.effect["petrol_loss"] == "all"


# ----------------------------------------------------------- 16.6 intensive fire
def test_intensive_fire_succeeds_only_above_the_points_attempted(bfta):
    t = bfta.table("bfta.intensive_fire")
    assert t.source == "16.65" and not t.modifiers
    assert bands(t) == [(d, d) for d in range(1, 7)]
    for p, column in enumerate(t.columns, start=1):
        for d, band in enumerate(t.bands, start=1):
            effect = band.effects[column]
            assert effect["success"] is (d > p), (column, d)
            if d > p:
                assert effect["strength_added"] == p
                assert band.results[column] == f"Succeeds, +{p}"
            else:
                assert effect["out_of_ammunition"] is True and effect["strength_added"] == 0
                assert effect["variant_strength_added"] == d - 1


@pytest.mark.parametrize("points, expected", [(1, Fraction(5, 6)), (2, Fraction(2, 3)), (3, Fraction(1, 2)), (4, Fraction(1, 3)), (5, Fraction(1, 6)), (6, Fraction(0))])
def test_intensive_fire_success_odds(bfta, points, expected):
    t = bfta.table("bfta.intensive_fire")
    column = t.columns[points - 1]
    success = sum(Fraction(1, 6) for b in t.bands if b.effects[column]["success"])
    assert success == expected


def test_intensive_fire_3_points_on_a_3_fails_and_variant_adds_2(bfta):
    r = resolve(bfta.table("bfta.intensive_fire"), (3,), column="3 points")
    assert r.result == "Fails, Out of Ammunition (variant +2)"
    assert r.effect["variant_strength_added"] == 2 and r.effect["out_of_ammunition"]
    r = resolve(bfta.table("bfta.intensive_fire"), (4,), column="3 points")
    assert r.result == "Succeeds, +3" and r.effect == {"success": True, "strength_added": 3}


def test_intensive_fire_limits(bfta):
    below = setting(bfta, "bfta.intensive_fire_below_printed")
    least = setting(bfta, "bfta.intensive_fire_min_points")
    assert (below, least) == (1, 1)
    assert max(least, 5 - below) == 4  # the 5-3 infantry example
    assert max(least, 1 - below) == 1
    assert setting(bfta, "bfta.intensive_fire_max_column_shift") == 1
    assert setting(bfta, "bfta.out_of_ammunition_turns") == 1
    assert setting(bfta, "bfta.out_of_ammunition_defence_divisor") == 2
    assert setting(bfta, "bfta.out_of_ammunition_defence_rounding") == "up"


# ---------------------------------------------------------- 16.7 saturation fire
def test_saturation_fire_table_is_left_for_the_umpire(bfta):
    t = bfta.table("bfta.saturation_fire")
    assert t.umpire_entered and t.is_empty and t.source == "16.79"
    assert t.columns == ("Normal", "Withering")
    with pytest.raises(UsageError, match="not printed"):
        resolve(t, (3,))
    with pytest.raises(UsageError):
        odds(t)


def test_saturation_breakdown_fails_at_or_below_the_breakdown_number(bfta):
    t = bfta.table("bfta.saturation_breakdown")
    assert t.source == "16.74" and t.dice is DiceKind.TWO_D6
    assert bands(t) == [(None, 0), (1, None)]
    m = t.modifier("breakdown_number")
    assert (m.value, m.input, m.source) == (-1, "breakdown_number", "16.74")
    assert t.bands[0].results == {"Standard": "Eliminated", "Burnt tubes variant": "Burnt Tubes"}
    assert t.bands[1].results["Standard"] == "Out of Ammunition"


@pytest.mark.parametrize("bn, failure", [(2, Fraction(1, 36)), (4, Fraction(1, 6)), (7, Fraction(7, 12)), (12, Fraction(1))])
def test_saturation_breakdown_odds(bfta, bn, failure):
    t = bfta.table("bfta.saturation_breakdown")
    assert chance(t, "Eliminated", "Standard", -bn) == failure
    assert chance(t, "Burnt Tubes", "Burnt tubes variant", -bn) == failure
    assert chance(t, "Out of Ammunition", "Standard", -bn) == 1 - failure


def test_saturation_breakdown_trail_5_and_2_against_breakdown_7(bfta):
    t = bfta.table("bfta.saturation_breakdown")
    r = resolve(t, (5, 2), Situation.of(breakdown_number=7))
    assert r.natural == 7 and r.final == 0 and r.result == "Eliminated"
    assert r.effect["eliminated"] is True
    r = resolve(t, (5, 3), Situation.of(breakdown_number=7), column="Burnt tubes variant")
    assert r.final == 1 and r.result == "Out of Ammunition" and r.effect["out_of_ammunition"]


def test_burnt_tubes_recovery_1_clears_5_or_6_eliminates(bfta):
    t = bfta.table("bfta.burnt_tubes_recovery")
    assert t.source == "16.78"
    assert bands(t) == [(1, 1), (2, 4), (5, 6)]
    assert chance(t, "Marker removed, Out of Ammunition") == Fraction(1, 6)
    assert chance(t, "No change") == Fraction(1, 2)
    assert chance(t, "Eliminated") == Fraction(1, 3)
    assert resolve(t, (1,)).effect == {"burnt_tubes": False, "out_of_ammunition": True, "eliminated": False}
    assert setting(bfta, "bfta.burnt_tubes_fpf_strength") == 1


# ------------------------------------------------------ 16.8 variable ending
def test_scenario_game_ending_chart_is_left_for_the_umpire(bfta):
    c = bfta.charts["bfta.scenario_game_ending"]
    assert c.umpire_entered and c.rows == () and c.source == "16.84"
    assert c.columns == ("Scenario", "Better", "Even", "Worse") and c.key == "Scenario"
    assert setting(bfta, "bfta.default_experience") == "Even"


def test_game_ending_check_ends_on_matching_dice_one_time_in_six(bfta):
    t = bfta.table("bfta.game_ending_check")
    assert t.source == "16.81" and t.dice is DiceKind.TWO_D6
    assert len(t.naturals) == 1 and t.naturals[0].doubles
    assert chance(t, "Scenario ends") == Fraction(1, 6)
    assert chance(t, "Play on") == Fraction(5, 6)


def test_game_ending_check_trails(bfta):
    t = bfta.table("bfta.game_ending_check")
    r = resolve(t, (4, 4))
    assert r.result == "Scenario ends" and r.by_natural and r.effect == {"ends": True}
    r = resolve(t, (4, 3))
    assert r.result == "Play on" and not r.by_natural and r.effect == {"ends": False}

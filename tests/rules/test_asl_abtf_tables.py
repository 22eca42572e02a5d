"""ASL A Bridge Too Far Refit Phase (seed 003): every table, chart, modifier and
setting of rules/asl_abtf.toml checked against the printed numbers, with exact
odds worked out by hand from the 2d6 distribution (1,2,3,4,5,6,5,4,3,2,1 / 36)."""
from __future__ import annotations

from fractions import Fraction as F

import pytest

from automation.engine.resolver import Situation, odds, resolve
from automation.errors import UsageError
from automation.rulebook import load_rulebook


@pytest.fixture(scope="module")
def abtf():
    return load_rulebook().system("asl-abtf")


def table(system, name):
    return system.table(f"abtf.{name}")


def chart(system, name):
    return system.charts[f"abtf.{name}"]


def bands(t, column=None):
    column = column or t.columns[0]
    return [(b.low, b.high, b.results[column]) for b in t.bands]


def mods(t):
    return {m.id: m for m in t.modifiers}


def chance(t, result, column=None, drm=0):
    return sum((o.probability for o in odds(t, column, drm) if o.result == result), F(0))


# ------------------------------------------------------------------ system
def test_system_header_names_seed_003(abtf):
    assert abtf.title == "ASL A Bridge Too Far: Refit Phase"
    assert abtf.seed == "003"
    assert all(i.startswith("abtf.") for i in list(abtf.tables) + list(abtf.charts) + list(abtf.settings))


def test_every_table_chart_and_modifier_carries_a_9_6_rule_number(abtf):
    for t in abtf.tables.values():
        assert t.source.startswith("9.6"), t.id
        for m in t.modifiers:
            assert m.source.startswith("9.6"), (t.id, m.id)
    for c in abtf.charts.values():
        assert c.source.startswith("9.6"), c.id
    for s in abtf.settings.values():
        assert s["source"].startswith("9.6"), s["id"]


def test_asl_tables_use_2d6_for_dr_and_d6_for_dr(abtf):
    two = {"escape", "shift", "rg_strength", "leader", "ammunition_shortage", "elr_change", "weather", "cpp_variable_arrival",
           "bog_removal", "task_check"}
    for t in abtf.tables.values():
        expected = "2d6" if t.id.removeprefix("abtf.") in two else "d6"
        assert t.dice.value == expected, t.id


# ------------------------------------------------------------------ 9.6054 Escape
def test_escape_table_bands_and_results_follow_the_print(abtf):
    t = table(abtf, "escape")
    assert t.columns == ("Infantry", "Mobile Vehicle")
    assert bands(t, "Infantry") == [
        (None, 8, "Escapes"),
        (9, 9, "Escapes, Replaced"),
        (10, 10, "Escapes, Casualty Reduced"),
        (11, 11, "Escapes, Replaced, then Casualty Reduced"),
        (12, None, "All units and weapons eliminated"),
    ]
    assert bands(t, "Mobile Vehicle") == [
        (None, 8, "Escapes"),
        (9, 9, "Abandoned; crew escapes"),
        (10, 10, "Eliminated; crew escapes"),
        (11, 11, "Abandoned; crew eliminated"),
        (12, None, "Eliminated; crew eliminated"),
    ]


def test_escape_first_row_reconstructed_as_8_or_less_is_noted(abtf):
    first = table(abtf, "escape").bands[0]
    assert first.low is None and first.high == 8
    assert "8 or less" in first.note


def test_escape_footnotes_become_effect_flags(abtf):
    t = table(abtf, "escape")
    nine, ten, eleven = t.bands[1], t.bands[2], t.bands[3]
    assert nine.effects["Infantry"] == {
        "outcome": "escape", "replaced": True, "random_selection": True, "crew_or_disrupted_eliminated": True,
    }
    assert ten.effects["Infantry"]["random_selection"] is True
    assert nine.effects["Mobile Vehicle"]["may_wreck"] is True
    assert nine.effects["Mobile Vehicle"]["may_scrounge"] is True
    assert ten.effects["Mobile Vehicle"] == {"outcome": "eliminated", "crew": "escape", "scrounge_before_elimination": True}
    assert eleven.effects["Mobile Vehicle"]["crew"] == "eliminated"
    assert len(t.notes) >= 6


def test_escape_original_2_gives_escape_and_heat_of_battle_for_infantry(abtf):
    t = table(abtf, "escape")
    (natural,) = t.naturals
    assert natural.total == 2
    assert set(natural.results) == {"Infantry"}
    assert natural.effects["Infantry"]["heat_of_battle"] is True
    assert natural.effects["Infantry"]["random_selection"] is True
    # even encircled and far from home, an original 2 escapes
    r = resolve(t, (1, 1), Situation.of("encircled", hexes=9), column="Infantry")
    assert r.by_natural and r.result == "Escapes; Heat of Battle"
    assert r.effect["outcome"] == "escape"


def test_escape_drms_carry_printed_values_and_columns(abtf):
    m = mods(table(abtf, "escape"))
    expected = {
        "lone_unwounded_smc": (-1, ("Infantry",)),
        "vehicle_not_ct_afv": (-1, ("Mobile Vehicle",)),
        "night_cg_date": (-1, ()),
        "ct_afv": (-2, ("Mobile Vehicle",)),
        "leader_drm": (1, ()),
        "hexes": (1, ()),
        "extra_hs": (1, ("Infantry",)),
        "excess_pp": (1, ("Infantry",)),
        "impaired": (1, ("Infantry",)),
        "captured_vehicle": (1, ("Mobile Vehicle",)),
        "encircled": (2, ("Infantry",)),
    }
    assert {k: (v.value, v.columns) for k, v in m.items()} == expected
    assert all(v.source == "9.6054" for v in m.values())
    assert (m["hexes"].per, m["hexes"].rounding.value) == (2, "up")
    assert (m["extra_hs"].offset, m["extra_hs"].minimum) == (-1, 0)


def test_escape_hexes_count_per_multiple_of_two_rounded_up(abtf):
    hexes = mods(table(abtf, "escape"))["hexes"]
    assert [hexes.amount(n) for n in (0, 1, 2, 3, 4, 5)] == [0, 1, 1, 2, 2, 3]


def test_escape_infantry_odds_unmodified(abtf):
    t = table(abtf, "escape")
    assert chance(t, "Escapes", "Infantry") == F(25, 36)
    assert chance(t, "Escapes; Heat of Battle", "Infantry") == F(1, 36)
    assert chance(t, "Escapes, Replaced", "Infantry") == F(4, 36)
    assert chance(t, "All units and weapons eliminated", "Infantry") == F(1, 36)


def test_escape_infantry_odds_when_encircled(abtf):
    t = table(abtf, "escape")
    assert chance(t, "Escapes; Heat of Battle", "Infantry", 2) == F(1, 36)
    assert chance(t, "Escapes", "Infantry", 2) == F(14, 36)
    assert chance(t, "Escapes, Replaced", "Infantry", 2) == F(6, 36)
    assert chance(t, "Escapes, Casualty Reduced", "Infantry", 2) == F(5, 36)
    assert chance(t, "All units and weapons eliminated", "Infantry", 2) == F(6, 36)


def test_escape_ct_afv_escapes_on_10_or_less(abtf):
    t = table(abtf, "escape")
    assert chance(t, "Escapes", "Mobile Vehicle", -2) == F(33, 36)
    assert chance(t, "Abandoned; crew escapes", "Mobile Vehicle", -2) == F(2, 36)
    assert chance(t, "Eliminated; crew escapes", "Mobile Vehicle", -2) == F(1, 36)


def test_escape_trail_encircled_squad_three_hexes_out(abtf):
    t = table(abtf, "escape")
    r = resolve(t, (3, 4), Situation.of("encircled", hexes=3, hs_equivalents=2), column="Infantry")
    assert [(m.id, m.value) for m in r.modifiers] == [("hexes", 2), ("extra_hs", 1), ("encircled", 2)]
    assert r.final == 12 and r.result == "All units and weapons eliminated"


def test_escape_trail_encircled_is_not_counted_for_a_vehicle(abtf):
    t = table(abtf, "escape")
    r = resolve(t, (4, 5), Situation.of("encircled", "ct_afv", leader_drm=-1), column="Mobile Vehicle")
    assert [(m.id, m.value) for m in r.modifiers] == [("ct_afv", -2), ("leader_drm", -1)]
    assert r.final == 6 and r.result == "Escapes"


def test_escape_equipment_dr_eliminates_on_4_to_6(abtf):
    t = table(abtf, "escape_equipment")
    assert t.source == "9.60541"
    assert [(b.low, b.high, b.effects["Result"]["equipment"]) for b in t.bands] == [
        (4, 6, "eliminated"), (1, 3, "left_in_location"),
    ]
    assert chance(t, "Equipment eliminated") == F(1, 2)


# ------------------------------------------------------------------ 9.6101
def test_wounded_leader_table_and_drms(abtf):
    t = table(abtf, "wounded_leader")
    assert bands(t) == [(None, 1, "Retained unwounded"), (2, 4, "Retained wounded"), (5, None, "Eliminated")]
    m = mods(t)
    assert (m["british"].value, m["british"].columns) == (-1, ("British",))
    assert (m["heroic"].value, m["heroic"].when) == (-1, "heroic")


def test_wounded_british_heroic_leader_is_never_eliminated(abtf):
    t = table(abtf, "wounded_leader")
    assert chance(t, "Eliminated", "British", -2) == 0
    assert chance(t, "Retained unwounded", "British", -2) == F(1, 2)
    r = resolve(t, (6,), Situation.of("heroic"), column="British")
    assert r.final == 4 and r.effect == {"outcome": "retained", "wounded": True}
    r = resolve(t, (6,), Situation.of("heroic"), column="German")
    assert r.final == 5 and r.result == "Eliminated"


# ------------------------------------------------------------------ 9.6122 SAN
def test_san_adjustment_reduces_by_two_on_4_or_more(abtf):
    t = table(abtf, "san_adjustment")
    assert bands(t) == [(4, None, "SAN reduced by two"), (None, 3, "SAN unchanged")]
    assert t.bands[0].effects["British"] == {"san": -2}
    m = mods(t)
    assert (m["british_san"].offset, m["british_san"].columns, m["british_san"].source) == (-4, ("British",), "9.61221")
    assert (m["german_san"].offset, m["german_san"].columns, m["german_san"].source) == (-5, ("German",), "9.61222")


def test_san_6_is_cut_more_often_for_the_british_than_the_german(abtf):
    t = table(abtf, "san_adjustment")
    assert chance(t, "SAN reduced by two", "British", 2) == F(5, 6)
    assert chance(t, "SAN reduced by two", "German", 1) == F(2, 3)
    r = resolve(t, (2,), Situation.of(san=6), column="British")
    assert r.final == 4 and r.effect == {"san": -2}
    r = resolve(t, (2,), Situation.of(san=6), column="German")
    assert r.final == 3 and r.effect == {"san": 0}


def test_san_settings(abtf):
    s = abtf.settings
    assert (s["abtf.san_minimum"]["value"], s["abtf.san_minimum"]["source"]) == (2, "9.6122")
    assert s["abtf.british_san_check_from"]["value"] == 4
    assert s["abtf.german_san_check_from"]["value"] == 5


# ------------------------------------------------------------------ 9.613 Shift
def test_shift_table_succeeds_on_8_or_less(abtf):
    t = table(abtf, "shift")
    assert bands(t) == [
        (None, 8, "Successful Shift"),
        (9, 10, "Failed attempt"),
        (11, 11, "Successful Shift, Casualty Reduction"),
        (12, None, "Failed attempt, all units and weapons eliminated"),
    ]
    assert t.bands[2].effects["German"] == {"shifted": True, "casualty_dr": True}


def test_shift_drms_previous_idle_and_british_are_british_only(abtf):
    m = mods(table(abtf, "shift"))
    assert (m["previous_idle"].value, m["previous_idle"].columns) == (-1, ("British",))
    assert (m["british"].value, m["british"].columns, m["british"].when) == (-2, ("British",), None)
    assert (m["hexes"].value, m["hexes"].per, m["hexes"].rounding.value) == (1, 2, "down")


def test_shift_odds_british_and_german(abtf):
    t = table(abtf, "shift")
    assert chance(t, "Successful Shift", "German") == F(13, 18)
    assert chance(t, "Successful Shift", "British", -2) == F(11, 12)
    assert chance(t, "Successful Shift", "British", -3) == F(35, 36)
    # German five hexes out: +2 (FRD)
    assert chance(t, "Successful Shift", "German", 2) == F(5, 12)
    assert chance(t, "Failed attempt", "German", 2) == F(11, 36)
    assert chance(t, "Successful Shift, Casualty Reduction", "German", 2) == F(1, 9)
    assert chance(t, "Failed attempt, all units and weapons eliminated", "German", 2) == F(1, 6)


def test_shift_trails(abtf):
    t = table(abtf, "shift")
    r = resolve(t, (6, 5), Situation.of(hexes=3), column="German")
    assert r.drm == 1 and r.final == 12 and r.effect["eliminated"] is True
    r = resolve(t, (6, 5), Situation.of("previous_cg_date_idle", hexes=3), column="British")
    assert [(m.id, m.value) for m in r.modifiers] == [("previous_idle", -1), ("british", -2), ("hexes", 1)]
    assert r.final == 9 and r.result == "Failed attempt"
    r = resolve(t, (6, 5), Situation.of("previous_cg_date_idle", hexes=3), column="German")
    assert r.final == 12


def test_shift_casualty_follow_up_hits_on_4_or_more(abtf):
    t = table(abtf, "shift_casualty")
    assert t.columns == ("Personnel", "Vehicle")
    assert bands(t, "Personnel") == [(4, None, "Casualty Reduction"), (None, 3, "No effect")]
    assert t.bands[0].effects["Vehicle"]["outcome"] == "eliminated"
    assert t.bands[0].effects["Vehicle"]["wreck"] is False
    assert t.bands[0].effects["Vehicle"]["crew_survival"] is True


def test_shift_portage_settings(abtf):
    s = abtf.settings
    assert [s[f"abtf.shift_portage_{k}"]["value"] for k in ("mmc", "ww_mmc", "smc", "wounded_smc")] == [5, 3, 2, 0]
    assert all(s[f"abtf.shift_portage_{k}"]["source"] == "9.613" for k in ("mmc", "ww_mmc", "smc"))
    assert s["abtf.shift_deploy_per_leader"]["value"] == 3


# ------------------------------------------------------------------ 9.614
def test_immobilization_repair_on_2_or_less(abtf):
    t = table(abtf, "immobilization_repair")
    assert t.source == "9.6141b"
    assert bands(t) == [(None, 2, "Vehicle becomes mobile"), (3, None, "No effect")]
    m = mods(t)
    assert (m["non_qualified_use"].value, m["front_line"].value) == (1, 1)
    assert (m["armor_leader"].input, m["armor_leader"].value) == ("armor_leader_drm", 1)
    assert chance(t, "Vehicle becomes mobile", drm=2) == 0
    assert chance(t, "Vehicle becomes mobile", drm=-2) == F(2, 3)
    r = resolve(t, (3,), Situation.of("front_line_or_uncontrolled", armor_leader_drm=-2))
    assert r.final == 2 and r.effect["mobile"] is True


def test_vehicle_stun_recovery(abtf):
    t = table(abtf, "vehicle_stun_recovery")
    assert t.source == "9.6141d"
    assert bands(t) == [(1, 2, "Recovers; stun removed"), (3, 5, "Stun retained"), (6, 6, "Eliminated")]
    assert t.bands[2].effects["Result"]["cvp"] == "full"
    assert chance(t, "Eliminated") == F(1, 6)


def test_weapon_repair_table_and_drms(abtf):
    t = table(abtf, "weapon_repair")
    assert bands(t, "Weapon") == [(None, 1, "Repaired"), (2, None, "Eliminated")]
    assert t.bands[1].effects["Vehicular"]["outcome"] == "disabled"
    m = mods(t)
    assert (m["vehicular"].value, m["vehicular"].columns) == (-1, ("Vehicular",))
    assert (m["repair_number"].value, m["repair_number"].input) == (-1, "repair_number")
    assert (m["armor_leader"].value, m["armor_leader"].input, m["armor_leader"].columns) == (-1, "armor_leader_rating", ("Vehicular",))
    assert (m["non_qualified_use"].value, m["non_qualified_use"].when) == (1, "non_qualified_use")


def test_weapon_repair_panther_example(abtf):
    t = table(abtf, "weapon_repair")
    alone = Situation.of(repair_number=1)
    assert resolve(t, (3,), alone, column="Vehicular").result == "Repaired"
    assert resolve(t, (4,), alone, column="Vehicular").effect["outcome"] == "disabled"
    with_92 = Situation.of(repair_number=1, armor_leader_rating=2)
    assert resolve(t, (5,), with_92, column="Vehicular").result == "Repaired"
    assert resolve(t, (6,), with_92, column="Vehicular").result == "Disabled (MA: AFV recalled)"
    assert chance(t, "Repaired", "Vehicular", -4) == F(5, 6)


def test_captured_equipment_eliminated_on_4_or_more(abtf):
    t = table(abtf, "captured_equipment")
    assert t.source == "9.6143"
    assert bands(t, "Weapon") == [(4, None, "Eliminated"), (None, 3, "Kept")]
    assert t.bands[0].effects["Vehicular"] == {"outcome": "disabled", "recall": False, "cvp": 0}


def test_special_ammo_restoration(abtf):
    t = table(abtf, "special_ammo")
    assert bands(t) == [(None, 3, "Special ammunition restored"), (4, None, "Ammunition stays depleted")]
    m = mods(t)
    assert (m["ammunition_shortage"].input, m["ammunition_shortage"].columns) == ("ammunition_shortage_level", ("British",))
    assert (m["german"].value, m["german"].columns) == (-1, ("German",))
    assert chance(t, "Special ammunition restored", "German", -1) == F(2, 3)
    r = resolve(t, (2,), Situation.of(ammunition_shortage_level=2), column="British")
    assert r.final == 4 and r.effect == {"restored": False}


# ------------------------------------------------------------------ 9.6152
def test_reinforcement_schedule_rows(abtf):
    c = chart(abtf, "reinforcement_schedule")
    got = [(r["CG Date"], r["Side"], r["Item"], r["Footnotes"]) for r in c.rows]
    assert got == [
        ("18AM", "British", "I1", "1"),
        ("18AM", "British", "I2", "1"),
        ("18AM", "British", "SAN +2", "4"),
        ("18AM", "German", "20 FPP", "2"),
        ("18AM", "German", "SAN -1", "5"),
        ("18PM", "British", "G1", "1,2"),
        ("18PM", "British", "A1", "1"),
        ("18PM", "British", "SAN -1", "5"),
        ("18PM", "German", "SAN +2", "4"),
        ("19AM", "German", "I1", "3"),
        ("19AM", "German", "I2", "3"),
        ("20AM", "German", "SAN +1", "4"),
    ]
    san_ups = [r for r in c.rows if r["Kind"] == "SAN" and r["Amount"] > 0]
    assert all(r["SAN maximum"] == 7 for r in san_ups)
    san_downs = [r for r in c.rows if r["Kind"] == "SAN" and r["Amount"] < 0]
    assert all(r["SAN minimum"] == 2 for r in san_downs)
    assert len(c.notes) >= 5


# ------------------------------------------------------------------ 9.616 CPP
CPP_PRINTED = [
    ("17N", 0, 0, 0), ("18AM", 20, 15, 0), ("18PM", 25, 15, 0), ("18EVE", 15, 20, 1),
    ("18N", 5, 20, 1), ("19AM", 5, 25, 1), ("19PM", 0, 25, 1), ("19EVE", 0, 30, 2),
    ("19N", 0, 30, 2), ("20AM", 0, 25, 2), ("20PM", 0, 20, 2), ("20EVE", 0, 20, 3),
    ("20N", 0, 10, 3), ("21AM", 0, 10, 3), ("21PM", 0, 10, 3), ("21EVE", 0, 10, 4),
]


def test_cpp_base_chart_lists_cg_dates_in_order(abtf):
    c = chart(abtf, "cpp_base_number")
    assert c.source == "9.6161" and c.key == "CG Date"
    got = [(r["CG Date"], r["British"], r["German"], r["Campaign Exhaustion DRM"]) for r in c.rows]
    assert got == CPP_PRINTED
    assert [r["Order"] for r in c.rows] == list(range(1, 17))
    assert [r["CG Date"] for r in c.rows if r["Night"]] == ["17N", "18N", "19N", "20N"]


def test_cpp_base_chart_holds_3_exhaustion_on_21pm_unlike_the_elr_example(abtf):
    c = chart(abtf, "cpp_base_number")
    assert c.row("21PM")["Campaign Exhaustion DRM"] == 3
    assert c.row("21EVE")["Campaign Exhaustion DRM"] == 4
    assert any("+4" in n for n in c.notes)


def test_cpp_variable_arrival_adds_the_dr(abtf):
    t = table(abtf, "cpp_variable_arrival")
    assert [(b.low, b.effects["CPP added"]["cpp"]) for b in t.bands] == [(n, n) for n in range(2, 13)]
    assert chance(t, "+7") == F(1, 6)
    r = resolve(t, (6, 6))
    assert r.effect == {"cpp": 12}


def test_unspent_cpp_is_halved_rounding_up(abtf):
    s = abtf.settings
    assert s["abtf.unspent_cpp_divisor"]["value"] == 2
    assert s["abtf.unspent_cpp_round_up"]["value"] is True
    assert s["abtf.unspent_cpp_divisor"]["source"] == "9.617"


def test_rg_charts_are_left_for_the_umpire(abtf):
    for name in ("rg_chart_british", "rg_chart_german"):
        c = chart(abtf, name)
        assert c.umpire_entered and not c.rows
    assert [r["Column"] for r in chart(abtf, "rg_purchase_record").rows] == [
        "CG Date", "RG ID", "Group Type", "#P", "#R", "Str", "# Units", "SW Received", "Leader",
    ]


# ------------------------------------------------------------------ 9.6181
def test_rg_strength_full_on_9_or_less(abtf):
    t = table(abtf, "rg_strength")
    assert bands(t) == [(None, 9, "Full"), (10, None, "Depleted")]
    m = mods(t)
    assert (m["british"].value, m["british"].columns) == (-2, ("British",))
    assert (m["vg_pltn"].value, m["vg_pltn"].when, m["vg_pltn"].columns) == (1, "vg_pltn", ("German",))
    assert (m["campaign_exhaustion"].per, m["campaign_exhaustion"].rounding.value) == (2, "down")


def test_rg_strength_odds(abtf):
    t = table(abtf, "rg_strength")
    assert chance(t, "Depleted", "British", -2) == F(1, 36)
    assert chance(t, "Depleted", "German", 2) == F(5, 12)
    r = resolve(t, (4, 4), Situation.of("vg_pltn", campaign_exhaustion=3), column="German")
    assert r.drm == 2 and r.final == 10 and r.effect == {"strength": "depleted"}
    r = resolve(t, (4, 4), Situation.of("vg_pltn", campaign_exhaustion=3), column="British")
    assert r.drm == -1 and r.effect == {"strength": "full"}


# ------------------------------------------------------------------ 9.6182 SW
def test_british_sw_chart(abtf):
    c = chart(abtf, "sw_british")
    got = [(r["RG"], r["SW"], r["Count"], r["Depleted dr"]) for r in c.rows]
    assert got == [
        ("I1", "LMG", 1, 5), ("I1", "PIAT", 1, 3),
        ("I2", "LMG", 1, 5), ("I2", "Lt. Mtr", 1, 3),
        ("I3", "LMG", 1, 5), ("I3", "PIAT", 1, 3), ("I3", "DC", 1, 3),
        ("I4", "LMG", 1, 5), ("I4", "FT", 1, 2), ("I4", "DC", 2, 3),
    ]


def test_german_sw_chart_and_i1_choice(abtf):
    c = chart(abtf, "sw_german")
    got = [(r["RG"], r["SW"], r["Count"], r["Depleted dr"]) for r in c.rows]
    assert got == [
        ("I1", "LMG", 1, 3), ("I1", "PSK/Lt. Mtr", 1, 2),
        ("I2", "FT", 1, 2), ("I2", "DC", 2, 3),
        ("I3", "LMG", 1, 1),
    ]
    t = table(abtf, "sw_german_i1_choice")
    assert bands(t) == [(1, 2, "Lt. Mtr"), (3, 6, "PSK")]
    assert resolve(t, (4,)).effect == {"sw": "PSK"}


def test_depleted_sw_is_received_on_a_dr_at_or_below_the_number(abtf):
    t = table(abtf, "sw_depleted_check")
    assert t.columns == ("≤1", "≤2", "≤3", "≤5")
    for target in (1, 2, 3, 5):
        column = f"≤{target}"
        assert chance(t, "Received", column) == F(target, 6)
        for die in range(1, 7):
            assert resolve(t, (die,), column=column).effect == {"received": die <= target}


# ------------------------------------------------------------------ 9.6183 Leaders
def test_leader_table_columns_follow_the_print(abtf):
    t = table(abtf, "leader")
    assert [b.results["British"] for b in t.bands] == ["10-3", "10-2", "9-2", "9-2", "9-1", "9-1", "8-1", "8-1", "8-0", "7-0", "6+1"]
    assert [b.results["German"] for b in t.bands] == ["10-2", "10-2", "9-2", "9-1", "9-1", "8-1", "8-1", "8-0", "8-0", "7-0", "7-0"]
    assert [b.effects["Armor"]["armor_leader"] for b in t.bands] == ["10-2", "9-2", "9-1", "9-1", "8-1"] + ["none"] * 6


def test_leader_table_first_row_is_1_or_less_because_a_row_2_follows(abtf):
    t = table(abtf, "leader")
    assert (t.bands[0].low, t.bands[0].high) == (None, 1)
    assert (t.bands[1].low, t.bands[1].high) == (2, 2)
    assert (t.bands[-1].low, t.bands[-1].high) == (11, None)


def test_leader_table_hvy_tank_note_on_the_8_1(abtf):
    five = table(abtf, "leader").bands[4]
    assert five.effects["Armor"] == {"armor_leader": "8-1", "hvy_tank_armor_leader": "9-1"}


def test_leader_drms_per_nationality(abtf):
    m = mods(table(abtf, "leader"))
    british = {k: m[k].value for k in ("commando", "british_engineer", "glider")}
    assert british == {"commando": -1, "british_engineer": -2, "glider": 1}
    assert all(m[k].columns == ("British",) for k in british)
    german = {k: m[k].value for k in ("ss_pg", "ss_recon", "med_tank", "german_engineer", "hvy_tank", "spg", "lt_tank", "vg", "ac")}
    assert german == {"ss_pg": -1, "ss_recon": -1, "med_tank": -1, "german_engineer": -2, "hvy_tank": -2, "spg": 1, "lt_tank": 1, "vg": 2, "ac": 2}
    assert all(m[k].columns == ("German", "Armor") for k in german)
    assert {v.group for v in m.values()} == {"rg_type"}


def test_leader_odds_and_trails(abtf):
    t = table(abtf, "leader")
    assert chance(t, "10-3", "British", -2) == F(1, 12)
    assert chance(t, "No Armor Leader", "Armor") == F(26, 36)
    r = resolve(t, (2, 2), Situation.of("engineer"), column="British")
    assert r.final == 2 and r.effect == {"leader": "10-2"}
    r = resolve(t, (3, 4), Situation.of("hvy_tank"), column="Armor")
    assert r.final == 5 and r.effect["hvy_tank_armor_leader"] == "9-1"
    with pytest.raises(UsageError):
        resolve(t, (3, 4), Situation.of("vg", "ss_pg"), column="German")


# ------------------------------------------------------------------ 9.6184
@pytest.mark.parametrize(
    "rg, printed",
    [
        ("a6", [(1, 2, {"SPW 250/9": 2, "SdKfz 10/4": 1}), (3, 4, {"SdKfz 7/1": 1, "SdKfz 6/2": 2}),
                (5, 5, {"SPW 250/9": 1, "SdKfz 6/2": 1, "SdKfz 10/4": 1}), (6, 6, {"SdKfz 10/4": 1, "SdKfz 7/1": 1, "SdKfz 6/2": 1})]),
        ("a4", [(1, 1, {"StuH 42": 2}), (2, 2, {"StuG IIIG(L)": 2}), (3, 5, {"StuG IIIG(L)": 1, "StuH 42": 1}), (6, 6, {"StuG IIIG(L)": 3})]),
        ("a3", [(1, 1, {"PzKpfw VIB": 1, "PzKpfw VIE(L)": 1}), (2, 4, {"PzKpfw VIE(L)": 2}),
                (5, 5, {"PzKpfw VIE(L)": 1, "PzKpfw VIE": 1}), (6, 6, {"PzKpfw VIE": 2})]),
        ("a2", [(1, 1, {"PzKpfw VG": 2}), (2, 3, {"PzKpfw IVJ": 2}), (4, 6, {"PzKpfw VG": 1, "PzKpfw IVJ": 1})]),
    ],
)
def test_german_vehicle_composition_tables(abtf, rg, printed):
    t = table(abtf, f"german_{rg}")
    assert t.source == "9.6184" and t.dice.value == "d6"
    assert [(b.low, b.high, b.effects["Result"]["vehicles"]) for b in t.bands] == printed


def test_german_a4_odds(abtf):
    assert chance(table(abtf, "german_a4"), "StuG IIIG(L) x1, StuH 42 x1") == F(1, 2)


# ------------------------------------------------------------------ 9.619
def test_fortification_purchase_costs(abtf):
    c = chart(abtf, "fortification_purchase")
    cost = {r["Id"]: r["FPP"] for r in c.rows}
    assert cost == {
        "trench": 6, "foxhole_3": 3, "foxhole_2": 2, "foxhole_1": 1,
        "ap_mine_factor_german": 3, "ap_mine_factor_british": 6, "at_mine_factor": 4,
        "wire": 10, "fortified_location": 10, "breach": 5,
        "hip_squad": 3, "hip_hs": 2, "hip_crew": 1, "hip_smc": 1, "dummy": 1,
    }
    assert c.row("ap_mine_factor_german")["Buyer"] == "German"
    assert c.row("ap_mine_factor_british")["Buyer"] == "British"


def test_fortification_notes_b_and_f_and_side_limits(abtf):
    c = chart(abtf, "fortification_purchase")
    front = sorted(r["Id"] for r in c.rows if r["Front line allowed"])
    assert front == sorted(["foxhole_3", "foxhole_2", "foxhole_1", "fortified_location", "breach",
                            "hip_squad", "hip_hs", "hip_crew", "hip_smc", "dummy"])
    assert sorted(r["Id"] for r in c.rows if r["British only"]) == ["at_mine_factor", "breach"]
    assert [r["Id"] for r in c.rows if r["German only"]] == ["wire"]


def test_fortification_caps_are_settings(abtf):
    s = abtf.settings
    caps = {k: s[f"abtf.{k}"]["value"] for k in (
        "ap_mine_factors_per_cg_date", "at_mines_per_cg_date_british", "at_mines_per_cg_british",
        "hip_daytime_percent", "hip_night_defender_free_percent", "afv_hip_allowed", "wire_hip_night_only",
        "unspent_fpp_forfeit",
    )}
    assert caps == {
        "ap_mine_factors_per_cg_date": 12, "at_mines_per_cg_date_british": 2, "at_mines_per_cg_british": 8,
        "hip_daytime_percent": 10, "hip_night_defender_free_percent": 25, "afv_hip_allowed": False,
        "wire_hip_night_only": True, "unspent_fpp_forfeit": True,
    }
    assert s["abtf.ap_mine_factors_per_cg_date"]["source"] == "9.619"


# ------------------------------------------------------------------ 9.6201
def test_ammunition_shortage_level_change(abtf):
    t = table(abtf, "ammunition_shortage")
    assert bands(t) == [(None, 9, "No change"), (10, None, "Shortage increases one Level")]
    m = mods(t)
    assert m["campaign_exhaustion"].input == "campaign_exhaustion"
    assert (m["attack_chits"].offset, m["attack_chits"].minimum) == (-1, 0)
    assert [m["attack_chits"].amount(n) for n in (0, 1, 2, 4)] == [0, 0, 1, 3]
    assert chance(t, "Shortage increases one Level", drm=4) == F(13, 18)
    r = resolve(t, (3, 3), Situation.of(campaign_exhaustion=3, attack_chits=2))
    assert r.final == 10 and r.effect == {"shortage_level": 1}
    assert abtf.settings["abtf.ammunition_shortage_from"]["value"] == "19AM"


# ------------------------------------------------------------------ 9.6202
def test_elr_chart_bands(abtf):
    t = table(abtf, "elr_change")
    assert bands(t) == [(None, 2, "ELR +1"), (3, 12, "No change"), (13, None, "ELR -1")]
    assert [b.effects["German"]["elr"] for b in t.bands] == [1, 0, -1]


def test_elr_drms_with_nationality_columns(abtf):
    m = mods(table(abtf, "elr_change"))
    assert (m["enemy_cvp"].value, m["enemy_cvp"].per) == (-1, 30)
    assert m["idle_dates"].value == -3
    assert (m["scenarios_since_idle"].value, m["attack_chits"].value) == (1, 1)
    assert (m["british_exhaustion"].columns, m["british_exhaustion"].per) == (("British",), 1)
    assert (m["german_exhaustion"].columns, m["german_exhaustion"].per) == (("German",), 2)
    assert m["ammunition_shortage"].columns == ("British",)
    assert all(v.source == "9.6202" for v in m.values())


def test_elr_example_on_21pm_gives_plus_7_and_plus_3_with_its_exhaustion_of_4(abtf):
    t = table(abtf, "elr_change")
    british = Situation.of(enemy_cvp=42, cg_scenarios_since_idle=1, attack_chits_since_idle=1,
                           campaign_exhaustion=4, ammunition_shortage_level=2)
    german = Situation.of(enemy_cvp=38, cg_scenarios_since_idle=1, attack_chits_since_idle=1, campaign_exhaustion=4)
    assert resolve(t, (3, 3), british, column="British").drm == 7
    assert resolve(t, (3, 3), german, column="German").drm == 3
    # with the chart's +3 for 21PM the British total is +6; the German +3/2 FRD is +1
    chart_value = chart(abtf, "cpp_base_number").row("21PM")["Campaign Exhaustion DRM"]
    b = Situation.of(enemy_cvp=42, cg_scenarios_since_idle=1, attack_chits_since_idle=1,
                     campaign_exhaustion=chart_value, ammunition_shortage_level=2)
    assert resolve(t, (3, 3), b, column="British").drm == 6


def test_elr_odds(abtf):
    t = table(abtf, "elr_change")
    assert chance(t, "ELR -1", "British", 7) == F(13, 18)
    assert chance(t, "No change", "British", 7) == F(5, 18)
    assert chance(t, "ELR +1", "German", -3) == F(10, 36)
    r = resolve(t, (1, 2), Situation.of(idle_cg_dates=1), column="German")
    assert r.final == 0 and r.effect == {"elr": 1}


# ------------------------------------------------------------------ 9.6213
def test_initiative_matrix(abtf):
    c = chart(abtf, "initiative_matrix")
    got = {(r["British chit"], r["German chit"]): (r["Result"], r["Scenario generated"]) for r in c.rows}
    assert got == {
        ("Attack", "Attack"): ("Dual Assault", True),
        ("Idle", "Attack"): ("German Assault", True),
        ("Attack", "Idle"): ("British Assault", True),
        ("Idle", "Idle"): ("Idle CG Date", False),
    }
    german_assault = next(r for r in c.rows if r["Result"] == "German Assault")
    assert (german_assault["Sets up first"], german_assault["Moves first"]) == ("British", "German")


def test_dual_assault_british_sets_up_first_on_3_or_less(abtf):
    t = table(abtf, "dual_assault_setup")
    assert t.source == "9.62133"
    assert bands(t) == [(None, 3, "British sets up first"), (4, None, "German sets up first")]
    assert chance(t, "British sets up first") == F(1, 2)


def test_first_move_german_on_4_or_less(abtf):
    t = table(abtf, "first_move")
    assert t.source == "9.6215"
    assert bands(t) == [(None, 4, "German moves first"), (5, None, "British moves first")]
    assert chance(t, "German moves first") == F(2, 3)


# ------------------------------------------------------------------ 9.6216
def test_weather_table_and_drms(abtf):
    t = table(abtf, "weather")
    assert bands(t) == [(None, 2, "Mist"), (3, 5, "Overcast"), (6, 10, "Clear"), (11, None, "Clear & Gusty")]
    m = mods(t)
    assert {k: v.value for k, v in m.items()} == {
        "previous_mist": -2, "previous_overcast": -1, "night": -1, "previous_clear_gusty": 1,
    }
    assert chance(t, "Mist", drm=-2) == F(1, 6)
    assert chance(t, "Overcast", drm=-2) == F(5, 12)
    assert chance(t, "Clear", drm=-2) == F(5, 12)
    assert chance(t, "Clear & Gusty", drm=-2) == 0
    r = resolve(t, (5, 5), Situation.of("previous_clear_gusty"))
    assert r.final == 11 and r.effect == {"weather": "clear_gusty"}


def test_ec_table_and_drms(abtf):
    t = table(abtf, "ec")
    assert bands(t) == [(None, 1, "Wet"), (2, 2, "Moist"), (3, 5, "Moderate"), (6, None, "Dry")]
    m = mods(t)
    assert {k: v.value for k, v in m.items()} == {"previous_wet_or_moist": -1, "night": -1, "previous_dry": 1}
    assert chance(t, "Wet", drm=-2) == F(1, 2)
    assert chance(t, "Moist", drm=-2) == F(1, 6)
    assert chance(t, "Moderate", drm=-2) == F(1, 3)
    with pytest.raises(UsageError):
        resolve(t, (3,), Situation.of("previous_wet_or_moist", "previous_dry"))


def test_wind_force_table_and_drms(abtf):
    t = table(abtf, "wind_force")
    assert bands(t) == [(None, 3, "No Wind"), (4, 6, "Mild Breeze"), (7, None, "Heavy Wind")]
    m = mods(t)
    assert {k: v.value for k, v in m.items()} == {"night": -1, "overcast": 2, "previous_clear_gusty": 1}
    assert chance(t, "No Wind", drm=2) == F(1, 6)
    assert chance(t, "Mild Breeze", drm=2) == F(1, 2)
    assert chance(t, "Heavy Wind", drm=2) == F(1, 3)
    assert resolve(t, (1,), Situation.of("night")).final == 0
    assert any("B26.52" in n for n in t.notes)


# ------------------------------------------------------------------ not printed
def test_bog_removal_is_umpire_entered_and_refuses_to_roll(abtf):
    t = table(abtf, "bog_removal")
    assert t.umpire_entered and t.is_empty
    with pytest.raises(UsageError):
        resolve(t, (3, 4))


def test_the_task_check_passes_on_a_dr_at_most_the_morale(abtf):
    table = abtf.tables["abtf.task_check"]
    assert {o.result: o.probability for o in odds(table, "Morale 7")} == {"Passes": F(21, 36), "Fails": F(15, 36)}
    # a 9-2 leader's -2: morale 7 now passes on a natural 9 or less
    assert {o.result: o.probability for o in odds(table, "Morale 7", -2)}["Passes"] == F(30, 36)
    assert resolve(table, (6, 6), Situation(quantities={"leadership_drm": -2}), column="Morale 10").result == "Passes"
    assert resolve(table, (6, 5), column="Morale 10").result == "Fails"

"""ASL A Bridge Too Far Refit Phase (seed 003), 9.601-9.616: the tables, charts
and modifiers of rules/asl_abtf.toml checked against the printed numbers, with
exact odds worked out by hand from the 2d6 distribution (1,2,3,4,5,6,5,4,3,2,1 / 36)."""
from __future__ import annotations

from abtf_helpers import *  # noqa: F403 - fixture and helpers shared by the ABtF table tests


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



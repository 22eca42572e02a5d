"""ASL A Bridge Too Far Refit Phase (seed 003), 9.617-9.621 and the checks the seed names but does not print: the tables, charts
and modifiers of rules/asl_abtf.toml checked against the printed numbers, with
exact odds worked out by hand from the 2d6 distribution (1,2,3,4,5,6,5,4,3,2,1 / 36)."""
from __future__ import annotations

from abtf_helpers import *  # noqa: F403 - fixture and helpers shared by the ABtF table tests


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
        "hip_daytime_percent", "hip_night_defender_free_percent", "wire_hip_night_only",
        "unspent_fpp_forfeit",
    )}
    assert caps == {
        "ap_mine_factors_per_cg_date": 12, "at_mines_per_cg_date_british": 2, "at_mines_per_cg_british": 8,
        "hip_daytime_percent": 10, "hip_night_defender_free_percent": 25,
        "wire_hip_night_only": True, "unspent_fpp_forfeit": True,
    }
    assert s["abtf.ap_mine_factors_per_cg_date"]["source"] == "9.619"
    # 9.619 note 5 makes AFV HIP NA and there is no AFV HIP item to buy: nothing for a setting to switch
    assert "abtf.afv_hip_allowed" not in s


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

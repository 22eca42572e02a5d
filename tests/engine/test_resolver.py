from fractions import Fraction

import pytest

from automation.engine.dice import CampaignKey, DiceKind, RollLabel
from automation.engine.resolver import AppliedModifier, Situation, odds, resolve, roll, roll_opposed
from automation.errors import UsageError
from automation.rulebook import load_rulebook

BOOK = load_rulebook()


def chances(table_id, drm=0, column=None):
    return {o.result: o.probability for o in odds(BOOK.table(table_id), column, drm)}


def test_armor_repair_repairs_on_nine_or_more():
    assert chances("bf.armor_repair") == {"Repaired": Fraction(2, 10), "No effect": Fraction(8, 10)}
    # +3 for one CPP spent: 6..10 natural repairs
    assert chances("bf.armor_repair", 3)["Repaired"] == Fraction(5, 10)
    # minefield and Russian: -2, only a natural 10 fails to reach 9... 11 is needed
    assert chances("bf.armor_repair", -2) == {"No effect": Fraction(1)}


def test_cpp_replenishment_with_the_rostov_german_drm_of_dec_23():
    c = chances("bf.cpp_replenishment", -2)
    assert c == {"+14": Fraction(2, 10), "+12": Fraction(2, 10), "+10": Fraction(2, 10), "+8": Fraction(2, 10), "+6": Fraction(2, 10)}
    assert chances("bf.cpp_replenishment", 5)["+18"] == Fraction(5, 10)
    assert sum(chances("bf.cpp_replenishment", -5 - 5).values()) == 1
    assert chances("bf.cpp_replenishment", -10) == {"+6": Fraction(1)}


def test_escape_columns_differ_between_infantry_and_afv():
    assert chances("bf.escape", -2, "Infantry") == {"Escape": Fraction(7, 10), "Eliminated": Fraction(3, 10)}
    assert chances("bf.escape", -2, "AFV") == {"Escape": Fraction(5, 10), "Abandon": Fraction(2, 10), "Eliminated": Fraction(3, 10)}


def test_discipline_change_is_percentile_with_open_ends():
    assert chances("bf.discipline_change", 0) == {"Discipline unchanged": Fraction(1)}
    c = chances("bf.discipline_change", 3)
    assert c["Discipline improves one level (no effect on Elite)"] == Fraction(3, 100)
    c = chances("bf.discipline_change", -7)
    assert c["Discipline drops one level (no effect on Raw)"] == Fraction(7, 100)


def test_aircraft_table_bands_read_as_at_least_nine_and_at_most_five():
    assert chances("bf.aircraft_smoke", 0, "Aircraft") == {"3 aircraft": Fraction(2, 10), "2 aircraft": Fraction(3, 10), "1 aircraft": Fraction(5, 10)}


def test_turn_record_chart_ends_on_one_at_turn_eleven_and_always_at_turn_twenty():
    assert chances("bf.scenario_turn_end", 0, "Turn 11")["Scenario ends"] == Fraction(1, 10)
    assert chances("bf.scenario_turn_end", 0, "Turn 15")["Scenario ends"] == Fraction(5, 10)
    assert chances("bf.scenario_turn_end", 0, "Turn 20") == {"Scenario ends": Fraction(1)}


def test_a_resolved_roll_keeps_its_whole_trail():
    table = BOOK.table("bf.armor_repair")
    r = resolve(table, (6,), Situation.of("cpp_spent", "in_minefield"), label="Dec 24/repair/German/StuG-2")
    assert r.dice == (6,) and r.natural == 6
    assert [(m.id, m.value, m.source) for m in r.modifiers] == [("minefield", -1, "2.1.1.2"), ("cpp_spent", 3, "2.1.1.2")]
    assert r.final == 8 and r.result == "No effect" and r.row == 2 and r.band == "≤8"
    assert r.effect == {"repaired": False}
    assert r.probability == Fraction(6, 10)
    assert r.label == "Dec 24/repair/German/StuG-2"


def test_computed_modifiers_multiply_the_quantity():
    table = BOOK.table("bf.discipline_change")
    r = resolve(table, (10, 10), Situation.of("casualties_50", panicked_stands=2, kills_by_fire=3, turns_cut_off=1))
    values = {m.id: m.value for m in r.modifiers}
    assert values == {"casualties_50": -2, "panicked": -4, "kills_by_fire": 3, "turns_cut_off": -6}
    assert r.natural == 100 and r.final == 91


def test_modifiers_of_one_group_exclude_each_other():
    with pytest.raises(UsageError, match="exclude each other"):
        resolve(BOOK.table("bf.discipline_change"), (5, 5), Situation.of("casualties_25", "casualties_75"))


def test_an_unknown_condition_names_the_valid_ones():
    with pytest.raises(UsageError, match="valid: .*in_minefield"):
        resolve(BOOK.table("bf.armor_repair"), (5,), Situation.of("in_a_bog"))


def test_column_restricted_modifiers_apply_only_to_their_column():
    table = BOOK.table("bf.escape")
    inf = resolve(table, (3,), Situation.of("fully_tracked_afv"), column="Infantry")
    afv = resolve(table, (3,), Situation.of("fully_tracked_afv"), column="AFV")
    assert inf.drm == 0 and afv.drm == 2 and afv.result == "Escape"


def test_extra_modifiers_from_campaign_data_are_kept_in_the_trail():
    extra = AppliedModifier("Historical DRM Dec 25", 2, "2.1.1.1")
    r = resolve(BOOK.table("bf.cpp_replenishment"), (9,), Situation(extra=(extra,)))
    assert r.final == 11 and r.result == "+18" and r.effect == {"cpp": 18}
    assert r.modifiers == (extra,)


def test_rolling_derives_the_dice_from_key_and_label():
    key = CampaignKey.from_text("k")
    label = RollLabel.of("Dec 24", "withdrawal", "German", "ME 4")
    table = BOOK.table("bf.armor_withdrawal")
    assert roll(table, key, label) == roll(table, key, label)
    assert roll(table, key, label).dice == key.throw(DiceKind.D10, label)


def test_the_both_attack_roll_off_rethrows_ties_and_the_high_roll_wins():
    table = BOOK.table("bf.posture_rolloff")
    for i in range(50):
        res = roll_opposed(table, CampaignKey.from_text("k"), RollLabel.of("posture", i), ("German", "Russian"))
        assert all(a == b for a, b in res.throws[:-1])
        a, b = res.throws[-1]
        assert a != b and res.winner == ("German" if a > b else "Russian")
    assert {o.result: o.probability for o in odds(table)} == {"First side higher": Fraction(1, 2), "Second side higher": Fraction(1, 2)}


def test_dice_that_are_not_a_throw_of_the_table_are_refused():
    with pytest.raises(UsageError, match="not a throw"):
        resolve(BOOK.table("bf.armor_repair"), (11,))


@pytest.mark.parametrize("table", [t for t in BOOK.all_tables() if t.bands], ids=lambda t: t.id)
@pytest.mark.parametrize("drm", [-12, -3, 0, 4, 13])
def test_every_table_odds_sum_to_one_in_every_column(table, drm):
    for column in table.columns:
        assert sum(o.probability for o in odds(table, column, drm)) == 1


def test_a_drm_past_the_printed_ends_of_a_bounded_table_reads_the_end_band():
    # The ammunition roll has no printed modifiers; a DRM entered by hand reads
    # the lowest or highest printed band (docs/interpretations.md).
    assert chances("bf.ammunition", -3, "Normal") == {"Short of ammunition": Fraction(4, 10), "No effect": Fraction(6, 10)}
    assert chances("bf.scenario_turn_end", 5, "Turn 11") == {"Play the turn": Fraction(1)}
    assert chances("bf.scenario_turn_end", -20, "Turn 11") == {"Scenario ends": Fraction(1)}


def test_the_odds_kept_for_a_table_are_those_every_throw_gives_and_belong_to_that_table_alone():
    """A table's odds are enumerated once a process and kept: what a later roll
    reads is what enumerating every throw gives, and a changed copy of a table
    (as a workbook's own rows make one) gets its own."""
    import dataclasses

    from automation.engine.resolver import _band_odds, _enumerated_odds
    from automation.engine.tables import TableKind

    tables = [t for t in load_rulebook().all_tables() if t.kind is TableKind.BANDED and not t.is_empty]
    assert len(tables) > 20
    for table in tables:
        for column in table.columns:
            for drm in (-3, 0, 2):
                assert _band_odds(table, column, drm) == _band_odds(table, column, drm) == \
                    _enumerated_odds(table, column, drm)
    table = next(t for t in tables if len(t.bands) > 2)
    column = table.columns[0]
    before = _band_odds(table, column, 0)
    first = table.bands[0]
    changed = dataclasses.replace(table, bands=(dataclasses.replace(
        first, results={**first.results, column: "something else"}), *table.bands[1:]))
    assert _band_odds(changed, column, 0) == _enumerated_odds(changed, column, 0) != before
    assert _band_odds(table, column, 0) == before
    before.clear()  # a caller's list is its own
    assert _band_odds(table, column, 0) == _enumerated_odds(table, column, 0)


def test_a_kind_of_dice_gives_its_exact_distribution_every_time():
    for kind in DiceKind:
        dist = kind.distribution()
        assert sum(dist.values()) == 1 and dist == kind.distribution()
        dist.clear()
        assert kind.distribution() and kind.low == min(kind.distribution()) and kind.high == max(kind.distribution())
    assert DiceKind.TWO_D6.distribution()[7] == Fraction(6, 36) and DiceKind.D100.distribution()[100] == Fraction(1, 100)

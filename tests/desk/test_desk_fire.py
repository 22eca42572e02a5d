"""Fire tracker (house rules 9)."""
import pytest

from automation.desk.trackers import fire
from automation.errors import WorkbookError
from desk_helpers import context, rows


def run(records, *throws):
    ctx = context(*throws)
    return fire.run(rows(fire.KIND, *records), ctx), ctx.dice


def test_a_start_check_needs_10_or_more():
    out, _ = run([{"Entry": "Start check", "Turn": 1, "Fire": "BUS 3", "Modifiers": "wooden_buildings; attack_factor=2"},
                  {"Entry": "Start check", "Turn": 1, "Fire": "Orchard", "Modifiers": "cleared_woods_or_orchards"}], 7, 9)
    bus, orchard = out.lines
    assert (bus.roll.drm, bus.roll.final) == (3, 10) and bus.text.startswith("Fire starts or spreads: BUS 3 is burning")
    assert (orchard.roll.final, orchard.text) == (8, "no fire starts (a start check needs 10 or more)")


def test_each_turn_a_burning_fire_is_checked_with_minus_one_per_four_turns_burning():
    records = [{"Entry": "Burning", "Turn": 2, "Fire": "Wreck T-34 #3"}] + [
        {"Entry": "Spread check", "Turn": t, "Fire": "Wreck T-34 #3", "Modifiers": "open_ground"} for t in (3, 6, 10)]
    out, _ = run(records, 8, 8, 10)
    checks = [ln.roll for ln in out.lines if ln.roll]
    assert [c.drm for c in checks] == [-2, -3, -4]  # 1, 4 and 8 turns burning
    assert [(c.final, c.result) for c in checks] == [(6, "Burns on"), (5, "Burns on"), (6, "Burns on")]


def test_a_fire_that_spreads_says_where_and_an_8_or_9_rubbles_a_bus_aim_point():
    records = [{"Entry": "Burning", "Turn": 1, "Fire": "BUS 2"},
               {"Entry": "Spread check", "Turn": 2, "Fire": "BUS 2", "Modifiers": "wooden_buildings; hot_and_dry"},
               {"Entry": "Spread check", "Turn": 3, "Fire": "BUS 2", "Modifiers": "wooden_buildings"}]
    out, _ = run(records, 8, 8)
    spread, rubble = (ln for ln in out.lines if ln.roll)
    assert spread.roll.final == 10 and "add it as Burning from this turn" in spread.text
    assert rubble.roll.final == 9 and rubble.text == "Burns on; one BUS aim point rubbled (only a fire in a BUS; the aim point is chosen at random)"


def test_a_fire_that_goes_out_takes_no_more_checks():
    records = [{"Entry": "Burning", "Turn": 1, "Fire": "Wood"},
               {"Entry": "Spread check", "Turn": 2, "Fire": "Wood", "Modifiers": "raining"},
               {"Entry": "Spread check", "Turn": 3, "Fire": "Wood"}]
    with pytest.raises(WorkbookError, match=r"Fires!C4: Wood went out in turn 2"):
        run(records, 6, 5)


def test_the_burning_time_is_counted_by_the_tracker_not_given():
    with pytest.raises(WorkbookError, match=r"Fires!D3: leave turns_burning out"):
        run([{"Entry": "Burning", "Turn": 1, "Fire": "Wood"},
             {"Entry": "Spread check", "Turn": 2, "Fire": "Wood", "Modifiers": "turns_burning=4"}])


def test_an_unknown_condition_names_the_valid_ones():
    with pytest.raises(WorkbookError, match=r"Fires!D2: 'napalm' is not a condition of table house.fire; valid: "
                                            r"conditions: cleared_woods_or_orchards, damp_or_wet"):
        run([{"Entry": "Start check", "Turn": 1, "Fire": "Wood", "Modifiers": "napalm"}])


def test_checks_still_due_are_listed():
    out, _ = run([{"Entry": "Burning", "Turn": 1, "Fire": "Wood"},
                  {"Entry": "Burning", "Turn": 3, "Fire": "BUS 1"}])
    assert [(s.subject, s.turn) for s in out.status if s.text.startswith("due")] == [("Wood", 2), ("Wood", 3)]

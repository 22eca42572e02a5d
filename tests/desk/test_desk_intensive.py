"""Intensive Fire tracker (BFTA 16.61-16.69)."""
import pytest

from automation.desk.trackers import intensive
from automation.errors import WorkbookError
from desk_helpers import context, rows


def run(records, *throws, **settings):
    ctx = context(*throws, **settings)
    return intensive.run(rows(intensive.KIND, *records), ctx), ctx.dice


def attempt(points, printed=5, turn=2, unit="1/112", **extra):
    return {"Turn": turn, "Unit": unit, "Printed strength": printed, "Points": points, **extra}


@pytest.mark.parametrize("printed, allowed", [(5, 4), (2, 1), (1, 1), (0, 1), (9, 8)])
def test_allowed_points_are_one_less_than_printed_but_at_least_one(printed, allowed):
    assert intensive.allowed_points(printed) == allowed


def test_the_articles_5_3_unit_may_not_try_5_points():
    with pytest.raises(WorkbookError) as err:
        run([attempt(5)])
    assert str(err.value) == "Intensive fire!E2: 1/112 (printed strength 5) may try 1 to 4 point(s) of Intensive Fire (16.64), not 5"


def test_a_die_above_the_points_succeeds_and_adds_them():
    out, _ = run([attempt(3)], 4)
    ln = out.lines[0]
    assert (ln.roll.column, ln.roll.natural, ln.roll.result) == ("3 points", 4, "Succeeds, +3")
    assert ln.text.startswith("succeeds: 1/112 fights at 8 (16.68)")


def test_a_die_at_or_below_the_points_fails_with_out_of_ammunition():
    out, _ = run([attempt(3)], 3)
    ln = out.lines[0]
    assert ln.text.startswith("fails: 1/112 fights at 5 (16.66); Out of Ammunition: cannot attack, defends at 3 (16.67)")
    assert out.status[0].text == ("Out of Ammunition since turn 2; the marker comes off in the supply phase of turn 4 "
                                  "if in supply")


def test_the_partial_success_variant_adds_the_die_minus_one():
    out, _ = run([attempt(4)], 3, bfta__variant_intensive_fire_partial=True)
    assert out.lines[0].text.startswith("fails: 1/112 fights at 7 (16.69: die 3 - 1 = +2)")


def test_an_out_of_ammunition_unit_may_not_try_again_until_the_marker_is_off():
    with pytest.raises(WorkbookError, match="ran out of ammunition in turn 2 .* turn 4"):
        run([attempt(2), attempt(1, turn=3)], 1, 6)
    out, _ = run([attempt(2), attempt(1, turn=4)], 1, 6)
    assert out.lines[1].roll.result == "Succeeds, +1"


def test_out_of_supply_units_cannot_use_intensive_fire():
    with pytest.raises(WorkbookError, match=r"Out of Supply: no Intensive Fire \(16.63\)"):
        run([attempt(1, **{"Out of supply": "Yes"})])


def test_one_point_doubling_a_1_strength_unit_lifts_the_column_limit():
    out, _ = run([attempt(1, printed=1), attempt(2, printed=4, unit="B")], 2, 5)
    assert "the one-column limit does not apply (16.64)" in out.lines[0].text
    assert "at most 1 CRT column (16.61)" in out.lines[1].text

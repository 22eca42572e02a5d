"""Saturation Fire and Burnt Tubes tracker (BFTA 16.71-16.79) with an umpire-entered 16.79 table."""
import pytest

from automation.desk.trackers import saturation
from automation.errors import WorkbookError
from automation.rulebook import load_rulebook
from desk_helpers import context, rows, with_bands

# An umpire's 16.79 table (the article does not print one): per die, Normal and Withering entries.
ENTERED = {1: ("1/1/1, 2", "2/1.5/1, 3"), 2: ("1.5/1/1, 2", "2/2/1, 4"), 3: ("2/1.5/1, 3", "3/2/1, 5"),
           4: ("2/1.5/1, 3", "3/2/1.5, 5"), 5: ("2/2/1.5, 4", "3/3/2, 6"), 6: ("3/2/1.5, 4", "4/3/2, 7")}


def tables():
    book = load_rulebook()
    base = book.table(saturation.FIRE_TABLE)
    entered = with_bands(base, [(d, d, {"Normal": n, "Withering": w}, {}) for d, (n, w) in ENTERED.items()])
    return {**{t.id: t for t in book.all_tables()}, entered.id: entered}


def run(records, *throws, entered=True, **settings):
    ctx = context(*throws, tables=tables() if entered else None, **settings)
    return saturation.run(rows(saturation.KIND, *records), ctx), ctx.dice


def fire(turn=3, unit="174 FA", kind="Withering", rng=2, barrage=4, **extra):
    return {"Entry": "Fire", "Turn": turn, "Unit": unit, "Type": kind, "Range": rng, "Barrage": barrage,
            "In battery": "Yes", **extra}


def test_using_the_table_before_it_is_entered_is_a_clear_error():
    with pytest.raises(WorkbookError) as err:
        run([fire()], 3, entered=False)
    assert str(err.value).startswith("Saturation fire!C2: the Artillery Saturation Fire Table (16.79) is not entered yet")


def test_the_multiplier_for_the_range_times_the_barrage_strength():
    out, _ = run([fire()], 3, (5, 6))
    shot, breakdown = out.lines
    assert shot.roll.result == "3/2/1, 5" and shot.text.startswith("3/2/1, 5: x2 at range 2 = Barrage Strength 8")


def test_two_dice_above_the_breakdown_number_leave_the_unit_out_of_ammunition():
    out, _ = run([fire()], 3, (5, 1))
    b = out.lines[1].roll
    assert (b.natural, b.drm, b.final, b.result) == (6, -5, 1, "Out of Ammunition")


def test_two_dice_at_or_below_the_breakdown_number_eliminate_the_unit():
    out, _ = run([fire()], 3, (2, 3))
    assert out.lines[1].roll.result == "Eliminated"
    assert out.status[0].text.startswith("Eliminated since turn 3: counts in full toward the Victory Points (16.75)")


def test_with_the_burnt_tubes_variant_a_failed_breakdown_gives_burnt_tubes():
    out, _ = run([fire()], 3, (2, 3), bfta__variant_burnt_tubes=True)
    assert out.lines[1].roll.column == "Burnt tubes variant" and out.lines[1].roll.result == "Burnt Tubes"
    assert out.status[0].text == "Burnt Tubes since turn 3: cannot attack; defends with FPF 1 (16.78)"


@pytest.mark.parametrize("die, result, after", [(1, "Marker removed, Out of Ammunition", "Out of Ammunition"),
                                                (3, "No change", "Burnt Tubes"), (5, "Eliminated", "Eliminated")])
def test_burnt_tubes_recovery_each_building_segment(die, result, after):
    out, _ = run([fire(), {"Entry": "Recovery", "Turn": 4, "Unit": "174 FA"}], 3, (2, 3), die,
                 bfta__variant_burnt_tubes=True)
    assert out.lines[2].roll.result == result and out.status[0].text.startswith(after)


def test_burnt_tubes_rolls_still_due_are_listed():
    out, _ = run([fire(), fire(turn=6, unit="58 FA")], 3, (2, 3), 1, (6, 6), bfta__variant_burnt_tubes=True)
    assert [s.turn for s in out.status if s.text.startswith("due")] == [4, 5, 6]


def test_a_unit_with_burnt_tubes_cannot_fire():
    with pytest.raises(WorkbookError, match=r"under a Burnt Tubes marker since turn 3: no Saturation Fire \(16.71\)"):
        run([fire(), fire(turn=6)], 3, (2, 3), 3, (6, 6), bfta__variant_burnt_tubes=True)


def test_artillery_not_in_battery_cannot_fire():
    with pytest.raises(WorkbookError, match=r"not In Battery"):
        run([fire(**{"In battery": "No"})])


def test_an_entry_that_is_not_m1_m2_m3_bn_is_reported():
    with pytest.raises(ValueError, match="is not 'm1/m2/m3, BN'"):
        saturation.SaturationEntry.parse("2/1")

"""American supply dumps tracker (BFTA 16.51-16.57)."""
import pytest

from automation.desk.trackers import dumps
from automation.errors import WorkbookError
from desk_helpers import context, rows

DUMPS = [{"Entry": "Dump", "Hex": "1211", "Amount": 5}, {"Entry": "Dump", "Hex": "1008", "Amount": 3}]
RECAPTURE = {"bfta__variant_dump_recapture": True}


def run(records, *throws, **settings):
    ctx = context(*throws, **settings)
    return dumps.run(rows(dumps.KIND, *records), ctx), ctx.dice


def status(out):
    return {s.subject: s.text for s in out.status}


@pytest.mark.parametrize("amount, points", [(1, 1), (0.2, 1), (1.2, 2), (2, 2), (2.5, 3)])
def test_one_petrol_point_per_divisions_worth_with_remainders_rounded_up(amount, points):
    assert dumps.petrol_points(amount) == points


def test_dumps_stay_secret_until_captured():
    out, _ = run(DUMPS)
    assert [(s.subject, s.visible_to) for s in out.status[:2]] == [("1211", "Umpire"), ("1008", "Umpire")]
    assert status(out)["German"] == "German Petrol Points available: 0"


def test_capture_hands_the_dump_and_its_points_to_the_germans():
    out, _ = run(DUMPS + [{"Entry": "Captured", "Hex": "1211", "Turn": 3}])
    assert out.lines[0].text == "captured with 5 Petrol Points" and out.lines[0].visible_to == "All"
    assert status(out)["1211"] == "German since turn 3, 5 Petrol Points left"
    assert status(out)["German"] == "German Petrol Points available: 5"


def test_supplying_one_unit_of_a_division_costs_a_whole_point():
    out, _ = run(DUMPS + [{"Entry": "Captured", "Hex": "1211", "Turn": 3},
                          {"Entry": "Supply divisions", "Turn": 4, "Amount": 0.25},
                          {"Entry": "Supply divisions", "Turn": 5, "Amount": 1.5},
                          {"Entry": "Cancel shortage", "Turn": 5, "Amount": 1}])
    assert [ln.text for ln in out.lines[1:]] == [
        "0.25 division(s)' worth supplied for this turn: 1 Petrol Point(s) spent, 4 left",
        "1.5 division(s)' worth supplied for this turn: 2 Petrol Point(s) spent, 2 left",
        "1 Supply Shortage result(s) ignored: 1 Petrol Point(s) spent, 1 left"]


def test_spending_more_than_captured_is_refused_at_the_amount_cell():
    with pytest.raises(WorkbookError) as err:
        run(DUMPS + [{"Entry": "Captured", "Hex": "1008", "Turn": 3},
                     {"Entry": "Supply divisions", "Turn": 4, "Amount": 3.5}])
    assert str(err.value) == ("Supply dumps!D5: supply divisions 3.5 costs 4 Petrol Point(s) (16.54); "
                              "the German player has 3")


def test_with_the_supply_line_variant_the_dump_must_be_named():
    with pytest.raises(WorkbookError, match="16.55 variant"):
        run(DUMPS + [{"Entry": "Captured", "Hex": "1008", "Turn": 3},
                     {"Entry": "Supply divisions", "Turn": 4, "Amount": 1}], bfta__variant_petrol_supply_line=True)


def test_destruction_needs_the_recapture_variant():
    with pytest.raises(WorkbookError, match="16.56 variant"):
        run(DUMPS + [{"Entry": "Captured", "Hex": "1211", "Turn": 3},
                     {"Entry": "Retaken", "Hex": "1211", "Turn": 4}])


def test_a_dump_never_taken_by_the_germans_cannot_be_destroyed():
    with pytest.raises(WorkbookError, match="has not been retaken from the Germans"):
        run(DUMPS + [{"Entry": "Destroy", "Hex": "1211", "Turn": 4, "Unit": "28/110", "Strength": 3}], 1, **RECAPTURE)


RETAKEN = DUMPS + [{"Entry": "Captured", "Hex": "1211", "Turn": 3}, {"Entry": "Retaken", "Hex": "1211", "Turn": 5}]


def test_a_roll_at_or_below_combat_strength_subtracts_the_die():
    out, _ = run(RETAKEN + [{"Entry": "Destroy", "Hex": "1211", "Turn": 5, "Unit": "28/110", "Strength": 3}], 3,
                 **RECAPTURE)
    r = out.lines[-1].roll
    assert (r.column, r.natural, r.final, r.result) == ("Plain", 3, 0, "Subtract the die")
    assert out.lines[-1].text == "Subtract the die: 3 Petrol Point(s) destroyed, 2 left"


def test_a_roll_above_combat_strength_does_nothing():
    out, _ = run(RETAKEN + [{"Entry": "Destroy", "Hex": "1211", "Turn": 5, "Unit": "28/110", "Strength": 3}], 4,
                 **RECAPTURE)
    assert out.lines[-1].roll.result == "No effect" and status(out)["1211"].endswith("5 Petrol Points left")


def test_an_engineer_takes_1_off_the_roll_and_doubles_the_unmodified_die():
    out, _ = run(RETAKEN + [{"Entry": "Destroy", "Hex": "1211", "Turn": 6, "Unit": "51 Eng", "Strength": 1,
                             "Engineer": "Yes"}], 2, **RECAPTURE)
    r = out.lines[-1].roll
    assert (r.column, r.final, r.drm) == ("Engineer", 0, -2)
    assert out.lines[-1].text == "Subtract twice the unmodified die: 4 Petrol Point(s) destroyed, 1 left"


def test_artillery_adds_2_and_a_success_empties_the_dump():
    out, _ = run(RETAKEN + [{"Entry": "Destroy", "Hex": "1211", "Turn": 6, "Unit": "174 FA", "Strength": 4,
                             "Artillery": "Yes"}], 2, **RECAPTURE)
    r = out.lines[-1].roll
    assert (r.column, r.drm, r.final) == ("Artillery", -2, 0)
    assert out.lines[-1].text.endswith("5 Petrol Point(s) destroyed, 0 left; the dump is gone")


def test_a_unit_that_attacked_last_combat_phase_may_not_roll():
    with pytest.raises(WorkbookError, match=r"attacked in the previous Combat Phase and may not take part \(16.56\)"):
        run(RETAKEN + [{"Entry": "Destroy", "Hex": "1211", "Turn": 6, "Unit": "X", "Strength": 4, "Attacked": "Yes"}],
            1, **RECAPTURE)

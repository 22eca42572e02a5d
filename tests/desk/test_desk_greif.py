"""Operation Greif tracker (BFTA 16.41-16.47) on the article's example and hand-built games."""
import pytest

from automation.desk.trackers import greif
from automation.errors import WorkbookError
from desk_helpers import context, rows

PRIMARIES = [{"Entry": "Target", "Hex": h} for h in ("1512", "1211", "0913", "1707", "2005")]


def run(records, *throws, **settings):
    ctx = context(*throws, **settings)
    return greif.run(rows(greif.KIND, *records), ctx), ctx.dice


def status(out, hex_):
    return [s.text for s in out.status if s.subject == hex_]


@pytest.mark.parametrize("mp, turn", [(19, 4), (16, 3), (17, 4), (8, 2), (1, 2), (0, 1)])
def test_activation_turn_is_mp_over_8_rounded_up_plus_one(mp, turn):
    assert greif.activation_turn(mp) == turn


def test_the_articles_example_hex_1512_at_19_mp_works_from_turn_4():
    targets = [dict(t, MP=19 if t["Hex"] == "1512" else 8) for t in PRIMARIES]
    out, dice = run(targets + [{"Entry": "Entered", "Hex": "1512", "Turn": 3},
                               {"Entry": "Entered", "Hex": "1512", "Turn": 4}],
                    bfta__variant_greif_delayed_activation=True)
    first, second = [ln for ln in out.lines if ln.subject == "1512"]
    assert (first.turn, first.rule, first.visible_to) == (3, "16.47", "Umpire")
    assert "not operational before turn 4" in first.text
    assert (second.turn, second.rule, second.visible_to) == (4, "16.41", "All") and "the unit stops" in second.text
    assert dice.rolls == []  # primary targets never roll


def test_a_primary_target_stops_the_first_american_unit_and_blocks_the_hex():
    out, _ = run(PRIMARIES + [{"Entry": "Entered", "Hex": "1211", "Turn": 2},
                              {"Entry": "Entered", "Hex": "1211", "Turn": 2}])
    texts = [ln.text for ln in out.lines]
    assert "primary target" in texts[0] and texts[1] == "blocked hex: the unit stops"
    assert status(out, "1211")[0].startswith("discovered in turn 2")
    assert status(out, "0913") == ["secret primary target, operational from turn 1"]


def test_clearing_starts_the_turn_after_discovery_and_needs_a_6():
    records = PRIMARIES + [{"Entry": "Entered", "Hex": "1211", "Turn": 2},
                           {"Entry": "Supply phase", "Hex": "1211", "Turn": 3},
                           {"Entry": "Supply phase", "Hex": "1211", "Turn": 4}]
    out, dice = run(records, 5, 6)
    rolls = [ln.roll for ln in out.lines if ln.roll]
    assert [(r.natural, r.final, r.result) for r in rolls] == [(5, 5, "Not cleared"), (6, 6, "Cleared")]
    assert status(out, "1211") == ["cleared in turn 4 (16.43)"]
    assert rolls[0].label == "scripted/greif/1211/clear/T3"


def test_engineer_adds_1_and_another_unit_adds_2_and_both_add_3():
    records = PRIMARIES + [{"Entry": "Entered", "Hex": "1211", "Turn": 2},
                           {"Entry": "Supply phase", "Hex": "1211", "Turn": 3, "Engineer": "Yes"},
                           {"Entry": "Supply phase", "Hex": "1211", "Turn": 4, "Other unit": "Yes"},
                           {"Entry": "Supply phase", "Hex": "1211", "Turn": 5, "Engineer": "Yes", "Other unit": "Yes"}]
    out, _ = run(records, 4, 3, 3)
    rolls = [ln.roll for ln in out.lines if ln.roll]
    assert [r.drm for r in rolls] == [1, 2, 3]
    assert [r.result for r in rolls] == ["Not cleared", "Not cleared", "Cleared"]
    assert [m.source for m in rolls[2].modifiers] == ["16.44", "16.44"]


def test_a_clearing_roll_on_the_turn_of_discovery_is_refused_at_its_cell():
    records = PRIMARIES + [{"Entry": "Entered", "Hex": "1211", "Turn": 2},
                           {"Entry": "Supply phase", "Hex": "1211", "Turn": 2}]
    with pytest.raises(WorkbookError) as err:
        run(records, 6)
    assert str(err.value) == ("Greif!B8: hex 1211 has not been found before turn 2's supply phase; clearing starts "
                              "in the turn after an American unit is stopped there (16.43)")


def test_a_discovered_hex_lists_each_clearing_roll_still_due():
    out, _ = run(PRIMARIES + [{"Entry": "Entered", "Hex": "1211", "Turn": 2},
                              {"Entry": "Entered", "Hex": "2005", "Turn": 4}])
    assert [s.turn for s in out.status if s.subject == "1211" and s.text.startswith("due")] == [3, 4]


SECONDARY_LIST = ([{"Entry": "Target", "Hex": h, "Priority": "Primary"} for h in ("1512", "1211", "0913")] +
                  [{"Entry": "Target", "Hex": f"30{i:02d}", "Priority": "Secondary"} for i in range(7)])


@pytest.mark.parametrize("die, result, state", [(1, "Stopped", "discovered"), (2, "Stopped", "discovered"),
                                                (3, "Crossed off, move on", "crossed off"),
                                                (6, "Crossed off, move on", "crossed off")])
def test_a_secondary_target_stops_only_on_1_or_2(die, result, state):
    out, _ = run(SECONDARY_LIST + [{"Entry": "Entered", "Hex": "3002", "Turn": 3}], die,
                 bfta__variant_greif_secondary_targets=True)
    assert out.lines[0].roll.result == result and out.lines[0].rule == "16.46"
    assert status(out, "3002")[0].startswith(state)


def test_a_crossed_off_secondary_never_rolls_again():
    out, dice = run(SECONDARY_LIST + [{"Entry": "Entered", "Hex": "3002", "Turn": 3},
                                      {"Entry": "Entered", "Hex": "3002", "Turn": 4}], 5,
                    bfta__variant_greif_secondary_targets=True)
    assert len(dice.rolls) == 1 and out.lines[1].text == "a normal hex again: no effect"


def test_the_variant_list_must_be_three_primary_and_seven_secondary():
    with pytest.raises(WorkbookError) as err:
        run(SECONDARY_LIST[:-1], bfta__variant_greif_secondary_targets=True)
    assert "the list holds 3 primary and 6 secondary target hexes; 16.46 wants 3 primary and 7 secondary" in str(err.value)


def test_secondary_targets_without_the_variant_are_refused():
    with pytest.raises(WorkbookError) as err:
        run(SECONDARY_LIST)
    assert "Greif!B5: secondary targets belong to the 16.46 variant" in str(err.value)


def test_the_standard_list_needs_five_primaries():
    with pytest.raises(WorkbookError, match="16.41 wants 5 primary"):
        run(PRIMARIES[:4])


def test_after_turn_9_the_commandos_are_gone_and_untouched_targets_lapse():
    out, dice = run(PRIMARIES + [{"Entry": "Entered", "Hex": "1707", "Turn": 10}])
    assert out.lines[0].rule == "16.45" and "no effect" in out.lines[0].text and dice.rolls == []
    assert status(out, "1707")[0] == "secret primary target, lapsed: the commandos left play after turn 9"
    assert any(s.rule == "16.45" and "after turn 9" in s.text for s in out.status)


def test_a_hex_found_before_turn_10_still_needs_clearing_after_it():
    out, _ = run(PRIMARIES + [{"Entry": "Entered", "Hex": "1707", "Turn": 9},
                              {"Entry": "Supply phase", "Hex": "1707", "Turn": 10}], 2)
    assert out.lines[1].roll.result == "Not cleared"


def test_entering_a_hex_that_is_not_a_target_is_refused():
    with pytest.raises(WorkbookError, match=r"Greif!B7: hex 9999 is not on the target list"):
        run(PRIMARIES + [{"Entry": "Entered", "Hex": "9999", "Turn": 2}])


def test_a_hex_typed_as_a_number_keeps_its_four_digits():
    targets, _ = greif.parse(rows(greif.KIND, {"Entry": "Target", "Hex": 913}, {"Entry": "Target", "Hex": "1512"}))
    assert [t.hex for t in targets] == ["0913", "1512"]

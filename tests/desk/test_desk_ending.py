"""Variable game ending tracker (BFTA 16.81-16.84) with an umpire-entered 16.84 chart row."""
import pytest

from automation.desk.trackers import ending
from automation.errors import WorkbookError
from desk_helpers import context, rows

CHART = {"Scenario": "Race to the Meuse", "Better": 8, "Even": 9, "Worse": 10}


def run(records, *throws, **settings):
    ctx = context(*throws, **settings)
    return ending.run(rows(ending.KIND, *records), ctx), ctx.dice


def test_no_check_before_the_charts_turn():
    out, dice = run([dict(CHART, Turn=8)])
    assert dice.rolls == [] and out.status[0].text == "no ending check before turn 9 (Even)"


def test_matching_dice_end_the_scenario_at_the_start_of_that_turn():
    out, dice = run([dict(CHART, Turn=12)], (2, 5), (4, 4))
    assert [(ln.turn, ln.roll.result) for ln in out.lines] == [(9, "Play on"), (10, "Scenario ends")]
    assert out.lines[1].roll.by_natural and out.lines[1].roll.band == "doubles"
    assert out.status[0].text.startswith("the scenario ends at the start of turn 10")
    assert dice.unused == 0  # no rolls after the end


def test_the_german_players_experience_picks_the_column():
    out, _ = run([dict(CHART, Experience="Better", Turn=8)], (1, 2))
    assert [ln.turn for ln in out.lines] == [8]
    assert out.status[0].text.startswith("play on; next ending check at the start of turn 9")


def test_the_default_experience_is_the_setting():
    out, _ = run([dict(CHART, Turn=10)], (1, 2), bfta__default_experience="Worse")
    assert [ln.turn for ln in out.lines] == [10]


def test_the_odds_of_an_ending_check_are_one_in_six():
    out, _ = run([dict(CHART, Turn=9)], (3, 3))
    assert str(out.lines[0].roll.probability) == "1/6"


def test_a_chart_cell_not_entered_is_a_clear_error_at_that_cell():
    with pytest.raises(WorkbookError) as err:
        run([{"Scenario": "Bastogne", "Better": 7, "Turn": 9}])
    assert str(err.value).startswith("Game ending!C2: the Scenario Game Ending Chart (16.84) is not entered for "
                                     "Bastogne (Even)")


def test_rows_without_a_turn_are_only_the_chart():
    out, dice = run([CHART])
    assert out.lines == () and out.status == () and dice.rolls == []

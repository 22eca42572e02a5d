"""Engineering tracker (house rules 14, 16, 23): demolitions, mine laying, dummy fields, bridge spans."""
import pytest

from automation.desk.trackers import engineering
from automation.errors import WorkbookError
from automation.rulebook import load_rulebook
from desk_helpers import context, rows, with_bands


def run(records, *throws, tables=None, **settings):
    ctx = context(*throws, tables=tables, **settings)
    return engineering.run(rows(engineering.KIND, *records), ctx), ctx.dice


def e(entry, turn, subject, **extra):
    return {"Entry": entry, "Turn": turn, "Subject": subject, **extra}


@pytest.mark.parametrize("die, blown", [(1, False), (2, True), (10, True)])
def test_a_demolition_action_is_a_dud_only_on_a_1(die, blown):
    out, _ = run([e("Prepared", 1, "Bridge X"), e("Demolition", 2, "Bridge X")], die)
    assert (out.lines[1].roll.effect["success"]) is blown
    assert out.status[0].text == ("blown in turn 2" if blown else "a dud in turn 2: prepare it again")


def test_a_dud_must_be_prepared_again_before_another_attempt():
    with pytest.raises(WorkbookError, match=r"Engineering!C4: Bridge X is not a prepared demolition in turn 3"):
        run([e("Prepared", 1, "Bridge X"), e("Demolition", 2, "Bridge X"), e("Demolition", 3, "Bridge X")], 1, 5)


def test_preparing_a_bocage_charge_takes_the_charts_two_actions():
    task = "Prepare a bocage demolition"
    out, _ = run([e("Prepare", 1, "Hedge 1", Task=task), e("Prepare", 2, "Hedge 1", Task=task),
                  e("Demolition", 3, "Hedge 1")], 7)
    assert [ln.text for ln in out.lines[:2]] == [f"1 of 2 engineering action(s) for: {task}",
                                                 "2 of 2 engineering action(s): prepared; a demolition action blows it (14)"]
    assert out.lines[0].rule == "21" and out.status[0].text == "blown in turn 3"


def test_an_unknown_task_lists_the_charts_tasks():
    with pytest.raises(WorkbookError, match=r"Engineering!D2: 'Dig a moat' is not a task of house.engineering_actions; "
                                            r"valid: Remove a prepared demolition; "):
        run([e("Prepare", 1, "X", Task="Dig a moat")])


@pytest.mark.parametrize("stands, turns", [(1, 9), (2, 5), (3, 3)])
def test_the_seeds_example_one_two_three_stands_lay_a_field_in_9_5_3_turns(stands, turns):
    records = [e("Mine laying", t, "Field 1", Task="AP", Count=stands) for t in range(1, turns + 1)]
    out, _ = run(records)
    assert out.status[0].text == f"AP field laid in turn {turns}"
    assert all("laid" not in ln.text for ln in out.lines[:-1])
    assert engineering.turns_to_lay(9, stands) == turns


def test_progress_shows_actions_done_and_the_turn_it_will_be_done():
    out, _ = run([e("Mine laying", 1, "Field 1", Task="AT", Count=2)])
    assert out.lines[0].text == "2 of 9 engineering actions; 7 to go (with 2 stand(s) a turn: turn 5)"


def test_no_more_than_three_stands_on_one_field_in_a_turn():
    with pytest.raises(WorkbookError, match=r"Engineering!E3: 4 stands on Field 1 in turn 1; at most 3"):
        run([e("Mine laying", 1, "Field 1", Task="AT", Count=3), e("Mine laying", 1, "Field 1", Task="AT", Count=1)])


def test_one_type_of_mine_at_a_time():
    with pytest.raises(WorkbookError, match="only one type is laid at a time"):
        run([e("Mine laying", 1, "Field 1", Task="AT", Count=3), e("Mine laying", 2, "Field 1", Task="AP", Count=3)])


def test_a_dummy_field_takes_five_actions():
    out, _ = run([e("Dummy field", 1, "Fake", Count=3), e("Dummy field", 2, "Fake", Count=2)])
    assert out.status[0].text == "dummy field laid in turn 2"


def improve_position():
    base = load_rulebook().table(engineering.IMPROVE)
    entered = with_bands(base, [(6, None, {"Result": "Improved"}, {"Result": {"success": True}}),
                                (None, 5, {"Result": "No improvement"}, {"Result": {"success": False}})])
    return {**{t.id: t for t in load_rulebook().all_tables()}, entered.id: entered}


def test_a_bridge_span_before_the_improve_position_table_is_entered_is_a_clear_error():
    with pytest.raises(WorkbookError, match=r"Engineering!C3: table house.improve_position .* is not printed"):
        run([e("Bridge", 1, "B1", Count=2), e("Bridge span", 2, "B1")], 6)


def test_bridge_spans_with_discipline_swollen_river_and_helpers():
    records = [e("Bridge", 1, "B1", Count=2),
               e("Bridge span", 2, "B1", Modifiers="builder_discipline_rating=1; swollen_river"),
               e("Bridge span", 3, "B1", Modifiers="builder_discipline_rating=1; several_units_on_span"),
               e("Bridge span", 4, "B1", Modifiers="builder_discipline_rating=1; several_units_on_span")]
    out, _ = run(records, 5, 3, 4, tables=improve_position())
    spans = [ln for ln in out.lines if ln.roll]
    assert [(s.roll.drm, s.roll.final, s.roll.result) for s in spans] == [
        (0, 5, "No improvement"), (2, 5, "No improvement"), (2, 6, "Improved")]
    assert out.status[0].text == "1 of 2 span(s)"

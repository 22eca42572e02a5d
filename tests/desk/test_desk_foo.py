"""FOO replacement tracker (house rules 4)."""
import pytest

from automation.desk.trackers import foo
from automation.errors import WorkbookError
from desk_helpers import context, rows


def run(records, *throws):
    ctx = context(*throws)
    return foo.run(rows(foo.KIND, *records), ctx), ctx.dice


def casualty(turn, name, **extra):
    return {"Entry": "Casualty", "Turn": turn, "FOO": name, **extra}


def roll(turn, **extra):
    return {"Entry": "Roll", "Turn": turn, **extra}


def test_the_bonus_grows_by_one_each_turn_until_a_10():
    out, _ = run([casualty(1, "Capt Ames"), roll(2), roll(3), roll(4)], 9, 8, 8)
    results = [(ln.roll.drm, ln.roll.final, ln.roll.result) for ln in out.lines]
    assert results == [(0, 9, "No replacement yet"), (1, 9, "No replacement yet"), (2, 10, "Replacement FOO arrives")]
    assert out.lines[2].text.endswith("it replaces Capt Ames, with transport, on the friendly map edge")
    assert out.status == ()


def test_the_bonus_resets_once_a_replacement_arrives_and_waiting_casualties_add_one_each():
    out, _ = run([casualty(1, "A"), casualty(1, "B"), casualty(2, "C"), roll(2), roll(3), roll(4)], 8, 10, 5)
    mods = [{m.id: m.value for m in ln.roll.modifiers} for ln in out.lines]
    assert mods[0] == {"casualties_waiting": 1}
    assert mods[1] == {"turns_rolled": 1, "casualties_waiting": 2}
    assert mods[2] == {"casualties_waiting": 1}  # the growing bonus is back to zero
    assert [s.subject for s in out.status if s.text.startswith("waiting")] == ["B", "C"]


def test_no_british_foo_on_table_adds_one_and_each_lost_replacement_takes_one_off():
    out, _ = run([casualty(1, "A"), casualty(3, "A's replacement", Replacement="Yes"),
                  roll(2, **{"No FOO on table": "Yes"}), roll(4, **{"No FOO on table": "Yes"})], 10, 5)
    first, second = (ln.roll for ln in out.lines)
    assert first.drm == 1 and first.result == "Replacement FOO arrives"
    assert {m.id: m.value for m in second.modifiers} == {"no_foo_on_table": 1, "replacements_lost": -1}


def test_the_first_roll_is_in_a_turn_after_the_casualty():
    with pytest.raises(WorkbookError, match=r"FOO!A3: no FOO casualty from before turn 2 is waiting for a replacement"):
        run([casualty(2, "A"), roll(2)])


def test_rolls_still_due_are_listed():
    out, _ = run([casualty(1, "A"), roll(2), {"Entry": "Casualty", "Turn": 5, "FOO": "B"}], 3)
    assert [s.turn for s in out.status if s.text.startswith("due")] == [3, 4, 5]

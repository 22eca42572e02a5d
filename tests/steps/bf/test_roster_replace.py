"""A roster's stands replaced by a step: the stands a step changed take their
places; a step that changed none leaves the very same stands, and the index
by ME and ID built over them, to the next step. A stand or an ME changed
(``with_``) is what ``dataclasses.replace`` makes of it."""
from __future__ import annotations

from automation.steps.bf.state import Status
from tests.support.bf import Campaign, command, troops


def a_company() -> Campaign:
    return Campaign().me("4/114 PzG", "German", "I", "Panzergrenadier company", command("G-A1"),
                         *[troops(f"G-A{i}", "Panzergrenadier") for i in range(2, 5)], full=4, rg="I1")


def test_a_step_that_changed_no_stand_leaves_the_same_stands_and_their_index():
    _, state = a_company().prepared()
    roster = state.roster
    before = roster.of_me("4/114 PzG")  # (builds the index)
    kept = roster.replace_stands([])
    assert kept.stands is roster.stands
    assert kept._index is roster._index and kept._index["stands"] is roster.stands
    assert kept.of_me("4/114 PzG") == before and kept.stand("G-A2") is roster.stand("G-A2")


def test_a_changed_stand_takes_its_place_and_the_index_follows():
    _, state = a_company().prepared()
    roster = state.roster
    roster.of_me("4/114 PzG")
    lost = roster.stand("G-A3").with_(status=Status.WRECK)
    changed = roster.replace_stands([lost])
    assert [s.id for s in changed.stands] == [s.id for s in roster.stands]
    assert changed.stand("G-A3") is lost and roster.stand("G-A3").status is not Status.WRECK
    assert [s.status for s in changed.of_me("4/114 PzG")].count(Status.WRECK) == 1


def test_a_stand_or_an_me_changed_is_what_dataclasses_replace_makes_and_the_first_is_kept():
    from dataclasses import fields, replace

    from automation.steps.bf.state import ME, Ref, Situation, Stand

    stand = Stand("G-A2", "German", "4/114 PzG", "Panzergrenadier", "Troops", "Veteran", ref=Ref("Roster", "A3"))
    me = ME("4/114 PzG", "German", "I", "Panzergrenadier company", "I1", 4, 1, 4, "Veteran", Ref("Roster", "C3"))
    for thing, changes in ((stand, {"status": Status.WRECK, "situation": Situation.CUT_OFF, "notes": "lost"}),
                           (me, {"breakpoint_base": 3, "losses_today": 0}), (stand, {}), (me, {"ref": Ref("X", "B9")})):
        changed = thing.with_(**changes)
        expected = replace(thing, **changes)
        assert changed == expected and repr(changed) == repr(expected) and hash(changed) == hash(expected)
        assert [getattr(changed, f.name) for f in fields(thing)] == [getattr(expected, f.name) for f in fields(thing)]
        assert changed is not thing
    assert stand.status is Status.AVAILABLE and me.breakpoint_base == 4  # (the first unchanged)


def test_a_field_neither_has_is_refused_by_name():
    import pytest

    from automation.steps.bf.state import ME

    me = ME("4/114 PzG", "German", "I", "Panzergrenadier company")
    with pytest.raises(TypeError, match="ME has no field breakpoints_base"):
        me.with_(breakpoints_base=3)


def test_a_stand_made_of_its_fields_is_the_stand_its_constructor_makes():
    import pytest

    from automation.steps.bf.state import Ref, Situation, Stand

    values = ("G-A2", "German", "4/114 PzG", "PzKpfw IVG", "AFV", "Veteran", Status.WRECK, Situation.ISOLATED,
              "Fully tracked", "Own lines", True, False, "Low", "hit twice", Ref("Roster Dec 24", "A3"))
    made, expected = Stand.of_fields(*values), Stand(*values)
    assert made == expected and repr(made) == repr(expected) and hash(made) == hash(expected)
    assert made.ref == Ref("Roster Dec 24", "A3") and made.with_(notes="") == expected.with_(notes="")
    with pytest.raises(TypeError, match="takes its 15 fields, not 14"):
        Stand.of_fields(*values[:-1])

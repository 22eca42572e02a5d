"""Frozen dataclasses made and changed in bulk (automation.frozen) are the
instances their constructor and dataclasses.replace make, and only for the
dataclasses whose instances hold their fields alone."""
from __future__ import annotations

import dataclasses
from dataclasses import InitVar, dataclass, field

import pytest

from automation.frozen import changed, fields_of, made


@dataclass(frozen=True)
class Plain:
    name: str
    count: int = 0
    tags: tuple[str, ...] = ()
    note: str = field(default="", compare=False)


def test_made_is_what_the_constructor_makes_and_stays_frozen():
    values = ("G-1", 3, ("a", "b"), "kept apart")
    thing = made(Plain, values)
    assert thing == Plain(*values) and repr(thing) == repr(Plain(*values)) and hash(thing) == hash(Plain(*values))
    with pytest.raises(dataclasses.FrozenInstanceError):
        thing.count = 4  # type: ignore[misc]
    with pytest.raises(TypeError, match="Plain takes its 4 fields, not 2"):
        made(Plain, ("G-1", 3))


def test_changed_is_what_replace_makes_and_the_first_is_kept():
    first = Plain("G-1", 3, ("a",), "n")
    for changes in ({}, {"count": 4}, {"tags": (), "note": "other"}):
        assert changed(first, changes) == dataclasses.replace(first, **changes)
        assert repr(changed(first, changes)) == repr(dataclasses.replace(first, **changes))
    assert first == Plain("G-1", 3, ("a",), "n")
    with pytest.raises(TypeError, match="Plain has no field colour, size"):
        changed(first, {"size": 1, "colour": "red"})


@dataclass(frozen=True)
class Checked:
    count: int

    def __post_init__(self) -> None:
        if self.count < 0:
            raise ValueError("negative")


@dataclass(frozen=True)
class WithInitVar:
    count: int
    scale: InitVar[int] = 1


@dataclass(frozen=True)
class Derived:
    count: int
    double: int = field(init=False, default=0)


@dataclass(frozen=True, slots=True)
class Slotted:
    count: int


@pytest.mark.parametrize("cls", [Checked, WithInitVar, Derived, Slotted])
def test_a_dataclass_that_does_more_than_hold_its_fields_is_made_through_its_init_only(cls):
    with pytest.raises(TypeError, match="is made through its __init__ only"):
        fields_of(cls)
    with pytest.raises(TypeError, match="is made through its __init__ only"):
        made(cls, (1,))


def test_an_export_sheet_changed_is_what_replace_makes():
    from automation.pbem.xlsx import OutSheet

    sheet = OutSheet.sealed("Roster Dec 24", [["Stand"], ["G-1"]], "roster", "stamp")
    assert sheet.but(source="stamp|scrubbed") == dataclasses.replace(sheet, source="stamp|scrubbed")
    with pytest.raises(TypeError, match="OutSheet has no field sauce"):
        sheet.but(sauce="stamp")

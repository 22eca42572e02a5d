"""The desk's dice: the campaign key, every table the desk may use, and labels
that begin with ``desk`` so no desk roll can ever share a refit roll's dice.

:class:`DeskDice` has the interface of :class:`automation.campaign.model.Dice`
(``roll(table_id, label_parts, situation, column)``), so trackers and the
refit steps can be tested with the same scripted dice."""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Protocol

from automation.engine.dice import CampaignKey, RollLabel
from automation.engine.resolver import RollResult, Situation, resolve, roll
from automation.engine.tables import Table
from automation.errors import UsageError

PREFIX = "desk"
PHYSICAL = "physical"
PHYSICAL_MARK = " (physical)"


def desk_label(parts: Sequence[object]) -> RollLabel:
    try:
        return RollLabel.of(PREFIX, *parts)
    except ValueError as exc:
        raise UsageError(f"roll label {'/'.join(str(p) for p in parts)!r}: {exc}") from None


def physical_label(parts: Sequence[object]) -> RollLabel:
    """The label of dice rolled at the table and entered by hand: ``physical/...``,
    so no such roll is ever taken for one derived from the key."""
    try:
        return RollLabel.of(PHYSICAL, *parts)
    except ValueError as exc:
        raise UsageError(f"roll label {'/'.join(str(p) for p in parts)!r}: {exc}") from None


def is_physical(label: str) -> bool:
    return str(label).startswith(PHYSICAL + "/")


def parse_physical(text: object, table: Table) -> tuple[int, ...]:
    """Dice typed by the umpire: ``7``, ``3+4`` (each die of 2d6), ``94`` or ``9+4``
    for d100 (a 0 die reads 10). ValueError says what is valid."""
    import re

    kind = table.dice
    raw = str(text).strip()
    if isinstance(text, float) and text.is_integer():
        raw = str(int(text))
    if kind.value == "d100" and re.fullmatch(r"\d\d", raw):
        parts = [int(c) or 10 for c in raw]
    else:
        try:
            parts = [int(p) for p in re.split(r"[+ ,]+", raw) if p]
        except ValueError:
            parts = []
    faces = kind.faces
    if len(parts) != len(faces) or any(not 1 <= d <= f for d, f in zip(parts, faces)):
        shape = {"d6": "one die, 1 to 6", "2d6": "two dice, e.g. 3+4", "d10": "one die, 1 to 10",
                 "d100": "two digits, e.g. 94 (00 reads 100)"}.get(kind.value, kind.value)
        raise ValueError(f"{raw!r} is not a throw of {kind.value} for {table.id}: enter {shape}")
    return tuple(parts)


class Roller(Protocol):
    """What trackers roll with: real desk dice, or scripted dice in tests."""

    def table(self, table_id: str) -> Table: ...

    def roll(self, table_id: str, label: Sequence[object], situation: Situation = Situation(),
             column: str | None = None) -> RollResult: ...


class DeskDice:
    """Rolls derived from the campaign key and ``desk/...`` labels."""

    def __init__(self, key: CampaignKey, tables: Mapping[str, Table]) -> None:
        self.key = key
        self.tables = dict(tables)

    def table(self, table_id: str) -> Table:
        try:
            return self.tables[table_id]
        except KeyError:
            raise UsageError(f"unknown table {table_id!r}") from None

    def with_table(self, table: Table) -> DeskDice:
        """The same dice with ``table`` in place of the table of that id."""
        return DeskDice(self.key, {**self.tables, table.id: table})

    def roll(self, table_id: str, label: Sequence[object], situation: Situation = Situation(),
             column: str | None = None) -> RollResult:
        return roll(self.table(table_id), self.key, desk_label(label), situation, column=column)

    def physical(self, table_id: str, label: Sequence[object], dice: tuple[int, ...],
                 situation: Situation = Situation(), column: str | None = None) -> RollResult:
        """Dice rolled at the table: resolved like any roll, labelled ``physical/...``."""
        return resolve(self.table(table_id), dice, situation, column=column, label=str(physical_label(label)))

"""The desk's dice: the campaign key, every table the desk may use, and labels
that begin with ``desk`` so no desk roll can ever share a refit roll's dice.

:class:`DeskDice` has the interface of :class:`automation.campaign.model.Dice`
(``roll(table_id, label_parts, situation, column)``), so trackers and the
refit steps can be tested with the same scripted dice."""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Protocol

from automation.engine.dice import CampaignKey, RollLabel
from automation.engine.resolver import RollResult, Situation, roll
from automation.engine.tables import Table
from automation.errors import UsageError

PREFIX = "desk"


def desk_label(parts: Sequence[object]) -> RollLabel:
    try:
        return RollLabel.of(PREFIX, *parts)
    except ValueError as exc:
        raise UsageError(f"roll label {'/'.join(str(p) for p in parts)!r}: {exc}") from None


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

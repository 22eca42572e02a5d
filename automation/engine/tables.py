"""Tables, modifiers and charts as data: the domain types rules/ files load into.

A :class:`Table` is a dice table: bands of final numbers, one result per column,
and the modifiers the seed prints for it, each with the rule number it comes
from. A :class:`Chart` is a lookup the seeds print without dice (a CPP base
chart, an RG chart, an improved-position matrix). Nothing here reads files:
:func:`automation.engine.tableload.build_system` builds everything from plain
data and checks it, naming the origin, table and row of anything malformed.
"""
from __future__ import annotations

import enum
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from automation.engine.dice import DiceKind
from automation.errors import RulesError

DEFAULT_COLUMN = "Result"


class Rounding(enum.Enum):
    DOWN = "down"  # FRD
    UP = "up"  # FRU

    def apply(self, value: float) -> int:
        return math.floor(value) if self is Rounding.DOWN else math.ceil(value)


@dataclass(frozen=True)
class Modifier:
    """One printed die-roll modifier.

    Three shapes, all with a rule ``source``:
    - fixed: ``value`` always applies (``when`` and ``input`` both empty);
    - conditional: ``value`` applies when the named condition ``when`` holds;
    - computed: ``value * round((quantity + offset) / per)``, not below
      ``minimum``, from a named ``input`` quantity (e.g. CVP, hexes, chits).
    ``group`` names a set of which at most one may apply (e.g. casualty bands).
    ``columns`` restricts the modifier to some columns of its table.
    """

    id: str
    name: str
    source: str
    value: int = 1
    when: str | None = None
    input: str | None = None
    per: int = 1
    offset: int = 0
    rounding: Rounding = Rounding.DOWN
    minimum: int | None = None
    group: str | None = None
    columns: tuple[str, ...] = ()
    note: str = ""

    @property
    def kind(self) -> str:
        if self.input:
            return "computed"
        if self.when:
            return "conditional"
        return "fixed"

    def applies_to(self, column: str) -> bool:
        return not self.columns or column in self.columns

    def amount(self, quantity: int | float | None = None) -> int:
        """The DRM this modifier contributes for ``quantity`` (computed only)."""
        if self.input is None:
            return self.value
        if quantity is None:
            raise ValueError(f"modifier {self.id!r} needs a value for {self.input!r}")
        count = self.rounding.apply((quantity + self.offset) / self.per)
        if self.minimum is not None:
            count = max(self.minimum, count)
        return self.value * count

    def describe(self) -> str:
        if self.input:
            return f"{self.value:+d} x {self.input}"
        return f"{self.value:+d}"


@dataclass(frozen=True)
class Band:
    """A row of a dice table: final numbers ``low..high`` (None = open end)."""

    low: int | None
    high: int | None
    results: Mapping[str, str]
    effects: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    note: str = ""

    def contains(self, final: int) -> bool:
        return (self.low is None or final >= self.low) and (self.high is None or final <= self.high)

    @property
    def label(self) -> str:
        if self.low is None and self.high is None:
            return "any"
        if self.low is None:
            return f"≤{self.high}"
        if self.high is None:
            return f"≥{self.low}"
        if self.low == self.high:
            return str(self.low)
        return f"{self.low}-{self.high}"


@dataclass(frozen=True)
class NaturalRule:
    """A result decided by the natural dice before any band (e.g. an original 2,
    or doubles). It replaces the band's result for the columns it names."""

    results: Mapping[str, str]
    total: int | None = None
    doubles: bool = False
    note: str = ""
    effects: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)

    def matches(self, dice: tuple[int, ...], natural: int) -> bool:
        if self.doubles:
            return len(dice) > 1 and len(set(dice)) == 1
        return natural == self.total


class TableKind(enum.Enum):
    BANDED = "banded"  # dice + modifiers -> band -> result
    OPPOSED = "opposed"  # each side throws; high wins; ties thrown again


@dataclass(frozen=True)
class Table:
    """A dice table of one rule system."""

    id: str
    system: str
    title: str
    source: str
    dice: DiceKind
    columns: tuple[str, ...]
    bands: tuple[Band, ...]
    modifiers: tuple[Modifier, ...] = ()
    naturals: tuple[NaturalRule, ...] = ()
    kind: TableKind = TableKind.BANDED
    umpire_entered: bool = False
    notes: tuple[str, ...] = ()
    clamp: tuple[int, int] | None = None  # final number clamped, if the rule says so

    @property
    def is_empty(self) -> bool:
        return not self.bands

    def modifier(self, mod_id: str) -> Modifier:
        for m in self.modifiers:
            if m.id == mod_id:
                return m
        valid = ", ".join(m.id for m in self.modifiers) or "none"
        raise KeyError(f"table {self.id!r} has no modifier {mod_id!r}; valid: {valid}")

    def band_for(self, final: int) -> Band:
        for band in self.bands:
            if band.contains(final):
                return band
        raise LookupError(f"table {self.id!r}: no band holds final number {final}")

    def check_column(self, column: str) -> str:
        if column not in self.columns:
            raise KeyError(
                f"table {self.id!r} has no column {column!r}; valid: {', '.join(self.columns)}"
            )
        return column

    def default_column(self) -> str:
        return self.columns[0]


@dataclass(frozen=True)
class Chart:
    """A lookup table the seed prints without dice, kept as rows of named cells."""

    id: str
    system: str
    title: str
    source: str
    columns: tuple[str, ...]
    rows: tuple[Mapping[str, Any], ...]
    key: str | None = None
    notes: tuple[str, ...] = ()
    umpire_entered: bool = False

    def row(self, key_value: Any) -> Mapping[str, Any]:
        if self.key is None:
            raise KeyError(f"chart {self.id!r} has no key column")
        for r in self.rows:
            if str(r.get(self.key)) == str(key_value):
                return r
        valid = ", ".join(str(r.get(self.key)) for r in self.rows)
        raise KeyError(f"chart {self.id!r} has no row {key_value!r}; valid: {valid}")


@dataclass(frozen=True)
class RuleSystem:
    """Every table and chart of one seed, as loaded from its rules file."""

    id: str
    title: str
    seed: str
    origin: str
    tables: Mapping[str, Table]
    charts: Mapping[str, Chart]
    settings: Mapping[str, Any] = field(default_factory=dict)

    def table(self, table_id: str) -> Table:
        try:
            return self.tables[table_id]
        except KeyError:
            raise KeyError(f"unknown table {table_id!r} in {self.id}") from None


@dataclass(frozen=True)
class Rulebook:
    """All rule systems, with tables addressable by their global id."""

    systems: Mapping[str, RuleSystem]

    def all_tables(self) -> list[Table]:
        return [t for s in self.systems.values() for t in s.tables.values()]

    def all_charts(self) -> list[Chart]:
        return [c for s in self.systems.values() for c in s.charts.values()]

    def table(self, table_id: str) -> Table:
        for s in self.systems.values():
            if table_id in s.tables:
                return s.tables[table_id]
        raise KeyError(table_id)

    def chart(self, chart_id: str) -> Chart:
        for s in self.systems.values():
            if chart_id in s.charts:
                return s.charts[chart_id]
        raise KeyError(chart_id)

    def system(self, system_id: str) -> RuleSystem:
        return self.systems[system_id]


def table_ids(tables: Sequence[Table]) -> str:
    return ", ".join(t.id for t in tables)


__all__ = [
    "Band",
    "Chart",
    "DEFAULT_COLUMN",
    "Modifier",
    "NaturalRule",
    "Rounding",
    "RuleSystem",
    "Rulebook",
    "RulesError",
    "Table",
    "TableKind",
]

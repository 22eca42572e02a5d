"""A decision form as data: what the sheet holds, independent of the writer.

Layout (rows 1-based as a person sees them): row 1 says in plain words what
to do, with the rule number; row 2 holds the live totals (what is available,
spent and left, as formulas over the form); row 3 is the sheet kind's header
(the reader finds it there, :func:`automation.workbook.reader.header_row`),
then one row per decision offered, then free rows for anything else.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from automation.workbook.schema import SheetKind

TITLE_ROW, TOTALS_ROW, HEADER_ROW = 0, 1, 2  # 0-based


@dataclass(frozen=True)
class Choice:
    """A cell that takes one of ``values`` (a dropdown; nothing else is accepted)."""

    values: tuple[str, ...]
    prompt: str = ""

    @classmethod
    def of(cls, values: Sequence[Any], prompt: str = "") -> Choice:
        return cls(tuple(str(v) for v in values), prompt)


@dataclass(frozen=True)
class Whole:
    """A cell that takes a whole number from ``low`` to ``high``."""

    low: int
    high: int
    prompt: str = ""


Rule = Choice | Whole


@dataclass(frozen=True)
class Cost:
    """What a row costs on one account: ``per`` points for each unit of its
    Value (``per_yes``: for a Value of Yes), as a formula written by us."""

    account: str  # "CPP" or "FPP"
    per: int
    yes: bool = False


@dataclass(frozen=True)
class FreeCost:
    """What a free row costs on one account when its first column says
    ``kind``: ``per`` points for each unit of its value cell, or, with
    ``prices``, the price of the item its second column names (a list written
    by us into the formula: never a formula from player text) for each unit.
    A blank value counts 1 when ``blank_is_one`` (a purchase of one), else 0."""

    account: str
    kind: str
    per: int = 0
    prices: tuple[tuple[str, int], ...] = ()
    blank_is_one: bool = True


@dataclass(frozen=True)
class FormRow:
    """One decision: the kind's columns (by name), and what its cells accept."""

    values: dict[str, Any]
    rules: dict[str, Rule] = field(default_factory=dict)
    costs: tuple[Cost, ...] = ()


@dataclass(frozen=True)
class Account:
    """A budget the form spends: ``available`` points of ``name``."""

    name: str
    available: int


@dataclass(frozen=True)
class Form:
    name: str
    kind: SheetKind
    title: str
    rows: tuple[FormRow, ...]
    accounts: tuple[Account, ...] = ()
    free_rows: int = 0
    free_rules: dict[str, Rule] = field(default_factory=dict)  # the free rows' dropdowns
    widths: dict[str, float] = field(default_factory=dict)
    value_column: str = "Value"  # the cell that takes an offer (a row's costs count its number)
    totals_label: str = ""  # the words before the live totals (empty: "CPP left and FPP left (of ...)")
    free_costs: tuple[FreeCost, ...] = ()  # what a free row costs, by what it is

    @property
    def columns(self) -> list[str]:
        return list(self.kind.header)

    @property
    def cost_columns(self) -> list[str]:
        return [a.name for a in self.accounts]

    @property
    def last_row(self) -> int:
        """0-based index of the form's last row (free rows included)."""
        return HEADER_ROW + len(self.rows) + self.free_rows

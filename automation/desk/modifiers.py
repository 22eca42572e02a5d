"""The Modifiers cell of a roll request (or of a tracker entry) read against
one table: named conditions of the table, ``NAME=N`` quantities, and DRMs.

``engineer_present; combat_strength=3; +1 night`` gives the condition
``engineer_present``, the quantity ``combat_strength`` = 3 and an extra DRM of
+1 named "night". A modifier's id may stand for its condition or quantity
(``engineer`` for ``engineer_present``)."""
from __future__ import annotations

import re

from automation.engine.resolver import AppliedModifier, Situation
from automation.engine.tables import Table

DRM = re.compile(r"^([+-]\s*\d+)\s*(.*)$")
QUANTITY = re.compile(r"^([A-Za-z][\w ]*?)\s*=\s*([+-]?\d+)$")
SPLIT = re.compile(r"[;,\n]")


class ModifierProblem(ValueError):
    """The text names something the table does not have; the message says what is valid."""


def _valid(table: Table) -> str:
    conditions = sorted({m.when for m in table.modifiers if m.when})
    inputs = sorted({m.input for m in table.modifiers if m.input})
    parts = [f"conditions: {', '.join(conditions)}" if conditions else "no named conditions",
             f"quantities: {', '.join(i + '=N' for i in inputs)}" if inputs else "no quantities",
             "or a DRM such as +2"]
    return "; ".join(parts)


def _condition(table: Table, name: str) -> str | None:
    for m in table.modifiers:
        if m.when and name in (m.when, m.id):
            return m.when
    return None


def _input(table: Table, name: str) -> str | None:
    for m in table.modifiers:
        if m.input and name in (m.input, m.id):
            return m.input
    return None


def parse(text: object, table: Table, column: str, source: str = "given") -> Situation:
    """The situation ``text`` describes for a roll on ``table``, column ``column``.

    Raises :class:`ModifierProblem` naming the item at fault and what is valid."""
    conditions: set[str] = set()
    quantities: dict[str, int] = {}
    extra: list[AppliedModifier] = []
    for raw in SPLIT.split("" if text is None else str(text)):
        item = raw.strip()
        if not item:
            continue
        if m := DRM.match(item):
            value = int(m.group(1).replace(" ", ""))
            extra.append(AppliedModifier(m.group(2).strip() or "Die-roll modifier given", value, source, "drm"))
            continue
        if m := QUANTITY.match(item):
            name = m.group(1).strip().lower().replace(" ", "_")
            key = _input(table, name)
            if key is None:
                raise ModifierProblem(f"{item!r}: table {table.id} has no quantity {name!r}; valid: {_valid(table)}")
            if key in quantities:
                raise ModifierProblem(f"{item!r}: {key} is given twice")
            quantities[key] = int(m.group(2))
            continue
        name = item.lower().replace(" ", "_")
        key = _condition(table, name)
        fixed = [mo for mo in table.modifiers if mo.id == name and mo.when is None and mo.input is None]
        if key is None and fixed:
            on = ", ".join(fixed[0].columns) or "every column"
            raise ModifierProblem(f"{item!r} is not a condition: table {table.id} applies it by itself on {on}; "
                                  "choose the column instead")
        if key is None:
            raise ModifierProblem(f"{item!r} is not a condition of table {table.id}; valid: {_valid(table)}")
        mods = [mo for mo in table.modifiers if mo.when == key]
        if not any(mo.applies_to(column) for mo in mods):
            where = sorted({c for mo in mods for c in mo.columns})
            raise ModifierProblem(f"{item!r} does not apply to column {column!r} of {table.id}; "
                                  f"it applies to: {', '.join(where)}")
        conditions.add(key)
    return Situation(frozenset(conditions), quantities, tuple(extra))


def describe(situation: Situation) -> str:
    """The situation written back in the syntax :func:`parse` reads (for the log)."""
    parts = sorted(situation.conditions) + [f"{k}={v}" for k, v in sorted(situation.quantities.items())]
    parts += [f"{m.value:+d} {m.name}" for m in situation.extra]
    return "; ".join(parts)

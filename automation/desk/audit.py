"""The audit trail of a desk roll, written the way the refit report writes it
(automation.workbook.bf_output.report_row): the dice, each modifier with its
name, value and rule, the DRM, the final number, the result and its odds; and
the guard that keeps an already logged roll from being made again with other
modifiers."""
from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from automation.engine.resolver import RollResult
from automation.render import percent
from automation.systems import BookSource


def dice_text(r: RollResult) -> str:
    if r.dice_kind.value == "d100":
        return f"d100: {r.dice[0] % 10}{r.dice[1] % 10}"
    return f"{r.dice_kind.value}: " + "+".join(str(d) for d in r.dice)


def modifiers_text(r: RollResult) -> str:
    return "; ".join(f"{m.value:+d} {m.name} ({m.source})" for m in r.modifiers) or "none"


@dataclass(frozen=True)
class Trail:
    """The cells of one roll in a log sheet."""

    table: str
    rule: str
    column: str
    dice: str
    natural: int
    modifiers: str
    drm: int
    final: int
    result: str
    odds: str
    label: str


def trail(r: RollResult) -> Trail:
    return Trail(r.table_id, r.source, r.column, dice_text(r), r.natural, modifiers_text(r), r.drm, r.final, r.result,
                 percent(r.probability), r.label)


@dataclass(frozen=True)
class Logged:
    """A roll already in a log sheet: where, and with which table, column and modifiers."""

    sheet: str
    row: int
    table: str
    column: str
    modifiers: str
    result: str


def _text(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value).strip()


def logged_rolls(book: BookSource, sheets: Iterable[str]) -> dict[str, Logged]:
    """Label -> the roll as logged, over the given log sheets (oldest first)."""
    out: dict[str, Logged] = {}
    for name in sheets:
        raw = book.raw(name)
        if not raw:
            continue
        header = [_text(h) for h in raw[0]]
        if "Label" not in header:
            continue
        pos = {h: i for i, h in enumerate(header)}

        def cell(row: list[Any], column: str) -> str:
            i = pos.get(column)
            return _text(row[i]) if i is not None and i < len(row) else ""

        for r, row in enumerate(raw[1:], start=2):
            label = cell(row, "Label")
            if label and label not in out:
                table = cell(row, "Table").split(" (")[0]
                out[label] = Logged(name, r, table, cell(row, "Column"), cell(row, "Modifiers"), cell(row, "Result"))
    return out


def changed_since_logged(r: RollResult, logged: Logged) -> str | None:
    """Why ``r`` differs from the roll logged under the same label (None: it does not)."""
    now = trail(r)
    for what, before, after in (("table", logged.table, now.table), ("modifiers", logged.modifiers, now.modifiers)):
        if before != after:
            return (f"this roll ({r.label}) was made in {logged.sheet} row {logged.row} with {what} {before!r}, "
                    f"now {after!r}; a roll is never made again: undo the change, or enter the new roll as a new entry")
    if logged.column and logged.column != now.column:
        return (f"this roll ({r.label}) was made in {logged.sheet} row {logged.row} on column {logged.column!r}, "
                f"now {now.column!r}; a roll is never made again")
    return None


def same_rows(a: list[list[Any]], b: list[list[Any]]) -> bool:
    """Do two sheets hold the same values (as a reader gives them back)?"""
    def norm(rows: list[list[Any]]) -> list[list[str]]:
        out = []
        for row in rows:
            cells = [_text(v) for v in row]
            while cells and cells[-1] == "":
                cells.pop()
            if cells:
                out.append(cells)
        return out

    return norm(a) == norm(b)

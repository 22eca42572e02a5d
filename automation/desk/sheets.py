"""Empty desk sheets to append to a workbook (``musterroll desk-add``): the roll
requests, each tracker's input sheet, the desk's settings and its tables. The
same contents can start a new campaign (see docs/desk.md)."""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from automation.desk.settings import rows as setting_rows
from automation.desk.trackers import TRACKERS
from automation.errors import UsageError
from automation.rulebook import load_rulebook
from automation.workbook.desk_sheets import DESK_MODIFIERS, DESK_SETTINGS, DESK_TABLES, ROLL_REQUESTS
from automation.workbook.package import ListValidation, NewSheet
from automation.workbook.schema import Kind, SheetKind
from automation.workbook.template import modifier_rows, table_rows

DESK_SYSTEMS = ("bf-house", "bfta-optional")  # the systems whose tables and settings the desk sheets hold
VALIDATED_ROWS = 1000
ADDABLE = ("roll-requests", *TRACKERS, "settings", "tables")


def _validations(kind: SheetKind) -> list[ListValidation]:
    out = []
    for i, c in enumerate(kind.columns):
        if c.kind in (Kind.CHOICE, Kind.BOOL) and isinstance(c.choices, tuple):
            out.append(ListValidation(i, c.choices, 1, VALIDATED_ROWS))
    return out


def sheet_for(kind: SheetKind, rows: Sequence[Sequence[Any]] = (), tab: str | None = None) -> NewSheet:
    return NewSheet(kind.title, [kind.header, *[list(r) for r in rows]], kind=tab or kind.tab,
                    column_widths=[c.width for c in kind.columns], validations=_validations(kind))


def starting_sheets() -> list[NewSheet]:
    """Every desk sheet, as a new campaign could start with them."""
    return [_make(w) for w in ADDABLE]


def _make(what: str) -> NewSheet:
    rulebook = load_rulebook()
    systems = [rulebook.systems[s] for s in DESK_SYSTEMS if s in rulebook.systems]
    if what == "roll-requests":
        return sheet_for(ROLL_REQUESTS)
    if what == "settings":
        ids = [sid for s in systems for sid in s.settings]
        return sheet_for(DESK_SETTINGS, setting_rows(ids))
    if what == "tables":
        return sheet_for(DESK_TABLES, [r for s in systems for r in table_rows(s)])
    if what == "modifiers":
        return sheet_for(DESK_MODIFIERS, [r for s in systems for r in modifier_rows(s)])
    tracker = TRACKERS[what]
    return sheet_for(tracker.kind, tracker.example_rows)


def new_sheets(book: Any, what: Sequence[str]) -> list[NewSheet]:
    """The sheets ``what`` names (``tables`` brings Desk modifiers too), skipping those already there."""
    unknown = [w for w in what if w not in ADDABLE]
    if unknown or not what:
        raise UsageError(f"unknown desk sheet {', '.join(unknown) or '(none given)'}; valid: {', '.join(ADDABLE)}")
    wanted = list(dict.fromkeys(what))
    if "tables" in wanted:
        wanted.insert(wanted.index("tables") + 1, "modifiers")
    sheets = [_make(w) for w in wanted]
    fresh = [s for s in sheets if not book.has(s.name)]
    if not fresh:
        raise UsageError(f"{book.path}: the workbook already has {', '.join(s.name for s in sheets)}")
    return fresh

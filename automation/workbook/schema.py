"""The workbook contract as data: every sheet kind, its columns, their types
and allowed values. Templates are generated from it, and every read is
validated against it, so the two can never disagree.

Allowed values come either from a fixed tuple or from a named list
(:class:`ListRef`) whose values the campaign supplies (sides, discipline
ladder, ME ids, ...); in Excel both become dropdowns.
"""
from __future__ import annotations

from automation.workbook import abtf_sheets, bf_sheets
from automation.workbook.columns import (  # noqa: F401  (the contract's building blocks, re-exported)
    CODE_COLUMNS, FORBIDDEN_SHEET_CHARS, MAX_DATE_LABEL, MAX_SHEET_NAME, YES_NO, Column, Kind, ListRef, SheetKind,
    check_date_label, check_sheet_name, choice, is_code_column,
)

# ---------------------------------------------------------------- shared sheets
SETTINGS = SheetKind(
    "settings", "Campaign",
    (Column("Setting", unique=True, width=38), Column("Value", Kind.INT_OR_TEXT, required=False, width=30),
     Column("Rule", required=False, width=12), Column("Notes", required=False, width=60)),
    tab="settings", description="One row per campaign setting: names, sides, dates, optional rules, the key's commitment.",
)
TABLES = SheetKind(
    "tables", "Tables",
    (Column("Table", width=28), Column("Title", width=34), Column("Rule", width=12), Column("Dice", width=7),
     Column("Min", Kind.INT, required=False, width=6), Column("Max", Kind.INT, required=False, width=6),
     Column("Column", width=18), Column("Natural", Kind.INT_OR_TEXT, required=False, width=9),
     Column("Result", required=False, width=44), Column("Effect", required=False, width=30)),
    tab="tables", description="Every band of every dice table, one row per band and column: edit results or band edges "
    "here. A row with a Natural (e.g. 2, doubles) is decided by the natural dice before any band. A table the rules do not "
    "print has one row with an empty Result: enter its bands there.",
)
MODIFIERS = SheetKind(
    "modifiers", "Modifiers",
    (Column("Table", width=28), Column("Modifier", width=22), Column("Name", width=44), Column("Value", Kind.INT, width=7),
     Column("When", required=False, width=22), Column("Input", required=False, width=20),
     Column("Per", Kind.INT, required=False, width=6), Column("Offset", Kind.INT, required=False, width=7),
     choice("Round", ("down", "up"), required=False, width=7), Column("Minimum", Kind.INT, required=False, width=8),
     Column("Group", required=False, width=14), Column("Columns", required=False, width=18), Column("Rule", width=12)),
    tab="tables", description="Every die-roll modifier of every table: edit a value here and the next refit uses it.",
)
CHARTS = SheetKind(
    "charts", "Charts",
    (Column("Chart", width=28), Column("Row", Kind.INT, width=6), Column("Field", width=22),
     Column("Value", Kind.INT_OR_TEXT, required=False, width=30), Column("Rule", width=12)),
    tab="tables", description="Lookup charts the rules print without dice (one row per cell), for reference: the refit "
    "uses the rules file's charts (the discipline ladder comes from the Lists sheet).",
)
LISTS = SheetKind(
    "lists", "Lists",
    (),
    tab="settings",
    description="One column per list of allowed values (discipline ladder low to high, ME classes, stand kinds): "
    "dropdowns offer what is here.",
)
SIDES_SHEET = SheetKind(
    "sides", "Sides",
    (Column("Side", unique=True, width=12, note="at most 10 characters: it is part of sheet names", name_part=10),
     Column("Nationality", width=12), Column("Starting CPP", Kind.INT, width=10), Column("Starting FPP", Kind.INT, width=10),
     Column("Armor withdrawal", Kind.CHOICE, choices=YES_NO, width=10),
     Column("First posture", Kind.CHOICE, required=False, choices=("Attack", "Defend"), width=10)),
    tab="settings", description="The two sides: nationality, starting CPP and FPP, armor withdrawal, first scenario's posture.",
)


SHARED_KINDS = (SETTINGS, SIDES_SHEET, TABLES, MODIFIERS, CHARTS, LISTS)


def _system_kinds() -> dict[str, tuple[SheetKind, ...]]:
    return {"bf-campaign": bf_sheets.KINDS, "asl-abtf": abtf_sheets.KINDS}


def sheet_kinds() -> dict[str, SheetKind]:
    """Every sheet kind of every system, by id (Battlefront's before A Bridge
    Too Far's: where both name a dated sheet alike, ``Orders {date} {side}``, a
    lookup over all kinds finds Battlefront's; :func:`system_kinds` tells them
    apart by the campaign's rule system)."""
    kinds = {k.id: k for k in SHARED_KINDS}
    for own in _system_kinds().values():
        kinds.update({k.id: k for k in own})
    return kinds


def system_kinds(system_id: str) -> dict[str, SheetKind]:
    """The sheet kinds of one rule system's campaigns, by id (the shared ones
    first). In an A Bridge Too Far campaign ``Orders 18AM British`` is that
    system's orders sheet (columns Order, Subject, Value, Units, Path, Notes),
    not Battlefront's; an unknown system gets every kind."""
    own = _system_kinds().get(system_id)
    if own is None:
        return sheet_kinds()
    kinds = {k.id: k for k in SHARED_KINDS}
    kinds.update({k.id: k for k in own})
    return kinds

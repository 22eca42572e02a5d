"""The workbook contract as data: every sheet kind, its columns, their types
and allowed values. Templates are generated from it, and every read is
validated against it, so the two can never disagree.

Allowed values come either from a fixed tuple or from a named list
(:class:`ListRef`) whose values the campaign supplies (sides, discipline
ladder, ME ids, ...); in Excel both become dropdowns.
"""
from __future__ import annotations

import enum
import re
from dataclasses import dataclass, field

FORBIDDEN_SHEET_CHARS = re.compile(r"[\[\]:*?/\\]")
MAX_SHEET_NAME = 31


class Kind(enum.Enum):
    TEXT = "text"
    INT = "integer"
    NUMBER = "number"
    BOOL = "Yes/No"
    CHOICE = "choice"
    INT_OR_TEXT = "integer or text"
    DATE = "date"  # a calendar date: a date cell, or text written YYYY-MM-DD; read as YYYY-MM-DD


@dataclass(frozen=True)
class ListRef:
    """Allowed values supplied by the campaign (e.g. ``sides``, ``discipline``)."""

    name: str


@dataclass(frozen=True)
class Column:
    name: str
    kind: Kind = Kind.TEXT
    required: bool = True
    choices: tuple[str, ...] | ListRef | None = None
    unique: bool = False
    width: float = 14
    note: str = ""
    name_part: int = 0  # the values become part of sheet names: at most this many characters, none of [ ] : * ? / \


@dataclass(frozen=True)
class SheetKind:
    """One kind of sheet. Static kinds have a fixed ``title``; dated kinds a
    ``pattern`` with ``{date}`` (and ``{side}``)."""

    id: str
    title: str
    columns: tuple[Column, ...]
    tab: str
    description: str
    dated: bool = False
    per_side: bool = False
    rule: str = ""
    extra: tuple[Column, ...] = field(default=())

    def column(self, name: str) -> Column:
        for c in self.columns:
            if c.name == name:
                return c
        raise KeyError(name)

    def name_for(self, date: str = "", side: str = "") -> str:
        name = self.title.format(date=date, side=side)
        check_sheet_name(name)
        return name

    @property
    def header(self) -> list[str]:
        return [c.name for c in self.columns]


def check_sheet_name(name: str) -> str:
    """Raise ValueError unless ``name`` is a valid Excel sheet name."""
    if re.search("[\ud800-\udfff]", name):
        raise ValueError(f"sheet name {name!r} holds a lone surrogate, which is not a character")
    length = len(name.encode("utf-16-le")) // 2  # as Excel counts
    if not name or length > MAX_SHEET_NAME:
        raise ValueError(f"sheet name {name!r} must be 1-{MAX_SHEET_NAME} characters (it has {length})")
    bad = FORBIDDEN_SHEET_CHARS.search(name)
    if bad:
        raise ValueError(f"sheet name {name!r} may not contain {bad.group()!r} (none of [ ] : * ? / \\)")
    if name.startswith("'") or name.endswith("'"):
        raise ValueError(f"sheet name {name!r} may not begin or end with an apostrophe")
    if name.lower() == "history":
        raise ValueError("'History' is reserved by Excel")
    return name


MAX_DATE_LABEL = 12

# Columns whose values are codes that look like dates or numbers to a spreadsheet
# (ASL factors 6-5-8, leader ratings 8-1, unit and RG IDs, date labels): every
# template and every sheet written formats them as Text, and the reader explains
# a value Excel has already turned into a date or a number.
CODE_COLUMNS = frozenset({
    "Date", "CG Date", "ID", "RG", "RG ID", "Unit", "Strength", "Squad/HS", "Replaced by", "Str", "# Units",
    "Stand", "ME", "Subject", "Location", "With", "Item", "Leader", "Units", "KG",
})


def is_code_column(header: str) -> bool:
    return header.strip() in CODE_COLUMNS


def check_date_label(label: str) -> str:
    """A CG date label as used in sheet names: 'Dec 24', 'Dec 24 AM', '18PM';
    counted in UTF-16 units, as Excel counts a sheet name."""
    label = str(label).strip()
    length = len(label.encode("utf-16-le", "surrogatepass")) // 2
    if not label or length > MAX_DATE_LABEL:
        raise ValueError(f"date {label!r} must be 1-{MAX_DATE_LABEL} characters (as a sheet name counts them; "
                         f"it has {length})")
    bad = FORBIDDEN_SHEET_CHARS.search(label)
    if bad:
        raise ValueError(f"date {label!r} may not contain {bad.group()!r}")
    return label


YES_NO = ("Yes", "No")


def choice(name: str, values: tuple[str, ...] | ListRef, **kw: object) -> Column:
    return Column(name, Kind.CHOICE, choices=values, **kw)  # type: ignore[arg-type]


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
    from automation.workbook import abtf_sheets, bf_sheets

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

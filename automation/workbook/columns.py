"""The workbook contract's building blocks: a sheet kind, its columns, their
types and allowed values, and the rules for sheet names and date labels.
The kinds themselves are in :mod:`automation.workbook.schema` (shared ones)
and one module per rule system (:mod:`.bf_sheets`, :mod:`.abtf_sheets`).
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


START = "Start"  # the date label of the umpire's initial roster: "Roster Start"
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

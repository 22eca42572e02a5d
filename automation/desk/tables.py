"""Every table the desk may roll on, as the workbook holds it.

Order of precedence, last wins:
1. the rules files (automation.rulebook): every table of every system;
2. the campaign's own Tables and Modifiers sheets (for the system named on the
   Campaign sheet), read by automation.workbook.tables_io.system_from_workbook;
3. the Desk tables / Desk modifiers sheets, for the tables of the other systems
   (house rules, BFTA optional rules) in the same format. A table with rows in
   Desk tables takes its modifiers from Desk modifiers when that sheet exists,
   else from its rules file.
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from automation.engine.tables import RuleSystem, Table
from automation.errors import CellProblem, WorkbookError
from automation.rulebook import load_rulebook
from automation.systems import BookSource
from automation.workbook.desk_sheets import DESK_MODIFIERS, DESK_TABLES
from automation.workbook.reader import SheetRow, column_letter
from automation.workbook.schema import MODIFIERS, SETTINGS, TABLES
from automation.workbook.template import modifier_rows


class _View:
    """A stand-in book whose Tables/Modifiers are given rows (for one system)."""

    def __init__(self, path: Any, tables: list[SheetRow], modifiers: list[SheetRow]) -> None:
        self.path = path
        self._rows = {TABLES.id: tables, MODIFIERS.id: modifiers}

    def read(self, kind: Any, name: str | None = None, lists: Any = None) -> list[SheetRow]:
        return self._rows[kind.id]


def _rows_of(sheet: str, header: list[str], rows: list[list[Any]]) -> list[SheetRow]:
    letters = {h: column_letter(i) for i, h in enumerate(header)}
    return [SheetRow(sheet, r, dict(zip(header, row)), letters) for r, row in enumerate(rows, start=2)]


def campaign_system_id(book: BookSource) -> str | None:
    if not book.has(SETTINGS.title):
        return None
    for row in book.read(SETTINGS):
        if row["Setting"] == "Rule system":
            return str(row["Value"] or "") or None
    return None


def _renamed(exc: WorkbookError, sheet: str) -> WorkbookError:
    problems = [CellProblem(sheet if p.sheet == TABLES.title else p.sheet, p.cell, p.message) for p in exc.problems]
    return WorkbookError(problems, exc.path)


def desk_tables(book: BookSource | None) -> dict[str, Table]:
    """Every table of every system, with the workbook's edits and entries."""
    from automation.workbook.tables_io import system_from_workbook

    rulebook = load_rulebook()
    tables: dict[str, Table] = {t.id: t for t in rulebook.all_tables()}
    if book is None:
        return tables
    own = campaign_system_id(book)
    if own in rulebook.systems and book.has(TABLES.title) and book.has(MODIFIERS.title):
        tables.update(system_from_workbook(book, rulebook.systems[own]).tables)  # type: ignore[arg-type]
    if book.has(DESK_TABLES.title):
        tables.update(_desk_sheet_tables(book, rulebook.systems))
    return tables


def _desk_sheet_tables(book: BookSource, systems: Mapping[str, RuleSystem]) -> dict[str, Table]:
    from automation.workbook.tables_io import system_from_workbook

    rows = book.read(TABLES, DESK_TABLES.title)
    mods = book.read(MODIFIERS, DESK_MODIFIERS.title) if book.has(DESK_MODIFIERS.title) else None
    owner = {tid: s for s in systems.values() for tid in s.tables}
    problems = [r.problem("Table", f"unknown table {r['Table']!r}; valid: {', '.join(sorted(owner))}")
                for r in rows if r["Table"] not in owner]
    problems += [r.problem("Table", f"unknown table {r['Table']!r}; valid: {', '.join(sorted(owner))}")
                 for r in mods or () if r["Table"] not in owner]
    if problems:
        raise WorkbookError(problems, str(book.path))
    out: dict[str, Table] = {}
    for system in systems.values():
        mine = [r for r in rows if owner[r["Table"]] is system]
        if not mine:
            continue
        present = {r["Table"] for r in mine}
        if mods is not None:
            my_mods = [r for r in mods if r["Table"] in present]
        else:
            sub = RuleSystem(system.id, system.title, system.seed, system.origin,
                             {t: system.tables[t] for t in present}, {}, {})
            my_mods = _rows_of(f"{system.origin} (modifiers)", MODIFIERS.header, modifier_rows(sub))
        try:
            built = system_from_workbook(_View(book.path, mine, my_mods), system)  # type: ignore[arg-type]
        except WorkbookError as exc:
            raise _renamed(exc, DESK_TABLES.title) from None
        out.update({t: built.tables[t] for t in present})
    return out

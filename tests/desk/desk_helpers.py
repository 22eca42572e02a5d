"""Shared test helpers for the desk: scripted dice through the real resolver,
settings, input rows built as a reader gives them, and workbooks to run on."""
from __future__ import annotations

import dataclasses
import shutil
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from automation.desk.settings import Settings
from automation.desk.trackers.base import Context
from automation.engine.resolver import RollResult, Situation, resolve
from automation.engine.tables import Band, RuleSystem, Table
from automation.rulebook import load_rulebook
from automation.workbook.package import NewSheet, append_sheets
from automation.workbook.reader import SheetRow, column_letter
from automation.workbook.schema import SheetKind

SAMPLES = Path(__file__).resolve().parents[2] / "samples"


class ScriptedDice:
    """The interface of automation.campaign.model.Dice (and the desk's dice),
    throwing the given natural dice, in order, through the real resolver."""

    def __init__(self, *throws: int | tuple[int, ...], tables: Mapping[str, Table] | None = None,
                 date: str = "scripted") -> None:
        self.throws = [t if isinstance(t, tuple) else (t,) for t in throws]
        self.tables = dict(tables or {t.id: t for t in load_rulebook().all_tables()})
        self.system = RuleSystem("scripted", "Scripted", "-", "tests", self.tables, {}, {})
        self.date = date
        self.rolls: list[RollResult] = []

    def table(self, table_id: str) -> Table:
        return self.tables[table_id]

    def roll(self, table_id: str, label: Sequence[object], situation: Situation = Situation(),
             column: str | None = None) -> RollResult:
        if not self.throws:
            raise AssertionError(f"no scripted dice left for {table_id} {label}")
        result = resolve(self.table(table_id), self.throws.pop(0), situation, column=column,
                         label="/".join(str(p) for p in (self.date, *label)))
        self.rolls.append(result)
        return result

    @property
    def unused(self) -> int:
        return len(self.throws)


def context(*throws: int | tuple[int, ...], tables: Mapping[str, Table] | None = None, **settings: Any) -> Context:
    return Context(Settings.defaults(**settings), ScriptedDice(*throws, tables=tables))


def rows(kind: SheetKind, *records: Mapping[str, Any], sheet: str | None = None) -> list[SheetRow]:
    """Rows of ``kind``'s sheet as the validated reader gives them (row 2 on)."""
    out = []
    letters = {c: column_letter(i) for i, c in enumerate(kind.header)}
    for r, record in enumerate(records, start=2):
        unknown = set(record) - set(kind.header)
        assert not unknown, unknown
        values = {c: record.get(c) for c in kind.header}
        out.append(SheetRow(sheet or kind.title, r, values, letters))
    return out


def with_bands(table: Table, bands: Iterable[tuple[int | None, int | None, Mapping[str, str], Mapping[str, Any]]]) -> Table:
    """``table`` with the bands an umpire entered: (min, max, results by column, effects by column)."""
    return dataclasses.replace(table, bands=tuple(Band(lo, hi, dict(res), dict(eff)) for lo, hi, res, eff in bands))


def sample_copy(folder: Path, name: str = "book") -> Path:
    book = folder / f"{name}.xlsx"
    shutil.copyfile(SAMPLES / "advance_to_rostov.xlsx", book)
    shutil.copyfile(SAMPLES / "advance_to_rostov.key", folder / f"{name}.key")
    return book


def fill(book: Path, kind: SheetKind, records: Sequence[Sequence[Any]], name: str | None = None,
         header: Sequence[str] | None = None) -> None:
    """The umpire fills in a sheet (appended here as its own batch)."""
    append_sheets(book, [NewSheet(name or kind.title, [list(header or kind.header), *[list(r) for r in records]],
                                  kind="orders")], batch=f"umpire {name or kind.title}")


def edit(book: Path, sheet: str, records: Sequence[Sequence[Any]]) -> None:
    """The umpire edits a sheet in a spreadsheet program and saves (rows 2 on replaced)."""
    import openpyxl

    wb = openpyxl.load_workbook(book)
    ws = wb[sheet]
    ws.delete_rows(2, ws.max_row)
    for record in records:
        ws.append(list(record))
    wb.save(book)

"""The open Excel workbook as a book source (automation.systems.BookSource).

Excel (through xlwings) presents a cell as ``None`` when empty, every number as
a float and a date as a ``datetime``; the file adapter (python-calamine) gives
``""``, floats, and a ``date`` when there is no time of day. :func:`cell_value`
turns the first into the second, so the refit reads the same values either way
and every check of the sheet contract (:func:`automation.workbook.reader.validate_rows`)
runs unchanged, naming Sheet!Cell in its messages.

The xlwings calls used here: ``book.fullname``, ``book.sheets`` (iterated,
each ``.name``), ``sheet.used_range.last_cell.row/.column`` and
``sheet.range((1, 1), (rows, cols)).options(ndim=2).value``.
"""
from __future__ import annotations

import datetime as dt
import hashlib
import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from automation.errors import CellProblem, WorkbookError, WorkbookFileError
from automation.workbook.reader import (
    MAX_CELLS, MAX_COLUMNS, MAX_ROWS, SheetRow, cell_ref, column_letter, lists_from_rows, missing_sheet, present_sheets,
    validate_rows,
)
from automation.workbook.schema import LISTS, SheetKind

EXCEL_DAY_ZERO = (dt.date(1899, 12, 30), dt.date(1899, 12, 31))


def cell_value(value: Any) -> Any:
    """One cell as Excel gives it -> as the file adapter reads it."""
    if value is None:
        return ""
    if isinstance(value, bool) or isinstance(value, str):
        return value
    if isinstance(value, int):
        return float(value)
    if isinstance(value, dt.datetime):
        if value.tzinfo is not None:
            value = value.replace(tzinfo=None)
        if value.date() in EXCEL_DAY_ZERO and value.time() != dt.time(0):
            return value.time()
        return value.date() if value.time() == dt.time(0) else value
    return value


def extent_problems(name: str, height: int, width: int) -> list[CellProblem]:
    """Refuse, before reading, a sheet whose used range reaches too far."""
    corner = cell_ref(width - 1, height)
    if height > MAX_ROWS:
        return [CellProblem(name, corner, f"the sheet's used range reaches row {height}; at most {MAX_ROWS} rows are "
                                          "read: clear the cells below the table")]
    if width > MAX_COLUMNS:
        return [CellProblem(name, corner, f"the sheet's used range reaches column {column_letter(width - 1)}; at most "
                                          f"{MAX_COLUMNS} columns are read: clear the cells right of the table")]
    if height * width > MAX_CELLS:
        return [CellProblem(name, corner, f"the sheet's used range reaches {corner}, {height * width} cells; at most "
                                          f"{MAX_CELLS} are read: clear the cells far from the table")]
    return []


class ExcelSource:
    """A workbook open in Excel, read through the sheet contract. Reading never
    writes; each sheet is read from Excel once (one call for its whole area)."""

    def __init__(self, book: Any) -> None:
        self.book = book
        fullname = str(book.fullname or "")
        self.path = Path(fullname)
        if not fullname or not self.path.is_absolute():
            raise WorkbookFileError(
                f"{book.name}: the workbook has not been saved yet. Save it as .xlsx in the folder of its key file "
                "(BOOK.key beside BOOK.xlsx), then click Refit again")
        self._sheets = {sheet.name: sheet for sheet in book.sheets}
        self.sheet_names: list[str] = list(self._sheets)
        self._rows: dict[str, list[list[Any]]] = {}

    def has(self, name: str) -> bool:
        return name in self._sheets

    def raw(self, name: str) -> list[list[Any]]:
        """Every cell from A1 to the last used cell, rows padded to one width."""
        if name not in self._sheets:
            raise WorkbookError(CellProblem(name, "A1", f"the sheet {name!r} is missing; "
                                                        f"{present_sheets(self.sheet_names)}"), str(self.path))
        if name not in self._rows:
            sheet = self._sheets[name]
            last = sheet.used_range.last_cell
            height, width = int(last.row), int(last.column)
            if problems := extent_problems(name, height, width):
                raise WorkbookError(problems, str(self.path))
            values = sheet.range((1, 1), (height, width)).options(ndim=2).value or []
            rows = [[cell_value(v) for v in row] + [""] * (width - len(row)) for row in values]
            while rows and all(v == "" for v in rows[-1]):
                rows.pop()
            self._rows[name] = rows
        return [list(row) for row in self._rows[name]]

    def read(self, kind: SheetKind, name: str | None = None,
             lists: Mapping[str, Sequence[str]] | None = None) -> list[SheetRow]:
        """The validated rows of sheet ``name`` (default: the kind's title)."""
        name = name or kind.title
        if name not in self._sheets:
            raise WorkbookError(missing_sheet(name, kind, self.sheet_names), str(self.path))
        return validate_rows(name, kind, self.raw(name), lists or {}, str(self.path))

    def read_lists(self, name: str = "Lists") -> dict[str, list[str]]:
        """A wide sheet: one column per list, the header is the list's name."""
        if name not in self._sheets:
            raise WorkbookError(missing_sheet(name, LISTS, self.sheet_names), str(self.path))
        return lists_from_rows(name, self.raw(name), str(self.path))

    @property
    def digest(self) -> str:
        """SHA-256 of every sheet's name and values as read (the live book has no file bytes)."""
        h = hashlib.sha256()
        for name in self.sheet_names:
            h.update(json.dumps([name, self.raw(name)], default=str, ensure_ascii=False).encode("utf-8"))
        return h.hexdigest()

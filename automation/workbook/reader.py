"""Fast, validated reads of the sheets a step needs (python-calamine).

Only the sheets asked for are parsed. Every value is checked against the
sheet's :class:`SheetKind`; all problems of a sheet are collected and raised
together as one :class:`WorkbookError`, each naming Sheet!Cell, what is there
and what would be valid. Reading never writes.
"""
from __future__ import annotations

import datetime as dt
import hashlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from automation.errors import CellProblem, WorkbookError, WorkbookFileError
from automation.workbook.schema import Column, Kind, ListRef, SheetKind

MAX_ROWS = 200_000
MAX_COLUMNS = 500


def column_letter(index: int) -> str:
    """0 -> A, 25 -> Z, 26 -> AA."""
    letters = ""
    index += 1
    while index:
        index, rem = divmod(index - 1, 26)
        letters = chr(65 + rem) + letters
    return letters


def cell_ref(col: int, row: int) -> str:
    return f"{column_letter(col)}{row}"


@dataclass(frozen=True)
class SheetRow:
    """One data row of a sheet, values keyed by column name, with its cells."""

    sheet: str
    row: int
    values: Mapping[str, Any]
    cells: Mapping[str, str]

    def __getitem__(self, column: str) -> Any:
        return self.values.get(column)

    def get(self, column: str, default: Any = None) -> Any:
        value = self.values.get(column)
        return default if value is None else value

    def cell(self, column: str) -> str:
        return self.cells.get(column) or f"A{self.row}"

    def problem(self, column: str, message: str) -> CellProblem:
        return CellProblem(self.sheet, self.cell(column), message)


def describe(value: Any) -> str:
    if value is None or value == "":
        return "an empty cell"
    if isinstance(value, str):
        return f"text {value!r}"
    if isinstance(value, bool):
        return f"{'TRUE' if value else 'FALSE'}"
    if isinstance(value, float) and value.is_integer():
        return f"the number {int(value)}"
    if isinstance(value, (dt.date, dt.datetime)):
        return f"the date {value.isoformat()}"
    return f"the number {value}"


class Workbook:
    """A campaign workbook opened for reading. Keeps the digest of the bytes it
    read, so a later write can refuse if the file changed on disk meanwhile."""

    def __init__(self, path: Path) -> None:
        from automation.workbook.safety import check_package

        self.path = Path(path)
        try:
            data = self.path.read_bytes()
        except FileNotFoundError:
            raise WorkbookFileError(f"{self.path}: no such file") from None
        except OSError as exc:
            raise WorkbookFileError(f"{self.path}: cannot be read ({exc.strerror})") from None
        check_package(self.path, data)
        self.digest = hashlib.sha256(data).hexdigest()
        from python_calamine import CalamineError, CalamineWorkbook

        try:
            self._book = CalamineWorkbook.from_filelike(__import__("io").BytesIO(data))
        except (CalamineError, ValueError, OSError) as exc:
            raise WorkbookFileError(f"{self.path}: not a readable .xlsx workbook ({exc})") from None
        self.sheet_names: list[str] = list(self._book.sheet_names)

    def has(self, name: str) -> bool:
        return name in self.sheet_names

    def raw(self, name: str) -> list[list[Any]]:
        if name not in self.sheet_names:
            raise WorkbookError(CellProblem(name, "A1", "the sheet is missing"), str(self.path))
        sheet = self._book.get_sheet_by_name(name)
        if sheet.height > MAX_ROWS or sheet.width > MAX_COLUMNS:
            raise WorkbookError(
                CellProblem(name, "A1", f"the sheet is {sheet.height} rows by {sheet.width} columns; at most "
                                        f"{MAX_ROWS} rows and {MAX_COLUMNS} columns are read"), str(self.path))
        rows = sheet.to_python(skip_empty_area=False)
        return [list(r) for r in rows]

    def read(
        self,
        kind: SheetKind,
        name: str | None = None,
        lists: Mapping[str, Sequence[str]] | None = None,
    ) -> list[SheetRow]:
        """The validated rows of sheet ``name`` (default: the kind's title)."""
        name = name or kind.title
        return validate_rows(name, kind, self.raw(name), lists or {}, str(self.path))

    def read_lists(self, name: str = "Lists") -> dict[str, list[str]]:
        """A wide sheet: one column per list, the header is the list's name."""
        rows = self.raw(name)
        if not rows:
            return {}
        out: dict[str, list[str]] = {}
        problems: list[CellProblem] = []
        for col, head in enumerate(rows[0]):
            if head in (None, ""):
                continue
            values: list[str] = []
            for r, row in enumerate(rows[1:], start=2):
                v = row[col] if col < len(row) else ""
                if v in (None, ""):
                    continue
                if not isinstance(v, str):
                    problems.append(CellProblem(name, cell_ref(col, r), f"{describe(v)} where a list value (text) is expected"))
                    continue
                if v.strip() in values:
                    problems.append(CellProblem(name, cell_ref(col, r), f"{v!r} appears twice in list {head!r}"))
                values.append(v.strip())
            out[str(head).strip()] = values
        if problems:
            raise WorkbookError(problems, str(self.path))
        return out


def _as_text(value: Any) -> str | None:
    if isinstance(value, str):
        return value.strip()
    return None


def _date_text(value: Any) -> str | None:
    """Excel turns 'Dec 24' typed in a cell into a date: read it back as typed."""
    if isinstance(value, (dt.datetime, dt.date)):
        return value.strftime("%b %d").replace(" 0", " ")
    return None


def convert(column: Column, value: Any, lists: Mapping[str, Sequence[str]]) -> tuple[Any, str | None]:
    """(converted value, None) or (None, message saying what is wrong)."""
    empty = value is None or (isinstance(value, str) and not value.strip())
    if empty:
        return None, (None if not column.required else f"is empty; {expected(column, lists)} is required")
    kind = column.kind
    if kind is Kind.TEXT:
        text = _as_text(value) or _date_text(value)
        if text is None:
            return None, f"{describe(value)} where text is expected"
        return text, None
    if kind in (Kind.INT, Kind.NUMBER, Kind.INT_OR_TEXT):
        if isinstance(value, bool):
            return None, f"{describe(value)} where {expected(column, lists)} is expected"
        if isinstance(value, (int, float)):
            if kind is Kind.NUMBER:
                return float(value), None
            if float(value).is_integer():
                return int(value), None
            return None, f"{describe(value)} where a whole number is expected"
        if isinstance(value, str):
            text = value.strip()
            try:
                return (int(text) if kind is not Kind.NUMBER else float(text)), None
            except ValueError:
                if kind is Kind.INT_OR_TEXT:
                    return text, None
                return None, f"{describe(value)} where {expected(column, lists)} is expected"
        date = _date_text(value)
        if date is not None and kind is Kind.INT_OR_TEXT:
            return date, None
        return None, f"{describe(value)} where {expected(column, lists)} is expected"
    if kind in (Kind.CHOICE, Kind.BOOL):
        allowed = allowed_values(column, lists)
        text = _as_text(value) or _date_text(value)
        if text is None and isinstance(value, bool):
            text = "Yes" if value else "No"
        if text is None and isinstance(value, (int, float)) and float(value).is_integer():
            text = str(int(value))
        if text is not None:
            for a in allowed:
                if a.lower() == text.lower():
                    return a, None
        return None, f"{describe(value)} is not allowed; valid: {', '.join(allowed) or '(the list is empty)'}"
    raise AssertionError(kind)  # pragma: no cover


def allowed_values(column: Column, lists: Mapping[str, Sequence[str]]) -> tuple[str, ...]:
    if isinstance(column.choices, ListRef):
        return tuple(lists.get(column.choices.name, ()))
    if column.kind is Kind.BOOL:
        return ("Yes", "No")
    return tuple(column.choices or ())


def expected(column: Column, lists: Mapping[str, Sequence[str]]) -> str:
    if column.kind is Kind.INT:
        return "a whole number"
    if column.kind is Kind.NUMBER:
        return "a number"
    if column.kind is Kind.INT_OR_TEXT:
        return "a value"
    if column.kind in (Kind.CHOICE, Kind.BOOL):
        return "one of " + ", ".join(allowed_values(column, lists))
    return "text"


def validate_rows(
    sheet: str,
    kind: SheetKind,
    raw: list[list[Any]],
    lists: Mapping[str, Sequence[str]],
    path: str | None = None,
    extra_check: Callable[[SheetRow], list[CellProblem]] | None = None,
) -> list[SheetRow]:
    problems: list[CellProblem] = []
    if not raw:
        raise WorkbookError(CellProblem(sheet, "A1", f"the sheet is empty; the header row must be: {', '.join(kind.header)}"), path)
    header = [str(h).strip() if h is not None else "" for h in raw[0]]
    positions: dict[str, int] = {}
    for i, h in enumerate(header):
        if h and h in positions:
            problems.append(CellProblem(sheet, cell_ref(i, 1), f"column {h!r} appears twice in the header"))
        positions.setdefault(h, i)
    for c in kind.columns:
        if c.name not in positions:
            where = cell_ref(len([h for h in header if h]), 1)
            problems.append(CellProblem(sheet, where, f"missing column {c.name!r}; the header row must hold: {', '.join(kind.header)}"))
    if problems:
        raise WorkbookError(problems, path)
    rows: list[SheetRow] = []
    seen: dict[tuple[str, Any], str] = {}
    for r, raw_row in enumerate(raw[1:], start=2):
        cells_present = [v for v in raw_row if not (v is None or (isinstance(v, str) and not v.strip()))]
        if not cells_present:
            continue
        values: dict[str, Any] = {}
        cells: dict[str, str] = {}
        for c in kind.columns:
            col = positions[c.name]
            ref = cell_ref(col, r)
            cells[c.name] = ref
            value = raw_row[col] if col < len(raw_row) else None
            converted, message = convert(c, value, lists)
            if message:
                problems.append(CellProblem(sheet, ref, f"{c.name}: {message}"))
                continue
            values[c.name] = converted
            if c.unique and converted is not None:
                key = (c.name, str(converted).lower())
                if key in seen:
                    problems.append(CellProblem(sheet, ref, f"{c.name}: {converted!r} is already used at {seen[key]}; it must be unique"))
                else:
                    seen[key] = ref
        row = SheetRow(sheet, r, values, cells)
        if extra_check:
            problems.extend(extra_check(row))
        rows.append(row)
    if problems:
        raise WorkbookError(problems, path)
    return rows

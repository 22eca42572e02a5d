"""Writing a player's export: a whole new workbook (XlsxWriter), holding only
what is given to it. Nothing else goes in: no hidden sheet, no defined name, no
comment, no formula, blank document properties; every text is written as text
(text that starts with = + - @ never becomes a formula)."""
from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from automation.workbook.sheetgraft import TAB_COLOURS

NEUTRAL_DATE = dt.datetime(2000, 1, 1)
MAX_WIDTH = 60


@dataclass(frozen=True)
class Dropdown:
    """A dropdown on one column from ``first_row`` to ``last_row`` (0-based,
    header = 0): a list of values, or a range such as ``=Choices!$A$2:$A$40``.
    ``strict=False`` lets other values be typed (Excel only warns)."""

    column: int
    source: Sequence[str] | str
    first_row: int = 1
    last_row: int = 200
    strict: bool = True
    title: str = ""
    message: str = ""


@dataclass(frozen=True)
class OutSheet:
    name: str
    rows: Sequence[Sequence[Any]]  # header first
    tab: str = "report"
    widths: Sequence[float] | None = None
    dropdowns: Sequence[Dropdown] = field(default_factory=tuple)
    notes: Sequence[tuple[int, str]] = ()  # (column, text) written in the header row after the columns


def _width(rows: Sequence[Sequence[Any]], col: int) -> float:
    longest = max((len(str(r[col])) for r in rows[:200] if col < len(r) and r[col] is not None), default=8)
    return float(min(max(longest + 2, 8), MAX_WIDTH))


def write(path: Path, sheets: Sequence[OutSheet]) -> None:
    import xlsxwriter

    book = xlsxwriter.Workbook(str(path), {"strings_to_formulas": False, "strings_to_urls": False,
                                           "strings_to_numbers": False})
    book.set_properties({"title": "", "subject": "", "author": "", "manager": "", "company": "", "category": "",
                         "keywords": "", "comments": "", "status": "", "created": NEUTRAL_DATE})
    head = book.add_format({"bold": True, "bg_color": "#D9E1F2", "border": 1})
    note = book.add_format({"bold": True, "font_color": "#C00000"})
    try:
        for sheet in sheets:
            ws = book.add_worksheet(sheet.name)
            ws.set_tab_color(TAB_COLOURS.get(sheet.tab, "#7F7F7F"))
            width = max((len(r) for r in sheet.rows), default=0)
            for c in range(width):
                w = sheet.widths[c] if sheet.widths and c < len(sheet.widths) else _width(sheet.rows, c)
                ws.set_column(c, c, w)
            for r, row in enumerate(sheet.rows):
                for c, value in enumerate(row):
                    _cell(ws, r, c, value, head if r == 0 else None)
            for c, text in sheet.notes:
                ws.write_string(0, c, text, note)
                ws.set_column(c, c, max(len(text) + 2, 12))
            ws.freeze_panes(1, 0)
            for d in sheet.dropdowns:
                options: dict[str, Any] = {"validate": "list", "source": d.source, "ignore_blank": True}
                if not d.strict:
                    options["error_type"] = "information"
                if d.title:
                    options["input_title"] = d.title[:32]
                if d.message:
                    options["input_message"] = d.message[:255]
                ws.data_validation(d.first_row, d.column, d.last_row, d.column, options)
    finally:
        book.close()


def _cell(ws: Any, r: int, c: int, value: Any, fmt: Any) -> None:
    if value is None or value == "":
        return
    if isinstance(value, bool):
        ws.write_string(r, c, "Yes" if value else "No", fmt)
    elif isinstance(value, (int, float)):
        ws.write_number(r, c, value, fmt)
    elif isinstance(value, dt.datetime):
        ws.write_string(r, c, value.date().isoformat() if value.time() == dt.time() else value.isoformat(), fmt)
    elif isinstance(value, dt.date):
        ws.write_string(r, c, value.isoformat(), fmt)
    else:
        ws.write_string(r, c, str(value), fmt)

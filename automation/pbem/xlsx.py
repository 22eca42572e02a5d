"""Writing a player's export: a whole new workbook (XlsxWriter), holding only
what is given to it. Nothing else goes in: no hidden sheet, no defined name
(but print titles), no comment, no formula but a form's own totals
(:mod:`automation.workbook.forms.draw`), blank document properties; every text is written as text
through :func:`automation.workbook.text.write_text` (text that starts with
= + - @ never becomes a formula, text shaped like rich-text markup stays text).
Every sheet prints one page wide with its header repeated, landscape when wide
(:mod:`automation.workbook.layout`); code columns (factors, IDs, date labels) are
Text-formatted, and a date in one of them is written as its label."""
from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from automation.workbook.layout import WIDE_COLUMN, code_columns, header_width, page_setup
from automation.workbook.sheetgraft import TAB_COLOURS
from automation.workbook.text import check_calendar_date, date_label, write_text

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
    form: Any = None  # an automation.workbook.forms.model.Form: the sheet is that form, drawn by its own module


def _width(rows: Sequence[Sequence[Any]], col: int) -> float:
    longest = max((len(str(r[col])) for r in rows[:200] if col < len(r) and r[col] is not None), default=8)
    return float(min(max(longest + 2, 8), MAX_WIDTH))


def write(path: Path, sheets: Sequence[OutSheet]) -> None:
    import xlsxwriter

    book = xlsxwriter.Workbook(str(path), {"strings_to_formulas": False, "strings_to_urls": False,
                                           "strings_to_numbers": False, "in_memory": True})
    book.set_properties({"title": "", "subject": "", "author": "", "manager": "", "company": "", "category": "",
                         "keywords": "", "comments": "", "status": "", "created": NEUTRAL_DATE})
    styles = {
        "head": book.add_format({"bold": True, "bg_color": "#D9E1F2", "border": 1}),
        "note": book.add_format({"bold": True, "font_color": "#C00000"}),
        "text": book.add_format({"num_format": "@"}),
        "left": book.add_format({"align": "left"}),
        "wrap": book.add_format({"text_wrap": True, "valign": "top"}),
        "run": book.add_format({}),
    }
    try:
        for sheet in sheets:
            ws = book.add_worksheet(sheet.name)
            ws.set_tab_color(TAB_COLOURS.get(sheet.tab, "#7F7F7F"))
            if sheet.form is not None:
                from automation.workbook.forms.draw import draw

                draw(book, ws, sheet.form)
                continue
            width = max((len(r) for r in sheet.rows), default=0)
            codes = set(code_columns(sheet.rows[0])) if sheet.rows else set()
            widths = [sheet.widths[c] if sheet.widths and c < len(sheet.widths) else _width(sheet.rows, c)
                      for c in range(width)]
            widths = [max(w, header_width(sheet.rows[0][c] if c < len(sheet.rows[0]) else None)) for c, w in enumerate(widths)]
            for c, w in enumerate(widths):
                column_style = "text" if c in codes else "wrap" if w >= MAX_WIDTH else None
                ws.set_column(c, c, w, styles[column_style] if column_style else None)
            for r, row in enumerate(sheet.rows):
                for c, value in enumerate(row):
                    style = "head" if r == 0 else "text" if c in codes else \
                        "left" if c < len(widths) and widths[c] >= WIDE_COLUMN else None
                    _cell(ws, r, c, value, styles, style, Where(sheet.name, r, c))
            for c, text in sheet.notes:
                write_text(ws, 0, c, text, f"{sheet.name}!{_ref(0, c)}", styles["note"], styles["run"])
                ws.set_column(c, c, max(len(text) + 2, 12))
                widths += [12.0] * (c + 1 - len(widths))
                widths[c] = max(len(text) + 2, 12)
            page_setup(ws, widths)
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


class Where:
    """Sheet!Cell of a cell written, spelled out only if a message names it."""

    __slots__ = ("sheet", "r", "c")

    def __init__(self, sheet: str, r: int, c: int) -> None:
        self.sheet, self.r, self.c = sheet, r, c

    def __str__(self) -> str:
        return f"{self.sheet}!{_ref(self.r, self.c)}"


def _ref(r: int, c: int) -> str:
    from xlsxwriter.utility import xl_rowcol_to_cell

    return xl_rowcol_to_cell(r, c)


def _cell(ws: Any, r: int, c: int, value: Any, styles: dict[str, Any], style: str | None, where: Any) -> None:
    if value is None or value == "":
        return
    fmt = styles[style] if style else None
    if isinstance(value, bool):
        value = "Yes" if value else "No"
    elif isinstance(value, (int, float)):
        ws.write_number(r, c, value, fmt if style != "text" else None)
        return
    elif isinstance(value, dt.date) and style == "text" and r:
        value = date_label(value)  # a date in a label column is the label the umpire typed
    elif isinstance(value, dt.datetime):
        check_calendar_date(value, where)
        value = value.date().isoformat() if value.time() == dt.time() else value.isoformat()
    elif isinstance(value, dt.date):
        value = check_calendar_date(value, where).isoformat()
    write_text(ws, r, c, str(value), where, fmt if style != "left" else None, styles["run"])

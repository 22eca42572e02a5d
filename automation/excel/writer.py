"""Writes a refit's new sheets into the workbook open in Excel, through xlwings.

The same :class:`automation.workbook.package.NewSheet` the file adapter grafts
into an .xlsx is written here cell for cell: each sheet goes after the last one,
values as text, numbers, booleans or dates, a bold header row, the column
widths, the dropdowns, the line chart, the tab colour of its kind and a frozen
header row. Text is written with Excel's text prefix (an apostrophe, which is
not part of the value), so "=2+2", "-3", "@x" or "Dec 24" stay the text they
are instead of becoming a formula, a number or a date.

Like ``append_sheets``, one refit is one batch: a hidden workbook name
``_mr_batch_NNNN`` holding ``{"Refit DATE","sheet",...}`` records which sheets
it added, so ``musterroll undo`` removes exactly them once the workbook is saved
(the file adapter also records sheet ids; here the names alone identify them).
If anything fails midway, the sheets already added are deleted again.

Tab colour, frozen header and the record's hiding have no xlwings call; they go
through the platform's object model (``.api``: COM on Windows, appscript on
macOS) and are cosmetic: a failure there is noted, never fatal.
"""
from __future__ import annotations

import datetime as dt
import math
import re
import sys
from collections.abc import Callable, Sequence
from typing import Any

from automation.errors import UsageError
from automation.workbook.package import TAB_COLOURS, NewSheet
from automation.workbook.reader import column_letter

TEXT_PREFIX = "'"
MAX_TEXT = 32_767
RECORD = re.compile(r"_mr_batch_(\d+)", re.I)
DATE_FORMATS = {dt.datetime: "yyyy-mm-dd hh:mm", dt.date: "yyyy-mm-dd"}


def excel_value(value: Any, where: str) -> Any:
    """A NewSheet value as it is handed to Excel."""
    if value is None or value == "":
        return None
    if isinstance(value, str):
        if len(value.encode("utf-16-le")) // 2 > MAX_TEXT:
            raise UsageError(f"{where}: text of more than {MAX_TEXT} characters; a cell holds {MAX_TEXT}")
        return TEXT_PREFIX + value
    if isinstance(value, bool):
        return value
    if isinstance(value, (int, float)):
        if isinstance(value, float) and not math.isfinite(value):
            raise UsageError(f"{where}: {value!r} cannot be stored in a workbook")
        return value
    if isinstance(value, dt.date):
        if isinstance(value, dt.datetime) and value.tzinfo is not None:
            raise UsageError(f"{where}: a date-time with a time zone cannot be stored; use local time")
        return value
    raise UsageError(f"{where}: a value of type {type(value).__name__} cannot be written")


def auto_widths(rows: Sequence[Sequence[object]]) -> list[float]:
    """Column widths from the longest text, as the file adapter sizes them (8..60)."""
    widths: dict[int, float] = {}
    for r, row in enumerate(rows):
        for c, value in enumerate(row):
            if value is not None:
                size = 16 if isinstance(value, dt.datetime) else 10 if isinstance(value, dt.date) else max(
                    (len(line.encode("utf-16-le")) // 2 for line in str(value).splitlines()), default=0)
                widths[c] = max(widths.get(c, 0.0), size * (1.1 if r == 0 else 1.0))
    return [min(max(widths.get(c, 0.0) + 2, 8.0), 60.0) for c in range(max(widths, default=-1) + 1)]


class Writer:
    """Writes NewSheets into ``book`` (an xlwings Book); ``status`` shows progress."""

    def __init__(self, book: Any, status: Callable[[str], None] = lambda text: None) -> None:
        self.book = book
        self.status = status
        self.mac = sys.platform == "darwin"
        self.notes: list[str] = []

    def write_batch(self, sheets: Sequence[NewSheet], batch: str) -> list[str]:
        """Add ``sheets`` after the last sheet as one recorded batch; all or nothing."""
        existing = {s.name.lower(): s.name for s in self.book.sheets}
        for new in sheets:
            if new.name.lower() in existing:
                raise UsageError(f"{self.book.fullname}: a sheet named {existing[new.name.lower()]!r} already exists; "
                                 f"sheet {new.name!r} cannot be added")
            existing[new.name.lower()] = new.name
        grids = [self._grid(new) for new in sheets]
        record = self._record_formula(batch, [s.name for s in sheets])
        added: list[Any] = []
        try:
            for number, (new, grid) in enumerate(zip(sheets, grids), start=1):
                self.status(f"Musterroll: writing {new.name} ({number} of {len(sheets)})")
                last = self.book.sheets[len(self.book.sheets) - 1]
                added.append(self.book.sheets.add(name=new.name, after=last))
                self._fill(added[-1], new, grid)
            name = self.book.names.add(self._record_name(), record)
            self._cosmetic("hide the batch record", self._hide_name, name)
        except BaseException:
            for sheet in reversed(added):
                try:
                    sheet.delete()
                except Exception as exc:  # keep the first error; this one is only noted
                    self.notes.append(f"could not remove {sheet.name} after the failure: {exc}")
            raise
        if added:
            added[0].activate()
        return [s.name for s in sheets]

    # ----------------------------------------------------------------- one sheet

    def _grid(self, new: NewSheet) -> list[list[Any]]:
        width = max(len(row) for row in new.rows)
        return [[excel_value(v, f"{new.name}!{column_letter(c)}{r + 1}") for c, v in enumerate(row)]
                + [None] * (width - len(row)) for r, row in enumerate(new.rows)]

    def _fill(self, sheet: Any, new: NewSheet, grid: list[list[Any]]) -> None:
        height, width = len(grid), len(grid[0])
        sheet.range((1, 1), (height, width)).value = grid
        for r, row in enumerate(new.rows):
            for c, value in enumerate(row):
                if isinstance(value, dt.date):
                    kind = dt.datetime if isinstance(value, dt.datetime) else dt.date
                    sheet.range((r + 1, c + 1)).number_format = DATE_FORMATS[kind]
        sheet.range((1, 1), (1, width)).font.bold = True
        widths = auto_widths(new.rows) if new.column_widths is None else list(new.column_widths)
        for c, w in enumerate(widths):
            sheet.range((1, c + 1)).column_width = float(w)
        for rule in new.validations:
            last = max(height - 1, rule.first_row) if rule.last_row is None else rule.last_row
            cells = sheet.range((rule.first_row + 1, rule.column_index + 1), (last + 1, rule.column_index + 1))
            try:
                cells.data_validation.set_list(list(rule.allowed))
            except (TypeError, ValueError) as exc:
                self.notes.append(f"{new.name}: no dropdown in column {column_letter(rule.column_index)} ({exc})")
        if new.chart is not None:
            self._chart(sheet, new)
        if new.hidden:
            sheet.visible = False
        self._cosmetic(f"{new.name}: tab colour", self._tab_colour, sheet, TAB_COLOURS[new.kind])
        self._cosmetic(f"{new.name}: frozen header row", self._freeze_header)

    def _chart(self, sheet: Any, new: NewSheet) -> None:
        spec = new.chart
        assert spec is not None
        last = max(len(new.rows) - 1, spec.first_row) if spec.last_row is None else spec.last_row
        first_row, last_row = spec.first_row + 1, last + 1

        def column(c: int) -> str:
            return f"{column_letter(c)}{first_row}:{column_letter(c)}{last_row}"

        source = sheet.range(",".join(column(c) for c in spec.series_columns))
        chart = sheet.charts.add(source=source, chart_type="line_markers", plot_by="columns",
                                 anchor=sheet.range(spec.anchor))
        chart.set_x_axis_values(sheet.range(column(spec.categories_column)))
        for series, c in zip(chart.series, spec.series_columns):
            series.name = str(new.rows[0][c])
        if spec.title:
            chart.title = spec.title

    # ----------------------------------------------------------------- batch record

    def _record_name(self) -> str:
        numbers = [int(m.group(1)) for name in self.book.names if (m := RECORD.fullmatch(str(name.name)))]
        return f"_mr_batch_{max(numbers, default=0) + 1:04d}"

    @staticmethod
    def _record_formula(batch: str, names: list[str]) -> str:
        formula = "={" + ",".join('"' + t.replace('"', '""') + '"' for t in [batch, *names]) + "}"
        if len(formula) > 8000:
            raise UsageError(f"batch {batch!r}: too many sheets for one batch record")
        return formula

    # ----------------------------------------------------------------- platform calls

    def _cosmetic(self, what: str, call: Callable[..., None], *args: Any) -> None:
        try:
            call(*args)
        except Exception as exc:  # appearance only: the values are written already
            self.notes.append(f"{what} not set ({type(exc).__name__}: {exc})")

    def _tab_colour(self, sheet: Any, colour: str) -> None:
        red, green, blue = (int(colour[i:i + 2], 16) for i in (1, 3, 5))
        if self.mac:
            sheet.api.tab.color.set([red, green, blue])
        else:
            sheet.api.Tab.Color = red + green * 256 + blue * 65536

    def _freeze_header(self) -> None:
        """Freeze row 1 of the active sheet (a sheet just added is the active one)."""
        if self.mac:
            window = self.book.app.api.active_window
            window.freeze_panes.set(False)
            window.split_column.set(0)
            window.split_row.set(1)
            window.freeze_panes.set(True)
        else:
            window = self.book.app.api.ActiveWindow
            window.FreezePanes = False
            window.SplitColumn = 0
            window.SplitRow = 1
            window.FreezePanes = True

    def _hide_name(self, name: Any) -> None:
        if self.mac:
            name.api.visible.set(False)
        else:
            name.api.Visible = False

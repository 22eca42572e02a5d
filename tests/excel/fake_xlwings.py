"""A stand-in for the part of the xlwings object model the Refit button uses,
behaving as Excel does where it matters:

* cells read back as Excel gives them: ``None`` when empty, numbers as floats,
  dates as ``datetime``;
* a text written into a cell is typed as if entered by hand: "=..." becomes a
  formula, "-3" or "4.5" a number, "TRUE" a boolean, "Dec 24" a date, unless it
  starts with the text prefix ``'`` (which is not kept);
* ``sheets.add`` puts the sheet where asked and makes it the active sheet
  (``book.sheets.active``, which ``sheet.activate()`` also sets);
  Windows' COM ``api`` for tab colour, frozen panes and hidden names.

Every class has ``__slots__``: the code under test can use nothing else.
"""
from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

MONTHS = {m: i for i, m in enumerate(("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"), 1)}


@dataclass(frozen=True)
class Formula:
    """A text Excel took for a formula (equal to no value the refit writes)."""

    text: str


def typed_by_excel(value: Any) -> Any:
    if value is None:
        return None
    if isinstance(value, bool):
        return value
    if isinstance(value, (int, float)):
        return float(value)
    if isinstance(value, dt.datetime):
        return value
    if isinstance(value, dt.date):
        return dt.datetime(value.year, value.month, value.day)
    if isinstance(value, str):
        if value.startswith("'"):
            return value[1:]
        if value.startswith(("=", "+", "-", "@")) and len(value) > 1:
            try:
                return float(value)
            except ValueError:
                return Formula(value)
        try:
            return float(value)
        except ValueError:
            pass
        if value.upper() in ("TRUE", "FALSE"):
            return value.upper() == "TRUE"
        m = re.fullmatch(r"([A-Z][a-z]{2}) (\d{1,2})", value.strip())
        if m and m.group(1) in MONTHS:
            return dt.datetime(2026, MONTHS[m.group(1)], int(m.group(2)))
        return value if value else None
    raise TypeError(f"Excel cannot take a {type(value).__name__}")


def cell_address(address: str) -> tuple[int, int]:
    m = re.fullmatch(r"\$?([A-Z]{1,3})\$?(\d+)", address)
    assert m, address
    col = 0
    for ch in m.group(1):
        col = col * 26 + ord(ch) - 64
    return int(m.group(2)), col


def letters(col: int) -> str:
    out = ""
    while col:
        col, rem = divmod(col - 1, 26)
        out = chr(65 + rem) + out
    return out


class Tab:
    __slots__ = ("Color",)

    def __init__(self) -> None:
        self.Color = None


class SheetApi:
    __slots__ = ("Tab",)

    def __init__(self) -> None:
        self.Tab = Tab()


class Window:
    """COM's ActiveWindow: freezing applies to the active sheet of the active book."""

    __slots__ = ("app", "SplitColumn", "SplitRow", "_frozen")

    def __init__(self, app: "App") -> None:
        self.app, self.SplitColumn, self.SplitRow, self._frozen = app, 0, 0, False

    @property
    def FreezePanes(self) -> bool:
        return self._frozen

    @FreezePanes.setter
    def FreezePanes(self, value: bool) -> None:
        self._frozen = value
        sheet = self.app.books.active.active_sheet
        sheet.frozen = (self.SplitRow, self.SplitColumn) if value else None


class AppApi:
    __slots__ = ("ActiveWindow",)

    def __init__(self, app: "App") -> None:
        self.ActiveWindow = Window(app)


class Font:
    __slots__ = ("range",)

    def __init__(self, rng: "Range") -> None:
        self.range = rng

    @property
    def bold(self) -> bool:
        return all(cell in self.range.sheet.bold for cell in self.range.cells())

    @bold.setter
    def bold(self, value: bool) -> None:
        for cell in self.range.cells():
            (self.range.sheet.bold.add if value else self.range.sheet.bold.discard)(cell)


class DataValidation:
    __slots__ = ("range",)

    def __init__(self, rng: "Range") -> None:
        self.range = rng

    def set_list(self, source: list[str], *, in_cell_dropdown: bool = True) -> None:
        if not source or any("," in str(v) or ";" in str(v) for v in source):
            raise ValueError("list values must not be empty or hold commas or semicolons")
        self.range.sheet.validations.append((self.range.address, list(source)))


class Range:
    __slots__ = ("sheet", "areas", "ndim")

    def __init__(self, sheet: "Sheet", areas: list[tuple[int, int, int, int]], ndim: int | None = None) -> None:
        self.sheet, self.areas, self.ndim = sheet, areas, ndim

    def cells(self) -> list[tuple[int, int]]:
        return [(r, c) for r1, c1, r2, c2 in self.areas for r in range(r1, r2 + 1) for c in range(c1, c2 + 1)]

    @property
    def address(self) -> str:
        return ",".join(f"${letters(c1)}${r1}" + ("" if (r1, c1) == (r2, c2) else f":${letters(c2)}${r2}")
                        for r1, c1, r2, c2 in self.areas)

    def _one(self) -> tuple[int, int, int, int]:
        assert len(self.areas) == 1, "this call needs a single area"
        return self.areas[0]

    @property
    def row(self) -> int:
        return self._one()[0]

    @property
    def column(self) -> int:
        return self._one()[1]

    @property
    def last_cell(self) -> "Range":
        _, _, r2, c2 = self._one()
        return Range(self.sheet, [(r2, c2, r2, c2)])

    def options(self, ndim: int | None = None) -> "Range":
        return Range(self.sheet, self.areas, ndim)

    @property
    def value(self) -> Any:
        r1, c1, r2, c2 = self._one()
        grid = [[self.sheet.cells.get((r, c)) for c in range(c1, c2 + 1)] for r in range(r1, r2 + 1)]
        if self.ndim == 2:
            return grid
        if r1 == r2 and c1 == c2:
            return grid[0][0]
        return grid[0] if r1 == r2 else [row[0] for row in grid] if c1 == c2 else grid

    @value.setter
    def value(self, data: Any) -> None:
        r1, c1, r2, c2 = self._one()
        if not isinstance(data, list):
            data = [[data]]
        assert len(data) == r2 - r1 + 1 and all(len(row) == c2 - c1 + 1 for row in data), "shape differs from range"
        for i, row in enumerate(data):
            for j, v in enumerate(row):
                typed = typed_by_excel(v)
                if typed is None:
                    self.sheet.cells.pop((r1 + i, c1 + j), None)
                else:
                    self.sheet.cells[(r1 + i, c1 + j)] = typed

    @property
    def font(self) -> Font:
        return Font(self)

    @property
    def column_width(self) -> float | None:
        widths = {self.sheet.widths.get(c) for _, c in self.cells()}
        return widths.pop() if len(widths) == 1 else None

    @column_width.setter
    def column_width(self, value: float) -> None:
        for _, c in self.cells():
            self.sheet.widths[c] = value

    @property
    def number_format(self) -> str:
        return self.sheet.formats.get(self.cells()[0], "General")

    @number_format.setter
    def number_format(self, value: str) -> None:
        for cell in self.cells():
            self.sheet.formats[cell] = value

    @property
    def data_validation(self) -> DataValidation:
        return DataValidation(self)


class Series:
    __slots__ = ("name", "values")

    def __init__(self, values: str) -> None:
        self.name, self.values = None, values


class Chart:
    __slots__ = ("chart_type", "plot_by", "anchor", "series", "x_values", "title")

    def __init__(self, source: Range, chart_type: str, plot_by: str, anchor: Range) -> None:
        assert plot_by == "columns"
        self.chart_type, self.plot_by, self.anchor = chart_type, plot_by, anchor.address
        self.series = [Series(Range(source.sheet, [area]).address) for area in source.areas]
        self.x_values: str | None = None
        self.title: str | None = None

    def set_x_axis_values(self, source: Range) -> None:
        self.x_values = source.address


class Charts:
    __slots__ = ("items",)

    def __init__(self) -> None:
        self.items: list[Chart] = []

    def add(self, *, source: Range, chart_type: str, plot_by: str, anchor: Range) -> Chart:
        chart = Chart(source, chart_type, plot_by, anchor)
        self.items.append(chart)
        return chart


class Sheet:
    __slots__ = ("book", "_name", "cells", "bold", "widths", "formats", "validations", "charts", "api", "frozen",
                 "visible")

    def __init__(self, book: "Book", name: str) -> None:
        self.book, self._name = book, name
        self.cells: dict[tuple[int, int], Any] = {}
        self.bold: set[tuple[int, int]] = set()
        self.widths: dict[int, float] = {}
        self.formats: dict[tuple[int, int], str] = {}
        self.validations: list[tuple[str, list[str]]] = []
        self.charts = Charts()
        self.api = SheetApi()
        self.frozen: tuple[int, int] | None = None
        self.visible = True

    @property
    def name(self) -> str:
        return self._name

    def range(self, first: Any, last: Any = None) -> Range:
        if isinstance(first, tuple):
            r1, c1 = first
            r2, c2 = last if last is not None else first
            return Range(self, [(r1, c1, r2, c2)])
        assert last is None and isinstance(first, str)
        areas = []
        for part in first.split(","):
            a, _, b = part.partition(":")
            (r1, c1), (r2, c2) = cell_address(a), cell_address(b or a)
            areas.append((r1, c1, r2, c2))
        return Range(self, areas)

    @property
    def used_range(self) -> Range:
        if not self.cells:
            return Range(self, [(1, 1, 1, 1)])
        rows = [r for r, _ in self.cells]
        cols = [c for _, c in self.cells]
        return Range(self, [(min(rows), min(cols), max(rows), max(cols))])

    def activate(self) -> None:
        self.book.active_sheet = self

    def delete(self) -> None:
        self.book.sheets.items.remove(self)

    def values(self) -> list[list[Any]]:
        """Test helper: A1 to the last used cell, "" when empty (as python-calamine reads)."""
        if not self.cells:
            return []
        last = self.used_range.last_cell
        return [["" if (v := self.cells.get((r, c))) is None else v for c in range(1, last.column + 1)]
                for r in range(1, last.row + 1)]


class Sheets:
    __slots__ = ("book", "items", "fail_on_add")

    def __init__(self, book: "Book") -> None:
        self.book, self.items, self.fail_on_add = book, [], None

    def __iter__(self):
        return iter(list(self.items))

    def __len__(self) -> int:
        return len(self.items)

    @property
    def active(self) -> Sheet | None:
        """The sheet in front of the umpire (xlwings' ``book.sheets.active``)."""
        return self.book.active_sheet

    def __getitem__(self, key: int | str) -> Sheet:
        if isinstance(key, int):
            return self.items[key]
        for sheet in self.items:
            if sheet.name.lower() == key.lower():
                return sheet
        raise KeyError(key)

    def add(self, name: str | None = None, before: Sheet | None = None, after: Sheet | None = None) -> Sheet:
        if self.fail_on_add is not None and len(self.items) == self.fail_on_add:
            raise RuntimeError("Excel refused to add a sheet")
        assert name and before is None and after is not None
        if name.lower() in (s.name.lower() for s in self.items):
            raise ValueError(f"Sheet named '{name}' already present in workbook")
        sheet = Sheet(self.book, name)
        self.items.insert(self.items.index(after) + 1, sheet)
        sheet.activate()
        return sheet


class NameApi:
    __slots__ = ("Visible",)

    def __init__(self) -> None:
        self.Visible = True


class Name:
    __slots__ = ("name", "refers_to", "api")

    def __init__(self, name: str, refers_to: str) -> None:
        self.name, self.refers_to, self.api = name, refers_to, NameApi()


class Names:
    __slots__ = ("items",)

    def __init__(self) -> None:
        self.items: list[Name] = []

    def __len__(self) -> int:
        return len(self.items)

    def __getitem__(self, index: int) -> Name:
        return self.items[index]

    def add(self, name: str, refers_to: str) -> Name:
        assert refers_to.startswith("="), "refers_to is a formula"
        made = Name(name, refers_to)
        self.items.append(made)
        return made


class Book:
    __slots__ = ("app", "name", "fullname", "sheets", "names", "active_sheet")

    def __init__(self, app: "App", name: str, fullname: str) -> None:
        self.app, self.name, self.fullname = app, name, fullname
        self.sheets, self.names = Sheets(self), Names()
        self.active_sheet: Sheet | None = None

    def snapshot(self) -> dict[str, list[list[Any]]]:
        """Test helper: every sheet's values, in sheet order."""
        return {s.name: s.values() for s in self.sheets}


class Books:
    __slots__ = ("items", "active")

    def __init__(self) -> None:
        self.items: list[Book] = []
        self.active: Book | None = None


class App:
    __slots__ = ("books", "api", "screen_updating", "alerts", "status_history", "_status")

    def __init__(self) -> None:
        self.books, self.api, self.screen_updating = Books(), AppApi(self), True
        self.alerts: list[tuple[str, str | None, str | None]] = []
        self.status_history: list[str | bool] = []
        self._status: str | bool = False

    @property
    def status_bar(self) -> str | bool:
        return self._status

    @status_bar.setter
    def status_bar(self, value: str | bool) -> None:
        self._status = value
        self.status_history.append(value)

    def alert(self, prompt: str, title: str | None = None, buttons: str = "ok", mode: str | None = None,
              callback: str | None = None) -> str:
        assert self.screen_updating, "an alert must not be shown while the screen is frozen"
        self.alerts.append((prompt, title, mode))
        return "ok"


def open_workbook(app: App, path: Path) -> Book:
    """Present the .xlsx at ``path`` as Excel would, as the active book of ``app``."""
    import openpyxl

    book = Book(app, path.name, str(path))
    source = openpyxl.load_workbook(path, data_only=True)
    for ws in source.worksheets:
        sheet = Sheet(book, ws.title)
        for row in ws.iter_rows():
            for cell in row:
                if cell.value is not None and cell.value != "":
                    sheet.cells[(cell.row, cell.column)] = typed_by_excel(cell.value) if not isinstance(cell.value, str) \
                        else cell.value
        book.sheets.items.append(sheet)
    for name, defined in source.defined_names.items():
        book.names.items.append(Name(name, "=" + defined.attr_text))
    book.active_sheet = book.sheets.items[0]
    app.books.items.append(book)
    app.books.active = book
    return book


def add_in(app: App, folder: Path) -> Book:
    """The add-in workbook itself, loaded (hidden) in ``app``."""
    book = Book(app, "musterroll_addin.xlam", str(folder / "musterroll_addin.xlam"))
    book.sheets.items.append(Sheet(book, "myaddin.conf"))
    app.books.items.insert(0, book)
    return book


def copy_sample(folder: Path) -> Path:
    """A copy of the Advance to Rostov sample with its key, in ``folder``."""
    import shutil

    from automation.samples import SAMPLE

    folder.mkdir(parents=True, exist_ok=True)
    book = folder / SAMPLE.name
    shutil.copyfile(SAMPLE, book)
    shutil.copyfile(SAMPLE.with_suffix(".key"), book.with_suffix(".key"))
    return book

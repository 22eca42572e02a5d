"""A stand-in for the part of xlwings' object model the Refit button touches,
with xlwings 0.37.8's signatures (test_excel_fake compares them with the
installed xlwings by inspect) and Excel's behaviour where it matters:

* a workbook is opened from a real .xlsx file; ``Book.save()`` writes the cells
  typed since into that file (and leaves the bytes alone when nothing was
  typed); ``Book.close()`` drops unsaved changes, as ``Close(SaveChanges=False)``;
  while open, Excel's lock file ``~$NAME`` sits beside it;
* ``Books.open`` refuses a missing file with ``FileNotFoundError`` and returns
  the open book when the file is already open, as xlwings does;
* cells read back as xlwings gives them: ``None`` when empty and for error
  cells (#N/A, #DIV/0!...), numbers as floats, dates as ``datetime``; on
  Windows a currency-formatted cell as a ``Decimal``;
* ``Sheet.used_range`` reaches the last *formatted* cell, not only the last
  value;
* ``mac=True`` is Excel for Mac: no window handle, and a multi-area address
  ("A1:A3,C1:C3") is refused (xlwings' Mac code would silently keep one cell);
* ``Book.caller()`` returns the active workbook, as RunPython's ``--wb=`` names it;
* ``App.alert`` records (prompt, title, mode); ``status_bar`` keeps its history.
"""
from __future__ import annotations

import datetime as dt
import os
import re
import shutil
from decimal import Decimal
from pathlib import Path
from typing import Any

import openpyxl

CURRENCY = re.compile(r"[$€£¥]|\[\$[^\]]*\]")
ERRORS = {"#N/A", "#DIV/0!", "#VALUE!", "#REF!", "#NAME?", "#NUM!", "#NULL!", "#SPILL!", "#CALC!"}


def cell_address(address: str) -> tuple[int, int]:
    m = re.fullmatch(r"\$?([A-Z]{1,3})\$?(\d+)", address.upper())
    if not m:
        raise ValueError(f"not a cell address: {address!r}")
    col = 0
    for ch in m.group(1):
        col = col * 26 + ord(ch) - 64
    return int(m.group(2)), col


class App:
    """One Excel instance."""

    _next_hwnd = 1000

    def __init__(self, visible: bool | None = None, spec: str | None = None, add_book: bool = True,
                 impl: Any = None, *, mac: bool = False) -> None:
        self.mac = mac
        self._books: list[Book] = []
        self._active: Book | None = None
        self.alerts: list[tuple[str, str | None, str | None]] = []
        self.statuses: list[str | bool] = []
        self.display_alerts = True
        self.screen_updating = True
        App._next_hwnd += 1
        self._hwnd = App._next_hwnd

    @property
    def books(self) -> "Books":
        return Books(self)

    @property
    def hwnd(self) -> int | None:
        return None if self.mac else self._hwnd

    @property
    def pid(self) -> int:
        return self._hwnd * 7

    @property
    def status_bar(self) -> str | bool:
        return self.statuses[-1] if self.statuses else False

    @status_bar.setter
    def status_bar(self, value: str | bool) -> None:
        self.statuses.append(value)

    def alert(self, prompt: str, title: str | None = None, buttons: str = "ok", mode: str | None = None,
              callback: str | None = None) -> str | None:
        if mode not in (None, "info", "critical"):
            raise ValueError(f"mode {mode!r}")
        self.alerts.append((prompt, title, mode))
        return "ok"

    def activate(self, steal_focus: bool = False) -> None:
        pass


class Apps:
    """``xlwings.apps``: the running Excel instances."""

    def __init__(self, *apps: App) -> None:
        self._apps = list(apps)

    def keys(self) -> list[int]:
        return [a.pid for a in self._apps]

    @property
    def active(self) -> App | None:
        return self._apps[0] if self._apps else None

    @property
    def count(self) -> int:
        return len(self)

    def __iter__(self):
        return iter(list(self._apps))

    def __getitem__(self, item: int) -> App:
        for a in self._apps:
            if a.pid == item:
                return a
        raise KeyError("Could not find an Excel instance with this PID.")

    def __len__(self) -> int:
        return len(self._apps)


class Books:
    def __init__(self, app: App) -> None:
        self.app = app

    @property
    def active(self) -> "Book":
        if self.app._active is None:
            raise RuntimeError("no active workbook")  # what pywin32 / appscript raise differs; both raise
        return self.app._active

    def open(self, fullname: str | os.PathLike[str] | None = None, update_links: bool | None = None,
             read_only: bool | None = None, format: str | None = None, password: str | None = None,
             write_res_password: str | None = None, ignore_read_only_recommended: bool | None = None,
             origin: int | None = None, delimiter: str | None = None, editable: bool | None = None,
             notify: bool | None = None, converter: int | None = None, add_to_mru: bool | None = None,
             local: bool | None = None, corrupt_load: int | None = None, json: dict[str, Any] | None = None,
             ) -> "Book":
        fullname = os.fspath(fullname)
        if not os.path.exists(fullname):
            raise FileNotFoundError("No such file: '%s'" % fullname)
        fullname = os.path.realpath(fullname)
        name = os.path.basename(fullname)
        for book in self.app._books:
            if book.name.lower() == name.lower():
                if not os.path.samefile(book.fullname, fullname):
                    raise ValueError(f"Cannot open two workbooks named '{name}', even if they are saved in"
                                     "different locations.")
                return book
        book = Book._from_file(self.app, Path(fullname))
        self.app._books.append(book)
        self.app._active = book
        return book

    def add(self) -> "Book":
        book = Book._unsaved(self.app, f"Book{len(self.app._books) + 1}")
        self.app._books.append(book)
        self.app._active = book
        return book

    def __call__(self, name_or_index: int | str) -> "Book":
        if isinstance(name_or_index, int):
            return self.app._books[name_or_index - 1]
        for book in self.app._books:
            if book.name.lower() == str(name_or_index).lower():
                return book
        raise KeyError(name_or_index)

    def __iter__(self):
        return iter(list(self.app._books))

    def __getitem__(self, key: int | str) -> "Book":
        return self(key + 1) if isinstance(key, int) else self(key)

    def __len__(self) -> int:
        return len(self.app._books)

    def __contains__(self, key: str) -> bool:
        return any(b.name.lower() == key.lower() for b in self.app._books)


class Book:
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        raise TypeError("open workbooks with app.books.open(PATH) in the fake")

    @classmethod
    def _from_file(cls, app: App, path: Path) -> "Book":
        book = object.__new__(cls)
        book._app, book._path, book._name = app, path, path.name
        book._edits = {}
        book._workbook = openpyxl.load_workbook(path)
        book._sheet_names = list(book._workbook.sheetnames)
        book._active_sheet = book._workbook.active.title
        book.saves = 0
        book.closed = False
        book._lock().write_text("Excel", encoding="utf-8")
        return book

    @classmethod
    def _unsaved(cls, app: App, name: str) -> "Book":
        book = object.__new__(cls)
        book._app, book._path, book._name = app, None, name
        book._edits = {}
        book._workbook = openpyxl.Workbook()
        book._sheet_names = ["Sheet1"]
        book._workbook.active.title = "Sheet1"
        book._active_sheet = "Sheet1"
        book.saves = 0
        book.closed = False
        return book

    def _lock(self) -> Path:
        assert self._path is not None
        return self._path.with_name("~$" + self._path.name)

    @classmethod
    def caller(cls) -> "Book":
        """As RunPython's ``--wb=`` names it: the workbook that was active at the click."""
        if CALLER_APP is None or CALLER_APP._active is None:
            raise Exception("Book.caller() must not be called directly.")
        return CALLER_APP._active

    @property
    def name(self) -> str:
        return self._name

    @property
    def fullname(self) -> str:
        return self._name if self._path is None else str(self._path)

    @property
    def sheets(self) -> "Sheets":
        return Sheets(self)

    @property
    def app(self) -> App:
        return self._app

    def save(self, path: str | os.PathLike[str] | None = None, password: str | None = None) -> None:
        if path is not None or self._path is None:
            raise NotImplementedError("the fake saves a workbook to its own file only")
        if self._edits:
            wb = openpyxl.load_workbook(self._path)
            for (sheet, row, col), value in self._edits.items():
                wb[sheet].cell(row, col).value = value
            wb.save(self._path)
            self._edits.clear()
        self.saves += 1

    def close(self) -> None:
        self._app._books.remove(self)
        if self._app._active is self:
            self._app._active = self._app._books[-1] if self._app._books else None
        if self._path is not None:
            self._lock().unlink(missing_ok=True)
        self.closed = True

    def activate(self, steal_focus: bool = False) -> None:
        self._app._active = self


CALLER_APP: App | None = None


class Sheets:
    def __init__(self, book: Book) -> None:
        self.book = book

    @property
    def active(self) -> "Sheet":
        return Sheet(self.book, self.book._active_sheet)

    def add(self, name: str | None = None, before: "Sheet | None" = None, after: "Sheet | None" = None) -> "Sheet":
        raise NotImplementedError("the button adds no sheet through Excel")

    def __call__(self, name_or_index: int | str | "Sheet") -> "Sheet":
        if isinstance(name_or_index, Sheet):
            return name_or_index
        if isinstance(name_or_index, int):
            return Sheet(self.book, self.book._sheet_names[name_or_index - 1])
        for name in self.book._sheet_names:
            if name.lower() == name_or_index.lower():
                return Sheet(self.book, name)
        raise KeyError(name_or_index)

    def __getitem__(self, key: int | str) -> "Sheet":
        return self(key + 1) if isinstance(key, int) else self(key)

    def __iter__(self):
        return iter([Sheet(self.book, n) for n in self.book._sheet_names])

    def __len__(self) -> int:
        return len(self.book._sheet_names)


class Sheet:
    def __init__(self, book: Book, name: str) -> None:
        self._book, self._name = book, name

    @property
    def name(self) -> str:
        return self._name

    @property
    def book(self) -> Book:
        return self._book

    def activate(self) -> None:
        self._book._active_sheet = self._name
        self._book.activate()

    def range(self, cell1: "str | tuple[int, int] | Range", cell2: "str | tuple[int, int] | Range | None" = None,
              ) -> "Range":
        if isinstance(cell1, str) and "," in cell1:
            if self._book._app.mac:
                raise ValueError(f"{cell1!r}: a multi-area range; xlwings' Mac code keeps only its first cell")
            cell1 = cell1.split(",")[0]
        first, last = self._corners(cell1), self._corners(cell2 if cell2 is not None else cell1, last=True)
        return Range(self, first, last)

    def _corners(self, cell: Any, last: bool = False) -> tuple[int, int]:
        if isinstance(cell, Range):
            return cell._last if last else cell._first
        if isinstance(cell, tuple):
            return int(cell[0]), int(cell[1])
        parts = str(cell).split(":")
        return cell_address(parts[-1] if last else parts[0])

    @property
    def used_range(self) -> "Range":
        ws = self._book._workbook[self._name]
        return Range(self, (1, 1), (max(ws.max_row, 1), max(ws.max_column, 1)))


class Range:
    def __init__(self, sheet: Sheet, first: tuple[int, int], last: tuple[int, int]) -> None:
        self._sheet, self._first, self._last = sheet, first, last
        self._ndim: int | None = None

    @property
    def sheet(self) -> Sheet:
        return self._sheet

    @property
    def row(self) -> int:
        return self._first[0]

    @property
    def column(self) -> int:
        return self._first[1]

    @property
    def shape(self) -> tuple[int, int]:
        return self._last[0] - self._first[0] + 1, self._last[1] - self._first[1] + 1

    @property
    def count(self) -> int:
        rows, cols = self.shape
        return rows * cols

    @property
    def last_cell(self) -> "Range":
        return Range(self._sheet, self._last, self._last)

    def options(self, convert: Any = None, **options: Any) -> "Range":
        out = Range(self._sheet, self._first, self._last)
        out._ndim = options.get("ndim")
        return out

    def _cell(self, row: int, col: int) -> Any:
        book = self._sheet._book
        key = (self._sheet._name, row, col)
        if key in book._edits:
            return _as_excel_gives(book._edits[key], "General", book._app.mac)
        cell = book._workbook[self._sheet._name].cell(row, col)
        if cell.data_type == "e" or (isinstance(cell.value, str) and cell.value in ERRORS and cell.data_type == "e"):
            return None
        return _as_excel_gives(cell.value, cell.number_format, book._app.mac)

    @property
    def value(self) -> Any:
        rows = [[self._cell(r, c) for c in range(self._first[1], self._last[1] + 1)]
                for r in range(self._first[0], self._last[0] + 1)]
        if self._ndim == 2:
            return rows
        if len(rows) == 1 and len(rows[0]) == 1:
            return rows[0][0]
        if len(rows) == 1 or all(len(r) == 1 for r in rows):
            return [v for r in rows for v in r]
        return rows

    @value.setter
    def value(self, data: Any) -> None:
        """Typing into the cells (a single value fills the range)."""
        grid = data if isinstance(data, list) and data and isinstance(data[0], list) else None
        for i, r in enumerate(range(self._first[0], self._last[0] + 1)):
            for j, c in enumerate(range(self._first[1], self._last[1] + 1)):
                self._sheet._book._edits[(self._sheet._name, r, c)] = grid[i][j] if grid else data


def _as_excel_gives(value: Any, number_format: str, mac: bool) -> Any:
    if value is None or value == "":
        return None
    if isinstance(value, bool) or isinstance(value, str):
        return value
    if isinstance(value, (int, float)):
        if not mac and CURRENCY.search(number_format or ""):
            return Decimal(str(value))  # pywin32 hands a Currency value over as a Decimal
        return float(value)
    if isinstance(value, dt.datetime):
        return value
    if isinstance(value, dt.date):
        return dt.datetime(value.year, value.month, value.day)
    if isinstance(value, dt.time):
        return dt.datetime.combine(dt.date(1899, 12, 30), value)
    return value


def open_workbook(app: App, path: Path) -> Book:
    """The workbook at ``path`` opened in ``app`` and active, as the umpire leaves it before clicking."""
    return app.books.open(str(path))


def copy_sample(folder: Path, key: bool = True) -> Path:
    from automation.samples import SAMPLE

    folder.mkdir(parents=True, exist_ok=True)
    target = folder / SAMPLE.name
    shutil.copyfile(SAMPLE, target)
    if key:
        shutil.copyfile(SAMPLE.with_suffix(".key"), target.with_suffix(".key"))
    return target

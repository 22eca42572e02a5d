"""The fake xlwings keeps to xlwings' own signatures and to Excel's ways."""
from __future__ import annotations

import datetime as dt
import inspect
from decimal import Decimal

import openpyxl
import pytest
import xlwings.main as real
from openpyxl.styles import PatternFill

import fake_xlwings as fx

PAIRS = [(fx.App, real.App), (fx.Apps, real.Apps), (fx.Books, real.Books), (fx.Book, real.Book),
         (fx.Sheets, real.Sheets), (fx.Sheet, real.Sheet), (fx.Range, real.Range)]
DUNDERS = ("__call__", "__getitem__", "__iter__", "__len__", "__contains__")


def members(cls: type) -> dict[str, object]:
    """Public attributes a class defines itself (and the collection dunders)."""
    out = {}
    for klass in cls.__mro__:
        if klass is object:
            continue
        for name, value in vars(klass).items():
            if (not name.startswith("_") or name in DUNDERS) and name not in out:
                out[name] = value
    return out


def shape(value: object) -> tuple[str, list[tuple[str, object, object]] | None]:
    """What kind of attribute it is and, for a method, its parameters (name, kind, default)."""
    if isinstance(value, property):
        return "property", None
    func = value.__func__ if isinstance(value, (classmethod, staticmethod)) else value
    kind = type(value).__name__ if isinstance(value, (classmethod, staticmethod)) else "method"
    params = [(p.name, p.kind, p.default) for p in inspect.signature(func).parameters.values()]
    return kind, params


@pytest.mark.parametrize("fake, xl", PAIRS, ids=[f.__name__ for f, _ in PAIRS])
def test_every_member_of_the_fake_has_xlwings_own_signature(fake, xl):
    fake_members, real_members = members(fake), members(xl)
    own = {n: v for n, v in fake_members.items() if callable(v) or isinstance(v, (property, classmethod))}
    assert own, fake
    missing = sorted(set(own) - set(real_members))
    assert not missing, f"{fake.__name__} has members xlwings {xl.__name__} lacks: {missing}"
    for name, value in own.items():
        assert shape(value) == shape(real_members[name]), f"{fake.__name__}.{name}"


def test_the_fake_covers_every_member_the_button_uses():
    used = {fx.App: {"alert", "books", "hwnd", "status_bar"}, fx.Apps: {"active", "__iter__"},
            fx.Books: {"open", "__iter__", "active"}, fx.Book: {"name", "fullname", "sheets", "save", "close"},
            fx.Sheets: {"active", "__getitem__"}, fx.Sheet: {"name", "activate"}}
    for cls, names in used.items():
        assert names <= set(members(cls)), cls


@pytest.fixture
def formatted_book(tmp_path):
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "Sides"
    ws["A1"], ws["B1"], ws["C1"] = "Side", "Starting CPP", "Since"
    ws["A2"], ws["B2"], ws["C2"] = "German", 10, dt.date(1944, 12, 23)
    ws["B2"].number_format = '"$"#,##0.00'
    ws["A3"] = "=1/0"
    ws["E9"].fill = PatternFill("solid", fgColor="FFFF00")  # formatted, empty
    path = tmp_path / "f.xlsx"
    wb.save(path)
    # what Excel stores for a cell showing #DIV/0!: an error value
    wb = openpyxl.load_workbook(path)
    wb["Sides"]["A3"].value = "#DIV/0!"
    wb["Sides"]["A3"].data_type = "e"
    wb.save(path)
    return path


@pytest.mark.parametrize("mac", [False, True])
def test_cells_read_back_as_xlwings_gives_them(formatted_book, mac):
    app = fx.App(mac=mac)
    sheet = fx.open_workbook(app, formatted_book).sheets["Sides"]
    assert sheet.range("B2").value == (10.0 if mac else Decimal("10"))
    assert isinstance(sheet.range("B2").value, float if mac else Decimal)
    assert sheet.range("C2").value == dt.datetime(1944, 12, 23) and sheet.range("D2").value is None
    assert sheet.range("A3").value is None  # an error cell
    last = sheet.used_range.last_cell
    assert (last.row, last.column) == (9, 5)  # reaches the formatted empty cell


def test_a_multi_area_range_is_refused_on_the_mac_and_read_by_its_first_area_on_windows(formatted_book):
    mac = fx.open_workbook(fx.App(mac=True), formatted_book).sheets["Sides"]
    with pytest.raises(ValueError, match="multi-area"):
        mac.range("B2:B3,C2:C3")
    windows = fx.open_workbook(fx.App(), formatted_book).sheets["Sides"]
    assert windows.range("A1:A2,C1:C2").value == ["Side", "German"]


def test_caller_is_the_active_workbook_and_a_mac_has_no_window_handle(formatted_book, monkeypatch, tmp_path):
    app = fx.App(mac=True)
    monkeypatch.setattr(fx, "CALLER_APP", app)
    first = fx.open_workbook(app, formatted_book)
    assert fx.Book.caller() is first and app.hwnd is None and fx.App().hwnd is not None


def test_save_writes_what_was_typed_and_close_drops_the_lock_file(formatted_book):
    app = fx.App()
    book = fx.open_workbook(app, formatted_book)
    lock = formatted_book.with_name("~$" + formatted_book.name)
    assert lock.exists()
    before = formatted_book.read_bytes()
    book.save()
    assert formatted_book.read_bytes() == before  # nothing typed, nothing changed
    book.sheets["Sides"].range("A2").value = "Soviet"
    book.save()
    book.close()
    assert not lock.exists() and openpyxl.load_workbook(formatted_book)["Sides"]["A2"].value == "Soviet"
    with pytest.raises(FileNotFoundError):
        app.books.open(str(formatted_book.with_name("nowhere.xlsx")))

"""A fake Excel for the button's tests, on Windows or on a Mac, and a click as
xlwings' RunPython makes it."""
from __future__ import annotations

import shutil
import sys
import tempfile
from pathlib import Path

import pytest
import xlwings

import fake_xlwings as fx
import musterroll_addin

WINDOWS_EXCEL = r"C:\Program Files\Microsoft Office\root\Office16\EXCEL.EXE"
MAC_EXCEL = "/Applications/Microsoft Excel.app"


@pytest.fixture(params=["windows", "mac"])
def excel(request, monkeypatch, tmp_path):
    """A running Excel (Windows, then Mac) that xlwings.apps lists; the temporary
    folder (the button's lock, its last-resort log) is the test's own."""
    app = fx.App(mac=request.param == "mac")
    monkeypatch.setattr(xlwings, "apps", fx.Apps(fx.App(), app) if not app.mac else fx.Apps(app))
    monkeypatch.setattr(fx, "CALLER_APP", app)
    temp = tmp_path / "temp"
    temp.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(temp))
    return app


def runpython_argv(app: fx.App, book_name: str) -> list[str]:
    """sys.argv of ``python -c COMMAND`` as RunPython starts it: ``--wb``, ``--from_xl``,
    ``--app``, and on Windows ``--hwnd`` (ExecuteWindows; the Mac's AppleScript has no hwnd)."""
    if app.mac:
        return ["-c", f"--wb={book_name}", "--from_xl=1", f"--app={MAC_EXCEL}"]
    return ["-c", f"--wb={book_name}", "--from_xl=1", f"--app={WINDOWS_EXCEL}", f"--hwnd={app.hwnd}"]


def click(app: fx.App, monkeypatch, book_name: str | None = None) -> None:
    """A click of Refit with ``book_name`` (default: the active workbook) in front."""
    name = book_name or app.books.active.name
    monkeypatch.setattr(sys, "argv", runpython_argv(app, name))
    musterroll_addin.main()


def twin(book: Path, folder: Path) -> Path:
    """A copy of ``book`` with its key, in ``folder``."""
    folder.mkdir(parents=True)
    shutil.copyfile(book, folder / book.name)
    if book.with_suffix(".key").exists():
        shutil.copyfile(book.with_suffix(".key"), folder / book.with_suffix(".key").name)
    return folder / book.name


def open_on(app: fx.App, path: Path, sheet: str) -> fx.Book:
    book = fx.open_workbook(app, path)
    book.sheets[sheet].activate()
    return book

"""Which Excel and which workbook a click of the Refit button came from.

xlwings' RunPython (the add-in's VBA) starts Python with what Excel knew at the
click, and this module reads it instead of calling ``xlwings.Book.caller()``:

* ``--wb="NAME"``: the name of the workbook that was active (Windows and macOS);
* ``--hwnd="N"``: the window handle of the Excel that clicked (Windows only;
  macOS runs one Excel).

The workbook is then found among that Excel's open workbooks, which are listed
once. A Mac may hand over a name with accented letters garbled on the way
through AppleScript ("Küstrin.xlsx" arriving as "KÃ¼strin.xlsx"), so a name is
matched exactly, then Unicode-normalised and case-folded, then by the letters
and digits it shares with an open workbook's name, and only when that picks
exactly one workbook.
"""
from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from automation.errors import MusterrollError

ADDIN_SUFFIXES = (".xlam", ".xla")


class ExcelError(MusterrollError):
    """The click cannot be tied to a saved campaign workbook (the message says what to do)."""


@dataclass(frozen=True)
class Click:
    """What RunPython handed to Python about the click."""

    book_name: str
    hwnd: int | None = None

    @classmethod
    def from_argv(cls, argv: Sequence[str]) -> "Click":
        values: dict[str, str] = {}
        for arg in argv:
            for key in ("--wb=", "--hwnd="):
                if arg.startswith(key):
                    values[key] = arg[len(key):].strip().strip('"')
        if not values.get("--wb="):
            raise ExcelError("Python was started without the name of the workbook clicked in (--wb=...): "
                             "click Refit on the Musterroll tab in Excel")
        hwnd = values.get("--hwnd=")
        return cls(values["--wb="], int(hwnd) if hwnd and hwnd.isdigit() else None)


def _folded(name: str) -> str:
    return unicodedata.normalize("NFC", name).casefold()


def _skeleton(name: str) -> str:
    """The ASCII letters and digits of a name (what survives any garbling of the rest)."""
    return re.sub(r"[^a-z0-9]", "", unicodedata.normalize("NFC", name).casefold())


def caller_app(click: Click, apps: Any) -> Any:
    """The Excel that clicked: the one with the window handle given, else the active one."""
    if click.hwnd is not None:
        for app in apps:
            if app.hwnd == click.hwnd:
                return app
        raise ExcelError(f"the Excel window that clicked (handle {click.hwnd}) is no longer there")
    app = apps.active
    if app is None:
        raise ExcelError("no Excel is running")
    return app


def find_book(app: Any, name: str) -> Any:
    """The open workbook called ``name`` (see the module's note on garbled names)."""
    books = [(book, str(book.name)) for book in app.books]  # the one listing of the workbooks
    for key in (lambda n: n, _folded, _skeleton):
        wanted = key(name)
        hits = [book for book, book_name in books if key(book_name) == wanted]
        if len(hits) == 1:
            return hits[0]
        if len(hits) > 1:
            break
    open_names = ", ".join(n for _, n in books if not n.lower().endswith(ADDIN_SUFFIXES)) or "none"
    raise ExcelError(f"Musterroll could not tell which open workbook is {name!r} (open: {open_names}). "
                     "Close the other workbooks, or give the campaign workbook a name without accents, "
                     "then click Refit again")

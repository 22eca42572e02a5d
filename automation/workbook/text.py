"""Text is text: the one function every string passes through before a writer
stores it in a cell, and the one way a date typed where a label belongs is
shown.

XlsxWriter escapes XML-special characters, control characters (as ``_x0001_``)
and text that looks like such an escape; what it cannot store is handled here:
a lone surrogate (not a character; it becomes U+FFFD), text longer than a cell
holds (refused, naming the cell), and text shaped like rich-text markup
(``<r><t>...</t></r>``), which XlsxWriter would copy into the XML unescaped and
is therefore written as a rich string of two plain runs, so it reads back as
the same text.
"""
from __future__ import annotations

import datetime as dt
import re
from typing import Any

from automation.errors import UsageError

MAX_TEXT = 32_767
_SURROGATE = re.compile(r"[\ud800-\udfff]")
MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")


def utf16_len(text: str) -> int:
    """Length as Excel counts it (UTF-16 code units)."""
    return len(text.encode("utf-16-le", "surrogatepass")) // 2


def cell_text(value: str, where: str) -> str:
    """``value`` as a cell can hold it; ``where`` (Sheet!Cell) names the cell
    in the message when it cannot."""
    text = _SURROGATE.sub("\ufffd", value) if not value.isascii() and _SURROGATE.search(value) else value
    if len(text) > MAX_TEXT // 2 and utf16_len(text) > MAX_TEXT:  # a code unit or two per character
        raise UsageError(f"{where}: a text of {utf16_len(text):,} characters; a cell holds at most {MAX_TEXT:,}: "
                         "shorten it")
    return text


def is_rich_shaped(text: str) -> bool:
    """Text XlsxWriter would take for its own rich-text markup."""
    return text.startswith("<r>") and text.endswith("</r>")


def write_text(ws: Any, row: int, col: int, value: str, where: str, cell_format: Any = None,
               run_format: Any = None) -> int:
    """Write ``value`` as text at (row, col) of an XlsxWriter worksheet: never a
    formula, a number or markup. ``run_format`` is a plain format of the
    workbook, needed for rich-text-shaped values. Returns XlsxWriter's code."""
    text = cell_text(value, where)
    if is_rich_shaped(text):
        if run_format is None:
            raise UsageError(f"{where}: internal error: no run format to write {text[:20]!r} as text")
        tail = (cell_format,) if cell_format is not None else ()
        return ws.write_rich_string(row, col, run_format, text[:1], run_format, text[1:], *tail)
    return ws.write_string(row, col, text, cell_format)


def date_label(value: dt.date) -> str:
    """A date label the umpire typed and Excel stored as a date ('Dec 24',
    'Jul 11'), as typed, whatever the machine's locale or the year Excel added."""
    return f"{MONTHS[value.month - 1]} {value.day}"


def check_calendar_date(value: dt.date, where: str) -> dt.date:
    """Excel's dates start on 1900-01-01: an earlier one cannot be written."""
    if value < dt.date(1900, 1, 1) if not isinstance(value, dt.datetime) else value < dt.datetime(1900, 1, 1):
        raise UsageError(f"{where}: the date {value.isoformat()} is before 1900-01-01, which a workbook cannot hold; "
                         "write it as text")
    return value

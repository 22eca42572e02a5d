"""What a cell's value means in a column of a sheet kind: converted to what
the column holds, or a message saying what is there and what would be valid
(:func:`convert`; pure, no I/O). :mod:`automation.workbook.reader` checks every
cell of a sheet with it."""
from __future__ import annotations

import datetime as dt
import re
from collections.abc import Mapping, Sequence
from typing import Any

from automation.campaign.names import match_name, norm, yes_no
from automation.workbook.schema import Column, Kind, ListRef, is_code_column
from automation.workbook.text import date_label, utf16_len


def describe(value: Any) -> str:
    if value is None or value == "":
        return "an empty cell"
    if isinstance(value, str):
        return f"text {value!r}"
    if isinstance(value, bool):
        return f"{'TRUE' if value else 'FALSE'}"
    if isinstance(value, float) and value.is_integer():
        return f"the number {int(value)}"
    if isinstance(value, dt.datetime):
        if value.time() == dt.time(0):
            return f"the date {value.date().isoformat()}"
        return f"the date and time {value.isoformat(sep=' ')}"
    if isinstance(value, dt.date):
        return f"the date {value.isoformat()}"
    if isinstance(value, dt.time):
        return f"the time {value.isoformat()}"
    if isinstance(value, dt.timedelta):
        return f"the duration {value}"
    return f"the number {value}"


def _as_text(value: Any) -> str | None:
    if isinstance(value, str):
        return value.strip()
    return None


DATE_LABEL_COLUMNS = frozenset({"Date", "CG Date"})


def _date_text(value: Any) -> str | None:
    """Excel turns 'Dec 24' typed in a cell into a date (of the current year):
    read it back as typed, whatever the machine's locale."""
    if isinstance(value, (dt.datetime, dt.date)):
        return date_label(value)
    return None


def typed_guess(value: dt.date) -> str:
    """What was probably typed for Excel to make this date: 6-5-8 gives
    2008-06-05, 8-1 gives the 1st of August of the year it was typed."""
    if 2000 <= value.year <= 2012:
        return f"{value.month}-{value.day}-{value.year - 2000}"
    return f"{value.month}-{value.day}"


def excel_turned(value: Any) -> str | None:
    """The message for a code Excel has already turned into a date or a number."""
    if isinstance(value, (dt.datetime, dt.date)):
        guess = typed_guess(value)
        return (f"Excel turned {guess} into a date (it holds the date {value:%Y-%m-%d}); type '{guess} "
                "(with the apostrophe first) or format the column as Text and type it again")
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        shown = int(value) if float(value).is_integer() else value
        return (f"Excel turned this into the number {shown}; type '{shown} (with the apostrophe first, and any "
                "leading zeros) or format the column as Text and type it again")
    return None


def _calendar_date(value: Any) -> str | None:
    """A calendar date as YYYY-MM-DD, from a date cell or text written so."""
    if isinstance(value, dt.datetime):
        return value.date().isoformat()
    if isinstance(value, dt.date):
        return value.isoformat()
    if isinstance(value, str):
        try:
            return dt.date.fromisoformat(value.strip()[:10]).isoformat() if len(value.strip()) == 10 else None
        except ValueError:
            return None
    return None


def convert(column: Column, value: Any, lists: Mapping[str, Sequence[str]]) -> tuple[Any, str | None]:
    """(converted value, None) or (None, message saying what is wrong)."""
    empty = value is None or (isinstance(value, str) and not value.strip())
    if empty:
        return None, (None if not column.required else f"is empty; {expected(column, lists)} is required")
    kind = column.kind
    if kind is Kind.DATE:
        day = _calendar_date(value)
        if day is None:
            return None, f"{describe(value)} where {expected(column, lists)} is expected"
        if day < "1900-01-01":
            return None, f"{describe(value)} is before 1900-01-01, the first date a workbook holds; write a later date"
        return day, None
    if kind is Kind.TEXT:
        if column.name not in DATE_LABEL_COLUMNS and is_code_column(column.name) and \
                isinstance(value, (dt.date, dt.datetime)):
            return None, excel_turned(value)
        text = _as_text(value) or _date_text(value)
        if text is None:
            hint = ""
            if isinstance(value, (int, float)) and not isinstance(value, bool):
                shown = int(value) if float(value).is_integer() else value
                hint = f" (to keep a number as text, type it with an apostrophe first: '{shown})"
            return None, f"{describe(value)} where text is expected{hint}"
        problem = _name_part_problem(text, column.name_part) if column.name_part else None
        return (None, problem) if problem else (text, None)
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
        if isinstance(column.choices, ListRef) and column.choices.name not in lists and isinstance(value, str):
            return value.strip(), None  # the list itself could not be read: that is reported where it is
        allowed = allowed_values(column, lists)
        text = _as_text(value) or _date_text(value)
        if text is None and isinstance(value, bool):
            text = "Yes" if value else "No"
        if text is None and isinstance(value, (int, float)) and float(value).is_integer():
            text = str(int(value))
        found = match_name(text, allowed)
        if found is None and {"yes", "no"} <= {norm(a) for a in allowed}:
            found = match_name(yes_no(value), allowed)
        if found is not None:
            return found, None
        return None, f"{describe(value)} is not allowed; valid: {', '.join(allowed) or '(the list is empty)'}"
    raise AssertionError(kind)  # pragma: no cover


UNKEPT = object()  # the conversion of a value converted each time (see memo_key)


def memo_key(value: Any) -> Any:
    """What the conversion of cell ``value`` is kept under while one column of
    a sheet is read (:func:`convert` is a function of the column, the value
    and the lists alone): a text or no value as itself, any other value with
    its type (1, 1.0 and True are equal keys); :data:`UNKEPT` for a float
    zero, converted each time (0.0 and -0.0 are equal keys, and may convert
    otherwise)."""
    kind = type(value)
    if kind is str or value is None:
        return value
    if kind is float and value == 0:
        return UNKEPT
    return kind, value


def plain_texts(column: Column, values: Sequence[Any]) -> list[str] | None:
    """What :func:`convert` makes of each of ``values`` in a text column whose
    values are not parts of sheet names, when each is text that is not blank:
    the text without its surrounding spaces (None: a value of another kind,
    or a blank, or another kind of column)."""
    if column.kind is not Kind.TEXT or column.name_part or not all(type(v) is str for v in values):
        return None
    texts = [v.strip() for v in values]
    return texts if all(texts) else None


def _name_part_problem(text: str, most: int) -> str | None:
    """A value that becomes part of sheet names (a side's name)."""
    from automation.workbook.schema import FORBIDDEN_SHEET_CHARS

    bad = FORBIDDEN_SHEET_CHARS.search(text)
    if re.search("[\ud800-\udfff]", text):
        return f"{text!r} holds a lone surrogate, which is not a character and cannot be part of a sheet name"
    if utf16_len(text) > most:
        return f"{text!r} has {utf16_len(text)} characters; at most {most}, as it is part of sheet names"
    if bad:
        return f"{text!r} holds {bad.group()!r}, which a sheet name cannot; use none of [ ] : * ? / \\"
    if text.startswith("'") or text.endswith("'"):
        return f"{text!r} begins or ends with an apostrophe, which a sheet name cannot"
    return None


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
    if column.kind is Kind.DATE:
        return "a date (a date cell, or text written YYYY-MM-DD)"
    if column.kind in (Kind.CHOICE, Kind.BOOL):
        return "one of " + ", ".join(allowed_values(column, lists))
    return "text"

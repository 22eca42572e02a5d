"""A sheet's values checked column by column, when every one of them is good.

:func:`automation.workbook.reader.validate_each` checks a sheet row by row,
so that its problems are reported in the order a person reads them. Yet
nearly every sheet read holds no problem at all, and a long roster is
thousands of rows of the same few words ("German", "Line", "Yes"): checked
cell by cell, the loop itself is most of a read (90-125 ms of an export at
5,000 stands, growing with the roster).

:func:`checked_columns` converts each column at once: each distinct value of
a column is converted once (:func:`automation.workbook.cellvalues.convert` is
a function of the column, the value and the lists alone), and the column's
cells are mapped to what their values made. It gives the converted columns
only when no value has a problem and no unique column repeats a value;
otherwise None, and the caller checks the sheet row by row as before, for the
problems' words and order. So a sheet reads as the same rows either way.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from automation.campaign.names import norm
from automation.workbook.cellvalues import UNKEPT, convert, memo_key, plain_texts
from automation.workbook.columns import Column

_BY_VALUE = frozenset({str, type(None)})  # a column of these alone is keyed by its values (no 1 == 1.0 == True)


def checked_columns(columns: Sequence[Column], positions: Mapping[str, int], lists: Mapping[str, Sequence[str]],
                    body: Sequence[Sequence[Any]]) -> list[list[Any] | None] | None:
    """The converted values of each of ``columns`` in the rows ``body`` (None
    for a column the sheet does not have: blank in every row), or None when
    a value has a problem or a unique column repeats one."""
    shortest = min(map(len, body), default=0)
    whole = list(zip(*body)) if shortest == max(map(len, body), default=0) else None  # (the parser's rows: as wide)
    out: list[list[Any] | None] = []
    for column in columns:
        col = positions.get(column.name)
        if col is None:
            out.append(None)
            continue
        if whole is not None and col < shortest:
            values: Sequence[Any] = whole[col]
        else:
            values = [row[col] if col < len(row) else None for row in body]
        converted = _column(column, values, lists)
        if converted is None:
            return None
        out.append(converted)
    return out


def _column(column: Column, values: Sequence[Any], lists: Mapping[str, Sequence[str]]) -> list[Any] | None:
    """One column's converted values (None: one has a problem, or a unique column repeats one)."""
    try:
        texts = plain_texts(column, values) if column.unique else None  # (each value distinct: converted at once)
        types = set(map(type, values))
        distinct = set(values) if texts is None else ()
        # keyed by value while no two of its values are equal and of other types (1 == 1.0 == True); a float zero
        # by value where 0.0 and -0.0 convert alike
        by_value = len(types - _BY_VALUE) <= 1 and not (float in types and 0.0 in distinct and
                                                        repr(convert(column, 0.0, lists)) !=
                                                        repr(convert(column, -0.0, lists)))
        made: dict[Any, Any] = {}
        if texts is not None:
            out = texts
        elif by_value:
            for value in distinct:
                converted, message = convert(column, value, lists)
                if message:
                    return None
                made[value] = converted
            out = list(map(made.__getitem__, values))
        else:
            out = []
            for value in values:
                key = memo_key(value)
                if key is UNKEPT:
                    converted, message = convert(column, value, lists)
                else:
                    found = made.get(key)
                    if found is None:
                        found = made[key] = convert(column, value, lists)
                    converted, message = found
                if message:
                    return None
                out.append(converted)
    except TypeError:  # (no cell value is unhashable; should one be, the sheet is checked row by row)
        return None
    if column.unique:
        keys = [v for v in out if v is not None]
        if len(set(map(norm, keys))) != len(keys):
            return None
    return out


__all__ = ["checked_columns"]

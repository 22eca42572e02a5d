"""A sheet's rows are checked column by column, and a column keeps what it
made of each value it met (a long roster says "German" and "Yes" thousands of
times): every cell still reads exactly as it reads alone, whatever repeats
around it, and says what is wrong with it in its own cell."""
from __future__ import annotations

import datetime as dt
import math
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from automation.workbook.columns import Column, Kind, ListRef, SheetKind
from automation.workbook.cellvalues import convert
from automation.workbook.reader import validate_each

LISTS = {"sides": ["German", "Russian"], "discipline": ["Elite", "Line", "Green"]}
KIND = SheetKind("repeats", "Repeats", (
    Column("Name", unique=True),
    Column("Side", Kind.CHOICE, choices=ListRef("sides")),
    Column("Discipline", Kind.CHOICE, required=False, choices=ListRef("discipline")),
    Column("Count", Kind.INT, required=False),
    Column("Weight", Kind.NUMBER, required=False),
    Column("Flag", Kind.BOOL, required=False),
    Column("Code", Kind.INT_OR_TEXT, required=False),
    Column("Day", Kind.DATE, required=False),
    Column("Note", required=False),
), "orders", "rows for the test")

#: values that are equal to one another but read differently (1, 1.0 and True; 0.0 and -0.0; "1" and 1),
#: values that read alike but differ (case, spaces), values that fail, and values that are not equal to
#: themselves (NaN)
VALUES: list[Any] = [None, "", "  ", "German", " german ", "GERMAN", "Russian", "Prussian", "Line", "line ", "Elite",
                     1, 1.0, True, False, 0, 0.0, -0.0, 2.5, -2.5, "1", " 7 ", "x7", "Yes", "no", "Y",
                     dt.date(2024, 1, 2), dt.datetime(2024, 1, 2, 0, 0), "2024-01-02", "1899-12-31", float("nan")]


def _same(a: Any, b: Any) -> bool:
    if isinstance(a, float) and isinstance(b, float):
        return (math.isnan(a) and math.isnan(b)) or (a == b and math.copysign(1, a) == math.copysign(1, b))
    return type(a) is type(b) and a == b


@settings(max_examples=150, deadline=None)
@given(st.lists(st.lists(st.sampled_from(VALUES), min_size=len(KIND.columns) - 1, max_size=len(KIND.columns) - 1),
                min_size=1, max_size=40))
def test_every_cell_reads_as_it_reads_alone_however_often_its_value_repeats(cells: list[list[Any]]) -> None:
    raw = [KIND.header] + [[f"S{i}"] + row for i, row in enumerate(cells)]
    rows, problems = validate_each("Repeats", KIND, raw, LISTS)
    alone = {}  # what each cell reads as alone: (converted, message)
    for r, row in enumerate(raw[1:], start=2):
        for col, column in enumerate(KIND.columns):
            alone[(r, column.name)] = convert(column, row[col], LISTS)
    letters = "ABCDEFGHI"
    expected = sorted((f"{letters[col]}{r}", f"{column.name}: {alone[(r, column.name)][1]}")
                      for r in range(2, len(raw) + 1) for col, column in enumerate(KIND.columns)
                      if alone[(r, column.name)][1])
    assert sorted((p.cell, p.message) for p in problems) == expected
    bad_rows = {int(cell[1:]) for cell, _ in expected}
    assert [row.row for row in rows] == [r for r in range(2, len(raw) + 1) if r not in bad_rows]
    for row in rows:
        for column in KIND.columns:
            assert _same(row[column.name], alone[(row.row, column.name)][0]), (row.row, column.name)


def test_a_negative_zero_after_a_zero_stays_negative() -> None:
    raw = [KIND.header, ["a", "German", None, None, 0.0], ["b", "German", None, None, -0.0]]
    rows, problems = validate_each("Repeats", KIND, raw, LISTS)
    assert not problems
    assert [math.copysign(1, r["Weight"]) for r in rows] == [1.0, -1.0]

"""A sheet without a problem is checked column by column, each distinct value
of a column converted once: it reads as the same rows, in the same order,
with the same values and cells, as checked row by row; a sheet with a
problem is checked row by row, and says what is wrong in each cell."""
from __future__ import annotations

import math
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from automation.workbook import columnwise, reader
from automation.workbook.cellvalues import convert
from automation.workbook.reader import validate_each

from tests.workbook.test_reader_repeats import KIND, LISTS, VALUES

#: for each column but the first (the unique name), the values it reads without a problem
GOOD = [[v for v in VALUES if not convert(column, v, LISTS)[1]] for column in KIND.columns[1:]]


def _row_by_row(raw: list[list[Any]]) -> tuple[list[Any], list[Any]]:
    """``raw`` checked row by row alone (the column-by-column check refusing every sheet)."""
    with pytest.MonkeyPatch.context() as m:
        m.setattr(reader, "checked_columns", lambda *args: None)
        return validate_each("Repeats", KIND, raw, LISTS)


def _shown(rows: list[Any]) -> list[tuple[Any, ...]]:
    """Each row as it reads, its values told apart by type and sign (1 from 1.0, 0.0 from -0.0, NaN as NaN)."""
    def value(v: Any) -> Any:
        if isinstance(v, float):
            return ("float", "nan" if math.isnan(v) else repr(v))
        return (type(v).__name__, v)
    return [(r.sheet, r.row, [(k, value(v)) for k, v in r.values.items()], dict(r.letters)) for r in rows]


@settings(max_examples=150, deadline=None)
@given(st.data())
def test_a_sheet_without_a_problem_reads_as_the_same_rows_either_way(data: st.DataObject) -> None:
    count = data.draw(st.integers(min_value=1, max_value=40))
    cells = [[data.draw(st.sampled_from(good)) for good in GOOD] for _ in range(count)]
    blank = data.draw(st.sets(st.integers(min_value=0, max_value=count - 1), max_size=3))
    raw = [KIND.header] + [[None] * len(KIND.columns) if i in blank else [f"S{i}"] + row
                           for i, row in enumerate(cells)]
    fast, problems = validate_each("Repeats", KIND, raw, LISTS)
    assert problems == []
    slow, slow_problems = _row_by_row(raw)
    assert slow_problems == []
    assert _shown(fast) == _shown(slow)
    assert [r.row for r in fast] == [i + 2 for i in range(count) if i not in blank]


def test_each_distinct_value_of_a_column_is_converted_once(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[Any] = []

    def counted(column: Any, value: Any, lists: Any) -> Any:
        calls.append((column.name, value))
        return convert(column, value, lists)
    monkeypatch.setattr(columnwise, "convert", counted)
    raw = [KIND.header] + [[f"S{i}", "German" if i % 2 else "Russian", "Line", 3.0, None, True, "7", None, "ok"]
                           for i in range(1000)]
    rows, problems = validate_each("Repeats", KIND, raw, LISTS)
    assert problems == [] and len(rows) == 1000
    assert sorted(c for c, _ in calls if c == "Side") == ["Side", "Side"]
    assert len(calls) < 20  # the unique names are text, taken without a call each
    assert rows[1]["Side"] == "German" and rows[0]["Count"] == 3 and rows[999]["Flag"] == "Yes"


def test_one_bad_cell_is_reported_in_its_own_cell_as_row_by_row() -> None:
    raw = [KIND.header] + [[f"S{i}", "German", "Line", 3.0, None, True, "7", None, "ok"] for i in range(50)]
    raw[31][3] = 2.5  # Count: not a whole number
    rows, problems = validate_each("Repeats", KIND, raw, LISTS)
    assert [(p.cell, p.message) for p in problems] == [
        ("D32", "Count: the number 2.5 where a whole number is expected")]
    assert [r.row for r in rows] == [r for r in range(2, 52) if r != 32]
    alone, alone_problems = _row_by_row(raw)
    assert (_shown(rows), problems) == (_shown(alone), alone_problems)


def test_a_name_used_twice_in_a_unique_column_is_reported_where_it_repeats() -> None:
    raw = [KIND.header, ["Alpha", "German"], ["Beta", "German"], [" alpha ", "Russian"]]
    rows, problems = validate_each("Repeats", KIND, raw, LISTS)
    assert [(p.cell, p.message) for p in problems] == [("A4", "Name: 'alpha' is already used at A2; it must be unique")]
    assert [r["Name"] for r in rows] == ["Alpha", "Beta"]


def test_the_columns_are_refused_when_a_value_has_a_problem() -> None:
    positions = {c.name: i for i, c in enumerate(KIND.columns)}
    good = [["A", "German"], ["B", "Russian"]]
    columns = columnwise.checked_columns(KIND.columns, positions, LISTS, good)
    assert columns is not None and columns[0] == ["A", "B"] and columns[1] == ["German", "Russian"]
    assert columns[2] == [None, None]  # (a column past a row's end: blank)
    assert columnwise.checked_columns(KIND.columns, positions, LISTS, [["A", "Prussian"]]) is None
    assert columnwise.checked_columns(KIND.columns, positions, LISTS, [["A", "German"], ["a", "German"]]) is None


def test_a_column_the_sheet_does_not_have_reads_as_blank() -> None:
    positions = {"Name": 0, "Side": 1}
    columns = columnwise.checked_columns(KIND.columns, positions, LISTS, [["A", "German"]])
    assert columns is not None and columns[2:] == [None] * (len(KIND.columns) - 2)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from([None, "", " ", "\t\n", "\u00a0", "x", " x ", 0, 0.0, False]), max_size=5))
def test_a_row_holds_a_value_when_a_cell_is_neither_empty_nor_blank_text(row: list[Any]) -> None:
    assert reader._filled(row) == any(v is not None and not (isinstance(v, str) and not v.strip()) for v in row)


def test_both_ways_keep_a_conversion_under_the_value_and_its_type_and_convert_a_float_zero_each_time() -> None:
    from automation.workbook.cellvalues import UNKEPT, memo_key

    keys = [memo_key(v) for v in (1, 1.0, True, "1", None)]
    assert len(set(keys)) == 5 and memo_key("1") == "1" and memo_key(None) is None
    assert memo_key(0.0) is UNKEPT and memo_key(-0.0) is UNKEPT and memo_key(0) == (int, 0)

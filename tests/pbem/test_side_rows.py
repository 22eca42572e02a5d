"""A side sees the rows whose Side cell names it, both sides or all, and the
rows whose Visible to cell names it or all: case and spaces do not count,
and a cell that names another side, nothing or something odd hides its row."""
from __future__ import annotations

import datetime as dt

from automation.pbem.sidesheets import side_rows, visible_rows


def test_a_side_sees_its_own_rows_both_and_all_whatever_their_case_and_spaces() -> None:
    rows = [["Side", "Stand"], ["German", "G-1"], [" german ", "G-2"], ["Russian", "R-1"], ["BOTH", "B-1"],
            ["all", "A-1"], [None, "N-1"], ["", "E-1"], [1, "X-1"], [True, "X-2"], [dt.date(1942, 12, 23), "X-3"],
            [["German"], "X-4"]]
    assert [r[1] for r in side_rows(rows, "German")[1:]] == ["G-1", "G-2", "B-1", "A-1"]
    assert [r[1] for r in side_rows(rows, "russian")[1:]] == ["R-1", "B-1", "A-1"]
    assert side_rows(rows, "German")[0] == ["Side", "Stand"]


def test_a_row_visible_to_a_side_or_all_is_shown_and_any_other_is_not() -> None:
    rows = [["Visible to", "Text"], ["All", "a"], ["German", "g"], ["Russian", "r"], [" ALL ", "a2"], [None, "n"]]
    assert [r[1] for r in visible_rows(rows, "German")[1:]] == ["a", "g", "a2"]
    assert [r[1] for r in visible_rows(rows, "Russian")[1:]] == ["a", "r", "a2"]

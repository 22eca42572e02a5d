"""The digests of the audit chain are the SHA-256 of the canonical JSON of
their parts (automation.pbem.reports): a sheet's, each row's tag, a column's.
However a seal comes to them (a sheet's rows encoded once for its digest and
its row tags), they are what a reader of the format computes from it."""
from __future__ import annotations

import datetime as dt
import hashlib
import json

import pytest

from automation.pbem.reports import canonical, column_tags, norm, row_tags, row_texts, sheet_digest


def by_the_format(*parts: object) -> str:
    text = json.dumps(parts, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


AWKWARD = [
    ["Side", "Stand", "Note", "Count"],
    ["German", "G-001", 'a "quoted" \\ back', 3],
    ["Русский", "R-T34-1", "tab\there\nline", 2.5],
    ["German", "G-002", "\x01 control \u2028 separator 😀", True],
    [None, None, None, None],
    ["", " ", "  ", 0],
    ["German", "G-003", dt.date(1943, 7, 5), -0.0],
]


@pytest.mark.parametrize("name", ["Roster Apr 2", 'Sheet "quoted" é'])
def test_a_sheet_s_digest_and_row_tags_are_the_format_s_made_once_or_each_on_its_own(name: str) -> None:
    rows = canonical(AWKWARD)
    texts = row_texts(rows)
    assert texts == [json.dumps(r, ensure_ascii=False, separators=(",", ":")) for r in rows]
    expected = by_the_format("musterroll/sheet/v1", name, rows)
    assert sheet_digest(name, rows) == sheet_digest(name, rows, texts) == expected
    tags = [by_the_format("musterroll/row/v1", name, i, r)[:8] for i, r in enumerate(rows)]
    assert row_tags(name, rows) == row_tags(name, rows, texts) == tags
    width = max(len(r) for r in rows)
    assert column_tags(name, rows) == [
        by_the_format("musterroll/column/v1", name, j, [r[j] if j < len(r) else "" for r in rows])[:8]
        for j in range(width)]


def test_canonical_rows_are_text_with_trailing_blanks_dropped() -> None:
    rows = canonical(AWKWARD + [[None], []])
    assert rows[1] == ["German", "G-001", 'a "quoted" \\ back', "3"]
    assert rows[2][3] == "2.5" and rows[3][3] == "TRUE" and rows[4] == [] and rows[5] == ["", " ", "  ", "0"]
    assert rows[6] == ["German", "G-003", "1943-07-05", "0"] and len(rows) == len(AWKWARD)


@pytest.mark.parametrize("number", [0, 7, -12, 10 ** 15 - 1, -(10 ** 15 - 1), 10 ** 15, -(10 ** 15), 2 ** 53 - 1,
                                    2 ** 53 + 1, 10 ** 20, True, False, 3.0, -0.0, 2.5, 1e15, 1e300])
def test_a_number_is_canonical_as_norm_writes_it_however_large(number: object) -> None:
    """A whole number is written as it is only while norm writes it so
    (below 10^15); from there on it is a double's 15 digits, as calamine
    reads the cell back."""
    assert canonical([["x", number]]) == [["x", norm(number)]]

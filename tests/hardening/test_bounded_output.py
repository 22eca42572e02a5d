"""Bounded output: at most 50 problems are listed, the rest counted by sheet,
and a sheet full of junk stops being checked long before its end."""
from __future__ import annotations

from pathlib import Path

import pytest

from automation.errors import MAX_LISTED, STOP_AFTER, CellProblem, WorkbookError
from automation.workbook.reader import validate_rows
from automation.workbook.schema import SIDES_SHEET
from tests.hardening.hostile_masters import ROSTER, capped, master


def test_fifty_problems_are_listed_and_the_rest_counted_by_sheet() -> None:
    problems = [CellProblem("Roster Start", f"A{r}", "bad") for r in range(2, 102)]
    problems += [CellProblem("Sides", f"B{r}", "bad") for r in range(2, 22)]
    lines = str(WorkbookError(problems)).splitlines()
    assert len(lines) == MAX_LISTED + 1
    assert lines[:MAX_LISTED] == [str(p) for p in problems[:MAX_LISTED]]
    assert lines[-1] == "... and 70 more (50 in Roster Start, 20 in Sides)"


def test_a_short_list_is_listed_whole() -> None:
    problems = [CellProblem("Sides", f"B{r}", "bad") for r in range(2, 2 + MAX_LISTED)]
    assert str(WorkbookError(problems)).splitlines() == [str(p) for p in problems]


def test_a_sheet_of_junk_stops_being_checked_once_far_past_the_cap() -> None:
    raw = [list(SIDES_SHEET.header)] + [[f"junk {r}", "x", "many", None, "Maybe"] for r in range(100_000)]
    with pytest.raises(WorkbookError) as caught:
        validate_rows("Sides", SIDES_SHEET, raw, {})
    assert STOP_AFTER <= len(caught.value.problems) < STOP_AFTER + 10
    row = caught.value.stopped["Sides"]
    assert row == 1 + -(-STOP_AFTER // 3)  # three problems a row, from row 2
    assert str(caught.value).splitlines()[-1] == (
        f"... and {len(caught.value.problems) - 50} more ({len(caught.value.problems) - 50} in Sides); the check "
        f"stopped early in Sides (at row {row}): correct these first")


def junk_rows(parts):
    rows = "".join(f'<row r="{r}"><c r="A{r}" t="inlineStr"><is><t>junk{r}</t></is></c>'
                   f'<c r="C{r}" t="inlineStr"><is><t>x</t></is></c></row>' for r in range(100, 150_100))
    parts[ROSTER] = parts[ROSTER].replace(b"</sheetData>", rows.encode() + b"</sheetData>")
    return parts


def test_150000_junk_rows_give_a_short_message_in_bounded_memory(tmp_path: Path) -> None:
    book = master(tmp_path / "m", junk_rows)
    before = book.read_bytes()
    proc = capped("refit", book)
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    lines = proc.stderr.splitlines()
    assert len(lines) == MAX_LISTED + 1, lines[-3:]
    assert lines[0].startswith("musterroll: Roster Start!A100: Side: text 'junk100' is not allowed")
    assert lines[-1].startswith("... and ") and "in Roster Start" in lines[-1]
    assert "the check stopped early in Roster Start (at row" in lines[-1]
    assert book.read_bytes() == before

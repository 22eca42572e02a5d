"""Decision sheets forgive what a person filling them does: optional columns
may be left out, and a renamed header is pointed out at its own cell."""
from __future__ import annotations

import pytest

from automation.errors import WorkbookError
from automation.workbook import bf_sheets as K
from automation.workbook.reader import validate_rows


def test_optional_columns_may_be_left_out_and_read_as_blank():
    rows = validate_rows("Spend Dec 23 German", K.SPEND, [["Order", "Subject"], ["Repair", "G-Pz-2"]], {})
    assert [(r["Order"], r["Subject"], r["Value"], r["Detail"]) for r in rows] == [("Repair", "G-Pz-2", None, None)]


def test_a_missing_required_column_is_still_refused():
    with pytest.raises(WorkbookError) as exc:
        validate_rows("Spend Dec 23 German", K.SPEND, [["Subject", "Value"], ["G-Pz-2", 1]], {})
    assert [str(p) for p in exc.value.problems] == [
        "Spend Dec 23 German!C1: missing column 'Order'; the header row must hold: "
        + ", ".join(K.SPEND.header)]


@pytest.mark.parametrize("column, renamed, cell", [("Subject", "Subjcet", "B1"), ("Value", "Valeu", "C1"),
                                                   ("Order", "Ordre", "A1")])
def test_a_renamed_header_gets_did_you_mean_at_its_own_cell(column, renamed, cell):
    header = [renamed if h == column else h for h in K.SPEND.header]
    with pytest.raises(WorkbookError) as exc:
        validate_rows("Spend Dec 23 German", K.SPEND, [header, ["Repair", "G-Pz-2", 1, None]], {})
    [problem] = exc.value.problems
    assert problem.cell == cell and repr(renamed) in problem.message and f"did you mean {column!r}?" in problem.message

"""The names of the sheets an export copies from the store are checked as
XlsxWriter checks a sheet it draws: all at once when every one passes, and
with XlsxWriter's own message for the first that does not."""
from __future__ import annotations

import io

import pytest
from xlsxwriter.exceptions import DuplicateWorksheetName, InvalidWorksheetName

from automation.pbem.xlsx import _workbook_class


def book():
    return _workbook_class()(io.BytesIO(), {"in_memory": True})


def test_names_that_pass_are_taken_at_once_and_a_drawn_sheet_cannot_take_one_again():
    b = book()
    b.check_sheetnames(["Refit Dec 23 1", "Roster Dec 23", "Spend Dec 23 German", "Ünïcode name"])
    assert b.sheetname_count == 4
    with pytest.raises(DuplicateWorksheetName):
        b.add_worksheet("roster dec 23")
    b.add_worksheet("Export")
    with pytest.raises(DuplicateWorksheetName):
        b.check_sheetnames(["EXPORT"])


@pytest.mark.parametrize("names, error, message", [
    (["Fine", "Refit [Dec 23]"], InvalidWorksheetName, "Invalid Excel character"),
    (["Fine", "a" * 32], InvalidWorksheetName, "must be <= 31 chars"),
    (["Fine", "\U0001F600" * 16], InvalidWorksheetName, "must be <= 31 chars"),  # 32 UTF-16 units
    (["'Quoted", "Fine"], InvalidWorksheetName, "cannot start or end with an apostrophe"),
    (["Fine", "Quoted'"], InvalidWorksheetName, "cannot start or end with an apostrophe"),
    (["Twice", "twice"], DuplicateWorksheetName, "already in use"),
])
def test_a_name_that_does_not_pass_is_refused_as_xlsxwriter_refuses_it(names, error, message):
    with pytest.raises(error, match=message):
        book().check_sheetnames(names)


def test_names_up_to_the_limit_pass():
    b = book()
    b.check_sheetnames(["a" * 31, "\U0001F600" * 15 + "b", "x'y"])
    assert b.sheetname_count == 3

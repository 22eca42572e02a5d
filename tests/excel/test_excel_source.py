"""The open workbook read through the sheet contract reads as the file does."""
from __future__ import annotations

import datetime as dt
import shutil

import openpyxl
import pytest

import fake_xlwings as fx
from automation.errors import WorkbookError, WorkbookFileError
from automation.excel.source import ExcelSource, cell_value, lists_from_rows
from automation.samples import SAMPLE
from automation.service import plan_refit
from automation.workbook.reader import Workbook


@pytest.fixture
def sample(tmp_path):
    path = tmp_path / SAMPLE.name
    shutil.copyfile(SAMPLE, path)
    shutil.copyfile(SAMPLE.with_suffix(".key"), path.with_suffix(".key"))
    return path


def excel_source(path):
    return ExcelSource(fx.open_workbook(fx.App(), path))


def test_every_sheet_of_the_sample_reads_the_same_from_excel_as_from_the_file(sample):
    live, file = excel_source(sample), Workbook(sample)
    assert live.sheet_names == file.sheet_names and live.path == sample
    for name in file.sheet_names:
        assert live.raw(name) == file.raw(name), name
    assert live.read_lists() == file.read_lists()


def test_the_refit_plans_the_same_sheets_from_excel_as_from_the_file(sample):
    live_outcome, live_sheets = plan_refit(excel_source(sample))
    file_outcome, file_sheets = plan_refit(Workbook(sample))
    assert live_sheets == file_sheets and [s.name for s in live_sheets] == ["Refit Dec 23 1"]
    assert live_outcome.entries == file_outcome.entries and live_outcome.waiting == file_outcome.waiting


def test_excel_cells_become_the_values_the_file_adapter_reads():
    assert cell_value(None) == ""
    assert cell_value(5) == 5.0 and isinstance(cell_value(5), float)
    assert cell_value(dt.datetime(1942, 12, 24)) == dt.date(1942, 12, 24)
    assert cell_value(dt.datetime(1942, 12, 24, 6, 30)) == dt.datetime(1942, 12, 24, 6, 30)
    assert cell_value(dt.datetime(1899, 12, 30, 6, 30)) == dt.time(6, 30)
    assert cell_value("Dec 24") == "Dec 24" and cell_value(True) is True


def test_a_bad_lists_sheet_gives_the_same_problems_from_excel_as_from_the_file(sample):
    book = openpyxl.load_workbook(sample)
    lists = book["Lists"]
    lists["A3"] = lists["A2"].value  # a discipline twice
    lists["B3"] = 7  # a number in a list of texts
    book.save(sample)
    with pytest.raises(WorkbookError) as from_file:
        Workbook(sample).read_lists()
    with pytest.raises(WorkbookError) as from_excel:
        excel_source(sample).read_lists()
    assert str(from_excel.value) == str(from_file.value)
    assert "Lists!A3: 'Raw' appears twice in list 'discipline'" in str(from_excel.value)
    assert "Lists!B3: the number 7 where a list value (text) is expected" in str(from_excel.value)


def test_lists_from_rows_reads_a_wide_sheet_one_list_per_column():
    rows = [["sides", "", "discipline"], ["German", "x", " Raw "], ["Russian", "", ""], ["", "", "Veteran"]]
    assert lists_from_rows("Lists", rows, None) == {"sides": ["German", "Russian"], "discipline": ["Raw", "Veteran"]}
    assert lists_from_rows("Lists", [], None) == {}


def test_a_missing_sheet_is_reported_in_the_words_of_the_file_adapter(sample):
    from automation.workbook import bf_sheets as K

    live, file = excel_source(sample), Workbook(sample)
    asks = [lambda b: b.raw("Orders Dec 24 German"), lambda b: b.read(K.ORDERS, "Orders Dec 24 German"),
            lambda b: b.read(K.ROSTER, "Roster start"), lambda b: b.read_lists("Listen")]
    said = []
    for ask in asks:
        with pytest.raises(WorkbookError) as from_file:
            ask(file)
        with pytest.raises(WorkbookError) as from_excel:
            ask(live)
        assert str(from_excel.value) == str(from_file.value)
        said.append(str(from_excel.value))
    assert said[2].startswith("Roster start!A1: the sheet is missing (is 'Roster Start' meant to be it?")


def test_a_sheet_used_far_beyond_the_limits_is_refused_before_it_is_read(sample):
    book = fx.open_workbook(fx.App(), sample)
    book.sheets["Sides"].range((300_000, 2)).value = "stray"
    with pytest.raises(WorkbookError) as too_far:
        ExcelSource(book).raw("Sides")
    assert str(too_far.value).startswith("Sides!F300000: the sheet's used range reaches row 300000; at most 200000 rows")


def test_an_empty_sheet_reads_as_no_rows(sample):
    app = fx.App()
    book = fx.open_workbook(app, sample)
    book.sheets.items.append(fx.Sheet(book, "Blank"))
    assert ExcelSource(book).raw("Blank") == []


def test_a_workbook_excel_has_not_saved_cannot_be_read(sample):
    book = fx.open_workbook(fx.App(), sample)
    book.fullname = book.name = "Book2"
    with pytest.raises(WorkbookFileError, match="Book2: the workbook has not been saved yet"):
        ExcelSource(book)


def test_each_sheet_is_read_from_excel_once(sample, monkeypatch):
    source = excel_source(sample)
    calls = []
    sheet = source._sheets["Sides"]
    original = fx.Sheet.range
    monkeypatch.setattr(fx.Sheet, "range", lambda self, *a: calls.append(self.name) or original(self, *a))
    source.raw("Sides")
    source.read_lists()
    source.raw("Sides")
    assert calls == ["Sides", "Lists"] and sheet.name == "Sides"


def test_the_digest_changes_when_a_value_changes(sample):
    first = excel_source(sample)
    book = fx.open_workbook(fx.App(), sample)
    book.sheets["Sides"].range((2, 3)).value = 11
    assert len(first.digest) == 64 and first.digest == excel_source(sample).digest != ExcelSource(book).digest

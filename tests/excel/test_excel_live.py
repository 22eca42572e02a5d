"""The Refit button's Python side (musterroll_addin.main) on a book object that
behaves as Excel presents the Advance to Rostov sample, compared with what
``musterroll refit`` (automation.service.refit) writes into the same workbook."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest
import xlwings

import fake_xlwings as fx
import musterroll_addin
from automation.excel.rehearsal import CASES, make_test_workbooks
from automation.workbook import bf_sheets as K
from automation.workbook.package import NewSheet, list_batches
from automation.workbook.reader import Workbook

BOOK = "advance_to_rostov.xlsx"


@pytest.fixture(scope="module")
def workbooks(tmp_path_factory) -> Path:
    """The release-test workbooks, each with its twin refitted by the command line in expected/."""
    folder = tmp_path_factory.mktemp("release-test")
    make_test_workbooks(folder)
    return folder


@pytest.fixture
def excel(monkeypatch, tmp_path):
    """An Excel with the add-in loaded; xw.Book.caller() gives the add-in, as it does for an add-in's macro."""
    app = fx.App()
    addin = fx.add_in(app, tmp_path / "XLSTART")
    monkeypatch.setattr(xlwings.Book, "caller", classmethod(lambda cls: addin))
    return app


def new_sheets(book: fx.Book, before: list[str]) -> list[str]:
    return [s.name for s in book.sheets if s.name not in before]


def sample_in_excel(app: fx.App, tmp_path: Path) -> tuple[fx.Book, Path]:
    path = fx.copy_sample(tmp_path / "campaign")
    return fx.open_workbook(app, path), path


# ----------------------------------------------------------------- same sheets as the file adapter

@pytest.mark.parametrize("case", CASES[:2])
def test_refit_button_writes_the_sheets_musterroll_refit_writes(excel, workbooks, case):
    book = fx.open_workbook(excel, workbooks / case / BOOK)
    before = book.snapshot()

    musterroll_addin.main()

    expected = Workbook(workbooks / "expected" / case / BOOK)
    added = new_sheets(book, list(before))
    assert added == expected.sheet_names[len(before):] and added  # the same names, in the same order
    for name in added:
        assert book.sheets[name].values() == expected.raw(name), name
    assert {n: v for n, v in book.snapshot().items() if n in before} == before  # the umpire's sheets untouched
    (prompt, title, mode), = excel.alerts
    assert mode == "info" and title == "Musterroll" and "Added: " + ", ".join(added) in prompt


def test_refit_button_and_musterroll_refit_give_the_same_sheet_names_and_values(excel, workbooks, tmp_path, capsys):
    from automation.cli import main as cli

    on_disk = tmp_path / "cli" / BOOK
    shutil.copytree(workbooks / CASES[1], on_disk.parent)
    book = fx.open_workbook(excel, workbooks / CASES[1] / BOOK)
    before = [s.name for s in book.sheets]

    musterroll_addin.main()
    assert cli(["refit", str(on_disk)]) == 0

    file_book = Workbook(on_disk)
    added = new_sheets(book, before)
    assert added == file_book.sheet_names[len(before):] == ["Refit Dec 23 2", "Roster Dec 23", "Ledger Dec 23",
                                                            "Summary Dec 23"]
    for name in added:
        assert book.sheets[name].values() == file_book.raw(name), name


def test_the_batch_is_recorded_as_musterroll_undo_reads_it(excel, workbooks):
    book = fx.open_workbook(excel, workbooks / CASES[1] / BOOK)
    names_before = [n.name for n in book.names.items]
    musterroll_addin.main()

    record, = [n for n in book.names.items if n.name not in names_before]
    batches = list_batches(workbooks / "expected" / CASES[1] / BOOK)
    assert record.name == f"_mr_batch_{len(batches):04d}"
    assert record.refers_to == "={" + ",".join(f'"{t}"' for t in (batches[-1].name, *batches[-1].sheets)) + "}"
    assert record.api.Visible is False


def test_new_sheets_have_a_bold_frozen_header_sized_columns_tab_colour_dropdowns_and_chart(excel, workbooks):
    book = fx.open_workbook(excel, workbooks / CASES[1] / BOOK)
    before = [s.name for s in book.sheets]
    musterroll_addin.main()

    assert book.active_sheet is book.sheets[new_sheets(book, before)[0]]  # the umpire sees the report first
    roster = book.sheets["Roster Dec 23"]
    width = len(K.ROSTER.columns)
    assert {(1, c) for c in range(1, width + 1)} <= roster.bold and (2, 1) not in roster.bold
    assert roster.frozen == (1, 0)
    assert [roster.widths[c + 1] for c in range(width)] == [c.width for c in K.ROSTER.columns]
    assert roster.api.Tab.Color == 0x35 * 65536 + 0x82 * 256 + 0x54  # #548235 (roster) as COM's BGR number
    status_col = 1 + [c.name for c in K.ROSTER.columns].index("Status")
    rows = len(roster.values())
    assert (f"${fx.letters(status_col)}$2:${fx.letters(status_col)}${rows}", list(K.STATUS)) in roster.validations
    summary = book.sheets[K.SUMMARY.name_for(date="Dec 23")]
    chart, = summary.charts.items
    header = summary.values()[0]
    assert chart.chart_type == "line_markers" and chart.title == "CPP and stands by date" and chart.anchor == "$I$2"
    assert [s.name for s in chart.series] == [header[i] for i in (1, 2, 5, 6)]
    assert chart.x_values == "$A$2"  # one date so far


def test_progress_shows_in_the_status_bar_and_excel_gets_it_back_at_the_end(excel, tmp_path):
    sample_in_excel(excel, tmp_path)
    musterroll_addin.main()
    shown = [s for s in excel.status_history if s]
    assert shown[0] == "Musterroll: reading advance_to_rostov.xlsx..."
    assert any(s.startswith("Musterroll: writing Refit Dec 23 1 (1 of 1)") for s in shown)
    assert excel.status_history[-1] is False and excel.screen_updating is True


def test_clicking_refit_again_writes_nothing_new_and_says_so(excel, tmp_path):
    book, _ = sample_in_excel(excel, tmp_path)
    musterroll_addin.main()
    after_first = book.snapshot()
    musterroll_addin.main()
    assert book.snapshot() == after_first
    assert "Nothing new to write." in excel.alerts[-1][0] and excel.alerts[-1][2] == "info"


# ----------------------------------------------------------------- text stays text

def test_text_that_excel_would_take_for_a_formula_number_or_date_is_written_as_text(excel, tmp_path):
    from automation.excel.writer import Writer

    book, _ = sample_in_excel(excel, tmp_path)
    rows = [["Text", "Number", "Flag"], ["=SUM(A1:A9)", 3, True], ["+4", 2.5, False], ["-3", None, None],
            ["@risk", -1, None], ["Dec 24", 0, None], ["TRUE", None, None], ["'quoted", None, None], ["12", None, None]]
    Writer(book).write_batch([NewSheet("Typed", rows)], batch="typing test")
    assert book.sheets["Typed"].values() == [["" if v is None else v for v in row] for row in rows]


# ----------------------------------------------------------------- errors reach the umpire

def test_a_bad_value_is_shown_with_its_sheet_and_cell_and_nothing_is_written(excel, tmp_path):
    book, path = sample_in_excel(excel, tmp_path)
    book.sheets["Sides"].range((2, 3)).value = "ten"
    before, names = book.snapshot(), len(book.names)

    musterroll_addin.main()

    (prompt, _, mode), = excel.alerts
    assert mode == "critical"
    assert "Sides!C2: Starting CPP: text 'ten' where a whole number is expected" in prompt
    assert prompt.endswith("Nothing was written.") and "Traceback" not in prompt
    assert book.snapshot() == before and len(book.names) == names
    assert not path.with_name("advance_to_rostov.musterroll.log").exists()


def test_a_missing_key_file_is_named_in_the_alert(excel, workbooks):
    path = workbooks / CASES[2] / BOOK
    book = fx.open_workbook(excel, path)
    before = book.snapshot()
    musterroll_addin.main()
    (prompt, _, mode), = excel.alerts
    assert mode == "critical" and f"{path.with_suffix('.key')}: the campaign key file is missing" in prompt
    assert book.snapshot() == before


def test_a_long_list_of_problems_is_cut_in_the_alert_and_kept_whole_in_the_log(excel, tmp_path):
    book, path = sample_in_excel(excel, tmp_path)
    roster = book.sheets["Roster Start"]
    for r in range(2, 40):
        roster.range((r, 11)).value = "Lost"  # Status: not an allowed value
    musterroll_addin.main()
    (prompt, _, _), = excel.alerts
    log = path.with_name("advance_to_rostov.musterroll.log")
    assert prompt.count("Roster Start!K") < 38 and f"more (all of them are in {log})" in prompt
    assert all(f"Roster Start!K{r}:" in log.read_text() for r in range(2, 40))


def test_an_unexpected_error_gives_a_short_alert_and_the_details_in_a_log_beside_the_workbook(excel, tmp_path, monkeypatch):
    import automation.service

    def broken(*args, **kwargs):
        raise RuntimeError("the dice tower fell over")

    monkeypatch.setattr(automation.service, "plan_refit", broken)
    book, path = sample_in_excel(excel, tmp_path)
    before = book.snapshot()
    musterroll_addin.main()

    log = path.with_name("advance_to_rostov.musterroll.log")
    (prompt, _, mode), = excel.alerts
    assert mode == "critical" and "unexpected error" in prompt and str(log) in prompt
    assert "Traceback" not in prompt and "dice tower" not in prompt
    assert "RuntimeError: the dice tower fell over" in log.read_text() and "Traceback" in log.read_text()
    assert book.snapshot() == before


def test_a_failure_while_writing_removes_the_sheets_already_added(excel, workbooks):
    book = fx.open_workbook(excel, workbooks / CASES[1] / BOOK)
    before, names = book.snapshot(), len(book.names)
    book.sheets.fail_on_add = len(before) + 2  # Excel refuses the third new sheet
    musterroll_addin.main()
    assert book.snapshot() == before and len(book.names) == names
    assert "unexpected error" in excel.alerts[-1][0] and excel.screen_updating is True


def test_the_add_in_itself_is_refused(excel, tmp_path):
    book, _ = sample_in_excel(excel, tmp_path)
    excel.books.active = excel.books.items[0]  # the add-in
    before = book.snapshot()
    musterroll_addin.main()
    (prompt, _, mode), = excel.alerts
    assert mode == "critical" and "musterroll_addin.xlam is an add-in, not a campaign workbook" in prompt
    assert book.snapshot() == before and [s.name for s in excel.books.items[0].sheets] == ["myaddin.conf"]


def test_no_open_workbook_is_said_plainly(excel):
    musterroll_addin.main()
    assert excel.alerts == [("No workbook is open. Open the campaign workbook, then click Refit.\n\nNothing was written.",
                             "Musterroll", "critical")]


def test_a_workbook_never_saved_is_asked_to_be_saved_beside_its_key(excel, tmp_path):
    book, _ = sample_in_excel(excel, tmp_path)
    book.fullname = book.name = "Book1"
    musterroll_addin.main()
    assert "Book1: the workbook has not been saved yet" in excel.alerts[0][0]


def test_without_excel_main_says_so_on_stderr_for_runpython_to_show(monkeypatch, capsys):
    def no_caller(cls):
        raise RuntimeError("Book.caller() must not be called directly")

    monkeypatch.setattr(xlwings.Book, "caller", classmethod(no_caller))
    with pytest.raises(SystemExit) as stop:
        musterroll_addin.main()
    assert stop.value.code == 1
    assert "Musterroll: Excel could not be reached" in capsys.readouterr().err


def test_sheets_that_cannot_be_removed_after_a_failure_are_named_not_hidden(excel, workbooks, monkeypatch):
    book = fx.open_workbook(excel, workbooks / CASES[1] / BOOK)
    book.sheets.fail_on_add = len(book.snapshot()) + 1  # Excel refuses the second new sheet

    def stuck(sheet):
        raise RuntimeError("the sheet is locked")

    monkeypatch.setattr(fx.Sheet, "delete", stuck)
    musterroll_addin.main()
    prompt = excel.alerts[-1][0]
    assert "some new sheets could not be removed again" in prompt and "nothing was written" not in prompt
    log = (workbooks / CASES[1] / "advance_to_rostov.musterroll.log").read_text()
    assert "could not remove Refit Dec 23 2 after the failure: the sheet is locked" in log

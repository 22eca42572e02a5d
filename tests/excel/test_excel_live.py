"""One click of Refit, as xlwings' RunPython starts it, in a fake Excel on
Windows and on a Mac: the workbook is saved, refitted on disk exactly as
`musterroll refit` refits it, and opened again on the first new sheet."""
from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest
from filelock import FileLock

import automation.excel.dialogs as dialogs
import automation.excel.live as live
import fake_xlwings as fx
from excel_helpers import click, open_on, twin
from automation.excel.clicked import Click, ExcelError, find_book
from automation.service import refit

FORMS_DEC23 = ["Spend Dec 23 German", "Spend Dec 23 Russian"]  # the forms the first refit writes with its report

ROOT = Path(__file__).resolve().parents[2]


def test_a_click_leaves_the_very_bytes_musterroll_refit_writes_and_shows_the_new_sheet(excel, monkeypatch, tmp_path):
    in_excel = fx.copy_sample(tmp_path / "excel")
    on_disk = twin(in_excel, tmp_path / "cli")
    book = open_on(excel, in_excel, "Roster Start")

    click(excel, monkeypatch)
    outcome = refit(on_disk)

    assert in_excel.read_bytes() == on_disk.read_bytes()
    assert book.saves == 1 and book.closed  # saved, closed, refitted, opened again
    again = excel.books.active
    assert again is not book and again.fullname == str(in_excel) and again.sheets.active.name == "Refit Dec 23 1"
    assert excel.alerts == [("Refit of Dec 23 in advance_to_rostov.xlsx\nAdded: Refit Dec 23 1\n"
                             "Forms to fill: Spend Dec 23 German, Spend Dec 23 Russian (set B2 of each to Ready when "
                             f"it is complete).\nNow {outcome.waiting}.", "Musterroll", "info")]
    assert [s for s in excel.statuses if s][:2] == ["Musterroll: saving advance_to_rostov.xlsx...",
                                                    "Musterroll: working on advance_to_rostov.xlsx..."]
    assert excel.statuses[-1] is False


def test_cells_typed_before_the_click_are_saved_and_read_by_the_refit(excel, monkeypatch, tmp_path):
    path = fx.copy_sample(tmp_path / "excel")
    book = open_on(excel, path, "Sides")
    book.sheets["Sides"].range("C2").value = "ten"
    before_sheets = [s.name for s in book.sheets]

    click(excel, monkeypatch)

    (prompt, _, mode), = excel.alerts
    assert mode == "critical" and "Traceback" not in prompt
    assert re.search(r"Sides!C2: .*'ten' where a whole number is expected", prompt)
    assert prompt.endswith("\n\nNothing was written.")
    again = excel.books.active
    assert [s.name for s in again.sheets] == before_sheets and again.sheets.active.name == "Sides"
    assert again.sheets["Sides"].range("C2").value == "ten"  # what was typed is kept


def test_a_second_click_while_a_run_is_going_does_nothing(excel, monkeypatch, tmp_path):
    import tempfile

    path = fx.copy_sample(tmp_path / "excel")
    before = path.read_bytes()
    book = open_on(excel, path, "Campaign")
    with FileLock(str(Path(tempfile.gettempdir()) / live.LOCK_NAME)):  # the first click's run
        click(excel, monkeypatch)
    assert excel.alerts == [] and book.saves == 0 and not book.closed and path.read_bytes() == before
    assert "Musterroll: a refit is already running; wait for its message" in excel.statuses


def test_a_never_saved_workbook_is_refused_and_left_open_as_it_is(excel, monkeypatch):
    book = excel.books.add()
    click(excel, monkeypatch)
    (prompt, _, mode), = excel.alerts
    assert mode == "critical" and prompt.startswith(f"{book.name}: the workbook has not been saved yet. Save it as "
                                                    ".xlsx in the folder of its key file")
    assert book.saves == 0 and not book.closed


def test_a_workbook_that_is_not_xlsx_is_refused(excel, monkeypatch, tmp_path):
    path = fx.copy_sample(tmp_path / "excel")
    xlsm = path.with_suffix(".xlsm")
    path.rename(xlsm)
    book = fx.open_workbook(excel, xlsm)
    click(excel, monkeypatch)
    assert "Musterroll works on .xlsx workbooks" in excel.alerts[0][0] and not book.closed


def test_a_onedrive_address_without_a_synced_copy_is_explained(excel, monkeypatch, tmp_path):
    book = fx.open_workbook(excel, fx.copy_sample(tmp_path / "excel"))

    def unmapped(self):
        raise Exception("Couldn't find your local OneDrive for Business file")  # what xlwings raises

    monkeypatch.setattr(fx.Book, "fullname", property(unmapped))
    click(excel, monkeypatch)
    prompt = excel.alerts[0][0]
    assert "web address (OneDrive or SharePoint)" in prompt and "Couldn't find your local OneDrive" in prompt
    assert not book.closed and book.saves == 0


def test_a_missing_key_file_is_the_command_lines_message_and_the_file_is_untouched(excel, monkeypatch, tmp_path):
    path = fx.copy_sample(tmp_path / "excel", key=False)
    before = path.read_bytes()
    fx.open_workbook(excel, path)
    click(excel, monkeypatch)
    (prompt, _, mode), = excel.alerts
    assert mode == "critical" and f"{path.with_suffix('.key')}: the campaign key file is missing" in prompt
    assert path.read_bytes() == before and excel.books.active.fullname == str(path)


def test_an_unexpected_error_is_logged_beside_the_workbook_and_the_workbook_opened_again(excel, monkeypatch, tmp_path):
    import automation.service

    def broken(*args, **kwargs):
        raise RuntimeError("the dice cup cracked")

    monkeypatch.setattr(automation.service, "refit", broken)
    path = fx.copy_sample(tmp_path / "excel")
    before = path.read_bytes()
    fx.open_workbook(excel, path)
    click(excel, monkeypatch)

    log = path.with_name("advance_to_rostov.musterroll.log")
    (prompt, _, mode), = excel.alerts
    assert mode == "critical" and str(log) in prompt and "dice cup" not in prompt
    assert "RuntimeError: the dice cup cracked" in log.read_text()
    assert path.read_bytes() == before and excel.books.active.fullname == str(path)


def test_a_workbook_excel_cannot_open_again_is_said_after_the_result(excel, monkeypatch, tmp_path):
    path = fx.copy_sample(tmp_path / "excel")
    fx.open_workbook(excel, path)

    def refuse(self, fullname=None, **kwargs):
        raise PermissionError("Grant File Access was declined")

    monkeypatch.setattr(fx.Books, "open", refuse)
    click(excel, monkeypatch)
    prompt = excel.alerts[0][0]
    assert prompt.startswith("Refit of Dec 23 in advance_to_rostov.xlsx\nAdded: Refit Dec 23 1")
    assert prompt.endswith(f"Excel could not open {path} again (Grant File Access was declined): open it with "
                           "File > Open.")


def test_the_workbook_clicked_in_is_the_one_named_not_the_one_active_when_python_starts(excel, monkeypatch, tmp_path):
    clicked = fx.open_workbook(excel, fx.copy_sample(tmp_path / "clicked"))
    other_path = tmp_path / "other" / "notes.xlsx"
    other_path.parent.mkdir()
    import openpyxl

    openpyxl.Workbook().save(other_path)
    fx.open_workbook(excel, other_path)  # the umpire switched windows while Python started
    click(excel, monkeypatch, clicked.name)
    assert clicked.closed and "Added: Refit Dec 23 1" in excel.alerts[0][0]


def test_a_mac_name_with_garbled_accents_still_finds_its_workbook(excel, tmp_path):
    folder = tmp_path / "k"
    path = fx.copy_sample(folder)
    kuestrin = path.rename(folder / "Küstrin.xlsx")
    book = fx.open_workbook(excel, kuestrin)
    for passed in ("Küstrin.xlsx", "KÜSTRIN.XLSX", "Ku\u0308strin.xlsx", "KÃ¼strin.xlsx", "K?strin.xlsx"):
        assert find_book(excel, passed) is book, passed


def test_two_workbooks_a_garbled_name_could_mean_are_not_guessed_between(excel, tmp_path):
    for name in ("Küstrin.xlsx", "Kästrin.xlsx"):
        path = fx.copy_sample(tmp_path / name)
        fx.open_workbook(excel, path.rename(path.with_name(name)))
    with pytest.raises(ExcelError, match=r"could not tell which open workbook is 'K\?strin.xlsx' "
                                         r"\(open: Küstrin.xlsx, Kästrin.xlsx\)"):
        find_book(excel, "K?strin.xlsx")


def test_the_click_is_read_from_runpythons_arguments():
    assert Click.from_argv(["-c", '--wb="Küstrin 1944.xlsx"', "--from_xl=1", "--app=x", '--hwnd="4242"']) == \
        Click("Küstrin 1944.xlsx", 4242)
    assert Click.from_argv(["-c", "--wb=Book1", "--from_xl=1", "--app=/Applications/Microsoft Excel.app"]) == \
        Click("Book1", None)
    with pytest.raises(ExcelError, match="without the name of the workbook"):
        Click.from_argv(["-c"])


def test_without_an_excel_to_reach_the_message_is_a_system_dialog(monkeypatch, capsys):
    shown = []
    monkeypatch.setattr(dialogs, "alert_without_excel", lambda text, critical, platform=None: shown.append(text) or True)
    live.main(["-c"])  # started by hand, not by RunPython
    assert shown and shown[0].startswith("Musterroll could not reach the Excel you clicked in") and not capsys.readouterr().err


def test_with_no_dialog_at_all_the_text_goes_to_stderr_and_the_exit_code_is_1(monkeypatch, capsys):
    monkeypatch.setattr(dialogs, "alert_without_excel", lambda text, critical, platform=None: False)
    with pytest.raises(SystemExit) as stop:
        live.main(["-c"])
    assert stop.value.code == 1 and "could not reach the Excel" in capsys.readouterr().err


def test_the_mac_alert_hands_the_text_to_osascript_as_an_argument_never_as_script():
    text = 'He said "stop" \\ and left; do shell script "rm -rf ~"'
    cmd = dialogs.applescript_alert(text, critical=True)
    assert cmd[:2] == ["osascript", "-e"] and cmd[-1] == text and text not in cmd[2]
    assert "as critical" in cmd[2] and cmd[3] == "Musterroll"


def test_the_button_never_asks_xlwings_for_book_caller():
    import ast

    sources = [ROOT / "musterroll_addin.py", *sorted((ROOT / "automation" / "excel").glob("*.py"))]
    calls = [p.name for p in sources for node in ast.walk(ast.parse(p.read_text()))
             if isinstance(node, ast.Attribute) and node.attr in ("caller", "set_mock_caller")]
    assert calls == [] and len(sources) > 5


def test_a_broken_installation_still_ends_in_a_dialog(monkeypatch):
    import builtins

    import musterroll_addin

    real_import = builtins.__import__

    def no_automation(name, *args, **kwargs):
        if name.startswith("automation.excel.live"):
            raise ModuleNotFoundError("No module named 'automation'")
        return real_import(name, *args, **kwargs)

    told = []
    monkeypatch.setattr(builtins, "__import__", no_automation)
    monkeypatch.setattr(musterroll_addin, "_tell", told.append)
    musterroll_addin.main()
    assert told and "cannot start: ModuleNotFoundError" in told[0] and "musterroll addin install" in told[0]


def test_under_runpython_on_this_platform_the_module_runs_as_the_button_command(tmp_path):
    """`python -c "import musterroll_addin;musterroll_addin.main()" --wb=...` with no
    Excel at all: it ends in a message on stderr and exit code 1, never a traceback."""
    done = subprocess.run([sys.executable, "-c", "import musterroll_addin;musterroll_addin.main()",
                           "--wb=campaign.xlsx", "--from_xl=1"], capture_output=True, text=True, cwd=tmp_path)
    assert done.returncode == 1 and "Traceback" not in done.stderr
    assert "Musterroll could not reach the Excel you clicked in" in done.stderr


def test_the_release_tests_accented_workbook_refits_from_a_garbled_mac_name(excel, monkeypatch, tmp_path):
    from automation.excel.rehearsal import ACCENTED, CASES, make_test_workbooks
    from automation.workbook.reader import Workbook

    make_test_workbooks(tmp_path / "release")
    path = tmp_path / "release" / CASES[3] / f"{ACCENTED}.xlsx"
    fx.open_workbook(excel, path)
    click(excel, monkeypatch, "KÃ¼strin.xlsx" if excel.mac else None)
    assert Workbook(path).sheet_names[-3:] == ["Refit Dec 23 1", *FORMS_DEC23]  # the refit, with the forms it waits for and excel.alerts[0][2] == "info"

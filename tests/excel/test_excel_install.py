"""``musterroll addin install | uninstall | status``: what reaches ``xlwings addin``."""
from __future__ import annotations

import io
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
from python_calamine import CalamineWorkbook

import automation.excel.build as build
import automation.excel.install as install
from automation.cli import main as cli
from automation.excel.build import ADDIN_FILE, ADDIN_PATH, AddinError, built_from

REAL_RUN = subprocess.run


class XlwingsCli:
    """Stands in for ``python -m xlwings.cli``: records each call and what the
    add-in file handed to it held at that moment."""

    def __init__(self, says: str = "Successfully installed the xlwings add-in!", code: int = 0) -> None:
        self.says, self.code = says, code
        self.calls: list[list[str]] = []
        self.handed: dict[str, bytes] = {}

    def __call__(self, cmd, **options):
        if cmd[3:4] != ["addin"]:  # building the add-in runs xlwings quickstart for real
            return REAL_RUN(cmd, **options)
        self.calls.append(list(cmd))
        if "-f" in cmd and cmd[cmd.index("-f") + 1].endswith(".xlam") and Path(cmd[cmd.index("-f") + 1]).is_file():
            with zipfile.ZipFile(cmd[cmd.index("-f") + 1]) as z:
                self.handed = {name: z.read(name) for name in z.namelist()}
        return subprocess.CompletedProcess(cmd, self.code, self.says, "")


def config_sheet(handed: dict[str, bytes]) -> tuple[list[str], dict[str, str]]:
    """The staged add-in's sheet names and its configuration settings (column A -> B)."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as z:
        for name, data in handed.items():
            z.writestr(name, data)
    book = CalamineWorkbook.from_filelike(io.BytesIO(buffer.getvalue()))
    rows = book.get_sheet_by_name(book.sheet_names[0]).to_python()
    return list(book.sheet_names), {str(r[0]): r[1] for r in rows if r and r[0]}


@pytest.mark.parametrize("command", ["install", "uninstall", "status"])
def test_on_linux_the_addin_commands_say_excel_is_not_here_and_exit_2(capsys, command):
    assert cli(["addin", command]) == 2
    err = capsys.readouterr().err
    assert "Excel for Windows or macOS; this machine runs linux" in err and "musterroll refit BOOK.xlsx" in err


def test_install_on_windows_hands_xlwings_the_add_in_set_to_run_this_python(monkeypatch):
    xl = XlwingsCli()
    monkeypatch.setattr(install.subprocess, "run", xl)
    said = install.install(platform="win32")

    (cmd,) = xl.calls
    assert cmd[:6] == [sys.executable, "-m", "xlwings.cli", "addin", "install", "-f"]
    assert Path(cmd[6]).name == ADDIN_FILE  # RunMain imports the module named after the file
    sheets, settings = config_sheet(xl.handed)
    assert sheets == ["myaddin.conf"]  # switched on: xlwings reads an add-in's own settings sheet
    assert settings["Interpreter_Win"] == sys.executable and settings["Interpreter_Mac"] == ""
    with zipfile.ZipFile(ADDIN_PATH) as z:
        assert xl.handed["xl/vbaProject.bin"] == z.read("xl/vbaProject.bin")
        assert xl.handed["customUI/customUI.xml"] == z.read("customUI/customUI.xml")
    assert "Successfully installed" in said and f"runs {sys.executable}" in said


def test_install_on_macos_sets_the_mac_interpreter(monkeypatch):
    xl = XlwingsCli()
    monkeypatch.setattr(install.subprocess, "run", xl)
    install.install(platform="darwin")
    _, settings = config_sheet(xl.handed)
    assert settings["Interpreter_Mac"] == sys.executable and settings["Interpreter_Win"] == ""


def test_install_builds_a_fresh_add_in_when_xlwings_is_another_version(monkeypatch):
    xl = XlwingsCli()
    monkeypatch.setattr(install.subprocess, "run", xl)
    monkeypatch.setattr(install, "xlwings_version", lambda: "9.9.9")
    monkeypatch.setattr(build, "xlwings_version", lambda: "9.9.9")
    said = install.install(platform="win32")
    assert f"made from xlwings {built_from(ADDIN_PATH)}; built a fresh one from the installed xlwings 9.9.9" in said
    assert b"built from the xlwings 9.9.9 custom add-in" in xl.handed["docProps/core.xml"]


def test_install_reports_what_xlwings_said_when_it_fails(monkeypatch):
    monkeypatch.setattr(install.subprocess, "run", XlwingsCli("Error: Failed to install the add-in: If Excel is running, "
                                                              "quit Excel and try again."))
    with pytest.raises(AddinError, match="did not succeed: Error: Failed to install the add-in: If Excel is running"):
        install.install(platform="win32")


def test_install_of_a_missing_file_names_it(tmp_path):
    with pytest.raises(AddinError, match="no such add-in file"):
        install.install(tmp_path / "nowhere.xlam", platform="darwin")


def test_uninstall_asks_xlwings_to_remove_the_add_in_by_its_file_name(monkeypatch):
    xl = XlwingsCli("Successfully removed the add-in!")
    monkeypatch.setattr(install.subprocess, "run", xl)
    assert install.uninstall(platform="darwin") == "Successfully removed the add-in!"
    assert xl.calls == [[sys.executable, "-m", "xlwings.cli", "addin", "remove", "-f", ADDIN_FILE]]


def test_uninstall_when_the_add_in_is_not_there_is_an_error(monkeypatch):
    monkeypatch.setattr(install.subprocess, "run", XlwingsCli("Error: Could not remove the add-in. "
                                                              "The add-in doesn't seem to be installed."))
    with pytest.raises(AddinError, match="doesn't seem to be installed"):
        install.uninstall(platform="win32")


def test_status_passes_on_what_xlwings_says(monkeypatch):
    xl = XlwingsCli("The add-in is not installed.")
    monkeypatch.setattr(install.subprocess, "run", xl)
    assert install.status(platform="win32") == "The add-in is not installed."
    assert xl.calls[0][3:] == ["addin", "status", "-f", ADDIN_FILE]


def test_an_existing_interpreter_setting_is_replaced_not_doubled():
    sheet = ('<sheetData><row r="1" spans="1:2"><c r="A1" s="1" t="s"><v>6</v></c><c r="B1" t="b"><v>0</v></c></row>'
             '</sheetData>')
    out = install.set_setting(sheet, 6, "C:\\Py & Co\\python.exe")
    assert out.count('r="B1"') == 1 and "<t>C:\\Py &amp; Co\\python.exe</t>" in out


def test_the_release_test_workbooks_are_never_written_over_a_folder_in_use(tmp_path, capsys):
    (tmp_path / "notes.txt").write_text("mine")
    assert cli(["addin", "test-workbooks", str(tmp_path)]) == 2
    assert "the folder is not empty" in capsys.readouterr().err
    assert [p.name for p in tmp_path.iterdir()] == ["notes.txt"]

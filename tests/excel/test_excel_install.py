"""``musterroll addin install | uninstall | status``: the start-up folders, written
directly, in a temporary HOME or APPDATA."""
from __future__ import annotations

import io
import zipfile
from pathlib import Path

import pytest
import xlwings
from python_calamine import CalamineWorkbook

import automation.excel.install as install
from automation.cli import main as cli
from automation.excel.build import ADDIN_FILE, ADDIN_PATH, AddinError, built_from

WIN_PYTHON = r"C:\Users\Zoë\musterroll\.venv\Scripts\python.exe"
MAC_PYTHON = "/Users/zoe/musterroll/.venv/bin/python"


def config_sheet(path: Path) -> tuple[list[str], dict[str, str]]:
    """The installed add-in's sheet names and its configuration settings (column A -> B)."""
    book = CalamineWorkbook.from_filelike(io.BytesIO(path.read_bytes()))
    rows = book.get_sheet_by_name(book.sheet_names[0]).to_python()
    return list(book.sheet_names), {str(r[0]): r[1] for r in rows if r and r[0]}


def members(path: Path) -> dict[str, bytes]:
    with zipfile.ZipFile(path) as z:
        return {name: z.read(name) for name in z.namelist()}


@pytest.fixture
def windows(tmp_path):
    appdata = tmp_path / "AppData" / "Roaming"
    (appdata / "Microsoft" / "Excel").mkdir(parents=True)  # Excel has run once on this account
    return {"APPDATA": str(appdata)}


@pytest.fixture
def mac(tmp_path):
    home = tmp_path / "zoe"
    (home / "Library" / "Group Containers" / "UBF8T346G9.Office").mkdir(parents=True)
    return {"HOME": str(home)}


@pytest.mark.parametrize("command", ["install", "uninstall", "status"])
def test_on_linux_the_addin_commands_say_excel_is_not_here_and_exit_2(capsys, command):
    assert cli(["addin", command]) == 2
    err = capsys.readouterr().err
    assert "Excel for Windows or macOS; this machine runs linux" in err and "musterroll refit BOOK.xlsx" in err


def test_install_on_windows_writes_the_add_in_into_xlstart_set_to_run_the_python(windows):
    said = install.install(platform="win32", env=windows, python=WIN_PYTHON)

    target = Path(windows["APPDATA"]) / "Microsoft" / "Excel" / "XLSTART" / ADDIN_FILE
    sheets, settings = config_sheet(target)
    assert sheets == ["myaddin.conf"]  # switched on: xlwings reads an add-in's own settings sheet
    assert settings["Interpreter_Win"] == WIN_PYTHON and settings["Interpreter_Mac"] == ""
    installed, committed = members(target), members(ADDIN_PATH)
    assert installed["xl/vbaProject.bin"] == committed["xl/vbaProject.bin"]
    assert {n for n in committed if installed[n] != committed[n]} == {"xl/workbook.xml", "xl/worksheets/sheet1.xml"}
    assert f"installed {target}" in said and f"runs {WIN_PYTHON}" in said and "start it again" in said


def test_install_on_macos_writes_the_add_in_and_xlwings_applescript(mac):
    said = install.install(platform="darwin", env=mac, python=MAC_PYTHON)

    home = Path(mac["HOME"])
    target = home / install.MAC_STARTUP / ADDIN_FILE
    assert target.parent.name == "Excel" and "Startup.localized" in str(target)
    _, settings = config_sheet(target)
    assert settings["Interpreter_Mac"] == MAC_PYTHON and settings["Interpreter_Win"] == ""
    script = home / "Library/Application Scripts/com.microsoft.Excel" / f"xlwings-{xlwings.__version__}.applescript"
    assert script.read_bytes() == Path(xlwings.__file__).with_name(script.name).read_bytes()
    assert "VbaHandler" in script.read_text()  # the handler the Mac VBA's AppleScriptTask calls
    assert f"installed {script}" in said


@pytest.mark.parametrize("platform, fixture", [("win32", "windows"), ("darwin", "mac")])
def test_an_office_never_started_is_refused_with_what_to_do_and_nothing_written(tmp_path, platform, fixture):
    env = {"APPDATA": str(tmp_path / "AppData")} if platform == "win32" else {"HOME": str(tmp_path / "home")}
    python = WIN_PYTHON if platform == "win32" else MAC_PYTHON
    with pytest.raises(AddinError, match="Excel has not been started on this account yet.*Start Excel once"):
        install.install(platform=platform, env=env, python=python)
    assert not [p for p in tmp_path.rglob("*") if p.is_file()]


@pytest.mark.parametrize("python, bad", [
    ("/Users/zoe/My Documents/musterroll/.venv/bin/python", "' '"),
    ("/Users/zoë/musterroll/.venv/bin/python", "'ë'"),
    ("/Users/zoe/a'b/.venv/bin/python", "\"'\""),
    ("/Users/zoe/x|y/.venv/bin/python", "'|'"),
])
def test_a_mac_interpreter_path_the_shell_would_split_is_refused_naming_the_characters(mac, python, bad):
    with pytest.raises(AddinError, match="passes the Python path unquoted to a shell") as caught:
        install.install(platform="darwin", env=mac, python=python)
    assert bad in str(caught.value)
    assert not (Path(mac["HOME"]) / install.MAC_STARTUP).exists()


@pytest.mark.parametrize("python, why", [
    (r'C:\Users\a"b\.venv\Scripts\python.exe', "double quote"),
    (r"C:\Users\100%\.venv\Scripts\python.exe", "percent sign"),
    (r".venv\Scripts\python.exe", "start with a drive"),
])
def test_a_windows_interpreter_path_cmd_would_misread_is_refused(windows, python, why):
    with pytest.raises(AddinError, match=why):
        install.install(platform="win32", env=windows, python=python)


def test_spaces_and_accents_are_fine_on_windows_where_the_path_is_quoted():
    assert install.interpreter_problem(r"C:\Users\Zoë Müller\My Documents\mr\.venv\Scripts\python.exe",
                                       "win32") is None


def test_install_refuses_an_xlwings_other_than_the_one_the_add_in_was_built_from(windows, monkeypatch):
    monkeypatch.setattr(install, "xlwings_version", lambda: "9.9.9")
    with pytest.raises(AddinError, match=f"built from xlwings {built_from(ADDIN_PATH)}, but xlwings 9.9.9"):
        install.install(platform="win32", env=windows, python=WIN_PYTHON)


def test_an_add_in_excel_holds_open_is_reported_with_what_to_do(windows, monkeypatch):
    real = install.os.replace

    def locked(src, dst):
        if Path(dst).parent.name == "XLSTART":  # Windows refuses to replace a file Excel has open
            raise PermissionError(13, "Permission denied")
        return real(src, dst)

    monkeypatch.setattr(install.os, "replace", locked)
    with pytest.raises(AddinError, match="cannot be written while Excel has it open; quit Excel"):
        install.install(platform="win32", env=windows, python=WIN_PYTHON)


def test_install_of_a_missing_file_names_it(tmp_path, mac):
    with pytest.raises(AddinError, match="no such add-in file"):
        install.install(tmp_path / "nowhere.xlam", platform="darwin", env=mac, python=MAC_PYTHON)


def test_status_then_uninstall(mac):
    assert "not installed" in install.status(platform="darwin", env=mac)
    install.install(platform="darwin", env=mac, python=MAC_PYTHON)
    said = install.status(platform="darwin", env=mac)
    assert f"runs {MAC_PYTHON}" in said and f"built from xlwings {built_from(ADDIN_PATH)}" in said
    assert "present" in said
    assert "removed" in install.uninstall(platform="darwin", env=mac)
    assert not (Path(mac["HOME"]) / install.MAC_STARTUP / ADDIN_FILE).exists()
    with pytest.raises(AddinError, match="not installed"):
        install.uninstall(platform="darwin", env=mac)


def test_an_existing_interpreter_setting_is_replaced_not_doubled():
    sheet = ('<sheetData><row r="1" spans="1:2"><c r="A1" s="1" t="s"><v>6</v></c><c r="B1" t="b"><v>0</v></c></row>'
             '</sheetData>')
    out = install.set_setting(sheet, 6, "C:\\Py & Co\\python.exe")
    assert out.count('r="B1"') == 1 and "<t>C:\\Py &amp; Co\\python.exe</t>" in out


def test_reinstalling_over_an_installed_add_in_keeps_one_configuration_sheet(windows):
    install.install(platform="win32", env=windows, python=WIN_PYTHON)
    target = Path(windows["APPDATA"]) / "Microsoft" / "Excel" / "XLSTART" / ADDIN_FILE
    again = install.install(target, platform="win32", env=windows, python=r"D:\mr\.venv\Scripts\python.exe")
    assert config_sheet(target)[1]["Interpreter_Win"] == r"D:\mr\.venv\Scripts\python.exe" and "installed" in again


def test_the_release_test_workbooks_are_never_written_over_a_folder_in_use(tmp_path, capsys):
    (tmp_path / "notes.txt").write_text("mine")
    assert cli(["addin", "test-workbooks", str(tmp_path)]) == 2
    assert "the folder is not empty" in capsys.readouterr().err
    assert [p.name for p in tmp_path.iterdir()] == ["notes.txt"]


def test_the_command_on_a_mac_uses_home_and_this_python(monkeypatch, tmp_path, capsys):
    home = tmp_path / "home"
    (home / "Library" / "Group Containers" / "UBF8T346G9.Office").mkdir(parents=True)
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setattr(install.sys, "platform", "darwin")
    assert cli(["addin", "install"]) == 0
    out = capsys.readouterr().out
    target = home / install.MAC_STARTUP / ADDIN_FILE
    assert f"installed {target}" in out and f"runs {install.sys.executable}" in out
    assert config_sheet(target)[1]["Interpreter_Mac"] == install.sys.executable
    assert cli(["addin", "status"]) == 0 and f"runs {install.sys.executable}" in capsys.readouterr().out
    assert cli(["addin", "uninstall"]) == 0 and not target.exists()


def test_the_command_on_windows_uses_appdata(monkeypatch, tmp_path, capsys):
    appdata = tmp_path / "Roaming"
    monkeypatch.setenv("APPDATA", str(appdata))
    monkeypatch.setattr(install.sys, "platform", "win32")
    assert cli(["addin", "install"]) == 2  # Excel never started here, and this is no Windows Python path
    err = capsys.readouterr().err
    assert "the Windows add-in needs the Python path to start with a drive" in err
    assert not appdata.exists()

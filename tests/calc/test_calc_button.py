"""The Refit button in a real headless LibreOffice Calc.

`musterroll calc install` puts the extension into a fresh LibreOffice profile;
one headless LibreOffice is started on it for the module, with
MUSTERROLL_CALC_MESSAGE_LOG set so each message box's text reaches the test.
drive_calc.py (run by the system python3, which has LibreOffice's uno module)
opens a copy of a campaign, reads the Refit button's URL from the installed
toolbar and dispatches it through the document's frame, as a click does. What
the button leaves in the file is compared with `musterroll refit` run on a twin
of the same file.
"""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest
from python_calamine import CalamineWorkbook

from automation.calc.build import TOOLBAR, Button
from automation.cli import main as cli
from automation.samples import SAMPLE
from automation.service import refit

HERE = Path(__file__).resolve().parent
DRIVER = HERE / "drive_calc.py"
UNO_PYTHON = "/usr/bin/python3"


def require(what: str, present: bool) -> None:
    if present:
        return
    if os.environ.get("CI") == "true":
        pytest.fail(f"{what} is required when CI=true but it is not installed")
    pytest.skip(f"{what} is not installed")


class Office:
    """A headless LibreOffice with the extension installed, reachable on a pipe."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.profile = (root / "profile").as_uri()
        self.messages = root / "messages.jsonl"
        self.pipe = f"musterroll_test_{uuid.uuid4().hex}"
        self.process: subprocess.Popen | None = None

    def start(self) -> None:
        env = dict(os.environ, MUSTERROLL_CALC_MESSAGE_LOG=str(self.messages))
        self.process = subprocess.Popen(
            [shutil.which("soffice"), "--headless", "--norestore", "--nologo", "--nodefault",
             f"--accept=pipe,name={self.pipe};urp;StarOffice.ComponentContext",
             f"-env:UserInstallation={self.profile}"],
            env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 120
        while True:
            done = subprocess.run([UNO_PYTHON, str(DRIVER), self.pipe, "toolbar"], capture_output=True, text=True)
            if done.returncode == 0:
                return
            if self.process.poll() is not None or time.monotonic() > deadline:
                raise AssertionError(f"LibreOffice did not start: {done.stderr[-800:]}")
            time.sleep(0.5)

    def drive(self, *args: str) -> dict:
        done = subprocess.run([UNO_PYTHON, str(DRIVER), self.pipe, *args], capture_output=True, text=True,
                              timeout=900)
        assert done.returncode == 0, done.stderr[-2000:]
        return json.loads(done.stdout.splitlines()[-1])

    def click(self, book: Path, sheet: str = "Campaign", *edit: str) -> tuple[dict, dict]:
        """Open ``book``, bring ``sheet`` to the front, click Refit: (what is open after, the message shown)."""
        before = self.message_count()
        state = self.drive("click", str(book), str(self.messages), sheet, *edit)
        shown = self.shown()
        assert len(shown) == before + 1, shown
        return state, shown[-1]

    def message_count(self) -> int:
        return len(self.shown())

    def shown(self) -> list[dict]:
        if not self.messages.exists():
            return []
        return [json.loads(line) for line in self.messages.read_text(encoding="utf-8").splitlines()]

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(30)
            except subprocess.TimeoutExpired:
                self.process.kill()


@pytest.fixture(scope="module")
def office(tmp_path_factory):
    require("LibreOffice (soffice)", shutil.which("soffice") is not None)
    require("python3-uno", os.path.exists(UNO_PYTHON) and subprocess.run(
        [UNO_PYTHON, "-c", "import uno"], capture_output=True).returncode == 0)
    office = Office(tmp_path_factory.mktemp("calc"))
    assert cli(["calc", "install", "--user-installation", office.profile]) == 0
    office.start()
    try:
        yield office
    finally:
        office.stop()


def campaign(folder: Path, key: bool = True) -> Path:
    folder.mkdir(parents=True)
    book = folder / SAMPLE.name
    shutil.copyfile(SAMPLE, book)
    if key:
        shutil.copyfile(SAMPLE.with_suffix(".key"), book.with_suffix(".key"))
    return book


def values(book: Path, sheet: str) -> list[list]:
    return CalamineWorkbook.from_path(str(book)).get_sheet_by_name(sheet).to_python()


def without_prints(rows: list[list]) -> list[list]:
    """A report's rows without what depends on the bytes its sealed sheets are stored as: the
    fingerprints of stored parts, and the report's digest and seal that cover them."""
    stored = ("part: ", "this report: ", "seal: ")
    return [r for r in rows if not any(str(v).startswith(stored) for v in r)]


def sheet_names(book: Path) -> list[str]:
    return list(CalamineWorkbook.from_path(str(book)).sheet_names)


def date_complete(folder: Path) -> Path:
    """The sample after its first refit stage with both sides' Dec 23 spending entered."""
    from automation.excel.rehearsal import CASES, make_test_workbooks

    make_test_workbooks(folder)
    return folder / CASES[1] / SAMPLE.name


def test_the_installed_toolbar_is_musterroll_with_a_refit_button_bound_to_the_extensions_script(office):
    bar = office.drive("toolbar")
    assert bar["title"] == "Musterroll"
    assert bar["toolbars"] == [TOOLBAR]
    (button,) = bar["buttons"]
    assert button == {"title": "Refit", "url": Button().url, "context": "com.sun.star.sheet.SpreadsheetDocument",
                      "target": "_self"}


def test_a_click_refits_the_file_as_musterroll_refit_does_and_shows_the_first_new_sheet(office, tmp_path):
    clicked, twin = campaign(tmp_path / "clicked"), campaign(tmp_path / "twin")
    state, message = office.click(clicked)
    outcome = refit(twin)

    assert outcome.written == ["Refit Dec 23 1"]
    assert state["sheets"] == sheet_names(twin) == sheet_names(clicked)
    assert state["active"] == "Refit Dec 23 1" and state["modified"] is False
    for name in outcome.written:  # the same values, but for the fingerprints of parts as each file stores them
        assert without_prints(values(clicked, name)) == without_prints(values(twin, name))
        assert values(clicked, name) != values(twin, name)  # LibreOffice's save rewrote the sealed parts
    assert cli(["verify", str(clicked)]) == 0
    assert outcome.forms == ["Spend Dec 23 German", "Spend Dec 23 Russian"]
    assert message == {"kind": "info", "text": "Refit of Dec 23 in advance_to_rostov.xlsx\nAdded: Refit Dec 23 1\n"
                                               "Forms to fill: Spend Dec 23 German, Spend Dec 23 Russian (set B2 of "
                                               f"each to Ready when it is complete).\nNow {outcome.waiting}."}
    assert not list(clicked.parent.glob(".~lock.*"))  # the workbook is open again... and closed by the driver


def test_a_click_that_completes_a_date_writes_the_same_four_sheets(office, tmp_path):
    clicked = date_complete(tmp_path / "clicked")
    twin = date_complete(tmp_path / "twin")
    state, message = office.click(clicked, "Roster Start")
    outcome = refit(twin)

    assert len(outcome.written) == 4 and outcome.waiting is None
    assert state["active"] == outcome.written[0]
    assert sheet_names(clicked) == sheet_names(twin)
    for name in outcome.written:  # but for the fingerprints of parts as each file stores them
        assert without_prints(values(clicked, name)) == without_prints(values(twin, name)), name
    assert cli(["verify", str(clicked)]) == 0
    assert message["kind"] == "info" and message["text"].endswith("Dec 23: refit complete.")
    assert "Added: " + ", ".join(outcome.written) in message["text"]


def test_a_bad_cell_typed_before_the_click_is_saved_named_and_nothing_is_added(office, tmp_path):
    book = campaign(tmp_path / "bad")
    state, message = office.click(book, "Sides", "C2", "ten")

    assert message["kind"] == "error"
    assert "Sides!C2" in message["text"] and "'ten'" in message["text"] and "whole number" in message["text"]
    assert message["text"].endswith("Nothing was written.")
    assert state["sheets"] == sheet_names(SAMPLE) == sheet_names(book)
    assert state["active"] == "Sides"
    assert values(book, "Sides")[1][2] == "ten"  # the button saved what was typed, and the refit read it


def test_a_missing_key_file_is_shown_as_the_command_line_words_it(office, tmp_path):
    book = campaign(tmp_path / "nokey", key=False)
    done = subprocess.run([sys.executable, "-m", "automation.cli", "refit", str(campaign(tmp_path / "cli", False))],
                          capture_output=True, text=True)
    state, message = office.click(book)

    assert done.returncode == 2
    said = done.stderr.strip().removeprefix("musterroll: ").replace(str(tmp_path / "cli"), str(tmp_path / "nokey"))
    assert message == {"kind": "error", "text": said + "\n\nNothing was written."}
    assert state["sheets"] == sheet_names(SAMPLE)


def test_a_never_saved_spreadsheet_is_refused_with_what_to_do(office):
    before = office.message_count()
    state = office.drive("click-new", str(office.messages))
    message = office.shown()[before]
    assert message["kind"] == "error" and "has not been saved yet" in message["text"]
    assert "(.xlsx)" in message["text"] and state["sheets"] == ["Sheet1"]


def test_status_names_the_program_and_uninstall_removes_the_extension(tmp_path, capsys):
    require("LibreOffice (soffice)", shutil.which("soffice") is not None)
    profile = (tmp_path / "profile").as_uri()
    assert cli(["calc", "status", "--user-installation", profile]) == 0
    assert "not installed" in capsys.readouterr().out
    assert cli(["calc", "install", "--user-installation", profile]) == 0
    capsys.readouterr()
    assert cli(["calc", "status", "--user-installation", profile]) == 0
    from automation.calc.build import musterroll_program

    said = capsys.readouterr().out
    assert "org.musterroll.calc" in said and str(musterroll_program()) in said
    assert cli(["calc", "uninstall", "--user-installation", profile]) == 0
    assert "removed the Musterroll extension" in capsys.readouterr().out
    assert cli(["calc", "status", "--user-installation", profile]) == 0
    assert "not installed" in capsys.readouterr().out

"""Every command leaves the machine as it found it: nothing in the system's
temporary folder, nothing beside the workbook but what it wrote on purpose
(the workbook, its key, the exports asked for, the carried folder and the
lock file). An umpire runs a command after every turn for years; a scratch
file left behind each time fills a disk."""
import os
import tempfile
from pathlib import Path

import pytest

from automation.cli import main

#: What may sit in the demo's folder once a command is done, besides the
#: workbook and key: hidden lock and carried folders (docs/workbook.md).
ON_PURPOSE = {"advance_to_rostov.xlsx", "advance_to_rostov.key", "German.xlsx", "Russian.xlsx", "report.html"}


@pytest.fixture()
def scratch(tmp_path, monkeypatch):
    """The system's temporary folder, empty, for this test alone."""
    folder = tmp_path / "system-temp"
    folder.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(folder))
    monkeypatch.setenv("TMPDIR", str(folder))
    return folder


def stray(folder: Path) -> list[str]:
    return sorted(name for name in os.listdir(folder)
                  if name not in ON_PURPOSE and not (name.startswith(".~") and name.endswith(".lock"))
                  and not name.endswith(".carried"))


def test_a_whole_round_of_commands_leaves_no_scratch_file_anywhere(tmp_path, scratch, capsys):
    folder = tmp_path / "campaign"
    assert main(["demo", "--folder", str(folder)]) == 0
    assert os.listdir(scratch) == [], "the demo left scratch files"
    book = str(folder / "advance_to_rostov.xlsx")
    commands = [
        ["export", book, "--side", "German", "-o", str(folder / "German.xlsx")],
        ["export", book, "--side", "Russian", "-o", str(folder / "Russian.xlsx")],
        ["import", book, str(folder / "German.xlsx")],
        ["refit", book],
        ["desk-add", book, "roll-requests"],
        ["roll-requests", book],
        ["trackers", book],
        ["stats", book],
        ["verify", book, "--key", str(folder / "advance_to_rostov.key")],
        ["report", book, "-o", str(folder / "report.html")],
        ["undo", book],
    ]
    for argv in commands:
        code = main(argv)
        err = capsys.readouterr().err
        assert code in (0, 1), f"{argv[0]}: {err}"
        assert os.listdir(scratch) == [], f"{argv[0]} left {os.listdir(scratch)} in the temporary folder"
        assert stray(folder) == [], f"{argv[0]} left {stray(folder)} beside the workbook"


def test_sheets_drawn_without_rows_of_their_own_leave_no_scratch_file(scratch):
    """XlsxWriter keeps a sheet's rows in a scratch file while it writes and
    leaves it behind when the sheet has none; plain sheets get their cells
    afterwards, so every refit drew such sheets."""
    from automation.workbook.sheetgraft import NewSheet, draw

    sheets = [NewSheet(name=f"Plain {n}", rows=[["Stand", "Count"], [f"S{n}", n]]) for n in range(3)]
    data, _, cells = draw(sheets)
    assert data[:2] == b"PK" and len(cells) == 3
    assert os.listdir(scratch) == []

"""`musterroll refit` says what it rolled: every roll with what it was for, the
dice, each modifier, the final number and the result, then what the refit waits
for and who decides it; --quiet keeps the short form; --json keeps its shape."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from automation.cli import main
from tests.workbook.workbook_helpers import copy_sample


def run(capsys: pytest.CaptureFixture[str], *argv: object) -> tuple[int, str]:
    code = main([str(a) for a in argv])
    return code, capsys.readouterr().out


def test_the_refit_prints_every_roll_and_the_wait(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    book = copy_sample(tmp_path)
    code, out = run(capsys, "refit", book)
    assert code == 0
    lines = out.splitlines()
    assert "  rolls (2):" in lines
    assert ("    CPP replenishment, German: d10 [6], -2 Historical DRM for the current CG scenario -> 4: +10 CPP"
            in lines)
    assert "    CPP replenishment, Russian: d10 [8], no modifiers -> 8: +14 CPP" in lines
    assert "German German" not in out and "Russian Russian" not in out
    waiting = [line for line in lines if line.startswith("  waiting for ")]
    assert [w.split(":")[0] for w in waiting] == ["  waiting for Spend Dec 23 German (German fills it)",
                                                  "  waiting for Spend Dec 23 Russian (Russian fills it)"]
    assert lines[-2:] == waiting


def test_quiet_and_json_keep_their_forms(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    quiet_book = copy_sample(tmp_path / "quiet")
    code, out = run(capsys, "refit", quiet_book, "--quiet")
    assert code == 0 and "rolls" not in out and "d10" not in out
    assert out.splitlines()[1] == "  wrote Refit Dec 23 1" and "waiting for Spend Dec 23 German" in out
    json_book = copy_sample(tmp_path / "json")
    code, out = run(capsys, "refit", json_book, "--json")
    data = json.loads(out)
    # the fields of before keep their shape; "pending" (who fills which sheet) and "forms" are added
    assert set(data) == {"workbook", "system", "date", "written", "completed_steps", "waiting", "steps", "pending",
                         "forms"}
    assert [(p["sheet"], p["who"], p["form_written"]) for p in data["pending"]] == [
        ("Spend Dec 23 German", "German", True), ("Spend Dec 23 Russian", "Russian", True)]
    assert data["forms"] == ["Spend Dec 23 German", "Spend Dec 23 Russian"]
    code, out = run(capsys, "refit", json_book, "--json")  # asked again: the forms are there, none written
    again = json.loads(out)
    assert again["forms"] == [] and [p["form_written"] for p in again["pending"]] == [False, False]
    assert [p["sheet"] for p in again["pending"]] == ["Spend Dec 23 German", "Spend Dec 23 Russian"]
    assert [s["roll"]["dice"] for s in data["steps"] if s["roll"]] == [[6], [8]]
    with pytest.raises(SystemExit):
        main(["refit", str(json_book), "--json", "--quiet"])

"""One writer at a time: real processes writing one master at once all land;
a write killed midway leaves the master whole, or rolled back by the next
command that reads it, and whatever the write left beside it is removed."""
from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from filelock import FileLock

from automation.pbem.carry import folder_for
from automation.workbook.lock import lock_path, real_path, temp_prefix
from automation.workbook.package import list_batches, sheet_names

ROUNDS = int(os.environ.get("MUSTERROLL_STRESS_ROUNDS", "4"))
ROOT = Path(__file__).resolve().parents[2]

# The command line, with its final write slowed down (as on a network drive) or the
# process killed at its KILL_AT-th fsync: the first is of the journal (or of the
# new file written beside the master), the second of the journal's folder, the
# third of the master's new end.
SLOW = """
import os, sys, time
from automation.workbook import journal
def slowed(real):
    def slow(*a, **k):
        time.sleep(float(os.environ["SLOW_RENAME"]))
        return real(*a, **k)
    return slow
os.replace = slowed(os.replace)  # the new file moved over the master
journal._write_at = slowed(journal._write_at)  # the master's new end written in place
from automation.cli import main
raise SystemExit(main(sys.argv[1:]))
"""
KILL = """
import os, signal, sys
real, calls = os.fsync, []
def die(fd):
    calls.append(fd)
    if len(calls) == int(os.environ.get("KILL_AT", "1")):
        os.kill(os.getpid(), signal.SIGKILL)
    real(fd)
os.fsync = die
from automation.cli import main
raise SystemExit(main(sys.argv[1:]))
"""


def cli(*argv: object, script: str | None = None, env: dict[str, str] | None = None) -> subprocess.Popen:
    code = ["-c", script] if script else ["-m", "automation"]
    return subprocess.Popen([sys.executable, *code, *map(str, argv)], cwd=ROOT, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env={**os.environ, **(env or {})})


def both_import(book: Path, returns: dict[str, Path], script: str | None = None, env=None) -> None:
    procs = [cli("import", book, returns[side], script=script, env=env) for side in ("German", "Russian")]
    results = [p.communicate(timeout=300) for p in procs]
    for p, (out, err) in zip(procs, results):
        assert p.returncode == 0, err
        assert "imported Spend Dec 23" in out and "Traceback" not in err
    names = sheet_names(book)
    assert "Spend Dec 23 German" in names and "Spend Dec 23 Russian" in names
    assert [b.name for b in list_batches(book)][-2:] in (
        ["Import Spend Dec 23 German", "Import Spend Dec 23 Russian"],
        ["Import Spend Dec 23 Russian", "Import Spend Dec 23 German"])


@pytest.mark.parametrize("round_", range(ROUNDS))
def test_two_imports_at_once_both_land(waiting_master, tmp_path, round_) -> None:
    book, returns = waiting_master
    copy = tmp_path / book.name
    copy.write_bytes(book.read_bytes())
    copy.with_suffix(".key").write_bytes(book.with_suffix(".key").read_bytes())
    both_import(copy, returns)


@pytest.mark.parametrize("delay", ["0.3", "1.5"])
def test_two_imports_at_once_both_land_when_the_final_write_is_slow(waiting_master, master_copy, delay) -> None:
    _, returns = waiting_master
    both_import(master_copy, returns, SLOW, {"SLOW_RENAME": delay})


def test_a_writer_that_waits_too_long_refuses_and_changes_nothing(waiting_master, master_copy) -> None:
    _, returns = waiting_master
    before = master_copy.read_bytes()
    with FileLock(str(lock_path(real_path(master_copy)))):
        started = time.monotonic()
        proc = cli("import", master_copy, returns["German"], env={"MUSTERROLL_LOCK_WAIT": "1"})
        out, err = proc.communicate(timeout=120)
    assert proc.returncode == 2 and "Traceback" not in err
    assert "another Musterroll command has been changing this workbook" in err and "nothing was changed" in err
    assert time.monotonic() - started < 60
    assert master_copy.read_bytes() == before


def test_a_write_killed_midway_leaves_the_master_whole_and_the_next_write_cleans_up(waiting_master,
                                                                                    master_copy) -> None:
    _, returns = waiting_master
    before = master_copy.read_bytes()
    proc = cli("import", master_copy, returns["German"], script=KILL)
    proc.communicate(timeout=300)
    assert proc.returncode == -9
    assert master_copy.read_bytes() == before
    prefix = temp_prefix(real_path(master_copy))
    left = [p for p in master_copy.parent.iterdir() if p.name.startswith(prefix)]
    assert len(left) == 1  # the journal of a change at the end (or the new file of a whole one)
    assert list_batches(master_copy)[-1].name != "Import Spend Dec 23 German"
    proc = cli("import", master_copy, returns["German"])
    out, err = proc.communicate(timeout=300)
    assert proc.returncode == 0, err
    assert not [p for p in master_copy.parent.iterdir() if p.name.startswith(prefix)]
    assert list_batches(master_copy)[-1].name == "Import Spend Dec 23 German"


def test_a_write_killed_after_writing_the_masters_new_end_keeps_it_whole(waiting_master, master_copy) -> None:
    _, returns = waiting_master
    proc = cli("import", master_copy, returns["German"], script=KILL, env={"KILL_AT": "3"})
    proc.communicate(timeout=300)
    assert proc.returncode == -9
    prefix = temp_prefix(real_path(master_copy))
    assert [p.name for p in master_copy.parent.iterdir() if p.name.startswith(prefix)] == [prefix + "journal"]
    assert list_batches(master_copy)[-1].name == "Import Spend Dec 23 German"  # the end was written whole: kept
    assert not [p for p in master_copy.parent.iterdir() if p.name.startswith(prefix)]
    again = cli("import", master_copy, returns["German"])
    _, err = again.communicate(timeout=300)
    assert again.returncode == 2 and "imported before" in err


def test_a_failed_command_leaves_no_temporary_file(waiting_master, master_copy) -> None:
    _, returns = waiting_master
    proc = cli("import", master_copy, returns["German"])
    assert proc.communicate(timeout=300) and proc.returncode == 0
    again = cli("import", master_copy, returns["German"])  # imported before: refused
    _, err = again.communicate(timeout=300)
    assert again.returncode == 2 and "imported before" in err
    carried = folder_for(master_copy)  # what import carries from run to run (automation.pbem.carry): no temporary file
    assert sorted(p.name for p in master_copy.parent.iterdir() if p != carried) == sorted(
        [master_copy.name, master_copy.with_suffix(".key").name, lock_path(real_path(master_copy)).name])
    assert not [p for p in (carried.iterdir() if carried.is_dir() else ()) if p.suffix == ".tmp"]

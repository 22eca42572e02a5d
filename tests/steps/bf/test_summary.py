"""The stage-2 report ends with each side's ledger and strength (2.1.2.8)."""
import shutil

from python_calamine import CalamineWorkbook

from automation import samples_demo
from automation.samples import SAMPLE


def test_the_report_of_a_refit_ends_with_each_sides_ledger_and_strength(tmp_path):
    book = tmp_path / SAMPLE.name
    shutil.copyfile(SAMPLE, book)
    shutil.copyfile(SAMPLE.with_suffix(".key"), book.with_suffix(".key"))
    samples_demo.play(book)
    rows = CalamineWorkbook.from_path(book).get_sheet_by_name("Refit Dec 24 2").to_python()
    steps = [r[0] for r in rows]
    last = max(i for i, s in enumerate(steps) if s == "Ledger and strength")
    assert steps[last - 5:last + 1] == ["Ledger and strength"] * 6
    assert set(steps[last + 1:]) <= {"Dice statistics", "Tamper evidence"}  # added when the report is sealed
    texts = {(r[2], r[10]) for r in rows if r[0] == "Ledger and strength"}
    # Dec 24 (demo): German started with 7 CPP, rolled +10, spent 1 on the repair attempt: 16 left;
    # 2 FPP spent (wreck destroyed, wire attempt); the Russians bought a T-70 company for 6 of 27 CPP.
    assert ("German", "CPP: start 7, gained 10, spent 1, left 16") in texts
    assert ("German", "FPP: start 2, gained 0, spent 2, left 0") in texts
    assert ("Russian", "CPP: start 13, gained 14, spent 6, left 21") in texts
    strength = {side: text for side, text in texts if text.startswith("strength")}
    assert strength["German"].startswith("strength: 4 MEs, 17 stands ready, 2 wrecks on the roster")
    assert strength["Russian"].startswith("strength: 7 MEs, 42 stands ready, 1 wrecks on the roster")

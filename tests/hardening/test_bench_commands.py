"""The command benchmark (bench/bench_commands.py) still runs: its quick mode on a
tiny campaign, so the script cannot rot. It measures nothing here; no time is asserted."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "bench" / "bench_commands.py"


def test_the_quick_benchmark_grows_campaigns_and_reports_every_command_and_baseline(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    run = subprocess.run([sys.executable, str(SCRIPT), "--quick", "--split", "--json", "--folder", str(tmp_path)],
                         capture_output=True, text=True, timeout=900, cwd=ROOT)
    assert run.returncode == 0, run.stderr[-3000:]
    report = json.loads(run.stdout)
    assert report["dates"] == [1, 2] and report["stands"] == [40]
    rows = report["results"]["40"]
    assert set(rows) == {"refit", "undo", "export", "export_after_refit", "import", "verify", "stats", "desk",
                         "trackers", "odds", "floor", "python", "openpyxl_save", "openpyxl_read_only", "pandas_calamine"}
    for row in rows.values():
        assert set(row["s"]) == {"1", "2"} and all(t > 0 for t in row["s"].values())
        assert row["peak_rss_mb"] > 5 and "ms_per_date" in row and row["ratio_last_first"] > 0
        assert row["paired_last_first"] > 0 and row["fastest_last_first"] > 0
    assert {"to_floor", "openpyxl_save_to_refit", "openpyxl_read_only_to_refit",
            "pandas_calamine_to_refit"} <= set(rows["refit"])
    # --split: every command measured again on a campaign grown with its roster as it is, the baselines not
    flat = report["history_alone"]["40"]
    assert set(flat) == set(rows) - {"floor", "python", "openpyxl_save", "openpyxl_read_only", "pandas_calamine"}
    assert set(report["split"]["40"]) == set(flat)
    for w, split in report["split"]["40"].items():
        assert split == {"growing": rows[w]["paired_last_first"], "history_alone": flat[w]["paired_last_first"],
                         "roster_adds": round(rows[w]["paired_last_first"] - flat[w]["paired_last_first"], 2)}
    # the campaigns grew as play does: a refitted date more, and the waiting copy took the German spending
    from automation.workbook.package import sheet_names

    assert "Roster Dec 24" in sheet_names(tmp_path / "s40_d2" / "campaign.xlsx")
    assert "Roster Dec 24" in sheet_names(tmp_path / "flat" / "s40_d2" / "campaign.xlsx")  # (--split: its own folder)
    assert (tmp_path / "flat" / "cache" / "40 stands" / "carried").is_dir()  # ... and its own cache folder
    assert (tmp_path / "cache" / "40 stands" / "carried").is_dir()  # (each size: its own)
    assert "Spend Dec 24 German" in sheet_names(tmp_path / "s40_d1" / "work" / "import" / "campaign.xlsx")
    # the desk copy's requests and tracker lines were resolved into new log sheets
    desk = sheet_names(tmp_path / "s40_d2" / "work" / "desk" / "campaign.xlsx")
    assert "Desk T1 1" in desk and "Roll requests" in desk
    trackers = sheet_names(tmp_path / "s40_d2" / "work" / "trackers" / "campaign.xlsx")
    assert "Fires log 1" in trackers, trackers[-8:]
    # undo took back a batch the run appended, whose image it found in the benchmark's cache, as after a refit
    from automation.cachesetting import CACHE_SETTING
    from automation.workbook import undoimage

    undone = tmp_path / "s40_d2" / "undo" / "campaign.xlsx"
    assert sheet_names(undone)[-1] == "Umpire notes (benchmark)"
    assert sheet_names(tmp_path / "s40_d2" / "work" / "undo" / "campaign.xlsx") == \
        sheet_names(tmp_path / "s40_d2" / "campaign.xlsx")
    monkeypatch.setenv(CACHE_SETTING, str(tmp_path / "cache" / "40 stands"))
    assert undoimage.find(undone.read_bytes()) is not None
    # the export after a refit exported a copy the refit had added the next date's sheets to
    refitted = sheet_names(tmp_path / "s40_d2" / "work" / "refitted" / "campaign.xlsx")
    assert len(refitted) > len(sheet_names(tmp_path / "s40_d2" / "campaign.xlsx"))
    # ... in a cache of its own, its carried folder put back as before the first refit: the sheets new to it
    assert (tmp_path / "s40_d2" / "work" / "carried before the refits").is_dir()
    assert (tmp_path / "s40_d2" / "work" / "cache of the export after a refit" / "carried").is_dir()  # its own


def test_a_benchmark_of_the_export_alone_runs_it_first_on_a_campaign_nothing_else_ran_on(tmp_path: Path) -> None:
    run = subprocess.run([sys.executable, str(SCRIPT), "--quick", "--only", "export", "--json", "--folder",
                          str(tmp_path)], capture_output=True, text=True, timeout=600, cwd=ROOT)
    assert run.returncode == 0, run.stderr[-3000:]
    rows = json.loads(run.stdout)["results"]["40"]
    assert set(rows) == {"export"} and all(t > 0 for t in rows["export"]["s"].values())


def test_the_paired_ratio_is_the_median_of_each_round_s_own_ratio_not_the_ratio_of_the_medians() -> None:
    sys.path.insert(0, str(SCRIPT.parent))
    try:
        import bench_commands as bench
    finally:
        sys.path.remove(str(SCRIPT.parent))
    first = [{"s": 1.0}, {"s": 2.0}, {"s": 1.0}]  # the machine twice as slow in the second round
    last = [{"s": 1.5}, {"s": 2.2}, {"s": 1.3}]
    assert bench.paired_ratio(last, first) == 1.3  # the rounds' own ratios: 1.5, 1.1, 1.3
    found = {(40, 1, "refit"): first, (40, 2, "refit"): last}
    row = bench.summarise({k: [{**x, "cpu": x["s"], "rss_mb": 50.0} for x in v] for k, v in found.items()},
                          [40], [1, 2], ("refit",))["40"]["refit"]
    assert row["paired_last_first"] == 1.3 and row["ratio_last_first"] == 1.5  # the medians: 1.5 / 1.0


def test_the_fastest_ratio_is_of_the_least_run_at_each_length_whatever_round_it_was_in() -> None:
    sys.path.insert(0, str(SCRIPT.parent))
    try:
        import bench_commands as bench
    finally:
        sys.path.remove(str(SCRIPT.parent))
    first = [{"s": 1.0}, {"s": 3.0}, {"s": 1.2}]  # the machine slowed in the second round
    last = [{"s": 1.6}, {"s": 1.25}, {"s": 4.0}]  # ... and in the third: not the same round
    assert bench.fastest_ratio(last, first) == 1.25
    row = bench.summarise({(40, 1, "undo"): [{**x, "cpu": x["s"], "rss_mb": 30.0} for x in first],
                           (40, 2, "undo"): [{**x, "cpu": x["s"], "rss_mb": 30.0} for x in last]},
                          [40], [1, 2], ("undo",))["40"]["undo"]
    assert row["fastest_last_first"] == 1.25 and row["ratio_last_first"] == 1.33


def test_baselines_run_in_no_round_are_left_out_of_the_summary() -> None:
    sys.path.insert(0, str(SCRIPT.parent))
    try:
        import bench_commands as bench
    finally:
        sys.path.remove(str(SCRIPT.parent))
    runs = [{"s": 1.0, "cpu": 1.0, "rss_mb": 50.0}]
    found = {(40, d, w): runs for d in (1, 2) for w in ("refit", "floor")}
    rows = bench.summarise(found, [40], [1, 2], ("refit", "floor", "openpyxl_save"))["40"]
    assert set(rows) == {"refit", "floor"} and "openpyxl_save_to_refit" not in rows["refit"]


@pytest.mark.parametrize("bought", [0, 100])
def test_the_stands_bought_a_date_set_how_the_roster_grows_none_leaving_the_history_alone_to_grow(
        tmp_path: Path, bought: int) -> None:
    run = subprocess.run([sys.executable, str(SCRIPT), "--quick", "--json", "--folder", str(tmp_path), "--bought",
                          str(bought), "--only", "python"], capture_output=True, text=True, timeout=900, cwd=ROOT)
    assert run.returncode == 0, run.stderr[-3000:]
    report = json.loads(run.stdout)
    assert report["bought"] == bought and set(report["results"]["40"]) == {"python"}
    from automation.workbook.reader import Workbook

    def roster(done: int, date: str) -> int:
        return len(Workbook(tmp_path / f"s40_d{done}" / "campaign.xlsx").raw(f"Roster {date}")) - 1
    first, second = roster(1, "Dec 23"), roster(2, "Dec 24")
    assert (first, second) == (40, 40) if bought == 0 else second > first  # (100 a date per 1,000: 4 a date)

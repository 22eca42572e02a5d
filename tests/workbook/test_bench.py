"""The workbook benchmark (bench/bench_workbook.py) still runs: a tiny campaign,
so the script cannot rot. It measures nothing here; times are not asserted."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from automation.workbook.reader import Workbook

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "bench" / "bench_workbook.py"


def test_the_benchmark_runs_on_a_tiny_campaign_and_reports_every_figure(tmp_path: Path) -> None:
    run = subprocess.run([sys.executable, str(SCRIPT), "--stands", "20", "--dates", "2", "--repeat", "1", "--json",
                          "--folder", str(tmp_path)], capture_output=True, text=True, timeout=600, cwd=ROOT)
    assert run.returncode == 0, run.stderr[-3000:]
    report = json.loads(run.stdout)
    assert report["stands"] == 20
    for key in ("dates_1", "dates_2"):
        assert {"file_mb", "read", "append", "total", "refit"} <= set(report[key])
        assert report[key]["total"] > 0
    assert set(report["ratio_long_to_short"]) == {"read", "append", "total", "refit"}
    assert report["naive"]["total"] > 0 and report["naive_to_ours"] > 0
    for memory in (report["memory"], report["memory_whole_refit"]):
        assert 0 < memory["python_peak_mb"] < memory["rss_mb"]
    assert {"cpus", "memory", "python", "libraries"} <= set(report["machine"])


def test_the_benchmark_campaign_follows_the_contract(tmp_path: Path) -> None:
    """What the benchmark generates is a campaign the refit reads: 2 dates done,
    the third date's results, orders and spending entered."""
    sys.path.insert(0, str(SCRIPT.parent))
    try:
        import bench_workbook as bench
    finally:
        sys.path.remove(str(SCRIPT.parent))
    book = bench.build_campaign(tmp_path / "campaign.xlsx", stands=40, done=2)
    names = Workbook(book).sheet_names
    assert ["Roster Dec 23", "Roster Dec 24"] == [n for n in names if n.startswith("Roster Dec")]
    assert {"Results Dec 24", "Orders Dec 25 German", "Spend Dec 25 Russian"} <= set(names)
    _, inputs, state = bench.read_state(book)
    assert inputs.date.label == "Dec 25" and inputs.previous.label == "Dec 24"
    assert len(state.roster.stands) == 40
    digest, sheets = bench.refit_sheets(book)
    assert [s.name for s in sheets] == ["Refit Dec 25 1", "Refit Dec 25 2", "Roster Dec 25", "Ledger Dec 25",
                                        "Summary Dec 25"]


def test_the_benchmark_campaign_grows_in_the_batches_play_appends(tmp_path: Path) -> None:
    """A date of play is seven appends (the refit that asks for the results and
    orders, two imports of orders, stage 1 with the spending forms, two imports
    of spending, stage 2), each import taking the place of its form, which is
    kept very hidden for undo: the benchmark's history holds what a played
    campaign's does, batch by batch."""
    from automation.workbook.package import list_batches

    sys.path.insert(0, str(SCRIPT.parent))
    try:
        import bench_workbook as bench
    finally:
        sys.path.remove(str(SCRIPT.parent))
    book = bench.build_campaign(tmp_path / "campaign.xlsx", stands=40, done=2)
    batches = list_batches(book)
    second = [b for b in batches if "Dec 24" in b.name]
    assert [b.name for b in second] == ["Refit Dec 24", "Import Orders Dec 24 German", "Import Orders Dec 24 Russian",
                                        "Refit Dec 24", "Import Spend Dec 24 German", "Import Spend Dec 24 Russian",
                                        "Refit Dec 24"]
    assert second[0].sheets == ("Results Dec 23", "Orders Dec 24 German", "Orders Dec 24 Russian")
    assert [b.replaced for b in second[1:3]] == [("Orders Dec 24 German",), ("Orders Dec 24 Russian",)]
    assert second[3].sheets == ("Refit Dec 24 1", "Spend Dec 24 German", "Spend Dec 24 Russian")
    assert second[6].sheets == ("Refit Dec 24 2", "Roster Dec 24", "Ledger Dec 24", "Summary Dec 24")
    names = Workbook(book).sheet_names
    hidden = [n for n in names if n.startswith("_mr_")]
    assert len(hidden) == 2 + 4  # the first date has no orders to import: its spending forms alone
    assert names.count("Orders Dec 24 German") == 1
    orders = Workbook(book).raw("Orders Dec 24 German")
    assert [orders[1][0], orders[1][2]] == ["Posture", "Attack"]  # the form's place taken by the orders imported

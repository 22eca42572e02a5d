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

"""Benchmark: how long does `musterroll report` take on a long campaign?

Generates the synthetic Battlefront campaign of bench/bench_workbook.py (``--stands``
stands, ``--dates`` dated refits, sealed like a real campaign's) and times the report
as a user runs it, each round in a fresh process (``python -m automation report``,
imports included): the umpire's full report and one side's (built from the side's
export in memory). It prints the median wall time and child CPU time of each, and the
ratio of the umpire's time to the goal of 10 s (below 1 meets it). See
docs/performance.md.

    python bench/bench_report.py                       # 1,000 stands, 100 dates
    python bench/bench_report.py --stands 40 --dates 3 --repeat 1   # a quick check
"""
from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
for entry in (ROOT, ROOT / "bench"):
    if str(entry) not in sys.path:
        sys.path.insert(0, str(entry))

from bench_workbook import build_campaign, machine  # noqa: E402

GOAL_S = 10.0


def timed_run(book: Path, out: Path, side: str | None) -> tuple[float, float]:
    """(wall seconds, CPU seconds) of one report in a fresh process."""
    cmd = [sys.executable, "-m", "automation", "report", str(book), "-o", str(out), "--quiet"]
    if side:
        cmd += ["--side", side]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(cmd, capture_output=True, text=True, cwd=ROOT)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise SystemExit(f"report failed ({done.returncode}): {done.stderr}")
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def uptime() -> str:
    """The machine's load as `uptime` prints it (it is shared: read the figures beside it)."""
    done = subprocess.run(["uptime"], capture_output=True, text=True)
    return done.stdout.strip() or f"load average {os.getloadavg()[0]:.2f}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--stands", type=int, default=1000)
    parser.add_argument("--dates", type=int, default=100)
    parser.add_argument("--repeat", type=int, default=3, help="rounds; the median counts (default 3)")
    parser.add_argument("--side", default="German", help="the side of the side report (default German)")
    parser.add_argument("--folder", help="keep the generated workbook and reports here")
    parser.add_argument("--reuse", action="store_true", help="reuse the workbook already in --folder")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    folder = Path(args.folder) if args.folder else Path(tempfile.mkdtemp(prefix="mr-bench-report-"))
    folder.mkdir(parents=True, exist_ok=True)
    try:
        book = folder / f"campaign-{args.stands}-stands-{args.dates}-dates.xlsx"
        if not (args.reuse and book.exists()):
            book.unlink(missing_ok=True)
            build_campaign(book, args.stands, args.dates)
        runs: dict[str, list[tuple[float, float]]] = {"umpire": [], "side": []}
        before = uptime()
        for _ in range(args.repeat):  # alternating, so a busy moment falls on both alike
            runs["umpire"].append(timed_run(book, folder / "umpire.html", None))
            runs["side"].append(timed_run(book, folder / "side.html", args.side))
        result = {"stands": args.stands, "dates": args.dates, "repeat": args.repeat, "machine": machine(),
                  "file_mb": book.stat().st_size / 2**20,
                  "report_kb": {k: (folder / f"{k}.html").stat().st_size // 1024 for k in runs}}
        for kind, values in runs.items():
            result[kind] = {"wall_s": statistics.median(w for w, _ in values),
                            "cpu_s": statistics.median(c for _, c in values)}
        result["load_average"] = os.getloadavg()[0]
        result["uptime"] = [before, uptime()]
        result["ratio_to_goal"] = result["umpire"]["wall_s"] / GOAL_S
        result["side_ratio_to_goal"] = result["side"]["wall_s"] / GOAL_S
    finally:
        if not args.folder:
            shutil.rmtree(folder, ignore_errors=True)
    if args.json:
        print(json.dumps(result, indent=1))
        return 0
    print(f"{args.stands} stands, {args.dates} dates ({result['file_mb']:.1f} MB), median of {args.repeat} "
          f"on {os.cpu_count()} CPUs; uptime before and after:")
    for line in result["uptime"]:
        print(f"  {line}")
    for kind in runs:
        r = result[kind]
        print(f"  {kind:<7} report: {r['wall_s']:6.2f} s wall, {r['cpu_s']:6.2f} s CPU (both processes), "
              f"{result['report_kb'][kind]:,} KB")
    print(f"  umpire report / 10 s goal: {result['ratio_to_goal']:.2f} (goal: below 1); "
          f"side report / 10 s goal: {result['side_ratio_to_goal']:.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

"""How long `musterroll verify --key` takes to run every refit of a long
campaign again, against one refit of the same campaign.

Builds a real campaign of STANDS stands (the roster, charts and dates of
bench_workbook.py) through `musterroll refit` itself, date after date (the
results, orders and empty spending entered before each refit, so each refit
runs to its end as one batch), then times, each in a fresh process:
`musterroll refit` of the next date (on a copy) and `musterroll verify --key`
of the whole campaign, in alternating rounds (refit, verify, refit, verify...,
so a busy moment of the shared machine falls on both alike), each figure with
the load average beside it. Prints the medians, the cost per date and their
ratio.

    python bench/bench_verify.py [--stands 1000] [--dates 100] [--rounds 3] [--work DIR]
"""
from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from bench_workbook import KEY, SIDES, _sheet, base_data, date_labels, roster_rows  # noqa: E402

from automation.workbook import bf_sheets as K  # noqa: E402
from automation.workbook.package import append_sheets  # noqa: E402


def base(path: Path, stands: int, dates: int) -> list[list[Any]]:
    from automation.rulebook import load_rulebook
    from automation.workbook.campaign_sheets import default_lists
    from automation.workbook.template import SheetContent, system_sheets, write_workbook

    system = load_rulebook().system("bf-campaign")
    labels = date_labels(dates + 1)
    roster = roster_rows(stands)
    data = base_data(labels, roster)
    sheets = [SheetContent(s.kind, s.name, data.get(s.kind.id, s.rows))
              for s in system_sheets(system, f"Verify benchmark, {stands} stands", KEY.commitment)]
    path.parent.mkdir(parents=True, exist_ok=True)
    write_workbook(path, sheets, default_lists(system))
    path.with_suffix(".key").write_text(KEY.to_hex() + "\n")
    return roster


def enter(path: Path, labels: list[str], index: int, roster: list[list[Any]]) -> None:
    """The results of the date before, both sides' orders and empty spending."""
    sheets = []
    if index:
        sheets.append(_sheet(K.RESULTS.name_for(date=labels[index - 1]), K.RESULTS, [], "results"))  # a quiet scenario: nobody hurt
    sheets += [_sheet(K.ORDERS.name_for(date=labels[index], side=s), K.ORDERS,
                      [["Posture", None, "Attack" if s == "German" else "Defend", None]], "orders") for s in SIDES]
    sheets += [_sheet(K.SPEND.name_for(date=labels[index], side=s), K.SPEND, [], "orders") for s in SIDES]
    append_sheets(path, sheets, batch=f"Entered {labels[index]}")


def build(path: Path, stands: int, dates: int) -> Path:
    from automation.service import refit

    roster = base(path, stands, dates)
    labels = date_labels(dates + 1)
    for i in range(dates):
        enter(path, labels, i, roster)
        outcome = refit(path)
        if outcome.waiting is not None:
            raise SystemExit(f"{path}: the refit of {labels[i]} did not run to its end: {outcome.summary()}")
        print(f"\rbuilt {i + 1}/{dates} dates", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)
    enter(path, labels, dates, roster)
    return path


def timed(*argv: str) -> float:
    import os

    env = {**os.environ}
    env.pop("PYTHONDONTWRITEBYTECODE", None)  # as installed: modules load from their compiled files
    start = time.perf_counter()
    proc = subprocess.run([sys.executable, "-m", "automation", *argv], capture_output=True, text=True, env=env)
    took = time.perf_counter() - start
    if proc.returncode != 0:
        raise SystemExit(f"musterroll {' '.join(argv)} exited {proc.returncode}: {proc.stderr[-2000:]}")
    return took


def load() -> str:
    import os

    return ", ".join(f"{x:.1f}" for x in os.getloadavg())


def main(argv: list[str] | None = None) -> int:
    import statistics

    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--stands", type=int, default=1000)
    p.add_argument("--dates", type=int, default=100)
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--work", type=Path)
    args = p.parse_args(argv)
    work = args.work or Path(tempfile.mkdtemp(prefix="bench-verify-"))
    book = work / f"campaign_{args.stands}_{args.dates}.xlsx"
    if not book.exists():
        build(book, args.stands, args.dates)
    copy = work / "refit_copy.xlsx"
    ones, wholes = [], []
    for r in range(args.rounds):
        shutil.copyfile(book, copy)
        shutil.copyfile(book.with_suffix(".key"), copy.with_suffix(".key"))
        ones.append(timed("refit", str(copy)))
        print(f"round {r + 1}: one refit {ones[-1]:.2f} s (load average {load()})", flush=True)
        wholes.append(timed("verify", str(book)))
        print(f"round {r + 1}: verify --key {wholes[-1]:.2f} s (load average {load()})", flush=True)
    one, whole = statistics.median(ones), statistics.median(wholes)
    print(f"campaign: {args.stands} stands, {args.dates} dates ({book.stat().st_size / 1e6:.2f} MB)")
    print(f"one refit (whole process, median of {args.rounds}): {one:.2f} s")
    print(f"verify --key, every refit run again (whole process, median of {args.rounds}): {whole:.2f} s "
          f"({whole / args.dates:.2f} s a date)")
    print(f"ratio verify / one refit: {whole / one:.1f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

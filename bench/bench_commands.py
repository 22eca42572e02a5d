"""Benchmark: what a person waits for, command by command, as a campaign grows.

Grows Battlefront campaigns as play does (``bench_workbook.build_campaign``:
the same code path as a refit's append and seal, one batch a date, the roster
growing by purchases) to each of ``--dates`` dates and each of ``--stands``
sizes, then times every command as a whole process (``python -m automation
...``), in alternating rounds (every campaign and command once per round, so a
busy moment of the machine falls on all alike), after a warm-up round not
counted (as in play, each command has run on the campaign before: what it
carries is there, in ``MUSTERROLL_CACHE``, by default FOLDER/cache/N stands:
each size a folder of its own, as each user's cache holds the files of the
campaign they play, where one folder would keep the last few files of the
thousands that growing two sizes writes). A command
that writes runs on a copy of the workbook and its key alone, as a copy saved
elsewhere would be, synced to disk before the command starts (as a file saved
earlier is: the command's own fsync then pays for what it wrote, not for the
copy). ``export_after_refit`` exports a fresh copy just refitted (the refit
not timed): in play an export follows the refit that added sheets, which the
repeated ``export`` never sees; it keeps its work in a cache of its own,
whose carried folder for the campaign is put back each time as the
benchmark's was before the first such refit, so the refit's sheets are new
to it, as each refit's are in play. ``undo`` takes back a batch the run
appended to a copy (``Campaign.add_undo``), as undo follows a refit or an
import in play: it finds what that append kept for it in the cache. It
reports for each:

* the median wall seconds at each length, the growth in ms per date (the slope
  from the shortest to the longest campaign) and the ratio longest / shortest;
  and that ratio paired: a round runs one command at every length back to
  back, so the median over rounds of each round's own ratio is not moved by
  the machine growing slower or faster over the run, as the ratio of the
  medians is; and the ratio of the fastest run at each length (a machine
  that slows for a stretch lengthens some runs and shortens none);
* true peak RSS (the kernel's accounting of the child, ``os.wait4``);
* for refit, the ratio to the measured floor (Python start, reading the
  sheets a refit reads with calamine, copying the file and appending five
  sheet parts to the copy, fsync and rename), and to naive baselines:
  openpyxl load + add a sheet + save; openpyxl read-only reading every row of
  the sheets a refit reads; pandas (calamine engine) reading the same sheets.

With ``--split``, each size is also grown with its roster as it is (no stand
bought, in FOLDER/flat, with cache folders of its own, in FOLDER/flat/cache, so
that neither set's carried work pushes the other's out) and measured in the
same rounds: a command's 100/1 ratio there is what the history alone adds
(every sheet of every date, the carried work, the lists naming them), and
the difference to the growing campaign's ratio is what the roster's growth
adds.

    python bench/bench_commands.py                                 # 1,000 stands; 1, 10, 50, 100 dates
    python bench/bench_commands.py --stands 5000 --dates 1 100 --split   # history and roster apart
    python bench/bench_commands.py --stands 1000 5000 --rounds 3
    python bench/bench_commands.py --quick                         # a tiny run: nothing measured
    python bench/bench_commands.py --stands 5000 --dates 1 100 --only export_after_refit --instructions

``--instructions`` also counts the instructions each command executes (bench/instructions.py, with Valgrind):
the same count on every run, where a wall-clock ratio moves by up to 0.2 here.

See docs/performance.md for the results and the machine.
"""
from __future__ import annotations

import argparse
import contextlib
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any
from unittest import mock

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
for entry in (str(ROOT), str(HERE)):
    if entry not in sys.path:
        sys.path.insert(0, entry)

import bench_workbook as growth  # noqa: E402
import instructions  # noqa: E402

COMMANDS = ("refit", "undo", "export", "export_after_refit", "import", "verify", "stats", "desk", "trackers", "odds")
DESK_REQUESTS = 20  # roll requests waiting on the Roll requests sheet
FIRE_LINES = 20  # start checks waiting on the Fires tracker sheet (house rules 9)
BASELINES = ("floor", "python", "openpyxl_save", "openpyxl_read_only", "pandas_calamine")
GROWTH_PER_1000 = 3.65  # stands bought a date per 1,000 (1,000 stands grow to about 1,365 by date 100)


# ------------------------------------------------------------------ one process, measured

TIME = Path("/usr/bin/time")


def child_env() -> dict[str, str]:
    """The environment a measured command runs in."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    env.pop("PYTHONDONTWRITEBYTECODE", None)  # as installed: modules load from their compiled files
    return env


def run(argv: list[str], cwd: Path) -> dict[str, float]:
    """Wall seconds, CPU seconds (user + system, the child's and its own
    children's: steadier than wall time on a busy machine) and peak RSS (MB) of
    one child process; it must succeed.
    The peak comes from GNU time (``%M``): a child forked by this process
    directly would count this process's own pages until it execs."""
    env = child_env()
    with tempfile.TemporaryDirectory() as tmp:
        rss_file = Path(tmp) / "rss"
        wrapped = [str(TIME), "-f", "%M", "-o", str(rss_file), *argv] if TIME.exists() else argv
        with open(Path(tmp) / "err", "w+b") as err:
            start = time.perf_counter()
            proc = subprocess.Popen(wrapped, cwd=cwd, stdout=subprocess.DEVNULL, stderr=err, env=env)
            _, status, usage = os.wait4(proc.pid, 0)
            wall = time.perf_counter() - start
            code = os.waitstatus_to_exitcode(status)
            if code != 0:
                err.seek(0)
                raise RuntimeError(f"{' '.join(map(str, argv))} exited {code}: {err.read().decode()[-2000:]}")
        rss_kb = float(rss_file.read_text().split()[-1]) if TIME.exists() else usage.ru_maxrss
    return {"s": wall, "cpu": usage.ru_utime + usage.ru_stime, "rss_mb": rss_kb / 1024}


def musterroll(*args: object) -> list[str]:
    return [sys.executable, "-m", "automation", *map(str, args)]


def child(mode: str, *args: object) -> list[str]:
    return [sys.executable, str(Path(__file__)), "--child", mode, *map(str, args)]


# ------------------------------------------------------------------ the campaigns

class Campaign:
    """A grown campaign ready for every command: ``done`` dates refitted, the next
    date's orders and spending entered (``book``), and a copy that waits for the
    German spending with the German player's returned file (``waiting``, ``returned``)."""

    shared_cache = False  # (--cache: every campaign's commands carry their work in the one folder given)

    def __init__(self, folder: Path, stands: int, done: int, flat: bool = False) -> None:
        self.stands, self.done, self.folder = stands, done, folder
        self.flat = flat  # grown with the roster as it is (--split): what grows is the history alone
        # each size's carried work in a cache folder of its own (--split: the flat campaigns' in theirs): growing
        # one size writes more files than a cache keeps of each kind; a user's holds the one campaign they play
        self.cache = None if Campaign.shared_cache else folder.parent / "cache" / f"{stands} stands"
        self.book, waiting = folder / "campaign.xlsx", folder / "waiting" / "campaign.xlsx"
        self.waiting, self.returned = waiting, folder / "german.xlsx"
        for earlier in ("carried before the refits", "sheets read before the refits",
                        "cache of the export after a refit"):  # (of an earlier run)
            shutil.rmtree(folder / "work" / earlier, ignore_errors=True)

    @classmethod
    def grown(cls, folder: Path, stands: int, dates: list[int], bought: float = GROWTH_PER_1000,
              flat: bool = False) -> list["Campaign"]:
        """One campaign grown to the most dates, with a copy at each length on
        the way; ``bought``: the stands bought a date per 1,000."""
        made = [cls(folder / f"s{stands}_d{d}", stands, d, flat) for d in sorted(dates)]
        snapshots = [(c.done, c.book, True) for c in made[:-1]] + [(c.done, c.waiting, False) for c in made]
        with made[-1].cached():
            growth.build_campaign(made[-1].book, stands, made[-1].done, bought * stands / 1000,
                                  snapshots=snapshots)
            for c in made:
                run(musterroll("refit", c.waiting), ROOT)  # stage 1: waits for the spending
                run(musterroll("export", c.waiting, "--side", "German", "-o", c.returned), ROOT)
                c.sheets = refit_sheets(c.book)
                c.add_desk()
                c.add_undo()
        return made

    @classmethod
    def kept(cls, folder: Path, stands: int, dates: list[int], flat: bool = False) -> list["Campaign"] | None:
        """The campaigns a previous run left in ``folder`` (``--folder``), if all are there."""
        made = [cls(folder / f"s{stands}_d{d}", stands, d, flat) for d in sorted(dates)]
        if not all(c.returned.exists() for c in made):
            return None
        for c in made:
            with c.cached():
                c.sheets = refit_sheets(c.book)
                if not c.desk.exists():
                    c.add_desk()
                c.add_undo()
        return made

    def cached(self) -> contextlib.AbstractContextManager[Any]:
        """The commands run (and the cache named) within: with the campaign's own cache folder, if it has one."""
        if self.cache is None:
            return contextlib.nullcontext()
        return mock.patch.dict(os.environ, {"MUSTERROLL_CACHE": str(self.cache)})

    @property
    def desk(self) -> Path:
        return self.folder / "desk" / "campaign.xlsx"

    def add_desk(self) -> None:
        """A copy of the campaign with the dice desk in use: a Roll requests sheet
        with requests waiting and tracker sheets with lines to resolve, appended as
        ``desk-add`` appends them."""
        from automation.desk.sheets import sheet_for
        from automation.desk.trackers import TRACKERS
        from automation.workbook.desk_sheets import ROLL_REQUESTS
        from automation.workbook.package import append_sheets

        self.desk.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(self.book, self.desk)
        shutil.copyfile(self.book.with_suffix(".key"), self.desk.with_suffix(".key"))
        requests = [[f"R{i}", "bf.escape" if i % 2 else "house.fire", None, None, "benchmark", "T1", "Umpire", None]
                    for i in range(DESK_REQUESTS)]
        fires = [["Start check", 1 + i // 5, f"BUS {i}", "wooden_buildings", None] for i in range(FIRE_LINES)]
        sheets = [sheet_for(ROLL_REQUESTS, requests), sheet_for(TRACKERS["fire"].kind, fires)]
        append_sheets(self.desk, sheets, batch="Desk sheets")

    @property
    def undone(self) -> Path:
        return self.folder / "undo" / "campaign.xlsx"

    def add_undo(self) -> None:
        """A copy of the campaign with a batch appended by this run, which undo
        takes back: as after a refit or an import, undo finds what the append
        kept for it (automation.workbook.undoimage) in the benchmark's cache.
        Made anew by every run: the cache keeps the last few appends' images,
        and a run's own appends (every refit) would otherwise leave undo to
        work the change out from a workbook it takes as changed elsewhere."""
        from automation.workbook.package import NewSheet, append_sheets

        self.undone.parent.mkdir(parents=True, exist_ok=True)
        for a, b in ((self.book, self.undone), (self.book.with_suffix(".key"), self.undone.with_suffix(".key"))):
            shutil.copyfile(a, b)
        append_sheets(self.undone, [NewSheet("Umpire notes (benchmark)", [["Note"], ["to be taken back"]])],
                      batch="Umpire notes")

    def fresh(self, src: Path, name: str) -> Path:
        """A private copy of ``src`` (with its key) to be written."""
        dst = self.folder / "work" / name / src.name
        shutil.rmtree(dst.parent, ignore_errors=True)
        dst.parent.mkdir(parents=True)
        for a, b in ((src, dst), (src.with_suffix(".key"), dst.with_suffix(".key"))):
            shutil.copyfile(a, b)
            with open(b, "rb+") as fh:  # on the disk before the command starts, as a copy saved earlier is: the
                os.fsync(fh.fileno())  # command's own fsync then writes what it changed, not the whole copy
        return dst  # the workbook and its key alone: what was carried is found by the campaign (automation.pbem.carry)

    def refitted(self) -> list[str]:
        """The export of a private copy of the workbook, refitted (not timed):
        in play an export follows the refit that added sheets, and derives
        those. The refit's sheets are new to the campaign's carried folder, as
        in play (each refit adds sheets no export has seen): the refit and the
        export keep their work in a cache of their own, whose carried folder
        for the campaign and sheets read (``rows``: the refit's are new to it,
        as in play) are put back each time as the benchmark's own were before
        the first (all else carried; the other commands' work untouched)."""
        from automation.cachesetting import cache_folder
        from automation.pbem.carry import folder_for

        own = self.folder / "work" / "cache of the export after a refit"
        carried, root = folder_for(self.book), cache_folder("carried")
        saved = self.folder / "work" / "carried before the refits"
        saved_rows = self.folder / "work" / "sheets read before the refits"
        if carried is not None and root is not None:
            if not saved.exists():  # the folder as an export of the campaign leaves it (not timed): before any
                # export, other commands may have made it with little in it (a refit keeps its forms' status there)
                run(musterroll("export", self.book, "--side", "German", "-o", self.folder / "work" / "export.xlsx"),
                    ROOT)
                if carried.exists():
                    shutil.copytree(carried, saved)
                if (root.parent / "rows").exists():
                    shutil.copytree(root.parent / "rows", saved_rows)
            mine = own / carried.relative_to(root.parent)
            for folder, kept in ((mine, saved), (own / "rows", saved_rows)):
                shutil.rmtree(folder, ignore_errors=True)
                if kept.exists():
                    shutil.copytree(kept, folder)
        with_cache = ["/usr/bin/env", f"MUSTERROLL_CACHE={own}"] if carried is not None and root is not None else []
        path = self.fresh(self.book, "refitted")
        run([*with_cache, *musterroll("refit", path)], ROOT)
        out = self.folder / "work" / "export.xlsx"
        return [*with_cache, *musterroll("export", path, "--side", "German", "-o", out)]

    def keyless(self, src: Path) -> Path:
        """A copy of ``src`` without its key beside it: verify checks the chain
        (the benchmark's rolls are made up, so a replay with the key would fail)."""
        dst = self.folder / "work" / "keyless" / src.name
        if not dst.exists():
            dst.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(src, dst)
        return dst

    def argv(self, what: str) -> list[str]:
        b = self.book
        out = self.folder / "work" / "export.xlsx"
        out.parent.mkdir(exist_ok=True)  # (whichever command runs first)
        commands = {
            "refit": lambda: musterroll("refit", self.fresh(b, "refit")),
            "undo": lambda: musterroll("undo", self.fresh(self.undone, "undo")),
            "export": lambda: musterroll("export", b, "--side", "German", "-o", out),
            "export_after_refit": self.refitted,
            "import": lambda: musterroll("import", self.fresh(self.waiting, "import"), self.returned),
            "verify": lambda: musterroll("verify", self.keyless(b)),
            "stats": lambda: musterroll("stats", b),
            "desk": lambda: musterroll("roll-requests", self.fresh(self.desk, "desk")),
            "trackers": lambda: musterroll("trackers", self.fresh(self.desk, "trackers")),
            "odds": lambda: musterroll("odds", "bf.cpp_replenishment"),
            "python": lambda: [sys.executable, "-c", "pass"],
            "floor": lambda: child("floor", self.fresh(b, "floor"), *self.sheets),
            "openpyxl_save": lambda: child("openpyxl_save", self.fresh(b, "openpyxl")),
            "openpyxl_read_only": lambda: child("openpyxl_read_only", b, *self.sheets),
            "pandas_calamine": lambda: child("pandas_calamine", b, *self.sheets),
        }
        if what in ("export", "export_after_refit") and out.exists():
            out.unlink()
        return commands[what]()


def refit_sheets(book: Path) -> list[str]:
    """The sheets a refit of ``book`` reads: the standing sheets, the last date's
    roster, ledger, summary and results, and the next date's orders and spending."""
    from automation.workbook.reader import Workbook

    names = Workbook(book).sheet_names
    standing = [n for n in names if " " not in n.strip() or n in ("Historical DRM", "RG Chart", "FP Chart",
                                                                    "Roster Start")]
    latest: dict[str, str] = {}
    for n in names:
        for prefix in ("Roster ", "Ledger ", "Summary ", "Results ", "Orders ", "Spend "):
            if n.startswith(prefix) and n != "Roster Start":
                latest[prefix + n.rsplit(" ", 1)[-1] if prefix in ("Orders ", "Spend ") else prefix] = n
    return list(dict.fromkeys(standing + list(latest.values())))


# ------------------------------------------------------------------ the floor and the baselines (children)

def child_main(mode: str, path: str, sheets: list[str]) -> None:
    if mode == "floor":  # read the refit's sheets, copy, append five sheet parts, fsync, rename
        import zipfile

        from python_calamine import CalamineWorkbook

        data = Path(path).read_bytes()
        import io

        book = CalamineWorkbook.from_filelike(io.BytesIO(data))
        for name in sheets:
            book.get_sheet_by_name(name).to_python()
        tmp = path + ".tmp"
        with open(tmp, "wb") as fh:
            fh.write(data)
        with zipfile.ZipFile(tmp, "a", zipfile.ZIP_DEFLATED) as z:
            for i in range(5):
                z.writestr(f"xl/worksheets/floor{i}.xml", b"<worksheet/>" * 2000)
        with open(tmp, "rb+") as fh:
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    elif mode == "openpyxl_save":
        import openpyxl

        wb = openpyxl.load_workbook(path)
        ws = wb.create_sheet("Naive")
        ws.append(["a", 1])
        wb.save(path)
    elif mode == "openpyxl_read_only":
        import openpyxl

        wb = openpyxl.load_workbook(path, read_only=True)
        for name in sheets:
            for _ in wb[name].iter_rows(values_only=True):
                pass
    elif mode == "pandas_calamine":
        import pandas as pd

        pd.read_excel(path, sheet_name=sheets, engine="calamine")
    else:
        raise SystemExit(f"unknown child mode {mode}")


# ------------------------------------------------------------------ measuring and reporting

LOADS: list[float] = []  # the 1-minute load average at the end of each round


def measure(campaigns: list[Campaign], rounds: int, what: tuple[str, ...], log,
            baseline_rounds: int | None = None, warmup: int = 1) -> dict[tuple[Any, ...], list]:
    """Every campaign and command once a round, after ``warmup`` rounds not
    counted (each command has run before, as in play: what it carries is
    there); the naive baselines (minutes each on a long campaign) only in the
    first ``baseline_rounds`` rounds."""
    found: dict[tuple[Any, ...], list[dict[str, float]]] = {}  # (see key_of)
    slow = {"openpyxl_save", "openpyxl_read_only", "pandas_calamine"}
    for r in range(warmup):
        for c in campaigns:
            for w in what:
                if w not in slow and not (c.flat and w in BASELINES):
                    with c.cached():
                        run(c.argv(w), ROOT)
        log(f"warm-up round {r + 1}/{warmup} done")
    for r in range(rounds):
        for w in what:  # one command at every length back to back: each round pairs them (paired_ratio)
            for c in campaigns:
                if (w in slow and baseline_rounds is not None and r >= baseline_rounds) or (c.flat and w in BASELINES):
                    continue  # (the floor and the baselines: of the growing campaigns alone)
                with c.cached():
                    found.setdefault(key_of(c, w), []).append(run(c.argv(w), ROOT))
        LOADS.append(os.getloadavg()[0])
        log(f"round {r + 1}/{rounds} done; load average {', '.join(f'{x:.1f}' for x in os.getloadavg())}")
    return found


def key_of(c: Campaign, what: str) -> tuple[Any, ...]:
    """What a run of ``what`` on ``c`` is found under: (stands, dates, command), and "flat" after them for a
    campaign grown with its roster as it is."""
    return (c.stands, c.done, what, "flat") if c.flat else (c.stands, c.done, what)


def flat_part(found: dict[tuple[Any, ...], list]) -> dict[tuple[Any, ...], list]:
    """The runs on the campaigns grown with the roster as it is, found as the others are (stands, dates, command)."""
    return {k[:3]: v for k, v in found.items() if len(k) == 4}


def split_of(growing: dict[str, Any], flat: dict[str, Any]) -> dict[str, Any]:
    """For each command measured on both: its paired ratio of the longest campaign to the shortest
    (:func:`paired_ratio`) with the roster growing, with the roster as it is (the history alone), and what
    the roster's growth adds (their difference)."""
    out: dict[str, Any] = {}
    for stands, rows in growing.items():
        other = flat.get(stands, {})
        out[stands] = {w: {"growing": r["paired_last_first"], "history_alone": other[w]["paired_last_first"],
                           "roster_adds": round(r["paired_last_first"] - other[w]["paired_last_first"], 2)}
                       for w, r in rows.items() if w in other}
    return out


def paired_ratio(last: list[dict[str, float]], first: list[dict[str, float]], key: str = "s") -> float:
    """The median over rounds of each round's ``last / first`` (the runs of one
    round are paired by their place in the lists, which keep the rounds' order)."""
    return statistics.median(b[key] / max(a[key], 1e-9) for a, b in zip(first, last))


def fastest_ratio(last: list[dict[str, float]], first: list[dict[str, float]], key: str = "s") -> float:
    """``last / first`` of the fastest run of each: a machine that slows for a
    stretch (a neighbour on a shared host) lengthens some runs and shortens
    none, so the least of several rounds is the run it did not disturb."""
    return min(b[key] for b in last) / max(min(a[key] for a in first), 1e-9)


def summarise(found, stands_list: list[int], dates: list[int], what: tuple[str, ...]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for stands in stands_list:
        rows: dict[str, Any] = {}
        for w in what:
            if any((stands, d, w) not in found for d in dates):
                continue  # (a naive baseline run in no round: --baseline-rounds 0)
            times = {d: statistics.median(x["s"] for x in found[(stands, d, w)]) for d in dates}
            rss = max(x["rss_mb"] for d in dates for x in found[(stands, d, w)])
            first, last = dates[0], dates[-1]
            cpu = {d: statistics.median(x["cpu"] for x in found[(stands, d, w)]) for d in dates}
            rows[w] = {"s": {str(d): round(t, 3) for d, t in times.items()}, "peak_rss_mb": round(rss, 1),
                       "ms_per_date": round(1000 * (times[last] - times[first]) / max(last - first, 1), 2),
                       "ratio_last_first": round(times[last] / times[first], 2),
                       "paired_last_first": round(paired_ratio(found[(stands, last, w)], found[(stands, first, w)]), 2),
                       "fastest_last_first": round(fastest_ratio(found[(stands, last, w)],
                                                                 found[(stands, first, w)]), 2),
                       "cpu_s": {str(d): round(t, 3) for d, t in cpu.items()},
                       "cpu_ratio_last_first": round(cpu[last] / max(cpu[first], 1e-3), 2)}
        last = str(dates[-1])
        if {"refit", "floor"} <= set(rows):
            for d in map(str, dates):
                rows["refit"][f"to_floor_{d}"] = round(rows["refit"]["s"][d] / rows["floor"]["s"][d], 2)
                rows["refit"][f"cpu_to_floor_{d}"] = round(rows["refit"]["cpu_s"][d] / rows["floor"]["cpu_s"][d], 2)
            rows["refit"]["to_floor"] = rows["refit"][f"to_floor_{last}"]
            for b in ("openpyxl_save", "openpyxl_read_only", "pandas_calamine"):
                if b in rows:
                    rows["refit"][f"{b}_to_refit"] = round(rows[b]["s"][last] / rows["refit"]["s"][last], 2)
        out[str(stands)] = rows
    return out


def machine() -> dict[str, Any]:
    return {**growth.machine(), "load_average": os.getloadavg(), "load_by_round": [round(x, 1) for x in LOADS]}


def text(report: dict[str, Any]) -> str:
    m = report["machine"]
    lines = [f"machine: {m['cpus']} CPUs, {m['memory']}, {m['system']}, Python {m['python']}; load average at the "
             f"end {', '.join(f'{x:.1f}' for x in m['load_average'])}; by round {m['load_by_round']}", ""]
    for stands, rows in report["results"].items():
        lines += table(report, stands, rows, report.get("bought", GROWTH_PER_1000))
    for stands, rows in report.get("history_alone", {}).items():
        lines += table(report, stands, rows, 0.0)
    for stands, rows in report.get("instructions", {}).items():
        lines += instructions.table(stands, rows, report["dates"])
    for stands, split in report.get("split", {}).items():
        lines += [f"{stands} stands, the paired ratio of the longest campaign to the shortest, apart: the roster "
                  "growing; the roster as it is (the history alone); what the roster's growth adds", "",
                  "| command | growing | history alone | roster adds |", "|---|---:|---:|---:|"]
        lines += [f"| {w} | {r['growing']:.2f} | {r['history_alone']:.2f} | {r['roster_adds']:+.2f} |"
                  for w, r in split.items()]
        lines.append("")
    return "\n".join(lines)


def table(report: dict[str, Any], stands: str, rows: dict[str, Any], bought: float) -> list[str]:
    """One size's table (and the refit's floor and baselines), its campaign growing ``bought`` a date per 1,000."""
    dates = report["dates"]
    naive_rounds = report["rounds"] if report.get("baseline_rounds") is None else report["baseline_rounds"]
    lines = [f"{stands} stands (growing {bought * int(stands) / 1000:.2f} a date), median wall s of "
             f"{report['rounds']} rounds (naive baselines: {naive_rounds}):", "",
             "| command | " + " | ".join(str(d) for d in dates) + " | ms/date | last/first | paired | fastest | "
             "CPU s " + " | ".join(str(d) for d in dates) + " | CPU last/first | peak RSS MB |",
             "|---|" + "---:|" * (2 * len(dates) + 6)]
    for w, r in rows.items():
        lines.append(f"| {w} | " + " | ".join(f"{r['s'][str(d)]:.3f}" for d in dates)
                     + f" | {r['ms_per_date']:+.1f} | {r['ratio_last_first']:.2f} | {r['paired_last_first']:.2f} | "
                     + f"{r['fastest_last_first']:.2f} | "
                     + " | ".join(f"{r['cpu_s'][str(d)]:.3f}" for d in dates)
                     + f" | {r['cpu_ratio_last_first']:.2f} | {r['peak_rss_mb']:.0f} |")
    ref = rows.get("refit", {})
    if "to_floor" not in ref:
        return lines + [""]
    lines += ["refit to the floor (wall; CPU) at " + ", ".join(
                  f"{d} dates {ref[f'to_floor_{d}']:.2f}x; {ref[f'cpu_to_floor_{d}']:.2f}x" for d in dates), ""]
    names = {"openpyxl_save": "openpyxl load+add+save", "openpyxl_read_only": "openpyxl read-only",
             "pandas_calamine": "pandas+calamine"}
    naive = [f"{label} {ref[f'{b}_to_refit']:.1f}x refit" for b, label in names.items() if f"{b}_to_refit" in ref]
    return lines + ([f"at {dates[-1]} dates: " + ", ".join(naive), ""] if naive else [])


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--stands", type=int, nargs="+", default=[1000])
    p.add_argument("--dates", type=int, nargs="+", default=[1, 10, 50, 100])
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--folder", type=Path, help="where the campaigns are built (kept, and used again by a later run "
                                               "with the same --stands and --dates); default a temporary folder")
    p.add_argument("--baseline-rounds", type=int, help="run the naive baselines in only this many rounds")
    p.add_argument("--warmup", type=int, default=1, help="rounds run first and not counted (default 1)")
    p.add_argument("--cache", type=Path, help="MUSTERROLL_CACHE for the commands: where every campaign's carried "
                                              "work is kept (default: FOLDER/cache/N stands, each size's own, "
                                              "where it was grown; "
                                              "a folder without it measures undo as of a workbook last changed "
                                              "elsewhere)")
    p.add_argument("--only", nargs="+", choices=COMMANDS + BASELINES, help="measure only these")
    p.add_argument("--bought", type=float, default=GROWTH_PER_1000,
                   help=f"stands bought a date per 1,000 as the campaign is grown (default {GROWTH_PER_1000}; 0: the "
                        "roster stays as it is, so what grows is the history alone); use a --folder of its own")
    p.add_argument("--split", action="store_true",
                   help="also grow each size with its roster as it is (in FOLDER/flat) and measure it in the same "
                        "rounds: what the history alone adds to each ratio, and what the roster's growth adds")
    p.add_argument("--instructions", action="store_true",
                   help="after the timed rounds, run each command once more under Valgrind's callgrind and report "
                        "the instructions it executes at each length: the same count on every run, unlike a time")
    p.add_argument("--quick", action="store_true", help="a tiny run (40 stands, 1 and 2 dates, one round)")
    p.add_argument("--json", action="store_true")
    p.add_argument("--child", nargs="+", help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    if args.child:
        child_main(args.child[0], args.child[1], args.child[2:])
        return 0
    if args.quick:
        args.stands, args.dates, args.rounds, args.warmup = [40], [1, 2], 1, 0
    if args.instructions and instructions.valgrind() is None:
        p.error("--instructions counts with Valgrind, which is not installed (Debian: apt-get install valgrind)")
    folder = args.folder or Path(tempfile.mkdtemp(prefix="musterroll-bench-"))
    os.environ["MUSTERROLL_CACHE"] = str(args.cache or folder / "cache")  # (each size: a folder of its own within)
    Campaign.shared_cache = args.cache is not None

    def log(message: str) -> None:
        print(f"[{time.strftime('%H:%M:%S')}] {message}", file=sys.stderr, flush=True)

    campaigns: list[Campaign] = []
    for stands in args.stands:
        kept = Campaign.kept(folder, stands, args.dates) if args.folder else None
        if kept is None:
            log(f"growing a campaign of {stands} stands to {max(args.dates)} dates")
        campaigns += kept or Campaign.grown(folder, stands, args.dates, args.bought)
        if args.split:
            kept = Campaign.kept(folder / "flat", stands, args.dates, flat=True) if args.folder else None
            if kept is None:
                log(f"growing a campaign of {stands} stands to {max(args.dates)} dates, its roster as it is")
            campaigns += kept or Campaign.grown(folder / "flat", stands, args.dates, 0.0, flat=True)
    what = tuple(args.only) if args.only else COMMANDS + BASELINES
    found = measure(campaigns, args.rounds, what, log, args.baseline_rounds, args.warmup)
    report = {"stands": args.stands, "dates": args.dates, "rounds": args.rounds, "machine": machine(),
              "baseline_rounds": args.baseline_rounds, "bought": args.bought,
              "results": summarise(found, args.stands, args.dates, what)}
    if args.instructions:
        counted = instructions.count_each([c for c in campaigns if not c.flat], what, ROOT, child_env, key_of, log)
        report["instructions"] = instructions.summary(counted, args.stands, args.dates)
    if args.split:
        report["history_alone"] = summarise(flat_part(found), args.stands, args.dates,
                                            tuple(w for w in what if w in COMMANDS))
        report["split"] = split_of(report["results"], report["history_alone"])
    print(json.dumps(report, indent=1) if args.json else text(report))
    if not args.folder:
        shutil.rmtree(folder, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

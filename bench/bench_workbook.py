"""Benchmark: does a long Battlefront campaign cost more to refit than a short one?

Generates synthetic campaigns (docs/workbook.md's contract) of ``--stands`` stands
with 1 and with ``--dates`` dated refits already in the workbook, then measures what
one more refit costs Musterroll:

* read: the current state as a refit reads it (``automation.workbook.reader.Workbook``,
  the Campaign, Tables and Modifiers sheets, ``automation.workbook.bf_adapter.load``);
* append: writing that refit's sheets (``automation.workbook.package.append_sheets``:
  Refit <date> 1 and 2, Roster, Ledger and Summary <date>);
* the whole refit, ``musterroll refit`` as a user runs it (read, steps, seal, append).

The history is sealed as a real campaign's is (each date's reports carry the
tamper evidence and the dice statistics), so the whole refit meets what it
would meet on the hundredth date. It prints the ratio of our cost with the long
history to our cost with the short one (goal: at most 1.5), the ratio of a naive openpyxl load-and-save of the long
workbook to our read + append (goal: at least 20), and our peak memory on the long
workbook (goal: under 300 MB). See docs/performance.md.

    python bench/bench_workbook.py                      # 1,000 stands, 1 and 100 dates
    python bench/bench_workbook.py --stands 40 --dates 3 --repeat 1   # a quick check
"""
from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from automation.engine.dice import CampaignKey  # noqa: E402
from automation.workbook import bf_sheets as K  # noqa: E402
from automation.workbook.package import NewSheet, append_sheets  # noqa: E402

KEY = CampaignKey.from_text("musterroll benchmark: public key")
SIDES = ("German", "Russian")
FIRST_DAY = dt.date(1942, 12, 23)
ME_SIZE = 10
GOALS = {"ratio_long_to_short": 1.5, "naive_to_ours": 20.0, "peak_mb": 300.0}


# ------------------------------------------------------------------ the synthetic campaign

def date_labels(count: int) -> list[str]:
    """CG date labels as an umpire writes them: 'Dec 23', 'Dec 24', ... one a day."""
    return [(FIRST_DAY + dt.timedelta(days=i)).strftime("%b %d").replace(" 0", " ") for i in range(count)]


def roster_rows(stands: int) -> list[list[Any]]:
    """``stands`` stands, half a side, in MEs of ten: rifle companies (RG I1) and
    tank companies (RG A1) by turns."""
    rows: list[list[Any]] = []
    per_side = stands // 2
    for side in SIDES:
        for n in range(per_side):
            me_no, slot = divmod(n, ME_SIZE)
            tanks = me_no % 2 == 1
            me = f"{side[0]}-{me_no + 1:03d}"
            if tanks:
                kind, stype, tracks = "AFV", "Medium tank", "Fully tracked"
            elif slot == 0:
                kind, stype, tracks = "Command", "Command", None
            else:
                kind, stype, tracks = "Troops", "Rifle" if slot < ME_SIZE - 1 else "HMG", None
            rows.append([side, me, "A" if tanks else "I", "Tank company" if tanks else "Rifle company",
                         "A1" if tanks else "I1", "Veteran" if side == "German" else "Trained",
                         f"{me}-{slot + 1:02d}", stype, kind, tracks, "Available", "Normal", None, None,
                         None, None, None, "Normal", None])
    return rows


def results_rows(roster: list[list[Any]]) -> list[list[Any]]:
    """A played scenario: one troop stand in 25 knocked out, one stand in 25 scoring a kill."""
    rows: list[list[Any]] = []
    for i, r in enumerate(roster):
        side, stand, kind = r[0], r[6], r[8]
        if kind == "Troops" and i % 25 == 3:
            rows.append([side, stand, "Knocked out", "Direct fire", None, None, None, None, None, None, None, None, None, None])
        elif i % 25 == 7:
            rows.append([side, stand, "Unharmed", None, None, None, None, None, None, None, 1, None, None, None])
    return rows


def report_rows(label: str, stage: int, roster: list[list[Any]]) -> list[list[Any]]:
    """Report lines shaped like a real refit's: a roll line per ME in stage 2."""
    rows: list[list[Any]] = []
    if stage == 1:
        for side in SIDES:
            rows.append(["CPP replenishment", "2.1.1.1", side, side, "bf.cpp_replenishment (2.1.1.1)", "d10: 6", 6,
                         "none", 0, 6, "+12 CPP", "10.00%", side, f"{label}/cpp/{side}"])
        return rows
    mes = sorted({(r[0], r[1]) for r in roster})
    for side, me in mes:
        rows.append(["Discipline rating change", "2.1.1.3.1", side, me, "bf.discipline_change (2.1.1.3.1)", "d100: 47",
                     47, "+2 Each enemy stand knocked out by fire (2.1.1.3.1)", 2, 49, "Discipline unchanged", "97.00%",
                     side, f"{label}/discipline/{side}/{me}"])
        rows.append(["Breakpoints", "2.1.1.3.2", side, me, None, None, None, None, None, None,
                     "10 stands: breakpoints at 3/5/8 losses (25/50/75%)", None, side, None])
    return rows


def ledger_rows(roster: list[list[Any]]) -> list[list[Any]]:
    rows: list[list[Any]] = []
    for side in SIDES:
        rows += [[side, "CPP", "Start", None, 10, "2.1.1.1", side], [side, "CPP", "Replenished", 12, 22, "2.1.1.1", side],
                 [side, "CPP", "Left", None, 22, "2.1.1.1", side], [side, "FPP", "Left", None, 2, "2.1.1.5", side]]
        for rg in ("A1", "I1"):
            count = len({r[1] for r in roster if r[0] == side and r[4] == rg})
            rows.append([side, "RG", rg, None, count, "2.1.1.4", side])
    rows.append([None, "Scenario", "Attacker: German", None, None, "2.1", "All"])
    return rows


def _sheet(name: str, kind: Any, rows: list[list[Any]], tab: str) -> NewSheet:
    return NewSheet(name, [kind.header] + rows, kind=tab, column_widths=[c.width for c in kind.columns])


def dated_sheets(labels: list[str], index: int, roster: list[list[Any]]) -> list[list[NewSheet]]:
    """The sheets a campaign holds for date ``labels[index]`` once its refit is done,
    in the order the umpire, the players and the refit add them, in four groups:
    the results and orders entered, the stage 1 report, the spending entered, and
    the stage 2 report with the roster, ledger and summary written with it."""
    label = labels[index]
    entered: list[NewSheet] = []
    if index:
        entered.append(_sheet(K.RESULTS.name_for(date=labels[index - 1]), K.RESULTS, results_rows(roster), "results"))
        entered += [_sheet(K.ORDERS.name_for(date=label, side=s), K.ORDERS,
                           [["Posture", None, "Attack" if s == "German" else "Defend", None]], "orders") for s in SIDES]
    stage1 = [_sheet(K.REPORT.name_for(date=label, side="1"), K.REPORT, report_rows(label, 1, roster), "report")]
    spend = [_sheet(K.SPEND.name_for(date=label, side=s), K.SPEND, [], "orders") for s in SIDES]
    stage2 = [_sheet(K.REPORT.name_for(date=label, side="2"), K.REPORT, report_rows(label, 2, roster), "report"),
              _sheet(K.ROSTER.name_for(date=label), K.ROSTER, roster, "roster"),
              _sheet(K.LEDGER.name_for(date=label), K.LEDGER, ledger_rows(roster), "ledger")]
    summary = K.summary_kind(SIDES)
    history = [[labels[i], 22, 22, 2, 2, len(roster) // 2, len(roster) // 2] for i in range(index + 1)]
    stage2.append(_sheet(K.SUMMARY.name_for(date=label), summary, history, "ledger"))
    return [entered, stage1, spend, stage2]


class Ahead:
    """The workbook on disk with sheets not yet appended laid after its own, as
    the refit would read them once appended (a BookSource for sealing)."""

    def __init__(self, book: Any) -> None:
        self.book, self.path, self.digest = book, book.path, book.digest
        self.extra: dict[str, list[list[Any]]] = {}

    @property
    def sheet_names(self) -> list[str]:
        return list(self.book.sheet_names) + list(self.extra)

    @property
    def gate(self) -> Any:
        """The file's parts (sealing fingerprints those already stored: automation.audit.parts)."""
        return getattr(self.book, "gate", None)

    def add(self, sheets: list[NewSheet]) -> list[NewSheet]:
        self.extra.update((s.name, [list(r) for r in s.rows]) for s in sheets)
        return sheets

    def has(self, name: str) -> bool:
        return name in self.extra or self.book.has(name)

    def raw(self, name: str) -> list[list[Any]]:
        return self.extra[name] if name in self.extra else self.book.raw(name)

    def read(self, kind: Any, name: str | None = None, lists: Any = None) -> list[Any]:
        return self.book.read(kind, name, lists)

    def read_lists(self, name: str = "Lists") -> dict[str, list[str]]:
        return self.book.read_lists(name)


def sealed_date(path: Path, groups: list[list[NewSheet]]) -> list[list[NewSheet]]:
    """A date's four groups of sheets (see :func:`dated_sheets`) with its two
    reports sealed (automation.audit.seal) as its two refits would seal them:
    stage 1 once the orders are in, stage 2 once the spending is in, each
    linked to the report before it."""
    from automation.audit import seal
    from automation.workbook.reader import Workbook

    entered, stage1, spend, stage2 = groups
    book = Ahead(Workbook(path))
    return [book.add(entered), book.add(seal(book, stage1, key=KEY)), book.add(spend), seal(book, stage2, key=KEY)]


def append_as_played(path: Path, label: str, groups: list[list[NewSheet]]) -> None:
    """A date's sealed groups of sheets appended in the batches play appends
    them (as ``musterroll demo`` does: seven batches and fourteen sheets a
    date): the refit that asks for the last scenario's results (the umpire
    fills them in) and each side's orders, each side's orders imported over
    the form that refit wrote (which the import keeps very hidden, for
    undo), the stage 1 report with the spending forms, each side's spending
    imported alike, and the stage 2 report with the roster, ledger and
    summary."""
    entered, stage1, spend, stage2 = groups
    orders = [s for s in entered if s.kind == "orders"]

    def form(sheet: NewSheet) -> NewSheet:  # (what an import replaces: a sheet of that name, not yet filled)
        return NewSheet(sheet.name, [sheet.rows[0]], kind=sheet.kind, column_widths=sheet.column_widths)

    def imported(sheets: list[NewSheet]) -> None:
        for sheet in sheets:
            append_sheets(path, [sheet], batch=f"Import {sheet.name}", replace=[sheet.name])
    if entered:
        append_sheets(path, [s for s in entered if s.kind != "orders"] + [form(s) for s in orders],
                      batch=f"Refit {label}")
        imported(orders)
    append_sheets(path, stage1 + [form(s) for s in spend], batch=f"Refit {label}")
    imported(spend)
    append_sheets(path, stage2, batch=f"Refit {label}")


def base_data(labels: list[str], roster: list[list[Any]]) -> dict[str, list[list[Any]]]:
    """The rows of the synthetic campaign's umpire sheets, by sheet kind: sides,
    dates, historical DRM, RG and FP charts, and the starting roster."""
    return {
        "sides": [[s, s, 10, 2, "No", "Attack" if s == "German" else "Defend"] for s in SIDES],
        K.DATES.id: [[lab, (FIRST_DAY + dt.timedelta(days=i)).isoformat(), "Full day", None] for i, lab in enumerate(labels)],
        K.HISTORICAL_DRM.id: [[lab, s, 0, "2.1.1.1"] for lab in labels for s in SIDES],
        K.RG_CHART.id: [[s, "I1", "Rifle company", "ME", "I", "Rifle company", "Command x1; Rifle x8; HMG x1", "Trained",
                         5, 2, None, None, None] for s in SIDES]
        + [[s, "A1", "Tank company", "ME", "A", "Tank company", "Medium tank x10 [AFV]", "Trained", 10, 2, None, None, None]
           for s in SIDES],
        K.FP_CHART.id: [["Both", "Minefield section", 2, None]],
        K.ROSTER.id: roster,
    }


def build_campaign(path: Path, stands: int, done: int, growth: float = 0.0, spend: bool = True,
                   snapshots: Any = ()) -> Path:
    """A campaign workbook with ``done`` dates refitted and the next date's results,
    orders and (empty, unless ``spend`` is false) spending entered, so its refit
    runs to the end. The base comes from the template writer; every dated sheet
    goes in through ``append_sheets``, in the batches play appends them
    (:func:`append_as_played`), with its reports sealed into the tamper-evident
    chain (with the dice statistics) as a real campaign's are. With ``growth``, the roster grows by that many stands a date
    (purchases), as in play. ``snapshots`` ((dates, path, spend) ...) also
    leaves a copy of the campaign as it stood after that many dates, its next
    date entered, at each path (one growth gives every length)."""
    from automation.rulebook import load_rulebook
    from automation.workbook.campaign_sheets import default_lists
    from automation.workbook.template import SheetContent, system_sheets, write_workbook

    system = load_rulebook().system("bf-campaign")
    labels = date_labels(max([done] + [d for d, _, _ in snapshots]) + 2)
    roster = roster_rows(stands)

    def roster_at(index: int) -> list[list[Any]]:
        return roster_rows(stands + 2 * int(growth * index / 2)) if growth else roster
    data = base_data(labels, roster)
    sheets = [SheetContent(s.kind, s.name, data.get(s.kind.id, s.rows))
              for s in system_sheets(system, f"Benchmark, {stands} stands, {done} dates", KEY.commitment)]
    path.parent.mkdir(parents=True, exist_ok=True)
    write_workbook(path, sheets, default_lists(system))
    path.with_suffix(".key").write_text(KEY.to_hex() + "\n")
    def enter_next(book: Path, done: int, spend: bool) -> None:
        nxt = labels[done]
        entered = [_sheet(K.RESULTS.name_for(date=labels[done - 1]), K.RESULTS, results_rows(roster_at(done - 1)),
                          "results")]
        entered += [_sheet(K.ORDERS.name_for(date=nxt, side=s), K.ORDERS,
                           [["Posture", None, "Attack" if s == "German" else "Defend", None]], "orders")
                    for s in SIDES]
        if spend:
            entered += [_sheet(K.SPEND.name_for(date=nxt, side=s), K.SPEND, [], "orders") for s in SIDES]
        append_sheets(book, entered, batch=f"Orders {nxt}")

    for index in range(done):
        append_as_played(path, labels[index], sealed_date(path, dated_sheets(labels, index, roster_at(index))))
        for dates, copy, with_spend in snapshots:
            if dates == index + 1:
                Path(copy).parent.mkdir(parents=True, exist_ok=True)
                shutil.copyfile(path, copy)
                shutil.copyfile(path.with_suffix(".key"), Path(copy).with_suffix(".key"))
                enter_next(Path(copy), dates, with_spend)
    enter_next(path, done, spend)
    return path


# ------------------------------------------------------------------ what we measure

def read_state(path: Path) -> tuple[Any, Any, Any]:
    """What a refit reads: (book, inputs, state)."""
    from automation.service import campaign_settings, system_of
    from automation.workbook.bf_adapter import load
    from automation.workbook.reader import Workbook
    from automation.workbook.tables_io import system_from_workbook

    book = Workbook(path)
    settings = campaign_settings(book)
    system = system_from_workbook(book, system_of(book, settings))
    inputs, state = load(book, system, settings)
    return book, inputs, state


def refit_sheets(path: Path) -> tuple[str, list[NewSheet]]:
    """The sheets the refit of ``path`` appends (and its digest)."""
    from automation.service import plan_refit
    from automation.workbook.reader import Workbook

    book = Workbook(path)
    outcome, sheets = plan_refit(book, key=KEY)
    if outcome.waiting is not None or len(sheets) != 5:
        raise SystemExit(f"{path}: the benchmark refit did not run to its end: {outcome.summary()}")
    return book.digest, sheets


def _timed(fn: Any) -> float:
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


def measure(paths: list[Path], repeat: int, work: Path, whole_repeat: int) -> dict[Path, dict[str, float]]:
    """Median seconds, per workbook, to read the state and to append one refit's
    sheets, and (for information) of the whole `musterroll refit`: read, steps,
    seal, append. The workbooks take turns in every round, so a busy moment of
    the machine falls on both alike."""
    from automation.service import refit

    planned = {p: refit_sheets(p) for p in paths}
    times: dict[Path, dict[str, list[float]]] = {p: {"read": [], "append": [], "refit": []} for p in paths}
    for i in range(repeat):
        for path in paths:
            digest, sheets = planned[path]
            t = times[path]
            t["read"].append(_timed(lambda: read_state(path)))
            copy = work / f"copy-{path.name}"
            shutil.copyfile(path, copy)
            t["append"].append(_timed(lambda: append_sheets(copy, sheets, batch="Refit (benchmark)",
                                                            expected_digest=digest)))
            if i < whole_repeat:
                shutil.copyfile(path, copy)
                shutil.copyfile(path.with_suffix(".key"), copy.with_suffix(".key"))
                t["refit"].append(_timed(lambda: refit(copy)))
                copy.with_suffix(".key").unlink()
            copy.unlink()
    return {p: {"read": statistics.median(t["read"]), "append": statistics.median(t["append"]),
                "total": statistics.median(r + a for r, a in zip(t["read"], t["append"])),
                "refit": statistics.median(t["refit"])} for p, t in times.items()}


def peak_rss_mb() -> float:
    """This process's peak resident memory. On Linux /proc's VmHWM, which starts
    afresh at exec (ru_maxrss would carry over the parent's peak)."""
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    import resource  # not on Windows

    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / (2**20 if sys.platform == "darwin" else 1024)


def child_memory(mode: str, path: str) -> None:
    """In a fresh process, on a copy of ``path``: ``ours`` reads the state, plans
    the refit and appends its sheets (what the benchmark times); ``whole`` runs
    `musterroll refit` (with the report's seal and dice statistics). Prints the
    peak memory."""
    work = Path(tempfile.mkdtemp(prefix="mr-bench-"))
    try:
        copy = work / Path(path).name
        shutil.copyfile(path, copy)
        shutil.copyfile(Path(path).with_suffix(".key"), copy.with_suffix(".key"))
        base = peak_rss_mb()
        tracemalloc.start()
        if mode == "whole":
            from automation.service import refit

            refit(copy)
        else:
            digest, sheets = refit_sheets(copy)
            append_sheets(copy, sheets, batch="Refit (benchmark)", expected_digest=digest)
        _, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
        rss = peak_rss_mb()
    finally:
        shutil.rmtree(work, ignore_errors=True)
    print(json.dumps({"rss_mb": rss, "rss_before_mb": base, "python_peak_mb": peak / 2**20}))


def child_naive(path: str) -> None:
    """In a fresh process: what a naive tool does, openpyxl load and save."""
    import warnings

    import openpyxl

    warnings.simplefilter("ignore")
    out = Path(tempfile.mkdtemp(prefix="mr-bench-")) / "naive.xlsx"
    start = time.perf_counter()
    book = openpyxl.load_workbook(path)
    loaded = time.perf_counter()
    book.save(out)
    saved = time.perf_counter()
    shutil.rmtree(out.parent, ignore_errors=True)
    print(json.dumps({"load": loaded - start, "save": saved - loaded, "total": saved - start, "rss_mb": peak_rss_mb()}))


def _child(*args: str) -> dict[str, float]:
    out = subprocess.run([sys.executable, __file__, *args], capture_output=True, text=True, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def machine() -> dict[str, str]:
    from importlib.metadata import version

    mem = ""
    try:
        mem = f"{os.sysconf('SC_PAGE_SIZE') * os.sysconf('SC_PHYS_PAGES') / 2**30:.1f} GiB"
    except (ValueError, OSError, AttributeError):  # pragma: no cover
        pass
    libs = ", ".join(f"{p} {version(p)}" for p in ("python-calamine", "XlsxWriter", "openpyxl", "defusedxml"))
    return {"cpus": str(os.cpu_count()), "memory": mem, "python": platform.python_version(),
            "system": f"{platform.system()} {platform.release()} {platform.machine()}", "libraries": libs}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--stands", type=int, default=1000, help="stands in the campaign (both sides; default 1000)")
    parser.add_argument("--dates", type=int, default=100, help="dated refits in the long campaign (default 100)")
    parser.add_argument("--repeat", type=int, default=5, help="timed repetitions; the median counts (default 5)")
    parser.add_argument("--whole-repeat", type=int, help="repetitions of the whole refit (default: as --repeat)")
    parser.add_argument("--no-naive", action="store_true", help="skip the (slow) openpyxl load-and-save")
    parser.add_argument("--folder", help="keep the generated workbooks here (default: a temporary folder)")
    parser.add_argument("--reuse", action="store_true", help="reuse the workbooks already in --folder")
    parser.add_argument("--json", action="store_true", help="print the results as JSON")
    args = parser.parse_args(argv)
    args.whole_repeat = args.repeat if args.whole_repeat is None else args.whole_repeat
    if args.stands < 2 * ME_SIZE or min(args.dates, args.repeat, args.whole_repeat) < 1:
        parser.error(f"--stands must be at least {2 * ME_SIZE}; --dates, --repeat and --whole-repeat at least 1")
    folder = Path(args.folder) if args.folder else Path(tempfile.mkdtemp(prefix="mr-bench-"))
    folder.mkdir(parents=True, exist_ok=True)
    try:
        report: dict[str, Any] = {"stands": args.stands, "machine": machine(), "repeat": args.repeat}
        books: dict[int, Path] = {}
        generated: dict[int, float] = {}
        for done in sorted({1, args.dates}):
            path = folder / f"campaign-{args.stands}-stands-{done}-dates.xlsx"
            if args.reuse and path.exists() and path.with_suffix(".key").exists():
                generated[done] = 0.0
            else:
                path.unlink(missing_ok=True)
                path.with_suffix(".key").unlink(missing_ok=True)
                generated[done] = _timed(lambda: build_campaign(path, args.stands, done))
            books[done] = path
        timed = measure(list(books.values()), args.repeat, folder, min(args.repeat, args.whole_repeat))
        for done, path in books.items():
            report[f"dates_{done}"] = {"file_mb": path.stat().st_size / 2**20, "generated_s": generated[done],
                                       **timed[path]}
        short, long_ = report["dates_1"], report[f"dates_{args.dates}"]
        report["ratio_long_to_short"] = {k: long_[k] / short[k] for k in ("read", "append", "total", "refit")}
        report["memory"] = _child("--child-memory", "ours", str(books[args.dates]))
        report["memory_whole_refit"] = _child("--child-memory", "whole", str(books[args.dates]))
        if not args.no_naive:
            report["naive"] = _child("--child-naive", str(books[args.dates]))
            report["naive_to_ours"] = report["naive"]["total"] / long_["total"]
    finally:
        if not args.folder:
            shutil.rmtree(folder, ignore_errors=True)
    print(json.dumps(report, indent=1) if args.json else text(report, args.dates))
    return 0


def text(r: dict[str, Any], dates: int) -> str:
    m = r["machine"]
    lines = [f"Musterroll workbook benchmark: {r['stands']} stands",
             f"machine: {m['cpus']} CPUs, {m['memory']}, {m['system']}, Python {m['python']}; {m['libraries']}", ""]
    lines.append(f"{'dated refits':>13} {'file MB':>8} {'read s':>8} {'append s':>9} {'total s':>8} {'whole refit s':>14}")
    for key in sorted((k for k in r if k.startswith("dates_")), key=lambda k: int(k[6:])):
        d = r[key]
        lines.append(f"{key[6:]:>13} {d['file_mb']:8.2f} {d['read']:8.3f} {d['append']:9.3f} {d['total']:8.3f} "
                     f"{d['refit']:14.3f}")
    ratio = r["ratio_long_to_short"]
    lines += ["", f"cost({dates} dates) / cost(1 date): {ratio['total']:.2f} (read {ratio['read']:.2f}, "
                  f"append {ratio['append']:.2f}); goal <= {GOALS['ratio_long_to_short']}; "
                  f"whole refit {ratio['refit']:.2f}"]
    if "naive" in r:
        n = r["naive"]
        lines.append(f"naive openpyxl load+save of the {dates}-date workbook: {n['total']:.2f} s (load {n['load']:.2f}, "
                     f"save {n['save']:.2f}, {n['rss_mb']:.0f} MB); naive / ours: {r['naive_to_ours']:.1f}; "
                     f"goal >= {GOALS['naive_to_ours']:.0f}")
    mem, whole = r["memory"], r["memory_whole_refit"]
    lines.append(f"peak memory, read + plan + append on the {dates}-date workbook: {mem['rss_mb']:.0f} MB resident "
                 f"({mem['rss_before_mb']:.0f} MB before it started), Python allocations {mem['python_peak_mb']:.0f} MB; "
                 f"goal < {GOALS['peak_mb']:.0f} MB")
    lines.append(f"peak memory, whole `musterroll refit` (with seal and dice statistics): {whole['rss_mb']:.0f} MB "
                 f"resident, Python allocations {whole['python_peak_mb']:.0f} MB")
    return "\n".join(lines)


if __name__ == "__main__":
    if sys.argv[1:2] == ["--child-memory"]:
        child_memory(sys.argv[2], sys.argv[3])
        raise SystemExit(0)
    if sys.argv[1:2] == ["--child-naive"]:
        child_naive(sys.argv[2])
        raise SystemExit(0)
    raise SystemExit(main())

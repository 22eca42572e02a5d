"""The instructions a command executes, counted by Valgrind's callgrind:
the same count on every run of the same work (to a few parts in ten
thousand), where a shared machine moves a wall-clock ratio by up to 0.2
from run to run. ``bench_commands.py --instructions`` runs each command
once more, so counted, on each campaign after its timed rounds, and reports
the count at each length and its longest / shortest ratio beside the times.

A count is no time: it leaves out what the process waits for (reading and
writing the file, the system's own work) and weighs every instruction
alike. It tells whether a command does more work on a longer campaign, and
how much more, without the machine's noise; the times say what a person
waits for. Valgrind is not part of Musterroll's setup: where it is not
installed, ``--instructions`` says so and counts nothing.
"""
from __future__ import annotations

import re
import shutil
import subprocess
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

NAIVE = ("openpyxl_save", "openpyxl_read_only", "pandas_calamine")  # not counted
_COLLECTED = re.compile(r"^==\d+== Collected : (\d+)$", re.MULTILINE)


def valgrind() -> str | None:
    """Valgrind's path, None where it is not installed."""
    return shutil.which("valgrind")


def collected(stderr: str) -> int:
    """The instructions callgrind counted, from what it wrote on standard
    error: one line a process it followed (summed: a command that starts a
    child counts the child's too). A run that counted nothing is refused."""
    found = [int(n) for n in _COLLECTED.findall(stderr)]
    if not found:
        raise RuntimeError(f"callgrind counted nothing: {stderr[-2000:]}")
    return sum(found)


def count(argv: Sequence[str], cwd: Path, env: Mapping[str, str]) -> int:
    """The instructions ``argv`` executes, followed through every program it
    starts (``/usr/bin/env``, then Python); it must succeed."""
    tool = valgrind()
    if tool is None:
        raise RuntimeError("valgrind is not installed (Debian: apt-get install valgrind)")
    wrapped = [tool, "--tool=callgrind", "--trace-children=yes", "--callgrind-out-file=/dev/null", *map(str, argv)]
    done = subprocess.run(wrapped, cwd=cwd, env=dict(env), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                          text=True, errors="replace")
    if done.returncode != 0:
        raise RuntimeError(f"{' '.join(map(str, argv))} exited {done.returncode}: {done.stderr[-2000:]}")
    return collected(done.stderr)


def count_each(campaigns: Sequence[Any], what: Sequence[str], cwd: Path, env: Callable[[], Mapping[str, str]],
               key_of: Callable[[Any, str], tuple[Any, ...]], log: Callable[[str], None]) -> dict[tuple[Any, ...], int]:
    """Each command of ``what`` once on each of ``campaigns`` (bench_commands'
    campaigns, each prepared by its ``argv``), counted, under ``key_of``, in
    the environment ``env()`` gives within the campaign's own cache folder
    (``cached``); the naive baselines, minutes each natively, are not."""
    counts: dict[tuple[Any, ...], int] = {}
    for w in what:
        if w in NAIVE:
            continue
        for c in campaigns:
            with c.cached():
                counts[key_of(c, w)] = count(c.argv(w), cwd, env())  # (the environment of its cache folder)
        log(f"counted {w}")
    return counts


def summary(counts: Mapping[tuple[Any, ...], int], stands: Sequence[int],
            dates: Sequence[int]) -> dict[str, dict[str, Any]]:
    """For each size and command counted at every length: the count at each
    length and the ratio of the longest campaign's to the shortest's."""
    out: dict[str, dict[str, Any]] = {}
    for size in stands:
        rows: dict[str, Any] = {}
        for what in dict.fromkeys(k[2] for k in counts if k[0] == size):
            if any((size, d, what) not in counts for d in dates):
                continue
            at = {str(d): counts[(size, d, what)] for d in dates}
            rows[what] = {"instructions": at, "ratio_last_first": round(at[str(dates[-1])] / at[str(dates[0])], 3)}
        out[str(size)] = rows
    return out


def table(size: str, rows: Mapping[str, Any], dates: Sequence[int]) -> list[str]:
    """One size's counts as a Markdown table, in millions of instructions."""
    lines = [f"{size} stands, instructions (millions, callgrind; one run each, after the timed rounds):", "",
             "| command | " + " | ".join(str(d) for d in dates) + " | last/first |",
             "|---|" + "---:|" * (len(dates) + 1)]
    lines += [f"| {what} | " + " | ".join(f"{r['instructions'][str(d)] / 1e6:,.0f}" for d in dates)
              + f" | {r['ratio_last_first']:.3f} |" for what, r in rows.items()]
    return lines + [""]


__all__ = ["collected", "count", "count_each", "summary", "table", "valgrind"]

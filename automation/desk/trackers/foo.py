"""Replacement of British FOO casualties (house rules, seed 002, section 4).

Input sheet "FOO", one row per entry:
- ``Casualty``: a British field artillery observer (FOO) becomes a casualty in
  game turn Turn; Replacement = Yes when it was itself a replacement FOO.
- ``Roll``: the friendly turn's replacement roll, with No FOO on table = Yes
  when no British FOO is on the table then.

The tracker rolls house.foo_replacement and counts its modifiers itself: +1 for
each earlier roll without success since the last replacement arrived, +1 for
each further casualty waiting, -1 for each replacement FOO already lost. One
replacement is rolled for at a time; the first roll for a casualty is in a turn
after the one it fell in.
"""
from __future__ import annotations

from dataclasses import dataclass

from automation.desk.trackers.base import ALL, Context, Line, Problems, Tracker, TrackerOutput, Where, roll_at, where, yes
from automation.engine.resolver import Situation
from automation.workbook.reader import SheetRow
from automation.workbook.schema import YES_NO, Column, Kind, SheetKind, choice

TABLE = "house.foo_replacement"
RULE = "4"

KIND = SheetKind(
    "desk.foo", "FOO",
    (choice("Entry", ("Casualty", "Roll"), width=10), Column("Turn", Kind.INT, width=6),
     Column("FOO", required=False, width=14, note="Casualty: the observer lost"),
     choice("Replacement", YES_NO, required=False, width=11, note="Casualty: it was itself a replacement FOO"),
     choice("No FOO on table", YES_NO, required=False, width=10, note="Roll: no British FOO on the table now"),
     Column("Notes", required=False, width=30)),
    tab="orders", rule="4",
    description="British FOO casualties and the replacement roll each friendly turn until a replacement arrives.",
)


@dataclass(frozen=True)
class Entry:
    entry: str
    turn: int
    foo: str = ""
    replacement: bool = False
    no_foo_on_table: bool = False
    at: Where = Where()


def parse(rows: list[SheetRow]) -> list[Entry]:
    return [Entry(r["Entry"], r["Turn"], str(r["FOO"] or f"FOO {i}"), yes(r["Replacement"]), yes(r["No FOO on table"]),
                  where(r, "Entry")) for i, r in enumerate(rows, start=1)]


def track(entries: list[Entry], ctx: Context) -> TrackerOutput:
    problems = Problems()
    lines: list[Line] = []
    casualties = sorted((e for e in entries if e.entry == "Casualty"), key=lambda e: e.turn)
    rolls = sorted((e for e in entries if e.entry == "Roll"), key=lambda e: e.turn)
    waiting: list[Entry] = []
    failed = 0
    rolled_turns: set[int] = set()
    pending = list(casualties)
    last_roll = 0
    for e in rolls:
        while pending and pending[0].turn < e.turn:
            waiting.append(pending.pop(0))
        if not waiting:
            problems.add(e.at, f"no FOO casualty from before turn {e.turn} is waiting for a replacement (the first "
                         "roll is in the friendly turn after the casualty; a replacement that arrived ends the rolls) (4)")
            continue
        if e.turn in rolled_turns:
            problems.add(e.at, f"turn {e.turn} already has its replacement roll; one replacement is rolled for at a time")
            continue
        rolled_turns.add(e.turn)
        lost = sum(1 for c in casualties if c.replacement and c.turn < e.turn)
        situation = Situation(frozenset({"no_british_foo_on_table"} if e.no_foo_on_table else set()),
                              {"turns_already_rolled": failed, "additional_casualties_waiting": len(waiting) - 1,
                               "replacement_foos_lost": lost})
        subject = waiting[0].foo
        r = roll_at(ctx.dice, e.at, TABLE, ("foo", f"T{e.turn}"), situation)
        if r.effect.get("foo_arrives"):
            waiting.pop(0)
            failed = 0
            text = f"{r.result}: it replaces {subject}, with transport, on the friendly map edge"
        else:
            failed += 1
            text = f"{r.result} ({len(waiting)} waiting)"
        last_roll = e.turn
        lines.append(Line("Replacement roll", RULE, text, subject, e.turn, r, ALL, e.at))
    problems.raise_if_any()
    waiting += pending
    last = max((e.turn for e in entries), default=0)
    status = [Line("Status", RULE, f"waiting for a replacement since turn {c.turn}", c.foo, c.turn, None, ALL, c.at)
              for c in waiting]
    if waiting:
        first = max(last_roll, waiting[0].turn) + 1
        status += [Line("Status", RULE, f"due: replacement roll in turn {t} (add a Roll row; next bonus +{failed})",
                        waiting[0].foo, t, None, ALL) for t in range(first, last + 1) if t not in rolled_turns]
    return TrackerOutput(tuple(lines), tuple(status))


def run(rows: list[SheetRow], ctx: Context) -> TrackerOutput:
    return track(parse(rows), ctx)


TRACKER = Tracker("foo", KIND, "4", "FOO replacement", run, (TABLE,))

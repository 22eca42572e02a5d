"""Fires (house rules, seed 002, section 9): start checks, and each turn's check
for every fire burning (burning vehicles included), with the modifier for the
turns it has burned counted by the tracker.

Input sheet "Fires", one row per entry (Fire names the place, e.g. "BUS 3"):
- ``Start check``: HE or a flamethrower may set Fire alight (one check per small
  HE template, two per large, one per HE-capable direct fire or close combat,
  one per flamethrower attack); Modifiers as house.fire names them
  (wooden_buildings; hot_and_dry; attack_factor=2; flamethrower...).
  10 or more starts a fire; anything less starts none.
- ``Burning``: a fire that starts without a check in turn Turn: a vehicle that
  burns fiercely (house 8), or a fire that spread here.
- ``Spread check``: the turn's check for a burning fire (from the turn after it
  started), with the Modifiers of its place and weather; the tracker adds -1
  for every 4 turns it has burned.
"""
from __future__ import annotations

from dataclasses import dataclass

from automation.desk.modifiers import ModifierProblem, parse as parse_modifiers
from automation.desk.trackers.base import ALL, Context, Line, Problems, Tracker, TrackerOutput, Where, roll_at, where
from automation.engine.resolver import Situation
from automation.workbook.reader import SheetRow
from automation.workbook.schema import Column, Kind, SheetKind, choice

TABLE = "house.fire"
RULE = "9"
BURNING_INPUT = "turns_burning"

KIND = SheetKind(
    "desk.fire", "Fires",
    (choice("Entry", ("Start check", "Burning", "Spread check"), width=13), Column("Turn", Kind.INT, width=6),
     Column("Fire", width=16, note="the place: a BUS, a wood, a wreck"),
     Column("Modifiers", required=False, width=44, note="conditions of house.fire (wooden_buildings; raining; "
                                                        "attack_factor=2 ...); the burning time is counted for you"),
     Column("Notes", required=False, width=30)),
    tab="orders", rule="9",
    description="Fires: start checks, fires burning (wrecks included) and their check each turn.",
)


@dataclass(frozen=True)
class Entry:
    entry: str
    turn: int
    fire: str
    modifiers: str = ""
    at: Where = Where()
    modifiers_at: Where = Where()


def parse(rows: list[SheetRow]) -> list[Entry]:
    return [Entry(r["Entry"], r["Turn"], str(r["Fire"]), str(r["Modifiers"] or ""), where(r, "Fire"),
                  where(r, "Modifiers")) for r in rows]


def track(entries: list[Entry], ctx: Context) -> TrackerOutput:
    table = ctx.dice.table(TABLE)
    problems = Problems()
    lines: list[Line] = []
    burning: dict[str, int] = {}  # fire -> turn it started
    out: dict[str, int] = {}  # fire -> turn it went out
    checked: set[tuple[str, int]] = set()
    starts: dict[tuple[str, int], int] = {}
    order = {"Burning": 0, "Spread check": 1, "Start check": 2}
    for e in sorted(entries, key=lambda x: (x.turn, order[x.entry])):
        try:
            situation = parse_modifiers(e.modifiers, table, table.default_column(), "umpire")
        except ModifierProblem as exc:
            problems.add(e.modifiers_at, str(exc))
            continue
        if BURNING_INPUT in situation.quantities:
            problems.add(e.modifiers_at, f"leave {BURNING_INPUT} out: the tracker counts the turns a fire has burned")
            continue
        if e.entry == "Burning":
            if e.fire in burning:
                problems.add(e.at, f"{e.fire} is already burning since turn {burning[e.fire]}")
                continue
            burning[e.fire] = e.turn
            out.pop(e.fire, None)
            lines.append(Line("Burning", RULE, "burning from this turn", e.fire, e.turn, None, ALL, e.at))
        elif e.entry == "Start check":
            if e.fire in burning:
                problems.add(e.at, f"{e.fire} is already burning since turn {burning[e.fire]}")
                continue
            n = starts[(e.fire, e.turn)] = starts.get((e.fire, e.turn), 0) + 1
            r = roll_at(ctx.dice, e.at, TABLE, ("fire", e.fire, "start", f"T{e.turn}", n), situation)
            if r.effect.get("fire") == "starts_or_spreads":
                burning[e.fire] = e.turn
                out.pop(e.fire, None)
                text = f"{r.result}: {e.fire} is burning"
            else:
                text = "no fire starts (a start check needs 10 or more)"
            lines.append(Line("Start check", RULE, text, e.fire, e.turn, r, ALL, e.at))
        else:
            start = burning.get(e.fire)
            if start is None or e.turn <= start:
                why = (f"went out in turn {out[e.fire]}" if e.fire in out else "is not burning" if start is None
                       else f"started in turn {start}; its first check is in turn {start + 1}")
                problems.add(e.at, f"{e.fire} {why}")
                continue
            if (e.fire, e.turn) in checked:
                problems.add(e.at, f"{e.fire} already has its check for turn {e.turn}")
                continue
            checked.add((e.fire, e.turn))
            facts = Situation(situation.conditions, {**situation.quantities, BURNING_INPUT: e.turn - start},
                              situation.extra)
            r = roll_at(ctx.dice, e.at, TABLE, ("fire", e.fire, "check", f"T{e.turn}"), facts)
            what = r.effect.get("fire")
            if what == "out":
                del burning[e.fire]
                out[e.fire] = e.turn
                text = f"{r.result}"
            elif what == "starts_or_spreads":
                text = (f"{r.result}: to the nearest downwind aim point or combustible area (never across a road or "
                        "water); add it as Burning from this turn")
            else:
                text = r.result + (" (only a fire in a BUS; the aim point is chosen at random)"
                                   if r.effect.get("aim_points_rubbled") else "")
            lines.append(Line("Fire check", RULE, text, e.fire, e.turn, r, ALL, e.at))
    problems.raise_if_any()
    last = max((e.turn for e in entries), default=0)
    status: list[Line] = []
    for fire, start in burning.items():
        status.append(Line("Status", RULE, f"burning since turn {start}", fire, start, None, ALL))
        status += [Line("Status", RULE, f"due: fire check in turn {t}", fire, t, None, ALL)
                   for t in range(start + 1, last + 1) if (fire, t) not in checked]
    status += [Line("Status", RULE, f"out in turn {t}", fire, t, None, ALL) for fire, t in out.items()]
    return TrackerOutput(tuple(lines), tuple(status))


def run(rows: list[SheetRow], ctx: Context) -> TrackerOutput:
    return track(parse(rows), ctx)


TRACKER = Tracker("fire", KIND, "9", "Fires", run, (TABLE,))

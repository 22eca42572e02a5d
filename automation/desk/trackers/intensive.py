"""Intensive Fire (BFTA 16.61-16.69): the points a unit may try to add, the
success roll, Out of Ammunition, and the 16.69 variant's partial success.

Input sheet "Intensive fire", one row per unit attempting Intensive Fire in one
combat (both players declare before any roll, the defender first: 16.62):
Turn, Combat (which attack), Unit, Printed strength, Points attempted, and
whether the unit is Out of Supply or Out of Ammunition (then it may not try:
16.63). A unit that fails is Out of Ammunition for one complete game turn; the
tracker refuses its attempts until the turn after that (16.66).
"""
from __future__ import annotations

import math
from dataclasses import dataclass

from automation.desk.trackers.base import ALL, Context, Line, Problems, Tracker, TrackerOutput, Where, roll_at, where, yes
from automation.workbook.reader import SheetRow
from automation.workbook.schema import YES_NO, Column, Kind, SheetKind, choice

TABLE = "bfta.intensive_fire"
S = "bfta."

KIND = SheetKind(
    "desk.intensive", "Intensive fire",
    (Column("Turn", Kind.INT, width=6), Column("Combat", required=False, width=12, note="which attack (e.g. A3)"),
     Column("Unit", width=16), Column("Printed strength", Kind.INT, width=9), Column("Points", Kind.INT, width=7,
                                                                                    note="Combat Strength Points tried"),
     choice("Out of supply", YES_NO, required=False, width=9), choice("Out of ammunition", YES_NO, required=False, width=10),
     Column("Notes", required=False, width=30)),
    tab="orders", rule="16.6",
    description="Intensive Fire attempts, one row per unit and combat: the tracker checks the points allowed and "
    "rolls each unit's success.",
)


@dataclass(frozen=True)
class Attempt:
    turn: int
    unit: str
    printed: int
    points: int
    combat: str = ""
    out_of_supply: bool = False
    out_of_ammunition: bool = False
    at: Where = Where()
    points_at: Where = Where()


def allowed_points(printed: int, below: int = 1, minimum: int = 1) -> int:
    """16.64: at most one less than the printed strength, but always at least 1."""
    return max(minimum, printed - below)


def column_for(points: int, columns: tuple[str, ...]) -> str:
    """The table column for ``points`` ("1 point", "2 points", ... the last one open-ended)."""
    for c in columns:
        n = int(c.split()[0].rstrip("+"))
        if n == points or (c.split()[0].endswith("+") and points >= n):
            return c
    return columns[-1]


def defence_when_out(printed: int, divisor: int = 2, rounding: str = "up") -> int:
    """16.67: an Out of Ammunition unit defends at half its printed strength, rounded up."""
    value = printed / divisor
    return math.ceil(value) if rounding == "up" else math.floor(value)


def parse(rows: list[SheetRow]) -> list[Attempt]:
    return [Attempt(r["Turn"], str(r["Unit"]), r["Printed strength"], r["Points"], str(r["Combat"] or ""),
                    yes(r["Out of supply"]), yes(r["Out of ammunition"]), where(r, "Unit"), where(r, "Points"))
            for r in rows]


def track(attempts: list[Attempt], ctx: Context) -> TrackerOutput:
    st = ctx.settings
    table = ctx.dice.table(TABLE)
    below, minimum = st.number(S + "intensive_fire_below_printed"), st.number(S + "intensive_fire_min_points")
    partial = st.flag(S + "variant_intensive_fire_partial")
    turns_out = st.number(S + "out_of_ammunition_turns")
    problems = Problems()
    lines: list[Line] = []
    out_until: dict[str, tuple[int, int]] = {}  # unit -> (turn marked, first turn it may try again)
    seen: dict[tuple[int, str, str], int] = {}
    for a in sorted(attempts, key=lambda x: x.turn):
        if a.turn < 1 or a.printed < 0:
            problems.add(a.at, "the turn must be 1 or more and the printed strength 0 or more")
            continue
        most = allowed_points(a.printed, below, minimum)
        if not 1 <= a.points <= most:
            problems.add(a.points_at, f"{a.unit} (printed strength {a.printed}) may try 1 to {most} point(s) of "
                         f"Intensive Fire (16.64), not {a.points}")
            continue
        if a.out_of_supply or a.out_of_ammunition:
            problems.add(a.at, f"{a.unit} is Out of {'Supply' if a.out_of_supply else 'Ammunition'}: no Intensive Fire "
                         "(16.63)")
            continue
        marked = out_until.get(a.unit)
        if marked and a.turn < marked[1]:
            problems.add(a.at, f"{a.unit} ran out of ammunition in turn {marked[0]} and stays Out of Ammunition until "
                         f"the supply phase of turn {marked[1]} (16.66): no Intensive Fire (16.63)")
            continue
        key = (a.turn, a.unit, a.combat)
        seen[key] = seen.get(key, 0) + 1
        column = column_for(a.points, table.columns)
        r = roll_at(ctx.dice, a.at, TABLE, ("intensive", f"T{a.turn}", a.unit, a.combat or "combat", seen[key]),
                    column=column)
        if r.effect.get("success"):
            strength = a.printed + int(r.effect.get("strength_added", a.points))
            text = f"succeeds: {a.unit} fights at {strength} (16.68)"
        else:
            added = int(r.effect.get("variant_strength_added", 0)) if partial else 0
            strength = a.printed + added
            text = (f"fails: {a.unit} fights at {strength}" + (f" (16.69: die {r.natural} - 1 = +{added})" if partial
                                                                else " (16.66)") +
                    f"; Out of Ammunition: cannot attack, defends at "
                    f"{defence_when_out(a.printed, st.number(S + 'out_of_ammunition_defence_divisor'), st.text(S + 'out_of_ammunition_defence_rounding'))} "
                    f"(16.67) until the supply phase of turn {a.turn + turns_out + 1} in supply")
            out_until[a.unit] = (a.turn, a.turn + turns_out + 1)
        doubles = a.points == 1 and a.printed == 1 and strength == 2
        text += ("; one point doubles the unit: the one-column limit does not apply (16.64)" if doubles
                 else f"; Intensive Fire shifts this attack at most {st.number(S + 'intensive_fire_max_column_shift')} "
                 "CRT column (16.61)")
        lines.append(Line("Intensive fire", "16.65", text, a.unit, a.turn, r, ALL, a.at))
    problems.raise_if_any()
    status = [Line("Status", "16.66", f"Out of Ammunition since turn {t}; the marker comes off in the supply phase of "
                   f"turn {until} if in supply", unit, until, None, ALL)
              for unit, (t, until) in out_until.items()]
    return TrackerOutput(tuple(lines), tuple(status))


def run(rows: list[SheetRow], ctx: Context) -> TrackerOutput:
    return track(parse(rows), ctx)


TRACKER = Tracker("intensive-fire", KIND, "16.6", "Intensive fire", run, (TABLE,),
                  tuple(S + n for n in ("intensive_fire_max_column_shift", "intensive_fire_below_printed",
                                        "intensive_fire_min_points", "out_of_ammunition_turns",
                                        "out_of_ammunition_defence_divisor", "out_of_ammunition_defence_rounding",
                                        "variant_intensive_fire_partial")))

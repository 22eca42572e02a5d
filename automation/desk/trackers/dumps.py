"""American supply dumps and Petrol Points (BFTA 16.51-16.57).

Input sheet "Supply dumps", one row per entry:
- ``Dump``: the American player's secret allocation (16.51): Hex and its Petrol
  Points (Amount), as the American Supply Dump Chart (16.57) allows.
- ``Captured``: a German unit occupies the dump hex in game turn Turn (16.52);
  its Petrol Points pass to the German player.
- ``Supply divisions``: Petrol Points spent to supply Amount divisions' worth of
  Out of Supply units for one turn (16.53-16.54): one point per division's
  worth, any remainder rounded up (1 unit of a division alone costs 1 point).
- ``Cancel shortage``: Petrol Points spent to ignore Amount results of the
  German Supply Shortage Tables (16.53).
  Both spend from the dump in Hex, or (left empty) from the German dumps in the
  order they were taken; with the 16.55 variant the Hex is required (the units
  must trace a supply line to that dump).
- ``Retaken`` (16.56 variant): an American unit takes the dump hex back.
- ``Destroy`` (16.56 variant): in a Bridge Phase, the roll of one American unit
  in a retaken dump hex: Unit, its Combat Strength, Engineer and Artillery
  present, Attacked (it attacked in the previous Combat Phase: not allowed).
"""
from __future__ import annotations

import math
from dataclasses import dataclass

from automation.desk.trackers.base import (
    ALL, UMPIRE, Context, Line, Problems, Tracker, TrackerOutput, Where, hex_number, roll_at, where, yes,
)
from automation.engine.resolver import Situation
from automation.workbook.reader import SheetRow
from automation.workbook.schema import YES_NO, Column, Kind, SheetKind, choice

ENTRIES = ("Dump", "Captured", "Supply divisions", "Cancel shortage", "Retaken", "Destroy")
TABLE = "bfta.supply_dump_destruction"
S = "bfta."

KIND = SheetKind(
    "desk.dumps", "Supply dumps",
    (choice("Entry", ENTRIES, width=16), Column("Turn", Kind.INT, required=False, width=6),
     Column("Hex", Kind.INT_OR_TEXT, required=False, width=8),
     Column("Amount", Kind.NUMBER, required=False, width=8,
            note="Dump: Petrol Points placed; Supply divisions: divisions' worth supplied (fractions allowed); "
                 "Cancel shortage: Supply Shortage results ignored"),
     Column("Unit", required=False, width=14), Column("Strength", Kind.INT, required=False, width=8,
                                                      note="Destroy: the rolling unit's Combat Strength"),
     choice("Engineer", YES_NO, required=False, width=9), choice("Artillery", YES_NO, required=False, width=9),
     choice("Attacked", YES_NO, required=False, width=9, note="Destroy: the unit attacked in the previous Combat Phase"),
     Column("Notes", required=False, width=30)),
    tab="orders", rule="16.5",
    description="American supply dumps: the secret allocation, captures, Petrol Points spent, and (16.56) retaking "
    "and destroying dumps.",
)


@dataclass(frozen=True)
class Entry:
    entry: str
    hex: str = ""
    turn: int = 0
    amount: float = 0
    unit: str = ""
    strength: int | None = None
    engineer: bool = False
    artillery: bool = False
    attacked: bool = False
    at: Where = Where()
    amount_at: Where = Where()


def petrol_points(amount: float, per_point: int = 1, rounding: str = "up") -> int:
    """16.54: Petrol Points for ``amount`` divisions' worth (or shortage results), remainders rounded up."""
    value = amount / per_point
    return math.ceil(value - 1e-9) if rounding == "up" else math.floor(value + 1e-9)


def parse(rows: list[SheetRow]) -> list[Entry]:
    problems = Problems()
    out = []
    for r in rows:
        e = r["Entry"]
        hex_ = hex_number(r["Hex"])
        if e != "Cancel shortage" and e != "Supply divisions" and not hex_:
            problems.add(where(r, "Hex"), f"{e} needs the dump's hex")
        if e != "Dump" and (r["Turn"] is None or r["Turn"] < 1):
            problems.add(where(r, "Turn"), f"{e} needs the game turn (1 or more)")
        amount = r["Amount"]
        if e in ("Dump", "Supply divisions", "Cancel shortage") and (amount is None or amount <= 0):
            problems.add(where(r, "Amount"), f"{e} needs a positive Amount")
        if e == "Dump" and amount is not None and float(amount) != int(amount):
            problems.add(where(r, "Amount"), f"a dump holds whole Petrol Points, not {amount}")
        if e == "Destroy" and r["Strength"] is None:
            problems.add(where(r, "Strength"), "Destroy needs the rolling unit's Combat Strength (16.56)")
        out.append(Entry(e, hex_, r["Turn"] or 0, float(amount or 0), str(r["Unit"] or ""), r["Strength"],
                         yes(r["Engineer"]), yes(r["Artillery"]), yes(r["Attacked"]), where(r, "Entry"),
                         where(r, "Amount")))
    problems.raise_if_any()
    return out


@dataclass
class _Dump:
    hex: str
    points: int
    owner: str = "American"
    captured: int = 0  # turn first taken by the Germans (0: never)
    retaken: int = 0
    since: int = 0  # turn of the last change of hands
    at: Where = Where()


def column_for(engineer: bool, artillery: bool) -> str:
    return {(False, False): "Plain", (True, False): "Engineer", (False, True): "Artillery", (True, True): "Both"}[
        (engineer, artillery)]


def track(entries: list[Entry], ctx: Context) -> TrackerOutput:
    st = ctx.settings
    problems = Problems()
    dumps: dict[str, _Dump] = {}
    for e in entries:
        if e.entry == "Dump":
            if e.hex in dumps:
                problems.add(e.at, f"hex {e.hex} already holds a dump ({dumps[e.hex].at})")
            dumps[e.hex] = _Dump(e.hex, int(e.amount), at=e.at)
    if not dumps:
        problems.add(Where(KIND.title, "A2"), "no Dump rows: the American player places every Petrol Point in one or "
                     "more dumps first (16.51)")
    problems.raise_if_any()
    lines: list[Line] = []
    counts: dict[tuple[str, int, str], int] = {}
    for e in sorted((x for x in entries if x.entry != "Dump"), key=lambda x: x.turn):
        d = dumps.get(e.hex) if e.hex else None
        if e.hex and d is None:
            problems.add(e.at, f"hex {e.hex} holds no dump; valid: {', '.join(dumps)}")
            continue
        if e.entry == "Captured":
            if d.owner == "German":
                problems.add(e.at, f"the dump in {e.hex} is already German")
                continue
            d.owner, d.captured, d.since = "German", d.captured or e.turn, e.turn
            unit = " (a supply dump counter, Combat Strength 0, is placed: 16.57)" if st.flag(S + "variant_dump_units") else ""
            lines.append(Line("Captured", "16.52", f"captured with {d.points} Petrol Points{unit}", e.hex, e.turn,
                              None, ALL, e.at))
        elif e.entry in ("Supply divisions", "Cancel shortage"):
            _spend(e, d, dumps, st, lines, problems)
        elif e.entry == "Retaken":
            if not st.flag(S + "variant_dump_recapture"):
                problems.add(e.at, "retaking dumps is the 16.56 variant: set 'Variant in use: Americans may retake and "
                             "destroy captured supply dumps' to Yes in Desk settings")
            elif d.owner != "German":
                problems.add(e.at, f"the dump in {e.hex} is not in German hands")
            else:
                d.owner, d.retaken, d.since = "American", e.turn, e.turn
                lines.append(Line("Retaken", "16.56", f"retaken with {d.points} Petrol Points; it may be destroyed "
                                  "from the next Bridge Phase", e.hex, e.turn, None, ALL, e.at))
        elif e.entry == "Destroy":
            key = (e.hex, e.turn, e.unit or "unit")
            counts[key] = counts.get(key, 0) + 1
            _destroy(e, d, ctx, lines, problems, counts[key])
    problems.raise_if_any()
    return TrackerOutput(tuple(lines), tuple(_status(dumps, st)))


def _spend(e: Entry, d: _Dump | None, dumps: dict[str, _Dump], st, lines: list[Line], problems: Problems) -> None:
    per = st.number(S + ("petrol_point_divisions" if e.entry == "Supply divisions" else "petrol_point_shortage_rolls"))
    cost = petrol_points(e.amount, per, st.text(S + "petrol_point_rounding"))
    if d is None and st.flag(S + "variant_petrol_supply_line"):
        problems.add(e.at, "with the 16.55 variant the Petrol Points come from one dump the units trace a supply line "
                     "to: give its Hex")
        return
    sources = [d] if d is not None else sorted((x for x in dumps.values() if x.owner == "German"),
                                               key=lambda x: x.captured)
    if d is not None and d.owner != "German":
        problems.add(e.at, f"the dump in {e.hex} is not in German hands")
        return
    have = sum(x.points for x in sources)
    if cost > have:
        problems.add(e.amount_at, f"{e.entry.lower()} {e.amount:g} costs {cost} Petrol Point(s) (16.54); "
                     f"the German player has {have}" + (f" in {e.hex}" if d is not None else ""))
        return
    left = cost
    for x in sources:
        take = min(left, x.points)
        x.points -= take
        left -= take
    what = (f"{e.amount:g} division(s)' worth supplied for this turn" if e.entry == "Supply divisions"
            else f"{e.amount:g} Supply Shortage result(s) ignored")
    lines.append(Line("Petrol Points", "16.53", f"{what}: {cost} Petrol Point(s) spent, {have - cost} left",
                      e.hex, e.turn, None, ALL, e.at))


def _destroy(e: Entry, d: _Dump, ctx: Context, lines: list[Line], problems: Problems, n: int) -> None:
    st = ctx.settings
    if not st.flag(S + "variant_dump_recapture"):
        problems.add(e.at, "destroying dumps is the 16.56 variant: set 'Variant in use: Americans may retake and destroy "
                     "captured supply dumps' to Yes in Desk settings")
        return
    if d.owner != "American" or not d.retaken:
        problems.add(e.at, f"the dump in {e.hex} has not been retaken from the Germans; a dump is destroyed only "
                     "after the Americans retake it (16.56)")
        return
    if e.turn < d.retaken:
        problems.add(e.at, f"the dump in {e.hex} was retaken in turn {d.retaken}; destruction starts in the next "
                     "Bridge Phase")
        return
    if e.attacked:
        problems.add(e.at, f"{e.unit or 'the unit'} attacked in the previous Combat Phase and may not take part (16.56)")
        return
    if d.points <= 0:
        problems.add(e.at, f"the dump in {e.hex} holds no Petrol Points any more")
        return
    column = column_for(e.engineer, e.artillery)
    r = roll_at(ctx.dice, e.at, TABLE, ("dumps", e.hex, "destroy", f"T{e.turn}", e.unit or "unit", n),
                Situation(quantities={"combat_strength": e.strength or 0}), column)
    loss = {"die": r.natural, "twice_die": r.natural * st.number(S + "dump_engineer_die_multiplier"),
            "all": d.points}.get(str(r.effect.get("petrol_loss")), 0)
    loss = min(loss, d.points)
    d.points -= loss
    text = f"{r.result}: {loss} Petrol Point(s) destroyed, {d.points} left"
    if d.points == 0:
        text += "; the dump is gone" + (" (its counter is removed: 16.57)" if st.flag(S + "variant_dump_units") else "")
    lines.append(Line("Destroy", "16.56", text, e.hex, e.turn, r, ALL, e.at))


def _status(dumps: dict[str, _Dump], st) -> list[Line]:
    out = []
    for d in dumps.values():
        if not d.captured:
            out.append(Line("Status", "16.51", f"American dump, {d.points} Petrol Points (secret)", d.hex, None, None,
                            UMPIRE, d.at))
        else:
            out.append(Line("Status", "16.52", f"{d.owner} since turn {d.since}, {d.points} Petrol "
                            "Points left", d.hex, None, None, ALL, d.at))
    german = sum(d.points for d in dumps.values() if d.owner == "German")
    out.append(Line("Status", "16.53", f"German Petrol Points available: {german}", "German", None, None, ALL))
    return out


def run(rows: list[SheetRow], ctx: Context) -> TrackerOutput:
    return track(parse(rows), ctx)


TRACKER = Tracker("dumps", KIND, "16.5", "American supply dumps", run, (TABLE,),
                  tuple(S + n for n in ("petrol_point_shortage_rolls", "petrol_point_divisions", "petrol_point_rounding",
                                        "variant_petrol_supply_line", "variant_dump_recapture",
                                        "dump_engineer_die_multiplier", "variant_dump_units")))

"""Artillery Saturation Fire and Burnt Tubes (BFTA 16.71-16.79).

Input sheet "Saturation fire", one row per entry:
- ``Fire``: an artillery unit fires Saturation Fire with its Barrage Strength
  (16.71-16.72): Turn, Unit, Type (Normal or Withering), Range (1-3 hexes),
  Barrage, In battery, Out of supply, Out of ammunition. The tracker rolls on the
  Artillery Saturation Fire Table (16.79, which the umpire enters in Desk tables
  as "m1/m2/m3, BN" per die and type), multiplies the Barrage Strength, then
  rolls the breakdown (16.74): Eliminated, or Burnt Tubes with the 16.78
  variant, else Out of Ammunition.
- ``Recovery`` (16.78 variant): the Building Segment roll of a unit under a
  Burnt Tubes marker, from the turn after the breakdown.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from automation.desk.trackers.base import ALL, Context, Line, Problems, Tracker, TrackerOutput, Where, roll_at, where, yes
from automation.engine.resolver import RollResult, Situation
from automation.errors import CellProblem, WorkbookError
from automation.workbook.reader import SheetRow
from automation.workbook.schema import YES_NO, Column, Kind, SheetKind, choice

FIRE_TABLE = "bfta.saturation_fire"
BREAKDOWN_TABLE = "bfta.saturation_breakdown"
RECOVERY_TABLE = "bfta.burnt_tubes_recovery"
S = "bfta."
ENTRY_TEXT = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*/\s*(\d+(?:\.\d+)?)\s*/\s*(\d+(?:\.\d+)?)\s*,\s*(-?\d+)\s*$")

KIND = SheetKind(
    "desk.saturation", "Saturation fire",
    (choice("Entry", ("Fire", "Recovery"), width=10), Column("Turn", Kind.INT, width=6), Column("Unit", width=16),
     choice("Type", ("Normal", "Withering"), required=False, width=10), Column("Range", Kind.INT, required=False, width=6),
     Column("Barrage", Kind.INT, required=False, width=8, note="the unit's Barrage Strength"),
     choice("In battery", YES_NO, required=False, width=9), choice("Out of supply", YES_NO, required=False, width=9),
     choice("Out of ammunition", YES_NO, required=False, width=10), Column("Notes", required=False, width=30)),
    tab="orders", rule="16.7",
    description="Saturation Fire by artillery units and, with the 16.78 variant, Burnt Tubes recovery rolls.",
)


@dataclass(frozen=True)
class Entry:
    entry: str
    turn: int
    unit: str
    type: str = "Normal"
    range: int = 1
    barrage: int = 0
    in_battery: bool = True
    out_of_supply: bool = False
    out_of_ammunition: bool = False
    at: Where = Where()


@dataclass(frozen=True)
class SaturationEntry:
    """One cell of the 16.79 table: the multipliers for range 1, 2, 3 and the Breakdown Number."""

    multipliers: tuple[float, float, float]
    breakdown: int

    @classmethod
    def parse(cls, text: str) -> SaturationEntry:
        m = ENTRY_TEXT.match(text or "")
        if m is None:
            raise ValueError(f"{text!r} is not 'm1/m2/m3, BN' (three multipliers for range 1/2/3 hexes, then the "
                             "Breakdown Number)")
        mults = tuple(float(m.group(i)) for i in (1, 2, 3))
        return cls(mults, int(m.group(4)))  # type: ignore[arg-type]


def parse(rows: list[SheetRow]) -> list[Entry]:
    problems = Problems()
    out = []
    for r in rows:
        if r["Entry"] == "Fire":
            for col in ("Type", "Range", "Barrage"):
                if r[col] is None:
                    problems.add(where(r, col), f"Saturation Fire needs the {col.lower()} (16.72)")
            if r["Range"] is not None and not 1 <= r["Range"] <= 3:
                problems.add(where(r, "Range"), f"range {r['Range']}: the table gives ranges 1, 2 and 3 hexes (16.72)")
        out.append(Entry(r["Entry"], r["Turn"], str(r["Unit"]), r["Type"] or "Normal", r["Range"] or 1, r["Barrage"] or 0,
                         r["In battery"] != "No", yes(r["Out of supply"]), yes(r["Out of ammunition"]), where(r, "Unit")))
    problems.raise_if_any()
    return out


def _entry_of(r: RollResult) -> SaturationEntry:
    try:
        return SaturationEntry.parse(r.result)
    except ValueError as exc:
        raise WorkbookError(CellProblem("Desk tables", "A1", f"{FIRE_TABLE} (16.79), die {r.natural}, column "
                                        f"{r.column}: {exc}")) from None


def track(entries: list[Entry], ctx: Context) -> TrackerOutput:
    st = ctx.settings
    burnt_variant = st.flag(S + "variant_burnt_tubes")
    problems = Problems()
    lines: list[Line] = []
    state: dict[str, tuple[str, int]] = {}  # unit -> (Burnt Tubes | Out of Ammunition | Eliminated, turn)
    recovered: set[tuple[str, int]] = set()
    fired: dict[tuple[str, int], int] = {}
    for e in sorted(entries, key=lambda x: (x.turn, 0 if x.entry == "Recovery" else 1)):
        now, since = state.get(e.unit, ("", 0))
        if now == "Eliminated":
            problems.add(e.at, f"{e.unit} was eliminated in turn {since}")
            continue
        if e.entry == "Recovery":
            if not burnt_variant:
                problems.add(e.at, "Burnt Tubes are the 16.78 variant: set 'Variant in use: a failed breakdown roll "
                             "gives Burnt Tubes instead of elimination' to Yes in Desk settings")
            elif now != "Burnt Tubes":
                problems.add(e.at, f"{e.unit} has no Burnt Tubes marker in turn {e.turn}")
            elif e.turn <= since or (e.unit, e.turn) in recovered:
                problems.add(e.at, f"{e.unit}: one Building Segment roll per turn, from turn {since + 1} (16.78)")
            else:
                recovered.add((e.unit, e.turn))
                r = roll_at(ctx.dice, e.at, RECOVERY_TABLE, ("saturation", e.unit, f"T{e.turn}", "recovery"))
                if r.effect.get("eliminated"):
                    state[e.unit] = ("Eliminated", e.turn)
                elif r.effect.get("out_of_ammunition"):
                    state[e.unit] = ("Out of Ammunition", e.turn)
                lines.append(Line("Burnt tubes", "16.78", r.result, e.unit, e.turn, r, ALL, e.at))
            continue
        blocked = now == "Burnt Tubes" or (now == "Out of Ammunition" and e.turn <= since + 1)
        if not e.in_battery or e.out_of_supply or e.out_of_ammunition or blocked:
            why = ("not In Battery" if not e.in_battery else "Out of Supply" if e.out_of_supply
                   else "Out of Ammunition" if e.out_of_ammunition else f"under a {now} marker since turn {since}")
            problems.add(e.at, f"{e.unit} is {why}: no Saturation Fire (16.71)")
            continue
        if now:
            state.pop(e.unit)
        n = fired[(e.unit, e.turn)] = fired.get((e.unit, e.turn), 0) + 1
        label = ("saturation", e.unit, f"T{e.turn}", "fire", n)
        if ctx.dice.table(FIRE_TABLE).is_empty:
            problems.add(e.at, "the Artillery Saturation Fire Table (16.79) is not entered yet: enter its rows "
                         "(\"m1/m2/m3, BN\" per die and type) in Desk tables (`musterroll desk-add BOOK.xlsx tables`)")
            continue
        r = roll_at(ctx.dice, e.at, FIRE_TABLE, label, column=e.type)
        cell = _entry_of(r)
        mult = cell.multipliers[e.range - 1]
        final = e.barrage * mult
        lines.append(Line("Saturation fire", "16.72", f"{r.result}: x{mult:g} at range {e.range} = Barrage Strength "
                          f"{final:g} (attacking only, 16.73)", e.unit, e.turn, r, ALL, e.at))
        column = "Burnt tubes variant" if burnt_variant else "Standard"
        b = roll_at(ctx.dice, e.at, BREAKDOWN_TABLE, label + ("breakdown",),
                    Situation(quantities={"breakdown_number": cell.breakdown}), column)
        outcome = "Eliminated" if b.effect.get("eliminated") else "Burnt Tubes" if b.effect.get("burnt_tubes") \
            else "Out of Ammunition"
        state[e.unit] = (outcome, e.turn)
        lines.append(Line("Breakdown", "16.74", f"{b.result} (Breakdown Number {cell.breakdown})", e.unit, e.turn, b,
                          ALL, e.at))
    problems.raise_if_any()
    last = max((e.turn for e in entries), default=0)
    return TrackerOutput(tuple(lines), tuple(_status(state, recovered, last, st)))


def _status(state: dict[str, tuple[str, int]], recovered: set[tuple[str, int]], last: int, st) -> list[Line]:
    effect = {
        "Out of Ammunition": "cannot attack; defends at half its printed FPF strength, rounded up (16.77); the marker "
                             "stays one complete game turn and comes off in the next supply phase in supply (16.76)",
        "Burnt Tubes": f"cannot attack; defends with FPF {st.number(S + 'burnt_tubes_fpf_strength')} (16.78)",
        "Eliminated": "counts in full toward the Victory Points (16.75)",
    }
    out = []
    for unit, (what, turn) in state.items():
        out.append(Line("Status", "16.7", f"{what} since turn {turn}: {effect[what]}", unit, turn, None, ALL))
        if what == "Burnt Tubes":
            for due in range(turn + 1, last + 1):
                if (unit, due) not in recovered:
                    out.append(Line("Status", "16.78", f"due: Burnt Tubes roll in the Building Segment of turn {due}",
                                    unit, due, None, ALL))
    return out


def run(rows: list[SheetRow], ctx: Context) -> TrackerOutput:
    return track(parse(rows), ctx)


TRACKER = Tracker("saturation", KIND, "16.7", "Saturation fire", run, (FIRE_TABLE, BREAKDOWN_TABLE, RECOVERY_TABLE),
                  tuple(S + n for n in ("saturation_fire_max_range", "artillery_out_of_ammunition_fpf_divisor",
                                        "artillery_out_of_ammunition_fpf_rounding", "variant_burnt_tubes",
                                        "burnt_tubes_fpf_strength")))

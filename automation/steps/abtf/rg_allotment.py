"""†9.618 RG Strength, Weapons, Leaders and Composition, for every RG of this CG
Date's RG Purchase Record lines (bought, OB-given, CG Initial Scenario OB).

9.6181: an RG eligible for Depletion makes one secret DR on the RG Strength
Table (-2 British, +1 German VG Pltn, + half the Campaign Exhaustion DRM FRD):
Full receives the Full units, Depleted the Depleted ones. 9.6182: an RG listed
on its side's Infantry-Type SW Chart receives every SW when Full; Depleted, one
secret dr per SW at or below its number; a German I1 first rolls whether its
PSK/Lt. Mtr is a Lt. Mtr (1-2) or a PSK (3-6). 9.6183: an RG whose chart line
names a Leader Table column rolls there with its type's DRM (an 8-1 rolled for
a Hvy Tank Pltn becomes a 9-1 Armor Leader). 9.6184: German A2, A3, A4 and A6
RGs roll their vehicles (not the A4 and A6 of KG Graebner). The units, SW and
leaders join the roster in the RG's Area (OB-given ones marked Not entered);
the record line gets Str, # Units, SW Received and Leader. An RG chart line that
sells FPP (Unit Type "FPP" or "<n> FPP") adds them to the side's FPP for 9.619."""
from __future__ import annotations

import re

from automation.campaign.model import StepResult
from automation.engine.resolver import Situation
from automation.errors import WorkbookError
from automation.steps.abtf.common import note, pausable, rolled
from automation.steps.abtf.state import BRITISH, GERMAN, ABtFInputs, ABtFState, RGEntry, RGLine, Unit, factors_morale

STEP = "RG Strength, Weapons, Leaders, Composition"
RULE = "9.618"
COMPOSITION = {"A2": "abtf.german_a2", "A3": "abtf.german_a3", "A4": "abtf.german_a4", "A6": "abtf.german_a6"}
GRAEBNER_EXEMPT = ("A4", "A6")
PSK_OR_MORTAR = "PSK/Lt. Mtr"
FPP_LINE = re.compile(r"^\s*(\d+)?\s*FPP\s*$", re.I)


def graebner(kg: str | None) -> bool:
    return (kg or "").strip().upper() in ("G", "GRAEBNER")


def fresh_id(state: ABtFState, base: str) -> str:
    n = 1
    while state.unit(f"{base}-{n}") is not None:
        n += 1
    return f"{base}-{n}"


def fpp_amount(rg: RGEntry) -> int | None:
    """FPP an RG chart line gives when it sells FPP (9.619: FPP "given ... or purchased"):
    its Unit Type (or Group Type) reads "FPP" or "<n> FPP"; n, else the Full count."""
    for text in (rg.unit_type, rg.group_type):
        m = FPP_LINE.match(text or "")
        if m:
            return int(m.group(1)) if m.group(1) else (rg.full or 0)
    return None


def strength(state: ABtFState, inputs: ABtFInputs, dice, line: RGLine, rg: RGEntry, tag: str, entries: list) -> str:
    if not rg.depletion:
        return "F"
    conditions = frozenset({"vg_pltn"} if line.side == GERMAN and rg.leader_drm == "vg" else ())
    r = dice.roll("abtf.rg_strength", ("9.6181", line.side, tag),
                  Situation(conditions, {"campaign_exhaustion": inputs.date.exhaustion}), line.side)
    entries.append(rolled(STEP, "9.6181", line.side, tag, r, visible=line.side))
    return "D" if r.effect.get("strength") == "depleted" else "F"


def make_units(state: ABtFState, inputs: ABtFInputs, dice, line: RGLine, rg: RGEntry, tag: str, full: bool,
               entries: list) -> tuple[ABtFState, list[Unit]]:
    flags = frozenset({"Not entered"} if not line.counts and line.notes.startswith("OB-given") else ())
    base = f"{line.side[0]}-{inputs.date.label}-{tag.replace('(', '').replace(')', '').replace('#', '.')}"
    made: list[Unit] = []
    table = COMPOSITION.get(rg.id) if line.side == GERMAN else None
    if table and not (rg.id in GRAEBNER_EXEMPT and graebner(rg.kg)):
        r = dice.roll(table, ("9.6184", line.side, tag))
        entries.append(rolled(STEP, "9.6184", line.side, tag, r, visible=line.side))
        wanted = list(dict(r.effect.get("vehicles", {})).items())
    else:
        count = (rg.full if full else rg.depleted) or rg.full or 0
        wanted = [(rg.unit_type or rg.group_type, count)]
    for name, count in wanted:
        factors = name.split()[0] if name and factors_morale(name.split()[0]) is not None else None
        if factors is None and not rg.vehicle:
            raise WorkbookError(rg.ref.problem(f"{rg.label}: its Unit Type {name!r} is neither squad factors (6-5-8) nor "
                                               "a vehicle: give the Vehicle kind of its vehicles"))
        for _ in range(count):
            uid = fresh_id(state, base)
            if factors:
                rest = name[len(factors):].strip() or rg.group_type
                u = Unit(uid, line.side, "Squad", rest, factors, area=line.area or "", status=flags, rg=rg.label,
                         notes=f"{rg.group_type} ({inputs.date.label})")
            else:
                u = Unit(uid, line.side, "Vehicle", name, vehicle=rg.vehicle, area=line.area or "", status=flags,
                         rg=rg.label, notes=f"{rg.group_type} ({inputs.date.label})")
            state = state.put(u)
            made.append(u)
    return state, made


def support_weapons(state: ABtFState, inputs: ABtFInputs, dice, line: RGLine, rg: RGEntry, tag: str, full: bool,
                    holder: Unit | None, entries: list) -> tuple[ABtFState, list[str]]:
    chart = dice.system.charts["abtf.sw_british" if line.side == BRITISH else "abtf.sw_german"]
    rows = [r for r in chart.rows if r["RG"] == rg.id]
    names = [str(row["SW"]) for row in rows]
    for i, row in enumerate(rows):  # the PSK/Lt. Mtr dr comes first (9.6182 example)
        if row["SW"] == PSK_OR_MORTAR:
            r = dice.roll("abtf.sw_german_i1_choice", ("9.6182", line.side, tag, "PSK or Lt. Mtr"))
            entries.append(rolled(STEP, "9.6182", line.side, tag, r, f"PSK/Lt. Mtr dr: {r.result}", visible=line.side))
            names[i] = str(r.effect["sw"])
    got: list[str] = []
    for row, name in zip(rows, names):
        for n in range(1, int(row["Count"]) + 1):
            if not full:
                r = dice.roll("abtf.sw_depleted_check", ("9.6182", line.side, tag, name, n), column=f"≤{row['Depleted dr']}")
                entries.append(rolled(STEP, "9.6182", line.side, tag, r, f"{name} {n}: {r.result} (dr ≤ {row['Depleted dr']})",
                                      visible=line.side))
                if not r.effect.get("received"):
                    continue
            u = Unit(fresh_id(state, f"{line.side[0]}-{inputs.date.label}-{name.replace(' ', '').replace('.', '')}"), line.side,
                     "SW", name, area=line.area or "", holder=holder.id if holder else None, rg=rg.label,
                     status=holder.status & {"Not entered"} if holder else frozenset())
            state = state.put(u)
            got.append(name)
    return state, got


def leader(state: ABtFState, inputs: ABtFInputs, dice, line: RGLine, rg: RGEntry, tag: str, holder: Unit | None,
           entries: list) -> tuple[ABtFState, str]:
    if rg.leader not in ("Infantry", "Armor"):
        return state, ""
    column = "Armor" if rg.leader == "Armor" else line.side
    conditions = frozenset({rg.leader_drm} if rg.leader_drm else ())
    r = dice.roll("abtf.leader", ("9.6183", line.side, tag), Situation(conditions), column)
    rating = r.effect.get("armor_leader") if column == "Armor" else r.effect.get("leader")
    if column == "Armor" and rg.leader_drm == "hvy_tank" and r.effect.get("hvy_tank_armor_leader"):
        rating = r.effect["hvy_tank_armor_leader"]
    text = "no Armor Leader" if rating in (None, "none") else f"{'Armor Leader' if column == 'Armor' else 'Leader'} {rating}"
    entries.append(rolled(STEP, "9.6183", line.side, tag, r, text, visible=line.side))
    if rating in (None, "none"):
        return state, ""
    cls = "Armor Leader" if column == "Armor" else "Leader"
    u = Unit(fresh_id(state, f"{line.side[0]}-{inputs.date.label}-L"), line.side, cls, cls, str(rating), area=line.area or "",
             holder=holder.id if holder else None, rg=rg.label, status=holder.status & {"Not entered"} if holder else frozenset())
    return state.put(u), str(rating)


@pausable
def run(state: ABtFState, inputs: ABtFInputs, dice) -> StepResult[ABtFState]:
    entries: list = []
    done: list[RGLine] = []
    seen: dict[tuple, int] = {}
    for line in state.rg_lines:
        rg = inputs.rg(line.side, line.rg_id, line.kg)
        key = (line.side, line.label)
        seen[key] = seen.get(key, 0) + 1
        tag = f"{line.label}#{seen[key]}"
        if rg is None:
            entries.append(note(STEP, RULE, f"{line.label} is not on the {line.side} RG Chart: enter it to receive its units",
                                line.side, tag))
            done.append(line)
            continue
        fpp = fpp_amount(rg)
        if fpp is not None:
            have = state.records[line.side].fpp
            state = state.record(line.side, fpp=have + fpp)
            entries.append(note(STEP, "9.619", f"{line.label} {rg.group_type}: {fpp} FPP for this CG Date's fortifications "
                                               f"({have} + {fpp} = {have + fpp})", line.side, tag, visible=line.side))
            done.append(line.with_(strength="F", units=f"{fpp} FPP"))
            continue
        s = strength(state, inputs, dice, line, rg, tag, entries)
        state, units = make_units(state, inputs, dice, line, rg, tag, s == "F", entries)
        first = next((u for u in units if u.cls == "Squad"), units[0] if units else None)
        state, sw = support_weapons(state, inputs, dice, line, rg, tag, s == "F", first, entries)
        state, rating = leader(state, inputs, dice, line, rg, tag, first, entries)
        kinds: dict[str, int] = {}
        for u in units:
            kinds[u.strength or u.type] = kinds.get(u.strength or u.type, 0) + 1
        summary = ", ".join(f"{n} {k}" for k, n in kinds.items())
        entries.append(note(STEP, RULE, f"{line.label} {rg.group_type}: {'Full' if s == 'F' else 'Depleted'}, {summary}"
                            + (f"; SW {', '.join(sw)}" if sw else "") + (f"; leader {rating}" if rating else "")
                            + f"; in {line.area}", line.side, tag, visible=line.side))
        done.append(line.with_(strength=s, units=summary, sw=", ".join(sw), leader=rating))
    if not state.rg_lines:
        entries.append(note(STEP, RULE, "no RG bought or received on this CG Date"))
    return StepResult(state.with_(rg_lines=tuple(done)), tuple(entries))

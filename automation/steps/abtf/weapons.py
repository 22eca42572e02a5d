"""9.6142-9.6144 Weapon Repair, vehicular-MG exchange, captured Equipment and
special ammunition (second part of 9.614).

9.6142: each malfunctioned, non-captured weapon Retained in a Friendly
Setup/Entry Area holding friendly Personnel (a vehicular weapon: its vehicle's
Inherent crew) rolls on the Weapon Repair Table (-1 vehicular, - its repair
number, - the rating of the Armor Leader manning the vehicle next scenario, +1
only Non-Qualified Use). Failure eliminates a SW or Gun (a Gun gives full CVP)
and disables a vehicular weapon; a disabled MA (a vehicular weapon whose Type
begins with MA) recalls its AFV (9.6141c again, CVP as ended on map).
9.61421: an MG exchange order repairs a disabled, non-captured vehicular MG by
eliminating a friendly LMG in the AFV's Area. 9.6143: the German rolls for each
functioning captured weapon (4+: eliminated/disabled, no Recall, no CVP); a
captured vehicle with no working weapon becomes a Burnt-out Wreck. 9.6144: one
dr per depleted special ammunition type of each non-captured weapon."""
from __future__ import annotations

from automation.campaign.model import StepResult
from automation.engine.resolver import Situation
from automation.errors import WorkbookError
from automation.steps.abtf.common import eliminate, friendly_areas, note, pausable, rolled
from automation.steps.abtf.state import BRITISH, GERMAN, SIDES, ABtFInputs, ABtFState, Removal, Unit
from automation.steps.abtf.vehicles import al_for, recall

STEP = "Weapons"
RULE = "9.6142"
WEAPONS = ("SW", "Gun", "Vehicular weapon")


def vehicle_of(state: ABtFState, w: Unit) -> Unit | None:
    return state.unit(w.holder) if w.cls == "Vehicular weapon" else None


def captured(state: ABtFState, w: Unit) -> bool:
    v = vehicle_of(state, w)
    return w.has("Captured") or (v is not None and v.has("Captured"))


def retained_with_personnel(state: ABtFState, w: Unit) -> bool:
    v = vehicle_of(state, w)
    if w.cls == "Vehicular weapon":
        return v is not None and v.crewed and v.area in friendly_areas(state, v.side)
    return w.area in friendly_areas(state, w.side) and any(
        u.is_personnel and u.side == w.side and u.area == w.area for u in state.units)


def is_ma(w: Unit) -> bool:
    words = w.type.upper().replace("(", " ").split()
    return bool(words) and words[0] == "MA"


def repair(state: ABtFState, inputs: ABtFInputs, dice) -> tuple[ABtFState, list]:
    entries = []
    for w in [u for u in state.units if u.cls in WEAPONS and u.has("Malfunctioned") and not captured(state, u)]:
        if not retained_with_personnel(state, w):
            entries.append(note(STEP, RULE, "not Retained in a Friendly Setup/Entry Area with Personnel (or crew): no "
                                            "repair dr", w.side, w.id))
            continue
        if w.repair is None:
            raise WorkbookError(w.ref.problem(f"{w.id} is malfunctioned: give its repair number in the Repair column (9.6142)"))
        vehicular = w.cls == "Vehicular weapon"
        quantities = {"repair_number": w.repair}
        if vehicular:
            al = al_for(state, vehicle_of(state, w))
            if al is not None and al.leadership_drm:
                quantities["armor_leader_rating"] = abs(al.leadership_drm)
        conditions = frozenset({"non_qualified_use"} if w.has("Non-qualified") else ())
        r = dice.roll("abtf.weapon_repair", ("9.6142", w.side, w.id), Situation(conditions, quantities),
                      "Vehicular" if vehicular else "Weapon")
        entries.append(rolled(STEP, RULE, w.side, w.id, r))
        if r.effect.get("repaired"):
            state = state.put(w.flagged(remove=("Malfunctioned",)))
        elif vehicular:
            state = state.put(w.flagged(add=("Disabled",), remove=("Malfunctioned",)))
            v = vehicle_of(state, w)
            if is_ma(w) and v is not None and v.is_afv:
                state = state.put(v.flagged(add=("Recall",), remove=("Exited",)))
                entries.append(note(STEP, RULE, f"its MA is disabled: Recalled (9.6141c again)", v.side, v.id))
                state, more = recall(state, inputs, RULE)
                entries += more
        else:
            state, more = eliminate(state, inputs, w, RULE, "Weapon Repair failed", STEP, award=w.cls == "Gun")
            entries += more
    return state, entries


def mg_exchange(state: ABtFState, inputs: ABtFInputs) -> tuple[ABtFState, list]:
    entries, problems = [], []
    for side in SIDES:
        for o in inputs.orders_of(side, "MG exchange"):
            mg, lmg = state.unit(o.subject), state.unit(str(o.value or ""))
            v = vehicle_of(state, mg) if mg else None
            if mg is None or mg.side != side or v is None or "MG" not in mg.type.upper() or not mg.has("Disabled") \
                    or captured(state, mg):
                problems.append(o.at("Subject").problem(f"MG exchange: {o.subject!r} is not a disabled, non-captured {side} "
                                                        "vehicular MG"))
            elif lmg is None or lmg.side != side or lmg.cls != "SW" or "LMG" not in lmg.type.upper() or lmg.area != v.area:
                problems.append(o.at("Value").problem(f"MG exchange: {o.value!r} is not a {side} LMG Retained in {v.area}"))
            else:
                state = state.put(mg.flagged(remove=("Disabled",))).drop([lmg.id])
                state = state.with_(removed=state.removed + (Removal(lmg, "9.61421", f"exchanged for {mg.id}", None, 0),))
                entries.append(note(STEP, "9.61421", f"repaired by eliminating LMG {lmg.id}", side, mg.id, visible=side))
    if problems:
        raise WorkbookError(problems)
    return state, entries


def captured_equipment(state: ABtFState, inputs: ABtFInputs, dice) -> tuple[ABtFState, list]:
    entries = []
    for w in [u for u in state.units if u.side == GERMAN and u.cls in WEAPONS and captured(state, u)
              and not u.status & {"Malfunctioned", "Disabled"} and retained_with_personnel(state, u)]:
        vehicular = w.cls == "Vehicular weapon"
        r = dice.roll("abtf.captured_equipment", ("9.6143", w.side, w.id), column="Vehicular" if vehicular else "Weapon")
        entries.append(rolled(STEP, "9.6143", w.side, w.id, r))
        if r.effect.get("outcome") == "disabled":
            state = state.put(w.flagged(add=("Disabled",)))
        elif r.effect.get("outcome") == "eliminated":
            state, more = eliminate(state, inputs, w, "9.6143", "captured weapon lost", STEP, award=False)
            entries += more
    for v in [u for u in state.units if u.side == GERMAN and u.is_vehicle and u.has("Captured") and not u.has("Burnt-out")]:
        arms = [w for w in state.carried_by(v.id) if w.cls == "Vehicular weapon"]
        if not any(not w.status & {"Malfunctioned", "Disabled"} for w in arms):
            state = state.drop([v.id] + [w.id for w in arms])
            state = state.with_(removed=state.removed + (Removal(v, "9.6143", "no functioning weapon", None, 0),))
            entries.append(note(STEP, "9.6143", f"captured with no functioning weapon: a Burnt-out Wreck replaces it in "
                                                f"{v.location or v.area}", v.side, v.id))
    return state, entries


def special_ammo(state: ABtFState, inputs: ABtFInputs, dice) -> tuple[ABtFState, list]:
    entries = []
    shortage = state.records[BRITISH].shortage
    for w in [u for u in state.units if u.ammo_depleted and not captured(state, u)]:
        left = []
        for ammo in w.ammo_depleted:
            quantities = {"ammunition_shortage_level": shortage} if w.side == BRITISH else {}
            r = dice.roll("abtf.special_ammo", ("9.6144", w.side, w.id, ammo), Situation(quantities=quantities), w.side)
            entries.append(rolled(STEP, "9.6144", w.side, f"{w.id} {ammo}", r))
            if not r.effect.get("restored"):
                left.append(ammo)
        state = state.put(w.with_(ammo_depleted=tuple(left)))
    return state, entries


@pausable
def run(state: ABtFState, inputs: ABtFInputs, dice) -> StepResult[ABtFState]:
    state, entries = repair(state, inputs, dice)
    state, more = mg_exchange(state, inputs)
    entries += more
    entries.append(note(STEP, "9.61422", "in each Friendly Setup Area holding Personnel, vehicles may be Abandoned or made "
                                         "(Burnt-out) wrecks, and Abandoned vehicles or non-Burnt-out wrecks Scrounged (map)"))
    for part in (captured_equipment, special_ammo):
        state, more = part(state, inputs, dice)
        entries += more
    return StepResult(state, tuple(entries))

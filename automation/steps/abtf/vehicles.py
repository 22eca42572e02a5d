"""9.6141 Vehicles (first part of 9.614 Equipment Repair and Replenishment).

Armor Leader orders first say which vehicle each Armor Leader mans in the next
CG Scenario (default: the vehicle he is With). a) An Abandoned vehicle in a
Friendly Setup/Entry Area may be remanned by Personnel Retained there (Reman
order: a crew becomes its Inherent crew; a squad or HS mans it with
Non-Qualified Use); in Uncontrolled Territory it stays Abandoned. b) Each non-captured,
non-Abandoned immobilized vehicle rolls for Immobilization Repair (+1 only
Non-Qualified Use, +1 Front Line/Uncontrolled Territory, + Armor Leader DRM); a
repaired vehicle outside a Friendly Setup Area goes to the Area of the umpire's
Retain entry. c) A Mobile, Retained AFV under Recall leaves play (CVP to the
enemy unless it exited the map in play). d) A stunned vehicle rolls for Stun
Recovery (6: eliminated, full CVP, no wreck, no Crew Survival)."""
from __future__ import annotations

from automation.campaign.model import StepResult
from automation.engine.resolver import Situation
from automation.errors import CellProblem, WorkbookError
from automation.steps.abtf.common import eliminate, friendly_areas, note, pausable, rolled, uncontrolled, wait_umpire
from automation.steps.abtf.state import SIDES, ABtFInputs, ABtFState, Removal, Unit

STEP = "Vehicles"
RULE = "9.6141"


def armor_leaders(state: ABtFState, inputs: ABtFInputs) -> dict[str, str]:
    out = {u.id: u.holder for u in state.units if u.cls == "Armor Leader" and u.holder
           and (v := state.unit(u.holder)) is not None and v.is_vehicle}
    problems: list[CellProblem] = []
    for side in SIDES:
        for o in inputs.orders_of(side, "Armor leader"):
            al, vehicle = state.unit(o.subject), state.unit(str(o.value or ""))
            if al is None or al.side != side or al.cls != "Armor Leader":
                problems.append(o.at("Subject").problem(f"Armor leader: {o.subject!r} is not an Armor Leader of the {side}"))
            elif vehicle is None or vehicle.side != side or not vehicle.is_vehicle or vehicle.area != al.area:
                problems.append(o.at("Value").problem(f"Armor leader: {o.value!r} is not a {side} vehicle in {al.area}"))
            else:
                out[al.id] = vehicle.id
    if problems:
        raise WorkbookError(problems)
    return out


def al_for(state: ABtFState, vehicle: Unit) -> Unit | None:
    return next((state.unit(a) for a, v in sorted(state.armor_leaders.items()) if v == vehicle.id and state.unit(a)), None)


def reman(state: ABtFState, inputs: ABtFInputs) -> tuple[ABtFState, list]:
    entries, problems = [], []
    for side in SIDES:
        for o in inputs.orders_of(side, "Reman"):
            v, crew = state.unit(o.subject), state.unit(str(o.value or ""))
            if v is None or v.side != side or not v.is_vehicle or not v.has("Abandoned") or v.has("Burnt-out"):
                problems.append(o.at("Subject").problem(f"Reman: {o.subject!r} is not an Abandoned {side} vehicle"))
            elif v.area not in friendly_areas(state, side):
                problems.append(o.at("Subject").problem(f"Reman: {v.id} is in {v.area}, not a Friendly Setup/Entry Area "
                                                        "(in Uncontrolled Territory it can be remanned only in play)"))
            elif crew is None or crew.side != side or not crew.is_mmc or not crew.armed or crew.area != v.area:
                problems.append(o.at("Value").problem(f"Reman: {o.value!r} is not a {side} squad, HS or crew (armed "
                                                      f"Personnel) Retained in {v.area}"))
            elif crew.cls == "Crew":
                state = state.put(v.flagged(remove=("Abandoned", "No crew"))).drop([crew.id])
                state = state.with_(removed=state.removed + (Removal(crew, "9.6141a", f"remans {v.id}", None, 0),))
                entries.append(note(STEP, "9.6141a", f"remanned by {crew.id}", side, v.id, visible=side))
            else:
                state = state.put(v.flagged(remove=("Abandoned", "No crew"), add=("Non-qualified",)),
                                  crew.with_(holder=v.id))
                entries.append(note(STEP, "9.6141a", f"remanned by {crew.id} ({crew.cls}, not a crew: Non-Qualified Use, "
                                                     "A21.13)", side, v.id, visible=side))
    if problems:
        raise WorkbookError(problems)
    return state, entries


def immobilization(state: ABtFState, inputs: ABtFInputs, dice) -> tuple[ABtFState, list]:
    entries = []
    for v in [u for u in state.units if u.is_vehicle and u.has("Immobile")
              and not u.status & {"Captured", "Abandoned", "Burnt-out"}]:
        conditions = set()
        if v.has("Non-qualified"):
            conditions.add("non_qualified_use")
        if v.has("Front Line") or uncontrolled(state, v.area):
            conditions.add("front_line_or_uncontrolled")
        quantities = {}
        al = al_for(state, v)
        if al is not None and al.leadership_drm:
            quantities["armor_leader_drm"] = al.leadership_drm
        r = dice.roll("abtf.immobilization_repair", ("9.6141b", v.side, v.id), Situation(frozenset(conditions), quantities))
        entries.append(rolled(STEP, "9.6141b", v.side, v.id, r))
        if not r.effect.get("mobile"):
            continue
        mobile = v.flagged(remove=("Immobile", "Front Line"))
        if v.area not in friendly_areas(state, v.side):
            e = next((x for x in inputs.umpire_lines("Retain") if x.subject == v.id), None)
            valid = friendly_areas(state, v.side)
            if e is None:
                raise wait_umpire(inputs, f"a Retain entry: the nearest Friendly Setup Area for {v.id}, now mobile (9.6141b)", STEP)
            if e.area not in valid:
                raise WorkbookError(e.at("Area").problem(f"Retain: {e.area!r} is not a Friendly Setup Area of the {v.side}; "
                                                         f"valid: {', '.join(valid)}"))
            mobile = mobile.with_(area=e.area, location=None)
            state = state.put(*(w.with_(area=e.area, location=None) for w in state.carried_by(v.id)))
        state = state.put(mobile)
        entries.append(note(STEP, "9.6141b", f"mobile again: Retained in {mobile.area}", v.side, v.id))
    return state, entries


def recall(state: ABtFState, inputs: ABtFInputs, rule: str = "9.6141c") -> tuple[ABtFState, list]:
    entries = []
    for v in [u for u in state.units if u.is_afv and u.has("Recall") and u.mobile]:
        exited = v.has("Exited")
        state, more = eliminate(state, inputs, v, rule, "Recalled" + (" (exited the map in play: no CVP)" if exited else ""),
                                STEP, award=not exited, equipment="kept")
        for item in [i for i in state.units if i.holder == v.id]:
            state = state.put(item.with_(holder=None)) if item.is_personnel else state.drop([item.id])
        entries += more
    return state, entries


def stun(state: ABtFState, inputs: ABtFInputs, dice) -> tuple[ABtFState, list]:
    entries = []
    for v in [u for u in state.units if u.is_vehicle and u.has("Stunned")]:
        r = dice.roll("abtf.vehicle_stun_recovery", ("9.6141d", v.side, v.id))
        entries.append(rolled(STEP, "9.6141d", v.side, v.id, r))
        if r.effect.get("outcome") == "eliminated":
            state, more = eliminate(state, inputs, v, "9.6141d", "did not recover from stun (no wreck, no Crew Survival)", STEP)
            entries += more
        elif not r.effect.get("stunned"):
            state = state.put(v.flagged(remove=("Stunned",)))
    return state, entries


@pausable
def run(state: ABtFState, inputs: ABtFInputs, dice) -> StepResult[ABtFState]:
    state = state.with_(armor_leaders=armor_leaders(state, inputs))
    entries = []
    for v in [u for u in state.units if u.is_vehicle and u.has("Abandoned") and not u.has("Burnt-out")]:
        where = "in Uncontrolled Territory: stays Abandoned (captured/remanned only in play)" if uncontrolled(state, v.area) \
            else "may stay Abandoned or be remanned by Personnel Retained in its Area (Reman order)"
        entries.append(note(STEP, "9.6141a", where, v.side, v.id))
    state, more = reman(state, inputs)
    entries += more
    state, more = immobilization(state, inputs, dice)
    entries += more
    state, more = recall(state, inputs)
    entries += more
    state, more = stun(state, inputs, dice)
    entries += more
    if not entries:
        entries.append(note(STEP, RULE, "no Abandoned, immobilized, recalled or stunned vehicle"))
    return StepResult(state, tuple(entries))


__all__ = ["al_for", "recall", "run"]

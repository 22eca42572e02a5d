"""9.6054 Escape and 9.60541 Escape Results.

Before any DR, each side's Transfer orders are carried out (a SW/Gun dropped,
eliminated or passed to another unit in its Location). Personnel escaping from
one Location escape alone unless their side predesignated stacks (Escape stack
orders; a stack mixing Locations is refused); each stack, and each Mobile
vehicle, makes one DR on the Escape Table with every DRM of 9.6054.

Infantry results: survivors and the Equipment they carry are Retained into the
Area of the umpire's Escape entry. Replacement and Casualty Reduction hit one
unit of a stack, picked by Random Selection (campaign dice, labelled); an
original 2 brings Heat of Battle to one unit (Random Selection), whose A15
result the umpire enters (anything but Hero creation or Battle Hardening
eliminates it). Equipment of a unit eliminated while escaping is eliminated on
one dr of 4-6 (all of it together), else left in the Location. A final 12 or more eliminates all units
and weapons. Vehicle results follow the Mobile Vehicle column; a non-dm Gun hooked to a
vehicle that escapes goes with it (9.6054), and a surviving crew becomes a Crew
unit in the Area reached."""
from __future__ import annotations

from collections.abc import Sequence

from automation.campaign.model import StepResult
from automation.engine.resolver import Situation
from automation.errors import CellProblem, WorkbookError
from automation.steps.abtf.common import (
    battle_harden, casualty_reduce, eliminate, need_orders, note, pausable, random_selection, replace_unit, rolled,
    wait_umpire,
)
from automation.steps.abtf.melee import alphanumeric
from automation.steps.abtf.setup_areas import move
from automation.steps.abtf.state import SIDES, ABtFInputs, ABtFState, Line, Removal, Unit, enemy, factors_morale

STEP = "Escape"
RULE = "9.6054"
HEAT = ("Hero creation", "Battle Hardening", "Other")
IMPAIRED = ("Unarmed", "Wounded", "Walking Wounded")


def transfers(state: ABtFState, inputs: ABtFInputs) -> tuple[ABtFState, list]:
    """Transfer orders: Subject a SW/Gun, Value a unit in its Location, Drop or Eliminate."""
    problems: list[CellProblem] = []
    entries = []
    for side in SIDES:
        for o in inputs.orders_of(side, "Transfer"):
            item = state.unit(o.subject)
            if item is None or item.side != side or not item.is_equipment:
                problems.append(o.at("Subject").problem(f"Transfer: {o.subject!r} is not a SW or Gun of the {side}"))
                continue
            holder = state.unit(item.holder)
            where = (holder or item).area, (holder or item).location
            value = str(o.value or "").strip()
            if value.lower() == "drop":
                state = state.put(item.with_(holder=None, area=where[0], location=where[1]))
                entries.append(note(STEP, RULE, f"dropped in {where[1] or where[0]}", side, item.id, visible=side))
            elif value.lower() == "eliminate":
                state = state.drop([item.id]).with_(removed=state.removed + (Removal(item, RULE, "eliminated by its owner", None, 0),))
                entries.append(note(STEP, RULE, "eliminated by its owner", side, item.id, visible=side))
            else:
                target = state.unit(value)
                if target is None or target.side != side or not (target.is_personnel or target.is_vehicle):
                    problems.append(o.at("Value").problem(f"Transfer: {value!r} is not a unit of the {side}; give a unit, "
                                                          "Drop or Eliminate"))
                elif (target.area, target.location) != where:
                    problems.append(o.at("Value").problem(f"Transfer: {target.id} is in {target.location or target.area}, "
                                                          f"not with {item.id} in {where[1] or where[0]}"))
                else:
                    state = state.put(item.with_(holder=target.id))
                    entries.append(note(STEP, RULE, f"transferred to {target.id}", side, item.id, visible=side))
    if problems:
        raise WorkbookError(problems)
    return state, entries


def stacks(state: ABtFState, inputs: ABtFInputs, side: str) -> list[tuple[str, list[Unit], Line | None]]:
    """Predesignated stacks, then every other escaping unit alone, by Location."""
    mine = [u for u in state.units if u.id in state.escaping and u.side == side]
    people = [u for u in mine if u.is_personnel]
    places: dict[tuple, int] = {}
    for u in people:
        places[(u.area, u.location)] = places.get((u.area, u.location), 0) + 1
    if any(n > 1 for n in places.values()):
        need_orders(inputs, side, "Escape stacks (9.6054: several units escape from one Location)", STEP)
    problems: list[CellProblem] = []
    out: list[tuple[str, list[Unit], Line | None]] = []
    taken: set[str] = set()
    for n, o in enumerate(inputs.orders_of(side, "Escape stack"), start=1):
        units = []
        for uid in o.units:
            u = state.unit(uid)
            if u is None or u.side != side or not u.is_personnel or uid not in state.escaping:
                problems.append(o.at("Units").problem(f"Escape stack: {uid!r} is not a {side} unit that must attempt Escape"))
            elif uid in taken:
                problems.append(o.at("Units").problem(f"Escape stack: {uid} is already in another stack"))
            else:
                units.append(u)
                taken.add(uid)
        spots = {(u.area, u.location) for u in units}
        if len(spots) > 1:
            where = ", ".join(f"{u.id} in {u.location or u.area}" for u in units)
            problems.append(o.at("Units").problem(f"Escape stack: an Escape stack may not mix Locations ({where})"))
        if not units and not problems:
            problems.append(o.at("Units").problem("Escape stack: name the units, comma separated"))
        out.append((o.subject or f"stack {n}", units, o))
    if problems:
        raise WorkbookError(problems)
    out += [(u.id, [u], None) for u in people if u.id not in taken]
    out += [(u.id, [u], None) for u in mine if u.is_vehicle]
    return sorted(out, key=lambda s: alphanumeric(s[1][0].location or s[1][0].area))


def carried_pp(state: ABtFState, unit: Unit) -> int:
    return sum(i.pp for i in state.carried_by(unit.id) if i.is_equipment and not i.has("Non-dm"))


def excess_pp(state: ABtFState, inputs: ABtFInputs, units: Sequence[Unit]) -> int:
    """The most PP beyond IPC any unit carries; a leader's spare IPC is lent to the
    MMC carrying the most excess (9.6054: they escape with the same DR)."""
    ipc = {u.id: inputs.classes[u.cls].ipc for u in units}
    excess = {u.id: max(0, carried_pp(state, u) - ipc[u.id]) for u in units}
    for leader in [u for u in units if u.is_leader]:
        spare = max(0, ipc[leader.id] - carried_pp(state, leader))
        mmc = max((u for u in units if u.is_mmc), key=lambda u: excess[u.id], default=None)
        if mmc is not None and spare:
            excess[mmc.id] = max(0, excess[mmc.id] - spare)
    return max(excess.values(), default=0)


def leader_drm(inputs: ABtFInputs, units: Sequence[Unit]) -> int | None:
    """The best (Armor) Leader/Hero DRM in a stack of two or more (NA to one alone)."""
    if len(units) < 2:
        return None
    drms = [u.leadership_drm for u in units if u.is_leader and u.leadership_drm is not None]
    drms += [inputs.classes["Hero"].drm for u in units if u.cls == "Hero" and inputs.classes["Hero"].drm is not None]
    return min(drms) if drms else None


def infantry_situation(state: ABtFState, inputs: ABtFInputs, units: Sequence[Unit], hexes: int) -> Situation:
    conditions = set()
    if len(units) == 1 and units[0].is_smc and not units[0].has("Wounded"):
        conditions.add("lone_unwounded_smc")
    if inputs.previous is not None and inputs.previous.night:
        conditions.add("completed_cg_date_night")
    if any(u.has("Encircled") for u in units):
        conditions.add("encircled")
    quantities: dict[str, int] = {
        "hexes": hexes,
        "hs_equivalents": sum(inputs.classes[u.cls].hs_equivalents for u in units),
        "excess_pp": excess_pp(state, inputs, units),
        "impaired_units": sum(1 for u in units for f in IMPAIRED if u.has(f)),
    }
    drm = leader_drm(inputs, units)
    if drm is not None:
        quantities["leader_drm"] = drm
    return Situation(frozenset(conditions), quantities)


def vehicle_situation(state: ABtFState, inputs: ABtFInputs, vehicle: Unit, hexes: int) -> Situation:
    conditions = {"ct_afv" if vehicle.vehicle == "CT AFV" else "vehicle_not_ct_afv"}
    if inputs.previous is not None and inputs.previous.night:
        conditions.add("completed_cg_date_night")
    if vehicle.has("Captured"):
        conditions.add("captured_vehicle")
    quantities = {"hexes": hexes}
    al = [u for u in state.carried_by(vehicle.id) if u.cls == "Armor Leader" and u.leadership_drm is not None]
    if al:
        quantities["leader_drm"] = min(u.leadership_drm for u in al)
    return Situation(frozenset(conditions), quantities)


def equipment_fate(state: ABtFState, dice, dead: Unit, entries: list) -> ABtFState:
    """9.60541: all the Equipment a unit took is eliminated on one subsequent dr
    of 4-6, else left in its last Location."""
    items = [i for i in state.units if i.holder == dead.id and i.is_equipment]
    if not items:
        return state
    r = dice.roll("abtf.escape_equipment", ("9.60541", dead.side, dead.id))
    names = ", ".join(i.id for i in items)
    entries.append(rolled(STEP, "9.60541", dead.side, dead.id, r, f"{r.result}: the Equipment of {dead.id} ({names})"))
    for item in items:
        if r.effect.get("equipment") == "eliminated":
            state = state.drop([item.id]).with_(removed=state.removed + (Removal(item, "9.60541", f"with {dead.id}", None, 0),))
            entries.append(note(STEP, "9.60541", f"eliminated with {dead.id}", dead.side, item.id))
        else:
            state = state.put(item.with_(holder=None, area=dead.area, location=dead.location))
            entries.append(note(STEP, "9.60541", f"left in {dead.location or dead.area}", dead.side, item.id))
    return state


def heat_of_battle(state: ABtFState, inputs: ABtFInputs, unit: Unit, entries: list) -> ABtFState:
    e = next((x for x in inputs.umpire_lines("Heat of Battle") if x.subject == unit.id), None)
    if e is None:
        raise wait_umpire(inputs, f"the Heat of Battle (A15) result for {unit.id} ({', '.join(HEAT)}; the new factors in "
                                  "Notes for Hero creation or Battle Hardening)", STEP)
    if e.value not in HEAT:
        raise WorkbookError(e.at("Value").problem(f"Heat of Battle: {e.value!r} is not allowed; valid: {', '.join(HEAT)}"))
    if e.value == "Other":
        state, more = eliminate(state, inputs, unit, "9.6054", "Heat of Battle other than Hero creation or Battle Hardening",
                                STEP, equipment="kept")
        entries += more
        return state
    if e.value == "Hero creation":
        if factors_morale(e.notes) is None:
            raise WorkbookError(e.at("Notes").problem(f"Heat of Battle: give the new hero's factors (e.g. 1-4-9), not {e.notes!r}"))
        hero = Unit(f"{unit.id} hero", unit.side, "Hero", "Hero", e.notes.strip(), None, None, unit.area, unit.location,
                    notes=f"created by Heat of Battle with {unit.id}")
        entries.append(note(STEP, "9.6054", f"Heat of Battle: hero {hero.id} ({hero.strength}) created", unit.side, unit.id))
        return state.put(hero)
    try:
        hardened, text = battle_harden(inputs, unit, e.notes or None)
    except ValueError as exc:
        raise WorkbookError(e.at("Notes").problem(f"Heat of Battle: {exc}")) from None
    entries.append(note(STEP, "9.6054", f"Heat of Battle: {text}", unit.side, unit.id))
    return state.put(hardened).with_(hardened=state.hardened + (unit.id,))


def pick(dice, label: tuple, units: list[Unit], entries: list, side: str, what: str) -> Unit:
    if len(units) == 1:
        return units[0]
    chosen, rolls = random_selection(dice, label, units, "9.6054")
    entries += [rolled(STEP, "9.6054", side, r.label.rsplit("/", 1)[-1], r, f"Random Selection ({what}): dr {r.final}")
                for r in rolls]
    entries.append(note(STEP, "9.6054", f"Random Selection picks {chosen.id} ({what})", side, chosen.id))
    return chosen


def free_deployment(units: Sequence[Unit]) -> str | None:
    """The checklist line for the squads stacked with a Leader, which may deploy for free (9.6054)."""
    squads = [u.id for u in units if u.cls == "Squad"]
    if not squads or not any(u.cls == "Leader" for u in units):
        return None
    return (f"before the Escape DR, each of the {len(squads)} squads stacked with a Leader ({', '.join(squads)}) may deploy "
            "into HS at no cost; a deployed squad is entered as its two HS on the End sheet")


def escape_infantry(state: ABtFState, inputs: ABtFInputs, dice, name: str, units: list[Unit], entries: list) -> ABtFState:
    side = units[0].side
    e = state.escaping[units[0].id]
    deploy = free_deployment(units)
    if deploy:
        entries.append(note(STEP, RULE, deploy, side, name))
    stack = min(u.id for u in units)  # the label names the stack by a unit's ID, never by the typed name
    r = dice.roll("abtf.escape", ("9.6054", side, stack), infantry_situation(state, inputs, units, e.hexes or 0), "Infantry")
    entries.append(rolled(STEP, RULE, side, name if len(units) == 1 else f"{name}: {', '.join(u.id for u in units)}", r))
    effect = r.effect
    if effect.get("outcome") == "eliminated":
        for u in units:
            state, more = eliminate(state, inputs, u, RULE, "Escape DR of 12 or more: all units and weapons eliminated", STEP,
                                    equipment="eliminated")
            entries += more
        return state
    label = ("9.6054", side, stack)
    if effect.get("heat_of_battle"):
        state = heat_of_battle(state, inputs, pick(dice, label + ("heat of battle",), units, entries, side, "Heat of Battle"), entries)
    if effect.get("replaced") or effect.get("casualty_reduced"):
        chosen = pick(dice, label, units, entries, side, r.result)
        dead = False
        if effect.get("replaced"):
            state, more, dead = replace_unit(state, inputs, chosen, RULE, STEP, equipment="kept")
            entries += more
        if effect.get("casualty_reduced") and not dead:
            state, more, dead = casualty_reduce(state, inputs, state.unit(chosen.id) or chosen, RULE, STEP, equipment="kept")
            entries += more
        if dead:
            state = equipment_fate(state, dice, chosen, entries)
    for u in units:
        now = state.unit(u.id)
        if now is not None:
            state, _ = move(state, now, e.area)
            entries.append(note(STEP, "9.60541", f"escapes: Retained into {e.area}", side, u.id))
    for h in [state.unit(f"{u.id} hero") for u in units]:
        if h is not None and h.location == units[0].location and h.area == units[0].area:
            state, _ = move(state, h, e.area)
            entries.append(note(STEP, "9.60541", f"escapes: Retained into {e.area}", side, h.id))
    return state


def escape_vehicle(state: ABtFState, inputs: ABtFInputs, dice, vehicle: Unit, entries: list) -> ABtFState:
    side = vehicle.side
    e = state.escaping[vehicle.id]
    r = dice.roll("abtf.escape", ("9.6054", side, vehicle.id), vehicle_situation(state, inputs, vehicle, e.hexes or 0),
                  "Mobile Vehicle")
    effect = r.effect
    extra = [t for flag, t in (("may_wreck", "the crew may make it a (Burnt-out) wreck"),
                               ("may_scrounge", "the crew may try to Scrounge it"),
                               ("scrounge_before_elimination", "the crew may Scrounge it first")) if effect.get(flag)]
    entries.append(rolled(STEP, RULE, side, vehicle.id, r, "; ".join([r.result] + extra)))
    leaders = [u for u in state.carried_by(vehicle.id) if u.is_personnel]
    if effect.get("outcome") == "escape":
        state, _ = move(state, vehicle, e.area, towing=True)
        for al in leaders:
            state, _ = move(state, al, e.area)
        entries.append(note(STEP, "9.60541", f"escapes: Retained into {e.area}", side, vehicle.id))
        return state
    if effect.get("outcome") == "abandoned":
        state = state.put(vehicle.flagged(add=("Abandoned",)))
    else:
        state, more = eliminate(state, inputs, vehicle, RULE, "Escape DR", STEP, equipment="left")
        entries += more
    if effect.get("crew") == "escape" and vehicle.crewed:
        crew = Unit(f"{vehicle.id} crew", side, "Crew", "Crew", None, vehicle.morale_override, None, e.area, None,
                    notes=f"crew of {vehicle.id}")
        state = state.put(crew)
        entries.append(note(STEP, "9.60541", f"its crew escapes: Retained into {e.area}", side, crew.id))
        for al in leaders:
            state, _ = move(state, state.unit(al.id) or al, e.area)
    elif vehicle.crewed:
        crew_cvp = inputs.classes["Crew"].cvp
        if effect.get("outcome") == "abandoned" and crew_cvp:
            state = state.add_cvp(enemy(side), crew_cvp)
        entries.append(note(STEP, "9.60541", "its crew is eliminated" + (f"; {crew_cvp} CVP to the {enemy(side)}"
                                                                         if effect.get("outcome") == "abandoned" and crew_cvp else ""),
                            side, f"{vehicle.id} crew"))
        for al in leaders:
            state, more = eliminate(state, inputs, state.unit(al.id) or al, RULE, "eliminated with the crew", STEP)
            entries += more
    return state


@pausable
def run(state: ABtFState, inputs: ABtFInputs, dice) -> StepResult[ABtFState]:
    state, entries = transfers(state, inputs)
    if not state.escaping:
        entries.append(note(STEP, RULE, "no unit must attempt Escape"))
        return StepResult(state, tuple(entries))
    for side in SIDES:
        for name, units, _ in stacks(state, inputs, side):
            live = [state.unit(u.id) for u in units if state.unit(u.id) is not None]
            if not live:
                continue
            if live[0].is_vehicle:
                state = escape_vehicle(state, inputs, dice, live[0], entries)
            else:
                state = escape_infantry(state, inputs, dice, name, live, entries)
    return StepResult(state.with_(escaping={}), tuple(entries))

"""9.613 Shift and 9.6131 Vacated Setup Area.

Each side's Shift orders name a group (Units), the Area it tries to reach
(Value: a Friendly Setup Area, or for the German an Eligible Entry Area) and
the Path: what it crosses between the two Areas, e.g. "U2 > D > U1" (two
Uncontrolled Territory hexes, friendly Block D, one hex). A path through a
Block the enemy Controls or an enemy Entry Area is refused, as is a group from
an Entry Area, units of two Areas in one group, a unit in two groups, two groups
between the same Areas, or a unit portaging more PP than it may (MMC 5, Walking
Wounded MMC 3, SMC 2, wounded SMC 0: the settings).

One secret DR per group on the Shift Table (-2 British, -1 British after an
Idle CG Date, +1 per two Uncontrolled hexes FRD). 11: the group shifts, then
each unit rolls the casualty dr (Personnel: Casualty Reduction, the Equipment
it drops is eliminated; vehicle: eliminated without wreck, the umpire's Crew
survival entry decides its crew). 12: ambush, all units and weapons eliminated
(no Crew Survival, no wreck). A non-dm Gun Shifts only hooked to a Mobile
vehicle whose Shift succeeds (its With names the vehicle); otherwise it stays
in the Area left, unpossessed."""
from __future__ import annotations

import re

from automation.campaign.model import StepResult
from automation.engine.resolver import Situation
from automation.errors import CellProblem, WorkbookError
from automation.steps.abtf.common import (
    casualty_reduce, eliminate, friendly_areas, need_orders, note, pausable, rolled, wait_umpire,
)
from automation.steps.abtf.setup_areas import move
from automation.steps.abtf.state import BRITISH, GERMAN, SIDES, ABtFInputs, ABtFState, Line, Mode, Unit, enemy
from automation.workbook import abtf_sheets as K

STEP = "Shift"
RULE = "9.613"
HEXES = re.compile(r"^U\s*(\d+)$", re.I)
SURVIVAL = ("Survives", "Eliminated")


def portage_limit(inputs: ABtFInputs, unit: Unit) -> int | None:
    if unit.is_mmc:
        return inputs.setting("abtf.shift_portage_ww_mmc" if unit.has("Walking Wounded") else "abtf.shift_portage_mmc")
    if unit.is_smc:
        return inputs.setting("abtf.shift_portage_wounded_smc" if unit.has("Wounded") else "abtf.shift_portage_smc")
    return None


def path_hexes(state: ABtFState, order: Line, side: str) -> tuple[int, list[CellProblem]]:
    """Uncontrolled hexes along the path; problems for enemy or unknown territory."""
    hexes, problems = 0, []
    for token in [t.strip() for t in re.split(r"[>,;]", order.path or "") if t.strip()]:
        m = HEXES.match(token)
        if m:
            hexes += int(m.group(1))
            continue
        area = state.area(token)
        if area is None:
            problems.append(order.at("Path").problem(f"Shift: {token!r} is neither U<hexes> nor an Area; valid Areas: "
                                                     f"{', '.join(state.areas)}"))
        elif (area.is_block and area.controller == enemy(side)) or (area.is_entry and area.side != side):
            problems.append(order.at("Path").problem(f"Shift: the path crosses {token}, {enemy(side)} territory; a Shift path "
                                                     "may cross only Uncontrolled Territory and Friendly Setup/Entry Areas"))
        elif area.is_block and area.controller is None:
            problems.append(order.at("Path").problem(f"Shift: {token} is Uncontrolled Territory; give its hexes as U<n>"))
        elif area.is_entry and side != GERMAN:
            problems.append(order.at("Path").problem(f"Shift: only the German may pass through an Entry Area ({token})"))
    return hexes, problems


def groups(state: ABtFState, inputs: ABtFInputs, side: str) -> list[tuple[str, list[Unit], str, int, Line]]:
    problems: list[CellProblem] = []
    out = []
    taken: dict[str, str] = {}
    routes: dict[tuple[str, str], str] = {}
    valid_to = friendly_areas(state, side, entry=(side == GERMAN))
    for n, o in enumerate(inputs.orders_of(side, "Shift"), start=1):
        name = o.subject or f"group {n}"
        units = []
        for uid in o.units:
            u = state.unit(uid)
            if u is None or u.side != side or not (u.is_personnel or u.mobile) or u.has("Prisoner") or u.area == K.WW_BOX:
                problems.append(o.at("Units").problem(f"Shift: {uid!r} is not a {side} Personnel unit or Mobile vehicle in a "
                                                      "Setup Area"))
            elif uid in taken:
                problems.append(o.at("Units").problem(f"Shift: {uid} is already in group {taken[uid]} (one attempt per CG Date)"))
            else:
                units.append(u)
                taken[uid] = name
        if not o.units:
            problems.append(o.at("Units").problem("Shift: name the units of the group, comma separated"))
        froms = {u.area for u in units}
        if len(froms) > 1:
            problems.append(o.at("Units").problem(f"Shift: one group comes from one Setup Area, not {', '.join(sorted(froms))}"))
        elif units:
            origin = units[0].area
            area = state.area(origin)
            if area is not None and area.is_entry:
                problems.append(o.at("Units").problem(f"Shift: a unit may not Shift from an Entry Area ({origin})"))
            elif area is None or area.controller != side:
                problems.append(o.at("Units").problem(f"Shift: {origin} is not a Friendly Setup Area of the {side}"))
            to = str(o.value or "")
            if to not in valid_to or to == origin:
                problems.append(o.at("Value").problem(f"Shift: {to!r} is not another Friendly Setup Area"
                                                      + (" or Eligible Entry Area" if side == GERMAN else "")
                                                      + f" of the {side}; valid: {', '.join(a for a in valid_to if a != origin)}"))
            if (origin, to) in routes:
                problems.append(o.at("Units").problem(f"Shift: group {routes[(origin, to)]} already goes from {origin} to {to}; "
                                                      "units between the same Areas Shift as one group"))
            routes[(origin, to)] = name
            hexes, found = path_hexes(state, o, side)
            problems += found
            for u in units:
                limit = portage_limit(inputs, u)
                pp = sum(i.pp for i in state.carried_by(u.id) if i.is_equipment and not i.has("Non-dm"))
                if limit is not None and pp > limit:
                    problems.append(o.at("Units").problem(f"Shift: {u.id} portages {pp} PP, more than the {limit} it may "
                                                          "(drop or transfer a SW first)"))
            out.append((name, units, to, hexes, o))
    if problems:
        raise WorkbookError(problems)
    return out


def casualties(state: ABtFState, inputs: ABtFInputs, dice, side: str, name: str, units: list[Unit], to: str,
               entries: list) -> ABtFState:
    for u in units:
        now = state.unit(u.id)
        if now is None:
            continue
        column = "Vehicle" if now.is_vehicle else "Personnel"
        group = min(x.id for x in units)  # the label names the group by a unit's ID, never by the typed name
        r = dice.roll("abtf.shift_casualty", ("9.613", side, group, "casualty", u.id), column=column)
        entries.append(rolled(STEP, RULE, side, u.id, r, visible=side))
        if not r.effect.get("casualty_reduced") and r.effect.get("outcome") != "eliminated":
            continue
        if now.is_vehicle:
            crewed = now.crewed
            state, more = eliminate(state, inputs, now, RULE, "Shift casualty: removed from play, no wreck", STEP)
            entries += more
            if crewed:
                e = next((x for x in inputs.umpire_lines("Crew survival") if x.subject == u.id), None)
                if e is None:
                    raise wait_umpire(inputs, f"the Crew Survival result for {u.id} ({', '.join(SURVIVAL)}; 9.613 note 2)", STEP)
                if e.value not in SURVIVAL:
                    raise WorkbookError(e.at("Value").problem(f"Crew survival: {e.value!r} is not allowed; valid: {', '.join(SURVIVAL)}"))
                if e.value == "Survives":
                    crew = Unit(f"{u.id} crew", side, "Crew", "Crew", None, now.morale_override, None, to, None,
                                notes=f"crew of {u.id}")
                    state = state.put(crew)
                    entries.append(note(STEP, RULE, f"its crew survives (no Casualty Reduction) in {to}", side, crew.id))
        else:
            state, more, _ = casualty_reduce(state, inputs, now, RULE, STEP, equipment="eliminated")
            entries += more
    return state


def free_deployment(inputs: ABtFInputs, units: list[Unit]) -> str | None:
    """The checklist line for the squads a group's Leaders let deploy for free (9.613)."""
    leaders = sum(1 for u in units if u.cls == "Leader")
    squads = sum(1 for u in units if u.cls == "Squad")
    if not leaders or not squads:
        return None
    per = inputs.setting("abtf.shift_deploy_per_leader")
    may = min(squads, leaders * per)
    return (f"before the Shift DR, up to {may} of the group's {squads} squads may deploy into HS at no cost ({per} per "
            f"Leader, {leaders} Leader{'s' if leaders > 1 else ''}); a deployed squad is entered as its two HS on the End sheet")


@pausable
def run(state: ABtFState, inputs: ABtFInputs, dice) -> StepResult[ABtFState]:
    for side in SIDES:
        need_orders(inputs, side, "Shift attempts and the other RePh decisions", STEP)
    entries = []
    for side in SIDES:
        plans = groups(state, inputs, side)
        if not plans:
            entries.append(note(STEP, RULE, "no Shift attempt", side, side, visible=side))
        for name, units, to, hexes, order in plans:
            origin = units[0].area
            deploy = free_deployment(inputs, units)
            if deploy:
                entries.append(note(STEP, RULE, deploy, side, name, visible=side))
            conditions = {"previous_cg_date_idle"} if side == BRITISH and inputs.mode is Mode.IDLE else set()
            group = min(u.id for u in units)  # the label names the group by a unit's ID, never by the typed name
            r = dice.roll("abtf.shift", ("9.613", side, group), Situation(frozenset(conditions), {"hexes": hexes}), side)
            entries.append(rolled(STEP, RULE, side, f"{name}: {', '.join(u.id for u in units)}", r,
                                  f"{r.result} ({origin} to {to})", visible=side))
            effect = r.effect
            if effect.get("eliminated"):
                for u in units:
                    if state.unit(u.id) is not None:
                        state, more = eliminate(state, inputs, state.unit(u.id), RULE, "ambushed while Shifting (no Crew "
                                                "Survival, no wreck)", STEP, equipment="eliminated")
                        entries += more
                continue
            if not effect.get("shifted"):
                entries.append(note(STEP, RULE, f"stays in {origin} until the next RePh; plays normally", side, name, visible=side))
                continue
            for u in units:
                now = state.unit(u.id)
                state, left = move(state, now, to, towing=True)
                if left:
                    entries.append(note(STEP, RULE, f"non-dm Gun {', '.join(left)} cannot Shift unless hooked to a Mobile "
                                        f"vehicle: left in {origin}", side, u.id,
                                        visible=side))
            if effect.get("casualty_dr"):
                state = casualties(state, inputs, dice, side, name, units, to, entries)
            if not any(x.area == origin and x.side == side for x in state.units if x.is_personnel or x.is_vehicle):
                entries.append(note(STEP, "9.6131", f"{origin} is vacated: its Locations stay Controlled by the {side}", side,
                                    origin))
    return StepResult(state, tuple(entries))

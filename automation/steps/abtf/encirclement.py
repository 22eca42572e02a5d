"""9.604 Encirclement, Minefields, Bog and Shock.

9.6041: each Encircled unit (not a prisoner) takes an ITC: 2d6 plus the DRM of
the best leader in its Location (owner's choice: only a DRM that helps), passed
when the final DR is at most its morale. Failing eliminates it (CVP to the
enemy); its Equipment stays unpossessed in the Location and the prisoners it
guarded are claimed or Rearmed. Encircled Vulnerable PRC of an immobile vehicle
(a vehicle marked Encircled and Immobile, its crew's morale in the Morale
column) failing are eliminated and the vehicle is Abandoned.

9.6042-9.6044 are resolved on the map with main-rule tables the seed does not
print (mine attacks, NTC, D8.3 Bog Removal, C7.42 recuperation): the umpire
enters each outcome and the refit applies it to the roster."""
from __future__ import annotations

from automation.campaign.model import StepResult
from automation.errors import WorkbookError
from automation.steps.abtf.common import (
    best_leader, casualty_reduce, eliminate, note, pausable, rolled, task_check, umpire_outcomes, wait_umpire,
)
from automation.steps.abtf.state import ABtFInputs, ABtFState, Removal, Unit, enemy

STEP = "Encirclement, Minefields, Bog, Shock"
RULE = "9.604"
MINEFIELD = ("No effect", "Casualty Reduction", "Eliminated", "Immobilized")
BOG = ("Unbogged", "Immobilized")
SHOCK = ("Recovered", "Eliminated")


def encirclement(state: ABtFState, inputs: ABtFInputs, dice) -> tuple[ABtFState, list]:
    entries: list = []
    start = state
    for unit in start.units:
        if not unit.has("Encircled") or unit.has("Prisoner"):
            continue
        if unit.is_vehicle and not unit.has("Immobile"):
            entries.append(note(STEP, "9.6041", "Encircled marker on a Mobile vehicle: no ITC (only the Vulnerable PRC of an "
                                                "immobile vehicle test)", unit.side, unit.id))
            continue
        if not (unit.is_personnel or unit.is_vehicle):
            continue
        if unit.is_vehicle and not unit.crewed:
            continue
        morale = unit.morale
        if morale is None:
            raise WorkbookError(unit.ref.problem(f"{unit.id} is Encircled and must take an ITC (9.6041): give its morale "
                                                 "(Strength, or the Morale column)"))
        leader = best_leader(start, unit)
        result = task_check(dice, ("9.6041", "itc", unit.side, unit.id), morale, leader, "9.6041", "Encirclement ITC")
        if result.effect.get("passed"):
            entries.append(rolled(STEP, "9.6041", unit.side, unit.id, result, "passes: stays in its Location"))
            continue
        current = state.unit(unit.id)
        if current is None:
            continue
        if unit.is_vehicle:
            crew_cvp = inputs.classes["Crew"].cvp if "Crew" in inputs.classes else 0
            entries.append(rolled(STEP, "9.6041", unit.side, unit.id, result,
                                  f"fails: its Vulnerable PRC are eliminated ({crew_cvp} CVP to the {enemy(unit.side)}); "
                                  "the vehicle is Abandoned"))
            state = state.put(current.flagged(add=("Abandoned",)))
            if crew_cvp:
                state = state.add_cvp(enemy(unit.side), crew_cvp)
            state = state.with_(removed=state.removed + (Removal(Unit(f"{unit.id} crew", unit.side, "Crew", "Crew"), "9.6041",
                                                                 "Encircled PRC failed the ITC", enemy(unit.side), crew_cvp),))
            continue
        entries.append(rolled(STEP, "9.6041", unit.side, unit.id, result, "fails: eliminated"
                              + (" (not placed in the Walking Wounded Box)" if unit.side == "British" else "")))
        state, more = eliminate(state, inputs, current, "9.6041", "failed its Encirclement ITC", STEP)
        entries += more
    if not any(u.has("Encircled") for u in start.units):
        entries.append(note(STEP, "9.6041", "no Encircled unit"))
    return state, entries


def minefields(state: ABtFState, inputs: ABtFInputs) -> tuple[ABtFState, list]:
    entries: list = []
    outcomes = umpire_outcomes(state, inputs, "Minefield", MINEFIELD)
    for unit in [u for u in state.units if u.has("Minefield")]:
        if unit.id not in outcomes:
            raise wait_umpire(inputs, f"Minefield outcome for {unit.id} in {unit.location or unit.area} (9.6042: "
                                      f"{', '.join(MINEFIELD)})", STEP)
    for unit_id, outcome in outcomes.items():
        unit = state.unit(unit_id)
        if unit is None:
            continue
        unit = unit.flagged(remove=("Minefield",))
        state = state.put(unit)
        text = f"minefield attack/NTC (umpire): {outcome}"
        if outcome == "Casualty Reduction":
            state, more, _ = casualty_reduce(state, inputs, unit, "9.6042", STEP)
            entries += [note(STEP, "9.6042", text, unit.side, unit.id)] + more
        elif outcome == "Eliminated":
            entries.append(note(STEP, "9.6042", text, unit.side, unit.id))
            state, more = eliminate(state, inputs, unit, "9.6042", "minefield", STEP)
            entries += more
        elif outcome == "Immobilized":
            if not unit.is_vehicle:
                line = next(e for e in inputs.umpire_lines("Minefield") if e.subject == unit_id)
                raise WorkbookError(line.at("Value").problem(
                    f"Minefield: {unit.id} is not a vehicle and cannot be Immobilized"))
            state = state.put(unit.flagged(add=("Immobile",)))
            entries.append(note(STEP, "9.6042", text, unit.side, unit.id))
        else:
            entries.append(note(STEP, "9.6042", text + "; it stays in its Location until 9.605", unit.side, unit.id))
    if not outcomes:
        entries.append(note(STEP, "9.6042", "no unit in a minefield"))
    return state, entries


def bog(state: ABtFState, inputs: ABtFInputs) -> tuple[ABtFState, list]:
    entries: list = []
    outcomes = umpire_outcomes(state, inputs, "Bog", BOG)
    for unit in [u for u in state.units if u.is_vehicle and u.has("Bogged") and not u.has("Abandoned")]:
        if unit.id not in outcomes:
            raise wait_umpire(inputs, f"Bog outcome for {unit.id} (9.6043, D8.3 attempts until free or immobilized: "
                                      f"{', '.join(BOG)})", STEP)
    for unit_id, outcome in outcomes.items():
        unit = state.unit(unit_id)
        add = ("Immobile",) if outcome == "Immobilized" else ()
        state = state.put(unit.flagged(add=add, remove=("Bogged",)))
        entries.append(note(STEP, "9.6043", f"Bog Removal attempts (umpire): {outcome}", unit.side, unit.id))
    if not outcomes:
        entries.append(note(STEP, "9.6043", "no bogged or mired vehicle (British Jeep / German Vehicle Note L: a squad-"
                                            "equivalent in the Setup Area gives -2, -1 per crew or HS, to the coloured dr)"))
    return state, entries


def shock(state: ABtFState, inputs: ABtFInputs) -> tuple[ABtFState, list]:
    entries: list = []
    outcomes = umpire_outcomes(state, inputs, "Shock", SHOCK)
    for unit in [u for u in state.units if u.is_vehicle and u.has("Shocked")]:
        if unit.id not in outcomes:
            raise wait_umpire(inputs, f"Shock/UK outcome for {unit.id} (9.6044, C7.42 recuperation until the marker goes "
                                      f"or it is eliminated: {', '.join(SHOCK)})", STEP)
    for unit_id, outcome in outcomes.items():
        unit = state.unit(unit_id)
        entries.append(note(STEP, "9.6044", f"Shock/UK recuperation (umpire): {outcome}", unit.side, unit.id))
        if outcome == "Eliminated":
            state, more = eliminate(state, inputs, unit, "9.6044", "did not recuperate from Shock/UK", STEP)
            entries += more
        else:
            state = state.put(unit.flagged(remove=("Shocked",)))
    if not outcomes:
        entries.append(note(STEP, "9.6044", "no Shocked or UK AFV"))
    return state, entries


@pausable
def run(state: ABtFState, inputs: ABtFInputs, dice) -> StepResult[ABtFState]:
    state, entries = encirclement(state, inputs, dice)
    for part in (minefields, bog, shock):
        state, more = part(state, inputs)
        entries += more
    return StepResult(state, tuple(entries))

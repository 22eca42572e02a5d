"""9.609 Extinguishing Flames and Blazes: a map-only step. The umpire enters each
Location with a Flame/Blaze and its terrain; the report lists the terrain
changes (9.6091-9.6094) and the refit applies their consequences to the roster:
vehicles in burnt rubble/woods/orchard become Burnt-out wrecks, and every
Fortification and Equipment in a building or rubble Location that burned is
eliminated (9.6095), as is every vehicle or wreck in a building just rubbled."""
from __future__ import annotations

from automation.campaign.model import StepResult
from automation.errors import CellProblem, WorkbookError
from automation.steps.abtf.common import note, pausable
from automation.steps.abtf.state import ABtFInputs, ABtFState, Removal

STEP = "Flames and Blazes"
RULE = "9.609"
TERRAIN = {
    "Burning wreck": ("9.6091", "Blaze marker removed; the wreck becomes a Burnt-out Wreck (in rubble or IN a building/woods "
                                "obstacle the Blaze moves to the terrain, marked with a Pin counter)"),
    "Wooden rubble": ("9.6092", "Flame/Blaze and rubble removed; a shellhole counter is placed; all other terrain is gone"),
    "Orchard": ("9.6092", "Flame/Blaze removed; a shellhole counter is placed; all other terrain is gone"),
    "Woods": ("9.6092", "Flame/Blaze removed; a shellhole counter is placed; all other terrain is gone"),
    "Stone rubble": ("9.6093", "Flame/Blaze removed; the stone rubble stays and may burn again"),
    "Building": ("9.6094", "ground-level rubble is placed in the hex; any Cellar is gone; Flame/Blaze markers removed"),
}
RUBBLED = ("Wooden rubble", "Stone rubble", "Building")


@pausable
def run(state: ABtFState, inputs: ABtFInputs, dice) -> StepResult[ABtFState]:
    entries = []
    problems: list[CellProblem] = []
    for e in inputs.umpire_lines("Blaze"):
        if e.value not in TERRAIN:
            problems.append(e.at("Value").problem(f"Blaze: {e.value!r} is not allowed; valid: {', '.join(TERRAIN)}"))
        elif not e.subject:
            problems.append(e.at("Subject").problem("Blaze: give the Location (hex)"))
    if problems:
        raise WorkbookError(problems)
    for e in inputs.umpire_lines("Blaze"):
        rule, text = TERRAIN[e.value]
        entries.append(note(STEP, rule, f"{e.value} in {e.subject}: {text}", subject=e.subject or ""))
        here = [u for u in state.units if u.location == e.subject and (not e.area or u.area == e.area)]
        for u in here:
            if e.value in RUBBLED and (u.cls == "Fortification" or (u.is_equipment and u.holder is None)
                                       or (u.is_vehicle and e.value == "Building")):
                state = state.drop([u.id]).with_(removed=state.removed + (Removal(u, "9.6095", "burned", None, 0),))
                for w in state.carried_by(u.id):
                    if not w.is_personnel:
                        state = state.drop([w.id])
                entries.append(note(STEP, "9.6095", f"eliminated in the burned Location {e.subject}", u.side, u.id))
            elif u.is_vehicle and e.value != "Burning wreck":
                state = state.put(u.flagged(add=("Burnt-out", "Abandoned")))
                entries.append(note(STEP, "9.6092", f"becomes a Burnt-out Wreck in {e.subject}", u.side, u.id))
    if not entries:
        entries.append(note(STEP, RULE, "no Flame or Blaze on the map"))
    return StepResult(state, tuple(entries))

"""9.605 Setup Area Determination (9.6051-9.6053, 9.6055).

Block Control changes only here: a Block passes to a side that Controls all
its Strategic Locations now; otherwise its controller keeps it; a Block with no
Strategic Location is never Controlled. A Strategic Location's Control is the
umpire's Location control entry, else that of the Block's controller (who
regained all its Locations at the last RePh). Forfeiture (9.6051): armed,
non-crew MMC of one side in a Strategic Location of a Block with no armed enemy
non-crew MMC anywhere in it give that side the Block.

Isolated units (9.6053), i.e. on the map outside a Block their side Controls:
the umpire traces the path; a Retain entry moves the unit (with its
portaged/possessed Equipment but non-dm Guns, which stay unpossessed) into the
Friendly Setup Area or Eligible Entry Area named; an Escape entry (no path)
sends it to 9.6054 with the hexes it must cross. An isolated immobile vehicle
stays put in Uncontrolled Territory, else it is Abandoned and its crew is
Retained or escapes."""
from __future__ import annotations

from automation.campaign.model import StepResult
from automation.errors import CellProblem, WorkbookError
from automation.steps.abtf.common import friendly_areas, isolated, note, pausable, uncontrolled, wait_umpire
from automation.steps.abtf.state import SIDES, ABtFInputs, ABtFState, Area, Line, Unit, enemy
from automation.workbook import abtf_sheets as K

STEP = "Setup Area Determination"
RULE = "9.605"


def strategic_locations(state: ABtFState, inputs: ABtFInputs) -> tuple[dict[str, Area], dict[str, str]]:
    """Blocks with any new Strategic Locations, and the umpire's Location control."""
    problems: list[CellProblem] = []
    areas = dict(state.areas)
    owner = {loc: a.name for a in areas.values() for loc in a.strategic}
    control: dict[str, str] = {}
    for e in inputs.umpire_lines("Strategic Location"):
        block = areas.get(e.area or "")
        if block is None or not block.is_block:
            valid = ", ".join(a.name for a in areas.values() if a.is_block)
            problems.append(e.at("Area").problem(f"Strategic Location: {e.area!r} is not a Block; valid: {valid}"))
        elif not e.subject:
            problems.append(e.at("Subject").problem("Strategic Location: give the Location (hex)"))
        elif e.subject in owner:
            problems.append(e.at("Subject").problem(f"Strategic Location: {e.subject} is already one of Block {owner[e.subject]}"))
        else:
            areas[block.name] = Area(block.name, block.kind, block.side, block.strategic + (e.subject,), block.controller,
                                     block.notes, block.ref)
            owner[e.subject] = block.name
            if e.value in SIDES:
                control[e.subject] = e.value
    seen: set[str] = set()
    for e in inputs.umpire_lines("Location control"):
        if e.subject in seen:
            problems.append(e.at("Subject").problem(f"Location control: {e.subject} is entered twice"))
        elif e.subject not in owner:
            problems.append(e.at("Subject").problem(f"Location control: {e.subject!r} is not a Strategic Location of any Block "
                                                    "(add one created in play with a Strategic Location entry)"))
        elif e.value not in SIDES:
            problems.append(e.at("Value").problem(f"Location control: {e.value!r} is not allowed; valid: {', '.join(SIDES)}"))
        else:
            control[e.subject] = e.value
        seen.add(e.subject or "")
    if problems:
        raise WorkbookError(problems)
    return areas, control


def armed_mmc(units: list[Unit], side: str) -> list[Unit]:
    return [u for u in units if u.side == side and u.cls in ("Squad", "HS") and u.armed]


def block_control(state: ABtFState, inputs: ABtFInputs) -> tuple[ABtFState, list]:
    areas, control = strategic_locations(state, inputs)
    entries = []
    for name, block in list(areas.items()):
        if not block.is_block:
            continue
        before = block.controller
        if not block.strategic:
            after, why = None, "no Strategic Location: never Controlled"
        else:
            held = {loc: control.get(loc, before) for loc in block.strategic}
            sides = set(held.values())
            if len(sides) == 1 and None not in sides:
                after = sides.pop()
                why = f"the {after} Control all {len(held)} Strategic Locations"
            else:
                after = before
                split = "; ".join(f"{loc}: {s or 'nobody'}" for loc, s in held.items())
                why = f"no side Controls all its Strategic Locations ({split})"
        inside = [u for u in state.units if u.area == name]
        for side in SIDES:
            occupy = [u for u in armed_mmc(inside, side) if u.location in block.strategic]
            if occupy and not armed_mmc(inside, enemy(side)):
                if after != side:
                    why += f"; forfeiture (9.6051): {', '.join(u.id for u in occupy)} hold a Strategic Location and no armed " \
                           f"{enemy(side)} non-crew MMC is in the Block"
                after = side
        verdict = f"Controlled by the {after}" if after else "Uncontrolled"
        change = "" if after == before else f" (was {before or 'Uncontrolled'})"
        entries.append(note(STEP, RULE, f"Block {name}: {verdict}{change}: {why}", after, name))
        areas[name] = Area(block.name, block.kind, block.side, block.strategic, after, block.notes, block.ref)
    return state.with_(areas=areas), entries


def _entry_for(lines: list[Line], *keys: str | None) -> Line | None:
    for key in keys:
        for e in lines:
            if key and e.subject == key:
                return e
    return None


def check_destination(state: ABtFState, e: Line, side: str) -> None:
    valid = friendly_areas(state, side)
    if e.area not in valid:
        raise WorkbookError(e.at("Area").problem(f"{e.kind}: {e.area!r} is not a Friendly Setup Area or Eligible Entry Area of "
                                                 f"the {side}; valid: {', '.join(valid) or 'none'}"))
    if e.kind == "Escape" and (e.hexes is None or e.hexes < 0):
        raise WorkbookError(e.at("Hexes").problem("Escape: give the Uncontrolled-Territory/Enemy-Setup-Area hexes to cross "
                                                  "(0 or more)"))


def move(state: ABtFState, unit: Unit, area: str, towing: bool = False) -> tuple[ABtFState, list[str]]:
    """``unit`` and what it carries go to ``area``; a non-dm Gun stays behind,
    unpossessed, unless ``towing`` (a Mobile vehicle it is hooked to that
    succeeds in a Shift or Escape: 9.613, 9.6054)."""
    left = []
    state = state.put(unit.with_(area=area, location=None))
    for item in state.carried_by(unit.id):
        if item.is_personnel and not item.has("Prisoner"):
            continue
        if item.cls == "Gun" and item.has("Non-dm") and not (towing and unit.mobile):
            state = state.put(item.with_(holder=None))
            left.append(item.id)
        else:
            state = state.put(item.with_(area=area, location=None))
    return state, left


def isolated_units(state: ABtFState, inputs: ABtFInputs) -> tuple[ABtFState, list]:
    entries = []
    lines = inputs.umpire_lines("Retain", "Escape")
    escaping = dict(state.escaping)
    for unit in list(state.units):
        unit = state.unit(unit.id)
        if unit is None or not isolated(state, unit) or unit.has("Prisoner") or unit.area == K.WW_BOX:
            continue
        keys: tuple[str | None, ...] = (unit.id, unit.location)
        if unit.is_vehicle:
            if unit.status & {"Abandoned", "Burnt-out"}:
                continue
            if not unit.mobile:
                if uncontrolled(state, unit.area):
                    entries.append(note(STEP, "9.6053", "immobile in Uncontrolled Territory: stays in its Location and VCA",
                                        unit.side, unit.id))
                    continue
                crew = Unit(f"{unit.id} crew", unit.side, "Crew", "Crew", None, unit.morale_override, None, unit.area,
                            unit.location, notes=f"crew of {unit.id}") if unit.crewed else None
                state = state.put(unit.flagged(add=("Abandoned",)))
                entries.append(note(STEP, "9.6053", "immobile and Isolated: Abandoned" + (", its crew dismounts" if crew else ""),
                                    unit.side, unit.id))
                if crew is None:
                    continue
                state = state.put(crew)
                keys = (crew.id, unit.id, unit.location)
                unit = crew
        elif not unit.is_personnel:
            continue
        e = _entry_for(lines, *keys)
        if e is None:
            raise wait_umpire(inputs, f"a Retain entry (the Area a path leads to) or an Escape entry (no path; hexes to cross) "
                                      f"for {unit.id} of the {unit.side}, Isolated in {unit.location or unit.area} (9.6053)", STEP)
        check_destination(state, e, unit.side)
        if e.kind == "Retain":
            state, left = move(state, unit, e.area)
            text = f"Isolated in {unit.location or unit.area}: Retained into {e.area}"
            if left:
                text += f"; non-dm Gun {', '.join(left)} left unpossessed"
            entries.append(note(STEP, "9.6053", text, unit.side, unit.id))
        else:
            escaping[unit.id] = e
            entries.append(note(STEP, "9.6053", f"Isolated in {unit.location or unit.area} with no path: must attempt Escape "
                                                f"({e.hexes} hexes to {e.area})", unit.side, unit.id))
    return state.with_(escaping=escaping), entries


@pausable
def run(state: ABtFState, inputs: ABtFInputs, dice) -> StepResult[ABtFState]:
    state, entries = block_control(state, inputs)
    state, more = isolated_units(state, inputs)
    entries += more
    entries.append(note(STEP, "9.6052", "no unit sets up in Uncontrolled Territory (except vehicles and Emplaced Guns within "
                                        f"{inputs.setting('abtf.uncontrolled_setup_range')} hexes of a Friendly Setup Area, "
                                        "and the Blockhouse)"))
    entries.append(note(STEP, "9.6055", "mark each side's Blocks and the Uncontrolled Territory on the reduced-size map"))
    return StepResult(state, tuple(entries))

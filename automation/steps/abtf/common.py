"""Helpers shared by the ABtF RePh steps: report lines, waiting for the umpire
or a side, checks the seed names but does not print (a Task Check against
morale, Random Selection) rolled with the campaign dice, Elimination with CVP,
Casualty Reduction, Replacement and the Isolated-unit tests of 9.6053."""
from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from automation.campaign.model import ALL, UMPIRE, Entry, StepResult, Waiting
from automation.engine.resolver import RollResult, Situation
from automation.errors import UsageError
from automation.steps.abtf.state import ABtFInputs, ABtFState, Removal, Unit, enemy
from automation.workbook import abtf_sheets as K


class Pause(Exception):
    """Raised deep in a step when a decision or an entry is missing."""

    def __init__(self, waiting: Waiting) -> None:
        super().__init__(str(waiting))
        self.waiting = waiting


def pausable(fn: Callable[[ABtFState, ABtFInputs, Any], StepResult[ABtFState]]):
    """Turn a Pause raised inside ``fn`` into a waiting StepResult."""

    @functools.wraps(fn)
    def run(state: ABtFState, inputs: ABtFInputs, dice: Any) -> StepResult[ABtFState]:
        try:
            return fn(state, inputs, dice)
        except Pause as p:
            return StepResult(state, (), p.waiting)

    return run


def note(step: str, rule: str, text: str, side: str | None = None, subject: str = "", visible: str = ALL) -> Entry:
    return Entry(step, rule, text, side, subject, None, visible)


def rolled(step: str, rule: str, side: str | None, subject: str, result: RollResult, text: str | None = None,
           visible: str = ALL) -> Entry:
    return Entry(step, rule, text or result.result, side, subject, result, visible)


def umpire_sheet(inputs: ABtFInputs) -> str:
    return inputs.sheet_names.get("umpire", K.UMPIRE.name_for(date=inputs.date.label))


def orders_sheet(inputs: ABtFInputs, side: str) -> str:
    return inputs.sheet_names.get(f"orders:{side}", K.ORDERS.name_for(date=inputs.date.label, side=side))


def wait_umpire(inputs: ABtFInputs, what: str, step: str) -> Pause:
    return Pause(Waiting(UMPIRE, what, umpire_sheet(inputs), step))


def wait_orders(inputs: ABtFInputs, side: str, what: str, step: str) -> Pause:
    return Pause(Waiting(side, what, orders_sheet(inputs, side), step))


def purchases_sheet(inputs: ABtFInputs, side: str) -> str:
    return inputs.sheet_names.get(f"purchases:{side}", K.PURCHASES.name_for(date=inputs.date.label, side=side))


def need_purchases(inputs: ABtFInputs, side: str, what: str, step: str) -> None:
    if inputs.purchases.get(side) is None:
        raise Pause(Waiting(side, what + " (an empty sheet means none)", purchases_sheet(inputs, side), step))


def need_orders(inputs: ABtFInputs, side: str, what: str, step: str) -> None:
    if inputs.orders.get(side) is None:
        raise wait_orders(inputs, side, what + " (an empty sheet means none)", step)


def umpire_outcomes(state: ABtFState, inputs: ABtFInputs, kind: str, valid: Sequence[str]) -> dict[str, Any]:
    """The umpire's ``kind`` entries by unit: each must name a unit and one of ``valid``."""
    from automation.errors import WorkbookError

    problems = []
    out: dict[str, Any] = {}
    for e in inputs.umpire_lines(kind):
        if state.unit(e.subject) is None:
            problems.append(e.at("Subject").problem(f"{kind}: {e.subject!r} is not a unit at CG Scenario End"))
        elif str(e.value) not in valid:
            problems.append(e.at("Value").problem(f"{kind}: {e.value!r} is not allowed; valid: {', '.join(valid)}"))
        elif e.subject in out:
            problems.append(e.at("Subject").problem(f"{kind}: {e.subject} has two entries"))
        else:
            out[e.subject] = str(e.value)
    if problems:
        raise WorkbookError(problems)
    return out


# ------------------------------------------------------------ main-rule checks the seed names

def task_check(dice: Any, label: Sequence[object], morale: int, leader: Unit | None, source: str, what: str) -> RollResult:
    """A Task Check on table abtf.task_check: 2d6 plus the leadership DRM,
    passed when the final DR is at most the unit's morale (9.6041)."""
    table = dice.system.table("abtf.task_check")
    column = f"Morale {morale}"
    if column not in table.columns:
        raise UsageError(f"{what}: morale {morale} has no column on abtf.task_check; valid: {', '.join(table.columns)}")
    quantities = {"leadership_drm": leader.leadership_drm} if leader is not None and leader.leadership_drm else {}
    return dice.roll("abtf.task_check", label, Situation(quantities=quantities), column=column)


def random_selection(dice: Any, label: Sequence[object], units: Sequence[Unit], source: str) -> tuple[Unit, list[RollResult]]:
    """Random Selection on table abtf.random_selection: one dr per unit, the
    highest is selected; units tied on the highest throw again (attempt 2, 3 ...)."""
    pool = list(units)
    rolls: list[RollResult] = []
    attempt = 1
    while len(pool) > 1:
        got = [(u, dice.roll("abtf.random_selection", (*label, "random selection", attempt, u.id))) for u in pool]
        rolls += [r for _, r in got]
        top = max(r.final for _, r in got)
        pool = [u for u, r in got if r.final == top]
        attempt += 1
    return pool[0], rolls


def best_leader(state: ABtFState, unit: Unit, among: Iterable[Unit] | None = None) -> Unit | None:
    """The leader whose DRM helps ``unit`` most: same side, same Location, not
    the unit itself; a DRM that does not help is not used (owner's choice)."""
    pool = among if among is not None else [u for u in state.units if u.location and u.location == unit.location
                                            and u.area == unit.area]
    leaders = [u for u in pool if u.side == unit.side and u.is_leader and u.id != unit.id and (u.leadership_drm or 0) < 0]
    return min(leaders, key=lambda u: (u.leadership_drm or 0, u.id), default=None)


# ------------------------------------------------------------ areas

def friendly_areas(state: ABtFState, side: str, entry: bool = True) -> list[str]:
    """The side's Setup Areas (Blocks it Controls) and, with ``entry``, its Entry Areas."""
    return [a.name for a in state.areas.values()
            if (a.is_block and a.controller == side) or (entry and a.is_entry and a.side == side)]


def uncontrolled(state: ABtFState, area: str) -> bool:
    """Uncontrolled Territory (9.6052): outside every Block, or a Block nobody Controls."""
    a = state.area(area)
    return area == K.UNCONTROLLED or (a is not None and a.is_block and a.controller is None)


def isolated(state: ABtFState, unit: Unit) -> bool:
    """On the map and not inside a Block its side Controls (9.6053)."""
    a = state.area(unit.area)
    if unit.area == K.WW_BOX or (a is not None and a.is_entry):
        return False
    return not (a is not None and a.is_block and a.controller == unit.side)


# ------------------------------------------------------------ losses

def eliminate(state: ABtFState, inputs: ABtFInputs, unit: Unit, rule: str, why: str, step: str,
              award: bool = True, equipment: str = "left") -> tuple[ABtFState, list[Entry]]:
    """Remove ``unit``: CVP to the enemy (when ``award``); its vehicular weapons go
    with it; its Equipment is ``left`` unpossessed in its Location, ``eliminated``
    or ``kept`` by the caller; prisoners it guarded are claimed by a friendly unit
    in the Location or Rearmed (9.6041); leaders with it stay where they are."""
    entries: list[Entry] = []
    cvp = inputs.cvp_of(unit) if award else 0
    to = enemy(unit.side)
    text = f"eliminated: {why}" + (f"; {cvp} CVP to the {to}" if cvp else "")
    entries.append(note(step, rule, text, unit.side, unit.id))
    state = state.drop([unit.id]).with_(removed=state.removed + (Removal(unit, rule, why, to if cvp else None, cvp),))
    if cvp:
        state = state.add_cvp(to, cvp)
    for item in state.carried_by(unit.id):
        if item.cls == "Vehicular weapon":
            state = state.drop([item.id])
        elif item.is_equipment and equipment == "eliminated":
            state = state.drop([item.id]).with_(removed=state.removed + (Removal(item, rule, f"with {unit.id}", None, 0),))
            entries.append(note(step, rule, f"eliminated with {unit.id}", item.side, item.id))
        elif item.is_equipment and equipment == "left":
            state = state.put(item.with_(holder=None, area=unit.area, location=unit.location))
            entries.append(note(step, rule, f"left unpossessed in {unit.location or unit.area}", item.side, item.id))
        elif item.has("Prisoner"):
            guard = next((u for u in state.units if u.side == unit.side and u.armed and u.location == unit.location
                          and u.area == unit.area and u.location), None)
            if guard is not None:
                state = state.put(item.with_(holder=guard.id))
                entries.append(note(step, rule, f"prisoner claimed by {guard.id}", item.side, item.id))
            else:
                state = state.put(item.flagged(remove=("Prisoner", "Unarmed")).with_(holder=None))
                entries.append(note(step, rule, "prisoner not claimed: Rearmed (A20.551)", item.side, item.id))
        elif equipment != "kept":
            state = state.put(item.with_(holder=None))
    return state, entries


def casualty_reduce(state: ABtFState, inputs: ABtFInputs, unit: Unit, rule: str, step: str,
                    equipment: str = "left") -> tuple[ABtFState, list[Entry], bool]:
    """Casualty Reduction: a squad becomes its HS (the Squad/HS cell), an unwounded
    SMC is wounded, anything else is eliminated. Returns (state, entries, eliminated)."""
    if unit.cls == "Squad":
        if not unit.counterpart:
            raise wait_umpire(inputs, f"{unit.id} is Casualty Reduced ({rule}): give its HS factors in the Squad/HS "
                                      f"column ({unit.ref.sheet}!{unit.ref.cell})", step)
        hs_cvp = inputs.classes["HS"].cvp if "HS" in inputs.classes else 0
        cvp = max(0, inputs.cvp_of(unit) - hs_cvp)
        reduced = unit.with_(cls="HS", strength=unit.counterpart, counterpart=unit.strength, cvp=None, replaced_by=None)
        state = state.put(reduced)
        if cvp:
            state = state.add_cvp(enemy(unit.side), cvp)
        text = f"Casualty Reduced: squad {unit.strength} becomes HS {unit.counterpart}" + (f"; {cvp} CVP to the {enemy(unit.side)}" if cvp else "")
        return state, [note(step, rule, text, unit.side, unit.id)], False
    if unit.is_smc and not unit.has("Wounded"):
        state = state.put(unit.flagged(add=("Wounded",)))
        return state, [note(step, rule, "Casualty Reduced: wounded", unit.side, unit.id)], False
    state, entries = eliminate(state, inputs, unit, rule, "Casualty Reduction", step, equipment=equipment)
    return state, entries, True


def replace_unit(state: ABtFState, inputs: ABtFInputs, unit: Unit, rule: str, step: str,
                 equipment: str = "left") -> tuple[ABtFState, list[Entry], bool]:
    """Replacement: an MMC becomes the unit of its Replaced by cell, one Quality
    lower ("4-5-8", or "4-5-8/2-4-8" to give the new squad's HS too); a leader the next lower rating; a crew, or a unit with nothing to be
    replaced by (it would be Disrupted), is eliminated (9.6054 note 2)."""
    if unit.is_leader:
        ladder = inputs.leader_ladder if unit.cls == "Leader" else inputs.armor_ladder
        i = ladder.index(unit.strength) if unit.strength in ladder else -1
        if i > 0:
            state = state.put(unit.with_(strength=ladder[i - 1]))
            return state, [note(step, rule, f"Replaced: {unit.strength} becomes {ladder[i - 1]}", unit.side, unit.id)], False
    elif unit.cls in ("Squad", "HS") and unit.replaced_by and unit.replaced_by.strip().lower() != "disrupted":
        q = inputs.quality_ladder
        quality = q[q.index(unit.quality) - 1] if unit.quality in q and q.index(unit.quality) > 0 else unit.quality
        new, _, half = (p.strip() for p in unit.replaced_by.partition("/"))
        state = state.put(unit.with_(strength=new, quality=quality, replaced_by=None, counterpart=half or None))
        return state, [note(step, rule, f"Replaced: {unit.strength} becomes {new}", unit.side, unit.id)], False
    elif unit.cls in ("Squad", "HS") and not unit.replaced_by:
        raise wait_umpire(inputs, f"{unit.id} is Replaced ({rule}): give the factors it is Replaced by (or Disrupted) in "
                                  f"the Replaced by column ({unit.ref.sheet}!{unit.ref.cell})", step)
    elif unit.cls == "Hero":
        return state, [note(step, rule, "a hero has nothing to be Replaced by: no effect", unit.side, unit.id)], False
    state, entries = eliminate(state, inputs, unit, rule, "Replaced: a crew, or a unit that would be Disrupted", step,
                               equipment=equipment)
    return state, entries, True


def battle_harden(inputs: ABtFInputs, unit: Unit, factors: str | None) -> tuple[Unit, str]:
    """Battle Hardening (A15.3 as the seed uses it): a leader takes the next higher
    rating of the leader list; an MMC rises one Quality and takes the factors given
    (an Elite MMC becomes Fanatic instead, for the next CG Scenario). Raises
    ValueError when the new factors are needed and not given."""
    from automation.steps.abtf.state import factors_morale

    if unit.is_leader:
        ladder = inputs.leader_ladder if unit.cls == "Leader" else inputs.armor_ladder
        i = ladder.index(unit.strength) if unit.strength in ladder else -1
        if 0 <= i < len(ladder) - 1:
            return unit.with_(strength=ladder[i + 1]), f"Battle Hardens: {unit.strength} becomes {ladder[i + 1]}"
        return unit, f"{unit.strength} is the highest rating: no further effect"
    q = inputs.quality_ladder
    if unit.quality == (q[-1] if q else "Elite"):
        return unit.flagged(add=("Fanatic",)), "Elite: becomes Fanatic for the next CG Scenario"
    if factors_morale(factors) is None:
        raise ValueError(f"give the factors of the Battle Hardened {unit.id} ({unit.strength}), e.g. 4-6-8")
    quality = q[q.index(unit.quality) + 1] if unit.quality in q and q.index(unit.quality) + 1 < len(q) else unit.quality
    text = f"Battle Hardens: {unit.strength} becomes {factors}" + (f" ({quality})" if quality != unit.quality else "")
    return unit.with_(strength=factors, quality=quality, replaced_by=None, counterpart=None), text


__all__ = [
    "ALL", "UMPIRE", "Pause", "battle_harden", "best_leader", "casualty_reduce", "eliminate", "friendly_areas", "isolated",
    "need_orders", "need_purchases", "note", "umpire_outcomes", "purchases_sheet", "orders_sheet", "pausable", "random_selection", "replace_unit", "rolled", "task_check",
    "umpire_sheet", "uncontrolled", "wait_orders", "wait_umpire",
]

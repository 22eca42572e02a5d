"""2.1.1.3.1 Casualties and the campaign roster: knocked-out stands and soft
vehicles leave for good (item 1); panicked stands return (item 2); "A" wrecks
stay on the roster, unavailable, until repaired or destroyed (items 4-5). A
side may try to destroy enemy "A" wrecks behind its own lines with the
Fortification Removal Table, 1 FPP each, one attempt per wreck (item 3,
2.1.1.5.1); a success removes them from the enemy roster. A wreck inside an
isolated or cut-off pocket of its own side cannot be destroyed. A wreck that left
with an ME withdrawn this refit is no longer on any roster: no roll, no FPP."""
from __future__ import annotations

from automation.campaign.model import StepResult
from automation.engine.resolver import Situation as Facts
from automation.errors import CellProblem
from automation.steps.bf.common import Cost, isolated, note, rolled
from automation.steps.bf.state import BFInputs, BFState, Order, Status

STEP = "Casualties and roster"
RULE = "2.1.1.3.1"
REMOVAL_RULE = "2.1.1.5.1"
COST_SETTING = "FPP cost of one fortification removal attempt"


def engineers(state: BFState, side: str) -> bool:
    """Does the side retain at least 3 non-isolated engineer squads (2.1.1.5.1)?"""
    return sum(1 for s in state.roster.of_side(side) if s.kind == "Engineers" and s.available and not isolated(s)) >= 3


def removal_cost(inputs: BFInputs) -> int:
    return int(inputs.setting(COST_SETTING, 1) or 1)


def is_wreck_order(state: BFState, o: Order) -> bool:
    """A Removal order naming a stand that is not a fortification (a wire,
    minefield or roadblock, named in words or by its roster ID, is 2.1.1.5.1's)."""
    if o.kind != "Removal":
        return False
    stand = state.roster.stand(o.subject or "")
    return (stand is not None and stand.kind != "Fortification") or (o.subject or "") in state.withdrawn_stands


def wreck_orders(state: BFState, side: str, orders: tuple[Order, ...]) -> list[Order]:
    return [o for o in orders if is_wreck_order(state, o)]


def check(inputs: BFInputs, state: BFState, side: str, orders: tuple[Order, ...]) -> tuple[list[CellProblem], list[Cost]]:
    problems = []
    costs = []
    seen: set[str] = set()
    for o in wreck_orders(state, side, orders):
        stand = state.roster.stand(o.subject or "")
        assert stand is not None
        if stand.side == side:
            problems.append(o.at("Subject").problem(f"Removal: {stand.id} belongs to {side}; only enemy wrecks are destroyed ({RULE})"))
        elif stand.status is not Status.WRECK or stand.wreck_lines != "Enemy lines":
            problems.append(o.at("Subject").problem(
                f"Removal: {stand.id} is not an enemy wreck behind the lines of {side} (its Wreck lines must be Enemy lines, {RULE})"))
        elif isolated(stand):
            problems.append(o.at("Subject").problem(
                f"Removal: {stand.id} lies inside a {stand.situation.value.lower()} pocket of the forces of {stand.side} and "
                f"cannot be destroyed; valid: enemy wrecks in Normal situation behind the lines of {side} ({RULE} item 3)"))
        if stand.id in seen:
            problems.append(o.at("Subject").problem(f"Removal: {stand.id} is named twice; one attempt per item ({REMOVAL_RULE})"))
        seen.add(stand.id)
        costs.append(Cost(o, "FPP", removal_cost(inputs), f"destroying the wreck {stand.id}"))
    return problems, costs


def run(state: BFState, inputs: BFInputs, dice) -> StepResult[BFState]:
    entries = []
    roster = state.roster
    gone = sorted(state.knocked_out)
    for stand_id in gone:
        s = roster.stand(stand_id)
        if s is not None:
            entries.append(note(STEP, RULE, f"{s.type} ({s.kind}) knocked out: permanently off the roster", s.side, s.id))
    roster = roster.remove_stands(gone)
    for stand_id in sorted(state.panicked):
        s = roster.stand(stand_id)
        if s is not None:
            entries.append(note(STEP, RULE, "panicked off the map: not eliminated, returns for the next scenario", s.side, s.id))
    for s in roster.stands:
        if s.status is Status.WRECK:
            entries.append(note(STEP, RULE, f"{'abandoned' if s.abandoned else 'knocked-out'} vehicle kept on the roster, "
                                f"unavailable until repaired or destroyed ({(s.wreck_lines or 'lines unknown').lower()})",
                                s.side, s.id))
    state = state.with_(roster=roster)
    destroyed = []
    handled: set[str] = set()
    cost = removal_cost(inputs)
    for side in inputs.side_names:
        for o in wreck_orders(state, side, inputs.spend.get(side) or ()):
            handled.add(str(o.subject))
            wreck = state.roster.stand(o.subject or "")
            if wreck is None:
                entries.append(note(STEP, RULE, "left the campaign with its withdrawn ME (2.1.1.2): no attempt, no FPP spent",
                                    side, str(o.subject)))
                continue
            conditions = {"three_engineer_squads"} if engineers(state, side) else set()
            result = dice.roll("bf.fortification_removal", ("wreck-removal", side, wreck.id), Facts(frozenset(conditions)))
            state = state.book(side, "FPP", f"Destroy wreck {wreck.id}", -cost, REMOVAL_RULE)
            eliminated = bool(result.effect.get("eliminated"))
            text = (f"Eliminated: {wreck.id} leaves the roster of {wreck.side} for good" if eliminated
                    else f"No effect: {wreck.id} stays a wreck")
            entries.append(rolled(STEP, REMOVAL_RULE, side, wreck.id, result, f"{text} ({cost} FPP)"))
            if eliminated:
                destroyed.append(wreck.id)
    return StepResult(state.with_(roster=state.roster.remove_stands(destroyed), wreck_removals=frozenset(handled)),
                      tuple(entries))

"""2.1.1.3.1 Casualties and the campaign roster: knocked-out stands and soft
vehicles leave for good; panicked stands return; "A" wrecks stay on the roster,
unavailable, until repaired or destroyed. A side may try to destroy enemy "A"
wrecks behind its own lines with the Fortification Removal Table (1 FPP each,
2.1.1.5.1); a success removes them from the enemy roster."""
from __future__ import annotations

from automation.engine.resolver import Situation as Facts
from automation.campaign.model import StepResult
from automation.errors import CellProblem
from automation.steps.bf.common import isolated, note, rolled
from automation.steps.bf.state import BFInputs, BFState, Order, Status

STEP = "Casualties and roster"
RULE = "2.1.1.3.1"
REMOVAL_RULE = "2.1.1.5.1"


def engineers(state: BFState, side: str) -> bool:
    """Does the side retain at least 3 non-isolated engineer squads?"""
    return sum(1 for s in state.roster.of_side(side) if s.kind == "Engineers" and s.available and not isolated(s)) >= 3


def wreck_orders(state: BFState, side: str, orders: tuple[Order, ...]) -> list[Order]:
    return [o for o in orders if o.kind == "Removal" and state.roster.stand(o.subject or "") is not None]


def check(inputs: BFInputs, state: BFState, side: str, orders: tuple[Order, ...]) -> tuple[list[CellProblem], int]:
    problems = []
    fpp = 0
    seen: set[str] = set()
    for o in wreck_orders(state, side, orders):
        stand = state.roster.stand(o.subject or "")
        assert stand is not None
        if stand.side == side:
            problems.append(o.at("Subject").problem(f"Removal: {stand.id} is {side}'s own; only enemy wrecks are destroyed"))
        elif stand.status is not Status.WRECK or stand.wreck_lines != "Enemy lines":
            problems.append(o.at("Subject").problem(f"Removal: {stand.id} is not an enemy wreck behind {side}'s lines"))
        if stand.id in seen:
            problems.append(o.at("Subject").problem(f"Removal: {stand.id} is named twice; one attempt per item"))
        seen.add(stand.id)
        fpp += 1
    return problems, fpp


def run(state: BFState, inputs: BFInputs, dice) -> StepResult[BFState]:
    entries = []
    roster = state.roster
    gone = sorted(state.knocked_out)
    for stand_id in gone:
        s = roster.stand(stand_id)
        if s is not None:
            entries.append(note(STEP, RULE, f"{s.type} leaves the roster (knocked out)", s.side, s.id))
    roster = roster.remove_stands(gone)
    for stand_id in sorted(state.panicked):
        s = roster.stand(stand_id)
        if s is not None:
            entries.append(note(STEP, RULE, "panicked stand returns for the next scenario", s.side, s.id))
    for s in roster.stands:
        if s.status is Status.WRECK:
            entries.append(note(STEP, RULE, f"wreck kept on the roster, unavailable ({s.wreck_lines or 'lines unknown'})", s.side, s.id))
    state = state.with_(roster=roster)
    destroyed = []
    cost = int(inputs.setting("FPP cost of one fortification removal attempt", 1) or 1)
    for side in inputs.side_names:
        for o in wreck_orders(state, side, inputs.spend.get(side) or ()):
            wreck = state.roster.stand(o.subject or "")
            assert wreck is not None
            conditions = {"three_engineer_squads"} if engineers(state, side) else set()
            result = dice.roll("bf.fortification_removal", ("wreck-removal", side, wreck.id), Facts(frozenset(conditions)))
            state = state.book(side, "FPP", f"Destroy wreck {wreck.id}", -cost, REMOVAL_RULE)
            entries.append(rolled(STEP, REMOVAL_RULE, side, wreck.id, result))
            if result.effect.get("eliminated"):
                destroyed.append(wreck.id)
    handled = frozenset(str(o.subject) for side in inputs.side_names
                        for o in wreck_orders(state, side, inputs.spend.get(side) or ()))
    return StepResult(state.with_(roster=state.roster.remove_stands(destroyed), wreck_removals=handled), tuple(entries))

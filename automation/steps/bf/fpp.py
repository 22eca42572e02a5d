"""2.1.1.5 Fortification purchase points: FPP carry over (the ledger starts
from the balance left); removal attempts on known wire, minefields and
roadblocks in friendly areas cost 1 FPP each, one attempt per item, on the
Fortification Removal Table with its modifiers (2.1.1.5.1: -2 wire/minefield
within 4" of the MLR, -2 roadblock along the MLR, +1 while the side retains
at least 3 non-isolated engineer squads); fortifications bought from the
umpire's FP chart must be placed in the next scenario and stay until removed
(2.1.1.5.2). A removal naming a fortification by its roster ID eliminates it
from its owner's roster on success (it stays in place until removed).
Removal orders naming an enemy wreck are 2.1.1.3.1's."""
from __future__ import annotations

from automation.campaign.model import StepResult
from automation.engine.resolver import Situation as Facts
from automation.errors import CellProblem
from automation.steps.bf.casualties import engineers, is_wreck_order, removal_cost
from automation.steps.bf.common import Cost, note, rolled, whole
from automation.steps.bf.state import ME, BFInputs, BFState, Order, Ref, Stand

STEP = "Fortifications (FPP)"
RULE = "2.1.1.5"
REMOVAL_RULE = "2.1.1.5.1"
PURCHASE_RULE = "2.1.1.5.2"
CONDITIONS = {
    "near mlr": "wire_or_minefield_near_mlr",
    "wire/minefield within 4\" of mlr": "wire_or_minefield_near_mlr",
    "roadblock on mlr": "roadblock_on_mlr",
    "roadblock along mlr": "roadblock_on_mlr",
}
TO_PLACE = "must be placed in the next scenario (2.1.1.5.2)"
IN_PLACE = "in place until removed (2.1.1.5.2)"


def removal_orders(state: BFState, orders: tuple[Order, ...]) -> list[Order]:
    """Removal orders on fortifications (those naming an enemy wreck are 2.1.1.3.1's)."""
    return [o for o in orders if o.kind == "Removal" and not is_wreck_order(state, o)
            and str(o.subject) not in state.wreck_removals]


def on_roster(state: BFState, o: Order) -> Stand | None:
    """The fortification a Removal order names by its roster ID, of either
    side (None: an item named in words, e.g. wire the map shows)."""
    stand = state.roster.stand(str(o.subject or "").strip())
    return stand if stand is not None and stand.kind == "Fortification" else None


def _conditions(detail: str | None) -> tuple[set[str], list[str]]:
    found, unknown = set(), []
    for part in str(detail or "").split(";"):
        key = part.strip().lower()
        if not key:
            continue
        if key in CONDITIONS:
            found.add(CONDITIONS[key])
        else:
            unknown.append(part.strip())
    return found, unknown


def fp_item(inputs: BFInputs, side: str, item: str) -> tuple[int, Ref] | None:
    for key in ((side, item), ("Both", item)):
        if key in inputs.fp_chart:
            return inputs.fp_chart[key]
    return None


def check(inputs: BFInputs, state: BFState, side: str, orders: tuple[Order, ...]) -> tuple[list[CellProblem], list[Cost]]:
    problems = []
    costs = []
    seen: set[str] = set()
    cost = removal_cost(inputs)
    for o in removal_orders(state, orders):
        item = str(o.subject or "").strip()
        if not item:
            problems.append(o.at("Subject").problem("Removal: name the wire, minefield, roadblock or enemy wreck"))
        elif item.lower() in seen:
            problems.append(o.at("Subject").problem(f"Removal: {item!r} is named twice; one attempt per item ({REMOVAL_RULE})"))
        seen.add(item.lower())
        _, unknown = _conditions(o.detail)
        if unknown:
            problems.append(o.at("Detail").problem(
                f"Removal: unknown condition(s) {', '.join(unknown)}; valid: near MLR; roadblock on MLR (separate with ;)"))
        costs.append(Cost(o, "FPP", cost, f"removal attempt on {item or '?'}"))
    for o in orders:
        if o.kind != "Fortification":
            continue
        found = fp_item(inputs, side, str(o.subject or "").strip())
        if found is None:
            valid = ", ".join(sorted({k[1] for k in inputs.fp_chart if k[0] in (side, "Both")})) or "none"
            problems.append(o.at("Subject").problem(f"Fortification: {o.subject!r} is not on the FP chart for {side}; valid: {valid}"))
            continue
        n = whole(o.value, 1)
        if n is None or n < 1:
            problems.append(o.at("Value").problem(f"Fortification: how many: a whole number of 1 or more, not {o.value!r}"))
            continue
        costs.append(Cost(o, "FPP", found[0] * n, f"{n} x {o.subject} at {found[0]} FPP"))
    return problems, costs


def _placed(state: BFState, inputs: BFInputs) -> BFState:
    """Fortifications bought at an earlier refit were placed in the scenario
    played since (none is placed when both sides defended)."""
    if inputs.previous is None or not state.ledger.played:
        return state
    changed = [s.with_(notes=IN_PLACE) for s in state.roster.stands if s.kind == "Fortification" and s.notes == TO_PLACE]
    return state.with_(roster=state.roster.replace_stands(changed))


def run(state: BFState, inputs: BFInputs, dice) -> StepResult[BFState]:
    entries = []
    cost = removal_cost(inputs)
    state = _placed(state, inputs)
    for side in inputs.side_names:
        orders = inputs.spend.get(side) or ()
        for n, o in enumerate(removal_orders(state, orders), start=1):
            conditions, _ = _conditions(o.detail)
            if engineers(state, side):
                conditions.add("three_engineer_squads")
            fort = on_roster(state, o)
            result = dice.roll("bf.fortification_removal", ("removal", side, fort.id if fort else f"order-{n}"),
                               Facts(frozenset(conditions)))
            state = state.book(side, "FPP", f"Removal attempt: {o.subject}", -cost, REMOVAL_RULE)
            text = f"{result.result} ({cost} FPP)"
            if fort is not None and result.effect.get("eliminated"):
                state = state.with_(roster=state.roster.remove_stands([fort.id]))
                text = f"Eliminated: {fort.id} ({fort.type}) leaves the roster of {fort.side} ({cost} FPP)"
            elif fort is not None:
                text = f"No effect: {fort.id} ({fort.type}) stays in place ({cost} FPP)"
            entries.append(rolled(STEP, REMOVAL_RULE, side, str(o.subject), result, text))
        forts = []
        taken = {s.id for s in state.roster.stands}
        for o in orders:
            if o.kind != "Fortification":
                continue
            item = str(o.subject).strip()
            found = fp_item(inputs, side, item)
            assert found is not None  # checked before the refit runs
            price = found[0]
            n = whole(o.value, 1) or 1
            state = state.book(side, "FPP", f"{n} x {item}", -price * n, PURCHASE_RULE)
            number = 0
            for _ in range(n):
                number += 1
                while f"{side} {item} {inputs.date.label} {number}" in taken:
                    number += 1
                stand_id = f"{side} {item} {inputs.date.label} {number}"
                taken.add(stand_id)
                forts.append(Stand(stand_id, side, f"Fortifications {side}", item, "Fortification", "", notes=TO_PLACE))
            entries.append(note(STEP, PURCHASE_RULE, f"buys {n} x {item} for {price * n} FPP: {TO_PLACE}", side, item, visible=side))
        if forts:
            me_id = f"Fortifications {side}"
            roster = state.roster
            if me_id not in roster.mes:
                roster = roster.with_me(ME(me_id, side, "S", "Fortifications"))
            state = state.with_(roster=roster.add_stands(forts))
        entries.append(note(STEP, RULE, f"FPP left: {state.ledger.fpp.get(side, 0)} (carried over)", side, side, visible=side))
    return StepResult(state, tuple(entries))

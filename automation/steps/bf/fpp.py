"""2.1.1.5 Fortification purchase points: FPP carry over; removal attempts on
known wire, minefields and roadblocks in friendly areas at 1 FPP each, one per
item, on the Fortification Removal Table (2.1.1.5.1); fortifications bought
from the umpire's FP chart must be placed in the next scenario (2.1.1.5.2)."""
from __future__ import annotations

from automation.engine.resolver import Situation as Facts
from automation.campaign.model import StepResult
from automation.errors import CellProblem
from automation.steps.bf.casualties import engineers
from automation.steps.bf.common import note, rolled
from automation.steps.bf.state import ME, BFInputs, BFState, Order, Stand

STEP = "Fortifications (FPP)"
RULE = "2.1.1.5"
CONDITIONS = {
    "near mlr": "wire_or_minefield_near_mlr",
    "wire/minefield within 4\" of mlr": "wire_or_minefield_near_mlr",
    "roadblock on mlr": "roadblock_on_mlr",
    "roadblock along mlr": "roadblock_on_mlr",
}


def removal_orders(state: BFState, orders: tuple[Order, ...]) -> list[Order]:
    """Removal orders on fortifications (those naming an enemy wreck are 2.1.1.3.1's)."""
    return [o for o in orders if o.kind == "Removal" and state.roster.stand(o.subject or "") is None
            and str(o.subject) not in state.wreck_removals]


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


def fp_item(inputs: BFInputs, side: str, item: str) -> tuple[int, object] | None:
    for key in ((side, item), ("Both", item)):
        if key in inputs.fp_chart:
            return inputs.fp_chart[key]
    return None


def check(inputs: BFInputs, state: BFState, side: str, orders: tuple[Order, ...]) -> tuple[list[CellProblem], int]:
    problems = []
    fpp = 0
    seen: set[str] = set()
    cost = int(inputs.setting("FPP cost of one fortification removal attempt", 1) or 1)
    for o in removal_orders(state, orders):
        item = str(o.subject or "").strip()
        if not item:
            problems.append(o.at("Subject").problem("Removal: name the wire, minefield, roadblock or enemy wreck"))
        if item.lower() in seen:
            problems.append(o.at("Subject").problem(f"Removal: {item!r} is named twice; one attempt per item (2.1.1.5.1)"))
        seen.add(item.lower())
        _, unknown = _conditions(o.detail)
        if unknown:
            problems.append(o.at("Detail").problem(
                f"Removal: unknown condition(s) {', '.join(unknown)}; valid: near MLR; roadblock on MLR (separate with ;)"))
        fpp += cost
    for o in orders:
        if o.kind != "Fortification":
            continue
        found = fp_item(inputs, side, str(o.subject or ""))
        if found is None:
            valid = ", ".join(sorted({k[1] for k in inputs.fp_chart if k[0] in (side, "Both")}))
            problems.append(o.at("Subject").problem(f"Fortification: {o.subject!r} is not on the FP chart for {side}; valid: {valid}"))
            continue
        n = 1 if o.value is None else o.value
        if not isinstance(n, int) or n < 1:
            problems.append(o.at("Value").problem(f"Fortification: a whole number of 1 or more, not {o.value!r}"))
            continue
        fpp += found[0] * n
    return problems, fpp


def run(state: BFState, inputs: BFInputs, dice) -> StepResult[BFState]:
    entries = []
    cost = int(inputs.setting("FPP cost of one fortification removal attempt", 1) or 1)
    for side in inputs.side_names:
        orders = inputs.spend.get(side) or ()
        for o in removal_orders(state, orders):
            conditions, _ = _conditions(o.detail)
            if engineers(state, side):
                conditions.add("three_engineer_squads")
            result = dice.roll("bf.fortification_removal", ("removal", side, str(o.subject)), Facts(frozenset(conditions)))
            state = state.book(side, "FPP", f"Removal attempt: {o.subject}", -cost, "2.1.1.5.1")
            entries.append(rolled(STEP, "2.1.1.5.1", side, str(o.subject), result))
        forts = []
        for o in orders:
            if o.kind != "Fortification":
                continue
            price, _ = fp_item(inputs, side, str(o.subject))  # type: ignore[misc]
            n = 1 if o.value is None else int(o.value)
            state = state.book(side, "FPP", f"{n} x {o.subject}", -price * n, "2.1.1.5.2")
            for i in range(n):
                forts.append(Stand(f"{side} {o.subject} {inputs.date.label} {i + 1}", side, f"Fortifications {side}",
                                   str(o.subject), "Fortification", "", notes="must be placed in the next scenario"))
            entries.append(note(STEP, "2.1.1.5.2", f"buys {n} x {o.subject} for {price * n} FPP: placed in the next scenario", side, str(o.subject), visible=side))
        if forts:
            me_id = f"Fortifications {side}"
            roster = state.roster
            if me_id not in roster.mes:
                roster = roster.with_me(ME(me_id, side, "S", "Fortifications"))
            state = state.with_(roster=roster.add_stands(forts))
        entries.append(note(STEP, RULE, f"FPP left: {state.ledger.fpp.get(side, 0)} (carried over)", side, side, visible=side))
    return StepResult(state, tuple(entries))

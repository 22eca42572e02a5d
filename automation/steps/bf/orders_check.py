"""Checks both sides' decisions before any die is rolled on them: every
problem is reported with its Sheet!Cell, all together, and nothing is written
unless all is valid (the refit then raises WorkbookError)."""
from __future__ import annotations

from automation.campaign.model import StepResult
from automation.errors import CellProblem, WorkbookError
from automation.steps.bf import casualties, combine, fpp, purchases, repair
from automation.steps.bf.common import isolated, note, wait_spend
from automation.steps.bf.state import BFInputs, BFState, Situation, Status

ORDERS_KINDS = ("Posture", "Escape")
SPEND_KINDS = ("Repair", "Combine", "Purchase", "Extra CPP", "Preregistered points", "Removal", "Fortification")


def check_orders(state: BFState, inputs: BFInputs, dice) -> StepResult[BFState]:
    """Orders sheets (2.1 posture, 2.1.2.4.3 escape)."""
    problems: list[CellProblem] = []
    results = inputs.results or {}
    for side in inputs.side_names:
        for o in inputs.orders.get(side) or ():
            if o.kind not in ORDERS_KINDS:
                problems.append(o.at("Order").problem(f"{o.kind} belongs on the Spend sheet; here: {', '.join(ORDERS_KINDS)}"))
            elif o.kind == "Posture" and o.value not in ("Attack", "Defend"):
                problems.append(o.at("Value").problem(f"Posture: {o.value!r} is not allowed; valid: Attack, Defend"))
            elif o.kind == "Escape":
                stand = state.roster.stand(o.subject or "")
                if stand is None or stand.side != side:
                    problems.append(o.at("Subject").problem(f"Escape: {o.subject!r} is not a stand of {side} on the roster"))
                    continue
                end = results.get(stand.id)
                situation = end.situation if end else stand.situation
                if situation is Situation.NORMAL or stand.status is not Status.AVAILABLE or (end and end.outcome in ("Knocked out", "Abandoned")):
                    problems.append(o.at("Subject").problem(f"Escape: {stand.id} is not an isolated or cut-off stand"))
                if o.detail and not stand.is_troops:
                    problems.append(o.at("Detail").problem(f"Escape: only troop (T class) stands roll as a group; {stand.id} is {stand.kind}"))
                if str(o.value or "Yes") not in ("Yes", "No"):
                    problems.append(o.at("Value").problem(f"Escape: {o.value!r} is not allowed; valid: Yes, No"))
    if problems:
        raise WorkbookError(problems)
    return StepResult(state)


def check_spend(state: BFState, inputs: BFInputs, dice) -> StepResult[BFState]:
    """Spend sheets: 2.1.1.2 repairs, 2.1.1.3.2 combining, 2.1.1.4 purchases, 2.1.1.5 FPP."""
    for side in inputs.side_names:
        if inputs.spend.get(side) is None:
            return StepResult(state, (), wait_spend(inputs, side, "Orders check"))
    problems: list[CellProblem] = []
    entries = []
    for side in inputs.side_names:
        orders = inputs.spend[side] or ()
        for o in orders:
            if o.kind not in SPEND_KINDS:
                problems.append(o.at("Order").problem(f"{o.kind} belongs on the Orders sheet; here: {', '.join(SPEND_KINDS)}"))
        cpp = fpp_cost = 0
        for module in (repair, combine, purchases):
            found, cost = module.check(inputs, state, side, orders)
            problems += found
            cpp += cost
        for module in (casualties, fpp):
            found, cost = module.check(inputs, state, side, orders)
            problems += found
            fpp_cost += cost
        fpp_gained = sum((inputs.rg_chart[(side, o.subject)].fpp or 0) * (o.value if isinstance(o.value, int) else 1)
                         for o in orders if o.kind == "Purchase" and (side, o.subject) in inputs.rg_chart
                         and inputs.rg_chart[(side, o.subject)].kind == "FPP")
        have_cpp = state.ledger.cpp.get(side, 0)
        have_fpp = state.ledger.fpp.get(side, 0) + fpp_gained
        first = orders[0].at("Order") if orders else None
        if cpp > have_cpp and first is not None:
            problems.append(first.problem(f"{side} spends {cpp} CPP but has {have_cpp} (repairs, purchases, extra CPP, preregistered points)"))
        if fpp_cost > have_fpp and first is not None:
            problems.append(first.problem(f"{side} spends {fpp_cost} FPP but has {have_fpp} (removals, fortifications)"))
        entries.append(note("Orders check", "2.1.1", f"orders valid: {cpp} CPP of {have_cpp}, {fpp_cost} FPP of {have_fpp}", side, side, visible=side))
    if problems:
        raise WorkbookError(problems)
    return StepResult(state, tuple(entries))


__all__ = ["check_orders", "check_spend", "isolated"]

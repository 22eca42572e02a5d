"""Checks both sides' decisions before any die is rolled on them: every
problem is reported with its Sheet!Cell, all together, and nothing is written
unless all is valid (the refit then raises WorkbookError).

Stage 1 reads the Orders sheets (2.1 posture, 2.1.2.4.3 escapes). Stage 2
reads the Spend sheets: repairs (2.1.1.2), enemy wrecks (2.1.1.3.1),
combining (2.1.1.3.2), purchases (2.1.1.4) and FPP (2.1.1.5). CPP and FPP
are followed order by order in the refit's own sequence, so an overspend is
reported at the order that no longer fits; FPP bought from the RG chart
arrive with the purchases (2.1.1.4), after the wreck removals of 2.1.1.3.1.
A side with nothing it could spend (no CPP, no FPP, no MEs it could combine)
needs no Spend sheet: the refit does not wait for one."""
from __future__ import annotations

from collections.abc import Sequence

from automation.campaign.model import StepResult
from automation.errors import CellProblem, WorkbookError
from automation.steps.bf import casualties, combine, fpp, purchases, repair
from automation.steps.bf.common import Cost, isolated, note, wait_spend
from automation.steps.bf.state import BFInputs, BFState, Order, Situation, Status

ORDERS_KINDS = ("Posture", "Escape")
SPEND_KINDS = ("Repair", "Combine", "Purchase", "Extra CPP", "Preregistered points", "Removal", "Fortification")
CHECKS = (repair, casualties, combine, purchases, fpp)  # the refit's order


def _by_cell(problems: list[CellProblem]) -> list[CellProblem]:
    """One sheet's problems in reading order: row by row, then column."""
    def key(p: CellProblem) -> tuple[int, int]:
        letters = "".join(ch for ch in p.cell if ch.isalpha())
        digits = "".join(ch for ch in p.cell if ch.isdigit())
        return (int(digits or 0), sum((ord(c.upper()) - 64) * 26 ** i for i, c in enumerate(reversed(letters))))
    return sorted(problems, key=key)


def _escape_situation(inputs: BFInputs, state: BFState, stand_id: str) -> tuple[Situation, bool]:
    end = (inputs.results or {}).get(stand_id)
    stand = state.roster.stand(stand_id)
    assert stand is not None
    return (end.situation if end else stand.situation), bool(end and end.near_friendly_lines)


def check_orders(state: BFState, inputs: BFInputs, dice) -> StepResult[BFState]:
    """Orders sheets (2.1 posture, 2.1.2.4.3 escape)."""
    problems: list[CellProblem] = []
    results = inputs.results or {}
    for side in inputs.side_names:
        found: list[CellProblem] = []
        postures = 0
        escaping: set[str] = set()
        groups: dict[str, tuple[Order, tuple[Situation, bool]]] = {}
        for o in inputs.orders.get(side) or ():
            if o.kind not in ORDERS_KINDS:
                found.append(o.at("Order").problem(f"{o.kind} belongs on the Spend sheet; here: {', '.join(ORDERS_KINDS)}"))
            elif o.kind == "Posture":
                postures += 1
                if o.value not in ("Attack", "Defend"):
                    found.append(o.at("Value").problem(f"Posture: {o.value!r} is not allowed; valid: Attack, Defend"))
                elif postures > 1:
                    found.append(o.at("Order").problem("Posture: given twice; one Attack or Defend per side (2.1)"))
            elif o.kind == "Escape":
                stand = state.roster.stand(o.subject or "")
                if stand is None or stand.side != side:
                    found.append(o.at("Subject").problem(f"Escape: {o.subject!r} is not a stand of {side} on the roster"))
                    continue
                end = results.get(stand.id)
                where = _escape_situation(inputs, state, stand.id)
                if where[0] is Situation.NORMAL or stand.status is not Status.AVAILABLE or (
                        end and end.outcome in ("Knocked out", "Abandoned")):
                    found.append(o.at("Subject").problem(
                        f"Escape: {stand.id} is not an isolated or cut-off stand (2.1.2.4.3); see its Situation in Results"))
                if stand.id in escaping:
                    found.append(o.at("Subject").problem(f"Escape: {stand.id} is named twice; one roll per stand"))
                escaping.add(stand.id)
                if o.detail and not stand.is_troops:
                    found.append(o.at("Detail").problem(
                        f"Escape: only troop (T class) stands roll as a group; {stand.id} is {stand.kind}"))
                elif o.detail:
                    first = groups.setdefault(str(o.detail), (o, where))
                    if first[1] != where:
                        found.append(o.at("Detail").problem(
                            f"Escape: group {o.detail!r} mixes situations: {stand.id} is {where[0].value.lower()}"
                            f"{', near friendly lines' if where[1] else ''} but the group's first stand "
                            f"({first[0].subject}) is {first[1][0].value.lower()}{', near friendly lines' if first[1][1] else ''}; "
                            "one roll serves one isolated group"))
                if str(o.value or "Yes") not in ("Yes", "No"):
                    found.append(o.at("Value").problem(f"Escape: {o.value!r} is not allowed; valid: Yes, No"))
        problems += _by_cell(found)
    if problems:
        raise WorkbookError(problems)
    return StepResult(state)


def needs_spend(inputs: BFInputs, state: BFState, side: str) -> bool:
    """Could this side decide anything on a Spend sheet in this refit?"""
    return (state.ledger.cpp.get(side, 0) > 0 or state.ledger.fpp.get(side, 0) > 0
            or combine.any_eligible(state, side))


def _balance(side: str, account: str, have: int, costs: Sequence[Cost]) -> CellProblem | None:
    """The first order at which the account runs below zero, in the refit's order."""
    left = have
    total_spent = sum(c.amount for c in costs if c.amount > 0)
    gained = -sum(c.amount for c in costs if c.amount < 0)
    for c in costs:
        left -= c.amount
        if left >= 0:
            continue
        if total_spent <= have + gained:
            return c.order.at("Order").problem(
                f"{account} left to {side}: {left + c.amount}, and this order ({c.what}) needs {c.amount}: "
                f"the {gained} {account} bought from the RG chart arrive only with the purchases (2.1.1.4), "
                "after enemy wrecks are destroyed (2.1.1.3.1)")
        spent = "; ".join(f"{x.what}: {x.amount}" for x in costs if x.amount > 0)
        extra = f" + {gained} bought" if gained else ""
        return c.order.at("Order").problem(
            f"the orders of {side} spend {total_spent} {account}, with {have}{extra} to spend; this is the first order "
            f"that does not fit ({spent})")
    return None


def check_spend(state: BFState, inputs: BFInputs, dice) -> StepResult[BFState]:
    """Spend sheets: 2.1.1.2 repairs, 2.1.1.3.1 wrecks, 2.1.1.3.2 combining, 2.1.1.4 purchases, 2.1.1.5 FPP."""
    entries = []
    for side in inputs.side_names:
        if inputs.spend.get(side) is None:
            if needs_spend(inputs, state, side):
                return StepResult(state, (), wait_spend(inputs, side, "Orders check"))
            entries.append(note("Orders check", "2.1.1", "no CPP, no FPP and nothing to combine: no Spend sheet needed",
                                side, side, visible=side))
    problems: list[CellProblem] = []
    for side in inputs.side_names:
        orders = inputs.spend.get(side) or ()
        mine: list[CellProblem] = []
        for o in orders:
            if o.kind not in SPEND_KINDS:
                mine.append(o.at("Order").problem(f"{o.kind} belongs on the Orders sheet; here: {', '.join(SPEND_KINDS)}"))
        costs: list[Cost] = []
        for module in CHECKS:
            found, cost = module.check(inputs, state, side, orders)
            mine += found
            costs += cost
        totals = {}
        for account in ("CPP", "FPP"):
            have = getattr(state.ledger, account.lower()).get(side, 0)
            spent = [c for c in costs if c.account == account]
            problem = _balance(side, account, have, spent)
            if problem is not None:
                mine.append(problem)
            totals[account] = (sum(c.amount for c in spent if c.amount > 0), have - sum(c.amount for c in spent if c.amount < 0))
        problems += _by_cell(mine)
        if inputs.spend.get(side) is not None:
            entries.append(note("Orders check", "2.1.1", f"orders valid: {totals['CPP'][0]} CPP of {totals['CPP'][1]}, "
                                f"{totals['FPP'][0]} FPP of {totals['FPP'][1]}", side, side, visible=side))
    if problems:
        raise WorkbookError(problems)
    return StepResult(state, tuple(entries))


__all__ = ["check_orders", "check_spend", "isolated", "needs_spend"]

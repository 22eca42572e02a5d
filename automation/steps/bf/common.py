"""Small helpers shared by the Battlefront refit steps."""
from __future__ import annotations

from dataclasses import dataclass

from automation.campaign.model import ALL, UMPIRE, Entry, Waiting
from automation.engine.resolver import RollResult
from automation.steps.bf.state import ME, BFInputs, Order, Roster, Situation, Stand

NO_RATING = ("OBA module", "Aircraft", "Fortification")  # stands without a discipline rating or breakpoints

RUSSIAN = ("russian", "soviet", "ussr")
ALLIED_WEST = ("american", "us", "usa", "british", "uk", "commonwealth", "canadian")


def is_russian(nationality: str) -> bool:
    return nationality.strip().lower() in RUSSIAN


def rolled(step: str, rule: str, side: str | None, subject: str, result: RollResult, text: str | None = None,
           visible: str | None = None) -> Entry:
    return Entry(step, rule, text or result.result, side, subject, result, visible or ALL)


def note(step: str, rule: str, text: str, side: str | None = None, subject: str = "", visible: str = ALL) -> Entry:
    return Entry(step, rule, text, side, subject, None, visible)


def orders_sheet(inputs: BFInputs, side: str) -> str:
    return inputs.sheet_names.get(f"orders:{side}", f"Orders {inputs.date.label} {side}")


def spend_sheet(inputs: BFInputs, side: str) -> str:
    return inputs.sheet_names.get(f"spend:{side}", f"Spend {inputs.date.label} {side}")


def wait_orders(inputs: BFInputs, side: str, what: str, step: str) -> Waiting:
    return Waiting(side, what, orders_sheet(inputs, side), step)


def wait_spend(inputs: BFInputs, side: str, step: str) -> Waiting:
    return Waiting(side, "repairs, purchases and FPP spending (an empty sheet means none)", spend_sheet(inputs, side), step)


def counts_in_size(stand: Stand) -> bool:
    """Does the stand count in its ME's size (breakpoints, casualty
    percentages)? Soft-skin transport does not (house rules 26), though its
    loss still counts as a casualty."""
    return stand.kind != "Soft vehicle"


def me_size(roster: Roster, me_id: str) -> int:
    """The ME's stands in play that count in its size."""
    return sum(1 for s in roster.of_me(me_id) if s.available and counts_in_size(s))


POCKETS = frozenset({Situation.ISOLATED, Situation.CUT_OFF})  # where an isolated stand is (2.1.2.4)


def isolated(stand: Stand) -> bool:
    return stand.situation in POCKETS


@dataclass(frozen=True)
class Cost:
    """What one order costs (positive) or gives (negative) in CPP or FPP,
    for the orders check's running balance (automation/steps/bf/orders_check.py)."""

    order: Order
    account: str  # "CPP" or "FPP"
    amount: int
    what: str


def whole(value: object, default: int | None = None) -> int | None:
    """A whole number entered in a Value cell (None if it is not one)."""
    if value is None:
        return default
    if isinstance(value, bool):
        return None
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value if isinstance(value, int) else None


def me_rating(roster: Roster, me: ME, ladder: tuple[str, ...]) -> str:
    """An ME's discipline rating: its own, or else its first rated stand's."""
    if me.discipline in ladder:
        return me.discipline
    return next((s.discipline for s in roster.of_me(me.id) if s.discipline in ladder), me.discipline)


def step_ladder(ladder: tuple[str, ...], rating: str, steps: int) -> str:
    """Move ``steps`` along the discipline ladder, stopping at Raw and Elite."""
    if rating not in ladder:
        return rating
    i = ladder.index(rating)
    return ladder[max(0, min(len(ladder) - 1, i + steps))]


__all__ = ["ALL", "NO_RATING", "UMPIRE", "Cost", "counts_in_size", "me_size", "is_russian", "me_rating", "whole", "isolated", "note", "rolled", "step_ladder", "wait_orders", "wait_spend"]

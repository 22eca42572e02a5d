"""2.1.1.2 Armor repair: each wreck of an "A" type ME inside its own lines, of
a nationality and date the rule allows, rolls on the Armor Repair Table
(minefield, Russian, abandoned, and +3 for the one CPP a side may spend, which
is spent even when the roll fails). Repaired vehicles rejoin their ME.

Repairs happen overnight: in the refit before a night scenario, or, on a day
without one, in the refit before the next day's first scenario. Every wreck
still on the roster that qualifies gets one attempt in each such refit (an
unrepaired wreck stays on the roster, 2.1.1.3.1 item 5, and may try again).
The nationality window is judged on the calendar date of the scenario just
played, the evening the repair work begins."""
from __future__ import annotations

from automation.engine.resolver import Situation as Facts
from automation.campaign.model import StepResult
from automation.errors import CellProblem
from automation.steps.bf.common import Cost, is_russian, note, rolled, whole
from automation.steps.bf.state import BFInputs, BFState, Order, Stand, Status

STEP = "Armor repair"
RULE = "2.1.1.2"
CPP_SETTING = "CPP that may be spent on one armor repair attempt"


def repair_time(inputs: BFInputs) -> bool:
    """Is this refit the overnight one in which repairs are made?"""
    if inputs.previous is None:
        return False
    if inputs.date.is_night:
        return True
    if not inputs.date.starts_day:
        return False
    # the first scenario of a day: repairs happen now unless the previous day had a night refit
    return not inputs.previous.is_night


def nation_allows(inputs: BFInputs, side: str) -> tuple[bool, str]:
    nationality = inputs.side(side).nationality
    window = None
    for name, span in inputs.repair_eligibility.items():
        if name.strip().lower() == nationality.strip().lower() or (is_russian(name) and is_russian(nationality)):
            window = span
    if window is None:
        return False, f"{nationality} vehicles are not repaired under {RULE}"
    # the repair is made overnight after the scenario just played, so its calendar date decides
    month = (inputs.previous or inputs.date).day.strftime("%Y-%m")
    start, end = window
    if not start <= month <= end:
        return False, f"{nationality} repairs are allowed from {start} to {end}, not in {month}"
    return True, ""


def eligible(inputs: BFInputs, state: BFState, stand: Stand) -> str | None:
    """None if the wreck may try a repair now; else why not."""
    if stand.status is not Status.WRECK:
        return f"{stand.id} is not a wreck awaiting repair"
    me = state.roster.mes.get(stand.me)
    if me is None or me.me_class != "A":
        return f"{stand.id} does not belong to an \"A\" type ME"
    if stand.wreck_lines != "Own lines":
        return f"{stand.id} is not inside its own lines"
    ok, why = nation_allows(inputs, stand.side)
    if not ok:
        return why
    if not repair_time(inputs):
        return "repairs are made overnight (2.1.1.2): not in this refit"
    return None


def repair_cpp(inputs: BFInputs) -> int:
    """CPP a side may spend on one attempt ("1 (and only 1)"; editable on the Settings sheet)."""
    return int(inputs.setting(CPP_SETTING, 1) or 1)


def check(inputs: BFInputs, state: BFState, side: str, orders: tuple[Order, ...]) -> tuple[list[CellProblem], list[Cost]]:
    problems: list[CellProblem] = []
    costs: list[Cost] = []
    seen: set[str] = set()
    allowed = repair_cpp(inputs)
    for o in orders:
        if o.kind != "Repair":
            continue
        stand = state.roster.stand(o.subject or "")
        if stand is None or stand.side != side:
            whose = f"a vehicle of {stand.side}: no enemy unit may be repaired" if stand else "not on the roster"
            problems.append(o.at("Subject").problem(f"Repair: {o.subject!r} is {whose} ({RULE})"))
            continue
        why = eligible(inputs, state, stand)
        if why:
            problems.append(o.at("Subject").problem(f"Repair: {why}"))
        if stand.id in seen:
            problems.append(o.at("Subject").problem(f"Repair: {stand.id} is named twice; one attempt per vehicle"))
        seen.add(stand.id)
        value = whole(o.value, 0)
        if value not in (0, allowed):
            problems.append(o.at("Value").problem(
                f"Repair: CPP spent is 0 or {allowed} (only {allowed} CPP per attempt, {RULE}), not {o.value!r}"))
        elif value and not why:
            costs.append(Cost(o, "CPP", value, f"repair of {stand.id}"))
    return problems, costs


def run(state: BFState, inputs: BFInputs, dice) -> StepResult[BFState]:
    entries = []
    if not repair_time(inputs):
        return StepResult(state, (note(STEP, RULE, "no repairs in this refit: repairs are made overnight"),))
    changed = []
    for side in inputs.side_names:
        spend = {o.subject: o for o in (inputs.spend.get(side) or ()) if o.kind == "Repair"}
        for stand in state.roster.of_side(side):
            if stand.status is not Status.WRECK:
                continue
            why = eligible(inputs, state, stand)
            if why:
                entries.append(note(STEP, RULE, f"no attempt: {why}", side, stand.id, visible=side))
                continue
            conditions = set()
            if stand.in_minefield:
                conditions.add("in_minefield")
            if is_russian(inputs.side(side).nationality):
                conditions.add("russian")
            if stand.abandoned:
                conditions.add("abandoned")
            order = spend.get(stand.id)
            spent = whole(order.value, 0) if order is not None else 0
            if spent:
                conditions.add("cpp_spent")
                state = state.book(side, "CPP", f"Repair attempt {stand.id}", -spent, RULE)
            result = dice.roll("bf.armor_repair", ("repair", side, stand.id), Facts(frozenset(conditions)))
            repaired = bool(result.effect.get("repaired"))
            text = f"Repaired: back in {stand.me}" if repaired else "No effect: stays a wreck, unavailable"
            if spent and not repaired:
                text += f" (the {spent} CPP is spent all the same)"
            entries.append(rolled(STEP, RULE, side, stand.id, result, text, visible=side))
            if repaired:
                changed.append(stand.with_(status=Status.AVAILABLE, abandoned=False, wreck_lines=None, in_minefield=False))
    return StepResult(state.with_(roster=state.roster.replace_stands(changed), repaired=frozenset(s.id for s in changed)),
                      tuple(entries))

"""2.1.1.3.2 Combining understrength MEs, on a side's request: two MEs of
identical class and type, or any two I class MEs, each at 50% or more
casualties, form one ME. Its discipline is one worse than the better of the
two; one command stand is kept; the absorbed ME still counts against its RG's
campaign total; breakpoints are recomputed for the new ME."""
from __future__ import annotations

from automation.campaign.model import StepResult
from automation.errors import CellProblem
from automation.steps.bf.common import note, step_ladder
from automation.steps.bf.state import BFInputs, BFState, ME, Order

STEP = "Combining understrength MEs"
RULE = "2.1.1.3.2"


def casualty_share(state: BFState, me: ME) -> float:
    strength = me.full_strength or me.breakpoint_base
    present = sum(1 for s in state.roster.of_me(me.id) if s.available)
    return 0.0 if strength <= 0 else 1 - present / strength


def why_not(state: BFState, side: str, a_id: str, b_id: str) -> str | None:
    a, b = state.roster.mes.get(a_id), state.roster.mes.get(b_id)
    for me_id, me in ((a_id, a), (b_id, b)):
        if me is None or me.side != side:
            return f"{me_id!r} is not an ME of {side} on the roster"
    assert a is not None and b is not None
    if a_id == b_id:
        return "an ME cannot combine with itself"
    same = a.me_class == b.me_class and a.me_type == b.me_type
    if not same and not (a.me_class == "I" and b.me_class == "I"):
        return (f"{a_id} ({a.me_class}, {a.me_type}) and {b_id} ({b.me_class}, {b.me_type}) are neither of identical "
                "class and type nor both I class")
    for me in (a, b):
        share = casualty_share(state, me)
        if share < 0.5:
            return f"{me.id} has {share:.0%} casualties; both MEs need 50% or more"
    return None


def check(inputs: BFInputs, state: BFState, side: str, orders: tuple[Order, ...]) -> tuple[list[CellProblem], int]:
    problems = []
    used: set[str] = set()
    for o in orders:
        if o.kind != "Combine":
            continue
        a, b = str(o.subject or ""), str(o.value or "")
        why = why_not(state, side, a, b)
        if why:
            problems.append(o.at("Subject").problem(f"Combine: {why}"))
        for me in (a, b):
            if me in used:
                problems.append(o.at("Subject").problem(f"Combine: {me} is already combined by another order"))
            used.add(me)
    return problems, 0


def run(state: BFState, inputs: BFInputs, dice) -> StepResult[BFState]:
    entries = []
    ladder = inputs.discipline_ladder
    for side in inputs.side_names:
        for o in (inputs.spend.get(side) or ()):
            if o.kind != "Combine":
                continue
            a_id, b_id = str(o.subject), str(o.value)
            roster = state.roster
            a, b = roster.mes[a_id], roster.mes[b_id]
            stands = [s for s in roster.of_me(a_id) + roster.of_me(b_id)]
            best = max((s.discipline for s in stands if s.available), key=ladder.index, default=stands[0].discipline)
            rating = step_ladder(ladder, best, -1)
            commands = [s for s in stands if s.kind == "Command"]
            drop = {s.id for s in commands[1:]}
            kept = [s.with_(me=a_id, discipline=rating) for s in stands if s.id not in drop]
            present = sum(1 for s in kept if s.available)
            new_me = a.with_(breakpoint_base=present, losses_today=0, full_strength=present, discipline=rating)
            roster = roster.remove_me(b_id).remove_me(a_id)
            roster = roster.with_me(new_me).add_stands(kept)
            state = state.with_(roster=roster)
            bp = new_me.breakpoints()
            entries.append(note(STEP, RULE, f"{b_id} joins {a_id}: discipline {rating} (one worse than {best}); "
                                f"{len(drop)} command stand(s) dropped; {present} stands, breakpoints {bp[0]}/{bp[1]}/{bp[2]}; "
                                f"{b_id} still counts against RG {b.rg or '-'}", side, a_id, visible=side))
    return StepResult(state, tuple(entries))

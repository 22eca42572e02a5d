"""2.1.1.3.2 Combining understrength MEs, on a side's request (Spend sheet:
Combine, Subject = the ME that stays, Value = the ME that joins it): two MEs
of identical class and unit type, or any two I class MEs, each having
suffered 50% or more casualties (stands in play against its full strength),
form one ME. Its discipline is one worse than the better of the two; one
command stand is kept; the absorbed ME leaves the roster but still counts
against its RG's campaign total; the new ME's breakpoints are recomputed."""
from __future__ import annotations

from automation.campaign.model import StepResult
from automation.errors import CellProblem
from automation.steps.bf.common import NO_RATING, Cost, counts_in_size, me_rating, me_size, note, step_ladder
from automation.steps.bf.state import BFInputs, BFState, ME, Order

STEP = "Combining understrength MEs"
RULE = "2.1.1.3.2"


def casualty_share(state: BFState, me: ME) -> float:
    strength = me.full_strength or me.breakpoint_base
    present = me_size(state.roster, me.id)
    return 0.0 if strength <= 0 else 1 - present / strength


def why_not(state: BFState, side: str, a_id: str, b_id: str) -> str | None:
    """None if the two MEs may combine; else why not."""
    if not a_id or not b_id:
        return "name the ME that stays in Subject and the ME that joins it in Value"
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
            strength = me.full_strength or me.breakpoint_base
            present = me_size(state.roster, me.id)
            return (f"{me.id} has {present} of {strength} stands ({share:.0%} casualties); "
                    "both MEs need 50% or more casualties")
    return None


def pairs(inputs: BFInputs, side: str) -> list[tuple[Order, str, str]]:
    return [(o, str(o.subject or "").strip(), str(o.value or "").strip())
            for o in (inputs.spend.get(side) or ()) if o.kind == "Combine"]


def any_eligible(state: BFState, side: str) -> bool:
    """Could this side combine any two of its MEs now?"""
    mine = sorted(m for m, me in state.roster.mes.items() if me.side == side)
    return any(why_not(state, side, a, b) is None for i, a in enumerate(mine) for b in mine[i + 1:])


def check(inputs: BFInputs, state: BFState, side: str, orders: tuple[Order, ...]) -> tuple[list[CellProblem], list[Cost]]:
    problems = []
    used: set[str] = set()
    for o in orders:
        if o.kind != "Combine":
            continue
        a, b = str(o.subject or "").strip(), str(o.value or "").strip()
        why = why_not(state, side, a, b)
        if why:
            problems.append(o.at("Subject").problem(f"Combine: {why} ({RULE})"))
        for me in (a, b):
            if me and me in used:
                problems.append(o.at("Subject").problem(f"Combine: {me} is already combined by another order"))
            used.add(me)
    return problems, []


def run(state: BFState, inputs: BFInputs, dice) -> StepResult[BFState]:
    entries = []
    ladder = inputs.discipline_ladder
    for side in inputs.side_names:
        for _, a_id, b_id in pairs(inputs, side):
            roster = state.roster
            gone = [m for m in (a_id, b_id) if m not in roster.mes]
            if gone:
                entries.append(note(STEP, RULE, f"{a_id} and {b_id} do not combine: {', '.join(gone)} left the roster "
                                    "in this refit (withdrawn, 2.1.1.2)", side, a_id, visible=side))
                continue
            a, b = roster.mes[a_id], roster.mes[b_id]
            stands = roster.of_me(a_id) + roster.of_me(b_id)
            best = max((me_rating(roster, m, ladder) for m in (a, b)), key=lambda r: ladder.index(r) if r in ladder else -1)
            rating = step_ladder(ladder, best, -1)
            commands = [s for s in stands if s.kind == "Command"]
            drop = [s.id for s in commands[1:]]
            kept = [s.with_(me=a_id, discipline=rating if s.kind not in NO_RATING else s.discipline)
                    for s in stands if s.id not in drop]
            present = sum(1 for s in kept if s.available and counts_in_size(s))
            new_me = a.with_(breakpoint_base=present, losses_today=0, full_strength=present, discipline=rating)
            roster = roster.remove_me(b_id).remove_me(a_id).with_me(new_me).add_stands(kept)
            state = state.with_(roster=roster)
            bp = new_me.breakpoints()
            dropped = f"command stand(s) {', '.join(drop)} dropped (one kept)" if drop else "no second command stand to drop"
            entries.append(note(STEP, RULE, f"{b_id} joins {a_id}: discipline {rating} (one worse than the best, {best}); "
                                f"{dropped}; {present} stands, breakpoints {bp[0]}/{bp[1]}/{bp[2]} (25/50/75%); "
                                f"{b_id} still counts against RG {b.rg or '-'}'s campaign total", side, a_id, visible=side))
    return StepResult(state, tuple(entries))

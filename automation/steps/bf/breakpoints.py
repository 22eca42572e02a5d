"""2.1.1.3.2 Recalculating breakpoints: at the beginning of each new day (the
day's first scenario) every non-isolated ME starts in "no losses" status with
new 25/50/75% breakpoints from its stands in play; earlier losses no longer
count. Isolated MEs, and MEs before afternoon and night scenarios, keep the
day's losses and breakpoints. (Combining recomputes the new ME's breakpoints
itself, 2.1.1.3.2.) MEs of OBA modules, aircraft or fortifications have none. Soft-skin transport
is not part of an ME's size (house rules 26)."""
from __future__ import annotations

from automation.campaign.model import StepResult
from automation.steps.bf.common import NO_RATING, counts_in_size, note
from automation.steps.bf.state import BFInputs, BFState
from automation.steps.bf.withdrawal import me_isolated

STEP = "Breakpoints"
RULE = "2.1.1.3.2"


def run(state: BFState, inputs: BFInputs, dice) -> StepResult[BFState]:
    if not inputs.date.starts_day:
        return StepResult(state, (note(STEP, RULE, f"{inputs.date.part.value} scenario: breakpoints and the day's losses carry on"),))
    roster = state.roster
    entries = []
    renewed = []
    for me_id, me in sorted(roster.mes.items()):
        stands = [s for s in roster.of_me(me_id) if s.kind not in NO_RATING]
        if not stands:
            continue
        if me_isolated(state, me_id):
            entries.append(note(STEP, RULE, f"isolated: breakpoints not recomputed ({me.losses_today} losses so far count)",
                                me.side, me_id, visible=me.side))
            continue
        present = sum(1 for s in stands if s.available and counts_in_size(s))
        new = me.with_(breakpoint_base=present, losses_today=0, full_strength=me.full_strength or present)
        renewed.append(new)
        a, b, c = new.breakpoints()
        entries.append(note(STEP, RULE, f"new day, no losses: {present} stand{'s' if present != 1 else ''} in play"
                            f"{' (soft transport not counted)' if any(s.kind == 'Soft vehicle' for s in stands) else ''}, "
                            f"breakpoints at {a}/{b}/{c} losses (25/50/75%)", me.side, me_id, visible=me.side))
    return StepResult(state.with_(roster=roster.with_mes(renewed)), tuple(entries))

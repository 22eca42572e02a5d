"""2.1.1.3.2 Recalculating breakpoints: before each day's first scenario every
non-isolated ME starts the day with no losses and new 25/50/75% breakpoints
from its present stands. Isolated MEs, and afternoon and night scenarios, keep
the day's losses."""
from __future__ import annotations

from automation.campaign.model import StepResult
from automation.steps.bf.common import note
from automation.steps.bf.state import BFInputs, BFState
from automation.steps.bf.withdrawal import me_isolated

STEP = "Breakpoints"
RULE = "2.1.1.3.2"


def run(state: BFState, inputs: BFInputs, dice) -> StepResult[BFState]:
    if not inputs.date.starts_day:
        return StepResult(state, (note(STEP, RULE, f"{inputs.date.part.value} scenario: breakpoints and the day's losses carry on"),))
    roster = state.roster
    entries = []
    for me_id, me in sorted(roster.mes.items()):
        if me_isolated(state, me_id):
            entries.append(note(STEP, RULE, "isolated: breakpoints not recomputed", me.side, me_id, visible=me.side))
            continue
        present = sum(1 for s in roster.of_me(me_id) if s.available and s.kind != "Fortification")
        new = me.with_(breakpoint_base=present, losses_today=0, full_strength=me.full_strength or present)
        roster = roster.with_me(new)
        a, b, c = new.breakpoints()
        entries.append(note(STEP, RULE, f"{present} stands: breakpoints at {a}/{b}/{c} losses (25/50/75%)", me.side, me_id, visible=me.side))
    return StepResult(state.with_(roster=roster), tuple(entries))

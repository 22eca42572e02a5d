"""2.1.2 Scenario length: turns 1-10 are always played; from turn 11 the turn
record chart's d10 may end the scenario. The rolls for turns 11-20 are derived
now (for the umpire's eyes) so the length is fixed and auditable; any single
roll can also be called with `musterroll roll bf.scenario_turn_end --column
"Turn 11" ...` or from the dice desk."""
from __future__ import annotations

from automation.campaign.model import UMPIRE, StepResult
from automation.steps.bf.common import note, rolled
from automation.steps.bf.state import BFInputs, BFState

STEP = "Scenario length"
RULE = "2.1.2"


def run(state: BFState, inputs: BFInputs, dice) -> StepResult[BFState]:
    if not state.scenario:
        return StepResult(state, (note(STEP, RULE, "no scenario this date"),))
    entries = []
    for turn in range(11, 21):
        column = f"Turn {turn}"
        result = dice.roll("bf.scenario_turn_end", ("turn-end", column), column=column)
        entries.append(rolled(STEP, RULE, None, column, result, visible=UMPIRE))
        if result.effect.get("ends"):
            entries.append(note(STEP, RULE, f"unless both players stop sooner, the scenario ends at the start of turn {turn}", visible=UMPIRE))
            break
    return StepResult(state, tuple(entries))

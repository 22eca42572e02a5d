"""2.1.1.6 Reveal posture: once the refit phase is done, both sides reveal the
posture they chose for the coming scenario, and who attacks."""
from __future__ import annotations

from automation.campaign.model import ALL, StepResult
from automation.steps.bf.common import note
from automation.steps.bf.state import BFInputs, BFState

STEP = "Reveal posture"
RULE = "2.1.1.6"


def run(state: BFState, inputs: BFInputs, dice) -> StepResult[BFState]:
    chosen = "; ".join(f"{s} {state.postures[s]}" for s in inputs.side_names if s in state.postures)
    outcome = f"attacker {state.attacker}" if state.attacker else "both defend: no scenario is played"
    return StepResult(state, (note(STEP, RULE, f"postures revealed: {chosen}: {outcome}", None, "posture", visible=ALL),))

"""9.606 Encircled-Marker Removal: every Encircled marker comes off."""
from __future__ import annotations

from automation.campaign.model import StepResult
from automation.steps.abtf.common import note, pausable
from automation.steps.abtf.state import ABtFInputs, ABtFState

STEP = "Encircled-Marker Removal"
RULE = "9.606"


@pausable
def run(state: ABtFState, inputs: ABtFInputs, dice) -> StepResult[ABtFState]:
    marked = [u for u in state.units if u.has("Encircled")]
    state = state.put(*(u.flagged(remove=("Encircled",)) for u in marked))
    text = f"Encircled markers removed from {', '.join(u.id for u in marked)}" if marked else "no Encircled marker left"
    return StepResult(state, (note(STEP, RULE, text),))

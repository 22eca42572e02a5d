"""9.608 Prisoners: every prisoner is removed from play (no CVP); every unarmed
unit with no Guard is Rearmed (A20.551) where it is, a Friendly Setup Area
after 9.605 (no Escape DR)."""
from __future__ import annotations

from automation.campaign.model import StepResult
from automation.steps.abtf.common import note, pausable
from automation.steps.abtf.state import ABtFInputs, ABtFState, Removal

STEP = "Prisoners"
RULE = "9.608"


@pausable
def run(state: ABtFState, inputs: ABtFInputs, dice) -> StepResult[ABtFState]:
    entries = []
    for u in [u for u in state.units if u.has("Prisoner")]:
        state = state.drop([u.id]).with_(removed=state.removed + (Removal(u, RULE, "prisoner removed from play", None, 0),))
        entries.append(note(STEP, RULE, f"prisoner of {u.holder or 'the enemy'}: removed from play (no CVP)", u.side, u.id))
    for u in [u for u in state.units if u.has("Unarmed")]:
        state = state.put(u.flagged(remove=("Unarmed",)))
        entries.append(note(STEP, RULE, f"unarmed with no Guard: Rearmed and Retained in {u.area}", u.side, u.id))
    if not entries:
        entries.append(note(STEP, RULE, "no prisoner and no unarmed unit"))
    return StepResult(state, tuple(entries))

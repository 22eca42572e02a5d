"""9.616 CPP Replenishment: each side receives the CPP Base # of the new CG
Date (the CG Dates sheet, 9.6161) plus a secret DR (9.6162), added to the CPP it
had left."""
from __future__ import annotations

from automation.campaign.model import StepResult
from automation.steps.abtf.common import note, pausable, rolled
from automation.steps.abtf.state import SIDES, ABtFInputs, ABtFState

STEP = "CPP Replenishment"
RULE = "9.616"


@pausable
def run(state: ABtFState, inputs: ABtFInputs, dice) -> StepResult[ABtFState]:
    entries = []
    for side in SIDES:
        base = inputs.date.cpp.get(side, 0)
        r = dice.roll("abtf.cpp_variable_arrival", ("9.616", side))
        gained = base + int(r.effect["cpp"])
        had = state.records[side].cpp_left
        entries.append(note(STEP, "9.6161", f"CPP Base # for {inputs.date.label}: {base}", side, side, visible=side))
        entries.append(rolled(STEP, "9.6162", side, side, r, f"+{r.effect['cpp']} Variable Arrival Points: {gained} CPP "
                                                             f"replenished; {had} + {gained} = {had + gained}", visible=side))
        state = state.record(side, cpp_replenished=gained, cpp_left=had + gained)
    return StepResult(state, tuple(entries))

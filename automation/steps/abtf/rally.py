"""+9.603 Rally and Unloading: every broken unit rallies (no DR) and every
Passenger/Rider is unloaded (checklist). CG Scenario End has then occurred:
each side's final CVP of the scenario is recorded from the umpire's entries,
for CG Victory (9.51) and ELR Loss/Gain (9.6202)."""
from __future__ import annotations

from automation.campaign.model import StepResult
from automation.errors import CellProblem, WorkbookError
from automation.steps.abtf.common import note, pausable, wait_umpire
from automation.steps.abtf.state import ELIMINATED_IN_PLAY, SIDES, ABtFInputs, ABtFState

STEP = "Rally and Unloading"
RULE = "9.603"


@pausable
def run(state: ABtFState, inputs: ABtFInputs, dice) -> StepResult[ABtFState]:
    entries = [note(STEP, RULE, "all broken units rally, even if Disrupted (no DR)"),
               note(STEP, RULE, "Passengers, Riders and their Equipment are unloaded/unhooked into the vehicle's Location "
                                "(one unloading into an A-P minefield is not attacked now; 9.6042 applies)")]
    problems: list[CellProblem] = []
    cvp: dict[str, int] = {}
    for e in inputs.umpire_lines("Final CVP"):
        if e.subject not in SIDES:
            problems.append(e.at("Subject").problem(f"Final CVP: {e.subject!r} is not a side; valid: {', '.join(SIDES)}"))
        elif not isinstance(e.value, int) or e.value < 0:
            problems.append(e.at("Value").problem(f"Final CVP: {e.value!r} is not a CVP total (a whole number, 0 or more)"))
        elif e.subject in cvp:
            problems.append(e.at("Subject").problem(f"Final CVP: the {e.subject} total is entered twice"))
        else:
            cvp[e.subject] = e.value
    if problems:
        raise WorkbookError(problems)
    missing = [side for side in SIDES if side not in cvp]
    if missing:  # every side still to give, in one line
        raise wait_umpire(inputs, f"Final CVP of the {' and the '.join(missing)} for the scenario just ended", STEP)
    for r in state.removed:
        if r.why == ELIMINATED_IN_PLAY:
            entries.append(note(STEP, RULE, "eliminated in play (End sheet): its CVP are in the Final CVP", r.unit.side,
                                r.unit.id))
    for side in SIDES:
        state = state.record(side, final_cvp=cvp[side])
        entries.append(note(STEP, RULE, f"CG Scenario End: final CVP {cvp[side]}", side, side))
    return StepResult(state.with_(final_cvp=cvp), tuple(entries))

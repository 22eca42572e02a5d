"""†9.6215 First Move Determination for a Dual Assault (9.62133a).

In a Dual Assault the side moving first is determined only after all setup is
complete: the refit writes the new CG Date's roster with the setup order, waits
for the umpire's Setup sheet saying both sides have set up (9.6214), then the
German makes the dr (≤ 4 the German moves first, ≥ 5 the British) in a third
stage of the date's report. German and British Assaults take the order from
9.62133 b/c, so nothing happens here for them."""
from __future__ import annotations

from automation.campaign.model import UMPIRE, StepResult, Waiting
from automation.errors import CellProblem, WorkbookError
from automation.steps.abtf.common import Pause, note, pausable, rolled
from automation.steps.abtf.state import BRITISH, GERMAN, SIDES, ABtFInputs, ABtFState
from automation.workbook import abtf_sheets as K

STEP = "First Move Determination"
RULE = "9.6215"
DUAL_ASSAULT = "Dual Assault"
PENDING = "first move by dr after all setup (9.6215)"  # CG Roster Notes until this step has rolled


def setup_sheet(inputs: ABtFInputs) -> str:
    return inputs.sheet_names.get("setup", K.SETUP.name_for(date=inputs.date.label))


def set_up(inputs: ABtFInputs) -> list[str]:
    """The sides the Setup sheet says have set up; its problems raised at their cells."""
    problems: list[CellProblem] = []
    done: list[str] = []
    for e in inputs.setup or ():
        if e.subject not in SIDES:
            problems.append(e.at("Side").problem(f"Setup: {e.subject!r} is not a side; valid: {', '.join(SIDES)}"))
        elif str(e.value) == "Yes":
            done.append(e.subject)
    if problems:
        raise WorkbookError(problems)
    return done


@pausable
def run(state: ABtFState, inputs: ABtFInputs, dice) -> StepResult[ABtFState]:
    if state.records[BRITISH].scenario != DUAL_ASSAULT:
        return StepResult(state)
    done = set_up(inputs)
    missing = [s for s in SIDES if s not in done]
    if missing:
        raise Pause(Waiting(UMPIRE, f"Set up: Yes for each side once all setup is complete ({', '.join(missing)} not yet; "
                                    "9.6214); the first move of the Dual Assault is rolled after it (9.6215)",
                            setup_sheet(inputs), STEP))
    r = dice.roll("abtf.first_move", ("9.6215", GERMAN))
    first = str(r.effect["moves_first"])
    entries = [note(STEP, "9.6214", "both sides have set up: the first move of the Dual Assault is determined now"),
               rolled(STEP, RULE, GERMAN, "First move", r, f"{r.result} (determined after all setup)")]
    return StepResult(state.with_(next_scenario={**state.next_scenario, "moves first": first}), tuple(entries))

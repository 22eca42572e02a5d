"""+9.601 Conclusion of Melee (with 9.6011): a map-only step. The refit needs
the units as they stand at CG Scenario End (the End sheet); the umpire lists
each Location still in Melee, and the report gives them as a checklist in
alphanumeric order (A1, then B16, B17, C19 ...)."""
from __future__ import annotations

import re

from automation.campaign.model import UMPIRE, StepResult, Waiting
from automation.steps.abtf.common import note, pausable
from automation.steps.abtf.state import ABtFInputs, ABtFState, Mode

STEP = "Conclusion of Melee"
RULE = "9.601"


def alphanumeric(location: str) -> tuple:
    """'B16' sorts after 'B2' and before 'C1' (9.6011)."""
    return tuple((0, int(p)) if p.isdigit() else (1, p.upper()) for p in re.findall(r"\d+|\D+", location.strip()))


def need_end(state: ABtFState, inputs: ABtFInputs) -> Waiting | None:
    if inputs.mode in (Mode.SCENARIO, Mode.FINAL) and inputs.end_units is None:
        sheet = inputs.sheet_names.get("end", "End")
        return Waiting(UMPIRE, f"the units at CG Scenario End of {inputs.previous.label if inputs.previous else ''} "
                               "(every unit, one row each, as it stood: change what the scenario changed)", sheet, STEP)
    return None


@pausable
def run(state: ABtFState, inputs: ABtFInputs, dice) -> StepResult[ABtFState]:
    waiting = need_end(state, inputs)
    if waiting:
        return StepResult(state, (), waiting)
    entries = [note(STEP, RULE, "Climbing units are placed in the Location they were climbing to or from (owner's "
                                "choice); Locations with opposing units are in Melee (the side that moved first attacks)")]
    melees = sorted(inputs.umpire_lines("Melee"), key=lambda e: alphanumeric(e.subject or ""))
    for n, e in enumerate(melees, start=1):
        outcome = f": {e.value}" if e.value not in (None, "") else ""
        entries.append(note(STEP, "9.6011", f"Melee {n} of {len(melees)} in {e.subject}{outcome}; after the first round "
                                            "concealment, pins, CX, Motion go and Stun flips to +1", subject=e.subject or ""))
    if not melees:
        entries.append(note(STEP, "9.6011", "no Melee at CG Scenario End"))
    return StepResult(state, tuple(entries))

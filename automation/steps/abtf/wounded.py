"""9.610 Wounded Leaders and Walking Wounded MMC.

9.6101: one dr per wounded, Retained leader on the Wounded Leader Table
(British and Heroic drm): unwounded, still wounded, or eliminated (CVP to the
enemy). 9.6102: the British Walking Wounded MMC recovered under SSR CG 19 (not
in the seed) are the umpire's Walking Wounded entries: each names a unit in the
Walking Wounded Box and the Friendly Setup Area it is placed in."""
from __future__ import annotations

from automation.campaign.model import StepResult
from automation.engine.resolver import Situation
from automation.errors import CellProblem, WorkbookError
from automation.steps.abtf.common import eliminate, friendly_areas, note, pausable, rolled
from automation.steps.abtf.state import BRITISH, ABtFInputs, ABtFState
from automation.workbook import abtf_sheets as K

STEP = "Wounded Leaders and Walking Wounded"
RULE = "9.610"


@pausable
def run(state: ABtFState, inputs: ABtFInputs, dice) -> StepResult[ABtFState]:
    entries = []
    for u in [u for u in state.units if u.is_leader and u.has("Wounded") and u.area != K.WW_BOX]:
        conditions = frozenset({"heroic"} if u.has("Heroic") else ())
        r = dice.roll("abtf.wounded_leader", ("9.6101", u.side, u.id), Situation(conditions), u.side)
        entries.append(rolled(STEP, "9.6101", u.side, u.id, r))
        if r.effect.get("outcome") == "eliminated":
            state, more = eliminate(state, inputs, u, "9.6101", "Wounded Leader Table", STEP)
            entries += more
        elif not r.effect.get("wounded"):
            state = state.put(u.flagged(remove=("Wounded",)))
    problems: list[CellProblem] = []
    for e in inputs.umpire_lines("Walking Wounded"):
        u = state.unit(e.subject)
        valid = friendly_areas(state, BRITISH, entry=False)
        if u is None or u.side != BRITISH or u.area != K.WW_BOX or not u.is_mmc:
            problems.append(e.at("Subject").problem(f"Walking Wounded: {e.subject!r} is not a British MMC in the {K.WW_BOX}"))
        elif e.area not in valid:
            problems.append(e.at("Area").problem(f"Walking Wounded: {e.area!r} is not a British Setup Area; valid: {', '.join(valid)}"))
        else:
            state = state.put(u.with_(area=e.area, location=None).flagged(add=("Walking Wounded",)))
            entries.append(note(STEP, "9.6102", f"Walking Wounded MMC recovered (SSR CG 19): placed in {e.area}", BRITISH, u.id))
    if problems:
        raise WorkbookError(problems)
    if not entries:
        entries.append(note(STEP, RULE, "no wounded leader; no Walking Wounded MMC recovered"))
    return StepResult(state, tuple(entries))

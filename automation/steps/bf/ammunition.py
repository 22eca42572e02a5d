"""2.1.1.3.3 Ammunition: a stand beginning the scenario cut off rolls for
ammunition shortage whenever it fires (the in-game roll is table
bf.ammunition, from the dice desk or `musterroll roll`); a unit beginning in
normal status recovers from every ammunition restriction."""
from __future__ import annotations

from automation.campaign.model import StepResult
from automation.steps.bf.common import note
from automation.steps.bf.state import BFInputs, BFState, Situation

STEP = "Ammunition"
RULE = "2.1.1.3.3"


def run(state: BFState, inputs: BFInputs, dice) -> StepResult[BFState]:
    changed = []
    entries = []
    for s in state.roster.stands:
        if not s.available:
            continue
        if s.situation is Situation.CUT_OFF and s.ammunition == "Normal":
            changed.append(s.with_(ammunition="Roll when firing"))
            entries.append(note(STEP, "2.1.1.3.3.1", "begins cut off: rolls for ammunition shortage each time it fires (bf.ammunition)", s.side, s.id, visible=s.side))
        elif s.situation is Situation.NORMAL and s.ammunition != "Normal":
            changed.append(s.with_(ammunition="Normal"))
            entries.append(note(STEP, "2.1.1.3.3.3", "begins in normal status: recovers from ammunition restrictions", s.side, s.id, visible=s.side))
    return StepResult(state.with_(roster=state.roster.replace_stands(changed)), tuple(entries))

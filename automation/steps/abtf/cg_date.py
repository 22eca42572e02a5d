"""9.612 New CG Date and SAN Adjustment.

9.6121: this RePh step starts the new CG Date (the next of the CG Dates sheet:
17N, 18AM, 18PM, 18EVE, 18N ... 21EVE). 9.6122: a SAN below the minimum (2) is
raised to it at no CPP cost; a British SAN of 4 or more (9.61221) or a German
SAN of 5 or more (9.61222) then makes a SAN adjustment dr, +drm the SAN minus
4 (British) or 5 (German); a final dr of 4 or more lowers the SAN by two."""
from __future__ import annotations

from automation.campaign.model import StepResult
from automation.engine.resolver import Situation
from automation.steps.abtf.common import note, pausable, rolled
from automation.steps.abtf.state import BRITISH, SIDES, ABtFInputs, ABtFState

STEP = "New CG Date and SAN"
RULE = "9.612"


@pausable
def run(state: ABtFState, inputs: ABtFInputs, dice) -> StepResult[ABtFState]:
    after = f" (after {inputs.previous.label})" if inputs.previous else ""
    period = "a Night CG Date" if inputs.date.night else "a daylight CG Date"
    entries = [note(STEP, "9.6121", f"new CG Date {inputs.date.label}{after}: {period}, Campaign Exhaustion DRM "
                                    f"{inputs.date.exhaustion:+d}")]
    lowest = inputs.setting("abtf.san_minimum")
    for side in SIDES:
        san = state.records[side].san
        if san < lowest:
            entries.append(note(STEP, "9.6122", f"SAN {san} is below {lowest}: raised to {lowest} (no CPP)", side, side))
            san = lowest
        threshold = inputs.setting("abtf.british_san_check_from" if side == BRITISH else "abtf.german_san_check_from")
        rule = "9.61221" if side == BRITISH else "9.61222"
        if san >= threshold:
            r = dice.roll("abtf.san_adjustment", ("9.6122", side), Situation.of(san=san), side)
            change = int(r.effect.get("san", 0))
            entries.append(rolled(STEP, rule, side, side, r, f"{r.result}: SAN {san} -> {san + change}"))
            san += change
        else:
            entries.append(note(STEP, rule, f"SAN {san} is below {threshold}: no SAN adjustment dr", side, side))
        state = state.record(side, san=san)
    return StepResult(state, tuple(entries))

"""9.615 OB-Given Reinforcements (9.6151, 9.6152).

First, reinforcements that were due in the CG Scenario just played and never
entered or set up (their units still marked "Not entered") are eliminated with
normal CVP (9.6151; nothing happens after an Idle CG Date). Then the
Reinforcement Schedule's lines for the new CG Date apply: an RG is received
(outside the CG Date and CG maximums; strength, leader and SW come at 9.618)
with its Entry Area and first turn; a SAN change is made within the scheduled
maximum (7) or minimum (2); FPP are added."""
from __future__ import annotations

from automation.campaign.model import StepResult
from automation.steps.abtf.common import eliminate, note, pausable
from automation.steps.abtf.state import ABtFInputs, ABtFState, Mode

STEP = "OB-Given Reinforcements"
RULE = "9.615"


@pausable
def run(state: ABtFState, inputs: ABtFInputs, dice) -> StepResult[ABtFState]:
    entries = []
    if inputs.mode is Mode.SCENARIO:
        for u in [u for u in state.units if u.has("Not entered")]:
            state, more = eliminate(state, inputs, u, "9.6151", "did not enter or set up in the CG Scenario it was due in",
                                    STEP, equipment="eliminated")
            entries += more
    received = list(state.ob_given)
    for r in [r for r in inputs.reinforcements if r.date == inputs.date.label]:
        if r.kind == "RG":
            chart = inputs.rg_charts.get((r.side, r.item, r.kg if r.side == "German" else None))
            name = f"{r.item}({r.kg})" if r.kg else r.item
            what = f" {chart.group_type}" if chart else ""
            where = r.entry or "as the schedule says"
            turn = f" on/after Turn {r.from_turn}" if r.from_turn else ""
            entries.append(note(STEP, "9.6152", f"OB-given RG {name}{what} x{r.amount}: enters {where}{turn}; outside the RG "
                                                "limits; Strength, Leader and SW at 9.618; eliminated unless it enters in the "
                                                "next non-Idle CG Scenario", r.side, name))
            received.append(r)
        elif r.kind == "SAN":
            san = state.records[r.side].san
            top = r.san_max if r.san_max is not None else inputs.setting("abtf.reinforcement_san_maximum")
            bottom = r.san_min if r.san_min is not None else inputs.setting("abtf.reinforcement_san_minimum")
            new = san + r.amount
            new = min(new, top) if r.amount > 0 else max(new, bottom)
            if r.amount > 0 and san > top:
                new = san
            if r.amount < 0 and san < bottom:
                new = san
            bound = f"maximum {top}" if r.amount > 0 else f"minimum {bottom}"
            entries.append(note(STEP, "9.6152", f"SAN {r.amount:+d} ({bound}): SAN {san} -> {new}", r.side, r.item))
            state = state.record(r.side, san=new)
        elif r.kind == "FPP":
            fpp = state.records[r.side].fpp
            entries.append(note(STEP, "9.6152", f"{r.amount} FPP received ({r.entry or 'for the fortification step'}): "
                                                f"FPP {fpp} -> {fpp + r.amount}", r.side, r.item))
            state = state.record(r.side, fpp=fpp + r.amount)
    if not entries:
        entries.append(note(STEP, RULE, f"no OB-given reinforcement on {inputs.date.label}"))
    return StepResult(state.with_(ob_given=tuple(received)), tuple(entries))

"""†9.620 Ammunition Shortage and ELR Loss/Gain Determination.

9.6201: from the CG Date the settings name (19AM) on, unless the previous CG
Date was Idle, the British roll for Ammunition Shortage (+ Campaign Exhaustion,
+ British Attack Chits of the CG less one): 10 or more raises the Level by one.
9.6202: each side rolls on the ELR Loss/Gain Chart: -1 per 30 CVP (FRD) of enemy
units it eliminated in the last CG Scenario (after an Idle CG Date still the
last one played) and this RePh, -3 per Idle CG Date
since the last CG Scenario, +1 per CG Scenario and per Attack Chit of the side
since the last Idle CG Date, + Campaign Exhaustion (British) or half of it FRD
(German), + the British Ammunition Shortage Level. The Campaign Exhaustion DRM
is that of the CG Dates sheet for the current CG Date."""
from __future__ import annotations

from automation.campaign.model import StepResult
from automation.engine.resolver import Situation
from automation.steps.abtf.common import note, pausable, rolled
from automation.steps.abtf.state import BRITISH, SIDES, ABtFInputs, ABtFState, Mode, SideRecord

STEP = "Ammunition Shortage and ELR"
RULE = "9.620"


def since_idle(history: list[SideRecord]) -> list[SideRecord]:
    """The side's CG Roster lines after its last Idle CG Date."""
    last = max((i for i, r in enumerate(history) if not r.played), default=-1)
    return history[last + 1:]


def idle_since_scenario(history: list[SideRecord]) -> int:
    n = 0
    for r in reversed(history):
        if r.played:
            break
        n += 1
    return n


def last_scenario_cvp(state: ABtFState, inputs: ABtFInputs, side: str, history: list[SideRecord]) -> int:
    """The CVP the side earned in the last CG Scenario played: this RePh's Final
    CVP, or after an Idle CG Date the Final CVP recorded for that scenario."""
    if inputs.mode is not Mode.IDLE:
        return state.final_cvp.get(side, 0)
    return next((r.final_cvp for r in reversed(history) if r.final_cvp is not None), 0)


def elr_situation(state: ABtFState, inputs: ABtFInputs, side: str) -> Situation:
    history = [r for r in state.history if r.side == side]
    recent = since_idle(history)
    quantities = {
        "enemy_cvp": last_scenario_cvp(state, inputs, side, history) + state.reph_cvp.get(side, 0),
        "idle_cg_dates": idle_since_scenario(history),
        "cg_scenarios_since_idle": len(recent),
        "attack_chits_since_idle": sum(1 for r in recent if r.chit == "Attack"),
        "campaign_exhaustion": inputs.date.exhaustion,
    }
    if side == BRITISH:
        quantities["ammunition_shortage_level"] = state.records[side].shortage
    return Situation(quantities=quantities)


@pausable
def run(state: ABtFState, inputs: ABtFInputs, dice) -> StepResult[ABtFState]:
    entries = []
    start = next((d for d in inputs.dates if d.label == inputs.setting("abtf.ammunition_shortage_from")), None)
    level = state.records[BRITISH].shortage
    if start is not None and inputs.date.order >= start.order and inputs.mode is not Mode.IDLE:
        situation = Situation(quantities={"campaign_exhaustion": inputs.date.exhaustion,
                                          "attack_chits": state.records[BRITISH].attack_chits})
        r = dice.roll("abtf.ammunition_shortage", ("9.6201", BRITISH), situation)
        level += int(r.effect.get("shortage_level", 0))
        entries.append(rolled(STEP, "9.6201", BRITISH, BRITISH, r, f"{r.result}: Ammunition Shortage Level {level}"))
        state = state.record(BRITISH, shortage=level)
    else:
        why = "the previous CG Date was Idle" if inputs.mode is Mode.IDLE else f"before {inputs.setting('abtf.ammunition_shortage_from')}"
        entries.append(note(STEP, "9.6201", f"no Ammunition Shortage DR: {why} (Level {level})", BRITISH, BRITISH))
    for side in SIDES:
        r = dice.roll("abtf.elr_change", ("9.6202", side), elr_situation(state, inputs, side), side)
        elr = state.records[side].elr + int(r.effect.get("elr", 0))
        entries.append(rolled(STEP, "9.6202", side, side, r, f"{r.result}: ELR {state.records[side].elr} -> {elr}"))
        state = state.record(side, elr=elr)
    return StepResult(state, tuple(entries))

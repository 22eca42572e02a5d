"""The end of a CG Date's report (after 9.621): each side's CPP spent and left,
its RG Purchase Record lines, fortifications, SAN, ELR and chits used, marked
secret to that side; then the next scenario's type, setup order, first move
and weather for both."""
from __future__ import annotations

from automation.campaign.model import StepResult
from automation.steps.abtf.common import note
from automation.steps.abtf.state import SIDES, ABtFInputs, ABtFState

STEP = "CG Date summary"
RULE = "9.6"


def run(state: ABtFState, inputs: ABtFInputs, dice) -> StepResult[ABtFState]:
    entries = []
    for side in SIDES:
        r = state.records[side]
        entries.append(note(STEP, "9.617", f"CPP spent {r.cpp_spent or 0}, CPP left {r.cpp_left}", side, side, visible=side))
        for line in [x for x in state.rg_lines if x.side == side]:
            parts = [line.group_type, line.strength, line.units, f"SW {line.sw}" if line.sw else "",
                     f"leader {line.leader}" if line.leader else "", "" if line.counts else "outside the limits"]
            entries.append(note(STEP, "9.6178", f"{line.label}: " + ", ".join(p for p in parts if p), side, line.label, visible=side))
        forts = [u for u in state.units if u.side == side and u.cls == "Fortification" and u.notes == "bought 9.619"]
        if forts:
            entries.append(note(STEP, "9.619", "fortifications: " + "; ".join(f"{u.type} in {u.area}" for u in forts), side, side,
                                visible=side))
        entries.append(note(STEP, "9.620", f"SAN {r.san}, ELR {r.elr}" + (f", Ammunition Shortage Level {r.shortage}"
                                                                         if side == "British" else ""), side, side, visible=side))
        entries.append(note(STEP, "9.62132", f"chits used in the CG: Attack {r.attack_chits}, Idle {r.idle_chits}", side, side))
    nxt = state.next_scenario
    if nxt.get("type") and nxt.get("weather"):
        moves = f"first to move: {nxt['moves first']}" if nxt.get("moves first") else \
            "the first move is rolled after all setup (9.6215)"
        entries.append(note(STEP, "9.621", f"next CG Scenario: {nxt['type']}; first to set up: {nxt['sets up first']}; "
                                           f"{moves}; {nxt['weather']}, EC {nxt['EC']}, {nxt['wind']}"))
    elif nxt.get("type"):
        entries.append(note(STEP, "9.621", f"{nxt['type']}: no CG Scenario"))
    return StepResult(state, tuple(entries))

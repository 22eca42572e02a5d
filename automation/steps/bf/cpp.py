"""2.1.1.1 CPP replenishment: one secret roll per side on the CPP
Replenishment Table with the umpire's historical DRM for the date ("No CPP's":
none, and no roll) and the night-attack penalty (2.1.1.1.1) for the side that
attacks at night. CPP carry over: the ledger starts each side's accounts from
the balance left by the previous refit."""
from __future__ import annotations

from automation.campaign.model import StepResult
from automation.engine.resolver import Situation as Facts
from automation.steps.bf.common import note, rolled
from automation.steps.bf.state import BFInputs, BFState

STEP = "CPP replenishment"
RULE = "2.1.1.1"
NO_CPP = ("no cpp's", "no cpps", "no cpp", "no cpp’s")


def no_cpp(drm: object) -> bool:
    return isinstance(drm, str) and drm.strip().lower() in NO_CPP


def run(state: BFState, inputs: BFInputs, dice) -> StepResult[BFState]:
    entries = []
    for side in inputs.side_names:
        state = state.record(side, "CPP", "Start", None, RULE)
        state = state.record(side, "FPP", "Start", None, "2.1.1.5")
        drm = inputs.historical_drm.get((inputs.date.label, side))
        if no_cpp(drm):
            entries.append(note(STEP, RULE, "No CPP's this date (historical DRM chart): no roll, no CPP", side, side, visible=side))
            state = state.book(side, "CPP", "Replenished (No CPP's)", 0, RULE)
            continue
        if isinstance(drm, str):  # the workbook adapter refuses any other text, naming its cell
            raise ValueError(f"historical DRM {drm!r} is neither a whole number nor No CPP's")
        if drm is None:
            entries.append(note(STEP, RULE, f"no historical DRM entered for {inputs.date.label}: none applied", side, side, visible=side))
        conditions = {"attacked_at_night"} if side in state.ledger.night_attackers else set()
        quantities = {"historical_drm": int(drm)} if drm else {}
        result = dice.roll("bf.cpp_replenishment", ("cpp", side), Facts(frozenset(conditions), quantities))
        gained = int(result.effect["cpp"])
        entries.append(rolled(STEP, RULE, side, side, result, f"{result.result} CPP", visible=side))
        state = state.book(side, "CPP", "Replenished", gained, RULE)
    return StepResult(state, tuple(entries))

"""Checks both sides' orders before any die is rolled: each order must name
units of its own side (or a crew/hero the RePh creates), and each Escape stack
or Shift must list its units. Every problem is reported with its Sheet!Cell,
all together; nothing is written (the refit raises WorkbookError)."""
from __future__ import annotations

from automation.campaign.model import StepResult
from automation.errors import CellProblem, WorkbookError
from automation.steps.abtf.common import note
from automation.steps.abtf.state import SIDES, ABtFInputs, ABtFState

STEP = "Orders check"
RULE = "9.6"
DERIVED = (" crew", " hero")  # units the RePh itself creates


def run(state: ABtFState, inputs: ABtFInputs, dice) -> StepResult[ABtFState]:
    problems: list[CellProblem] = []
    entries = []
    for side in SIDES:
        orders = inputs.orders.get(side)
        if orders is None:
            continue
        for o in orders:
            named = list(o.units) if o.kind in ("Escape stack", "Shift") else [o.subject or ""]
            column = "Units" if o.kind in ("Escape stack", "Shift") else "Subject"
            if not any(named):
                problems.append(o.at(column).problem(f"{o.kind}: name the unit(s) it concerns"))
            for uid in named:
                u = state.unit(uid)
                if u is None and not uid.endswith(DERIVED):
                    problems.append(o.at(column).problem(f"{o.kind}: {uid!r} is not a unit on the roster"))
                elif u is not None and u.side != side:
                    problems.append(o.at(column).problem(f"{o.kind}: {uid} is {u.side}, not {side}"))
        entries.append(note(STEP, RULE, f"{len(orders)} order(s) read", side, side, visible=side))
    if problems:
        raise WorkbookError(problems)
    return StepResult(state, tuple(entries))

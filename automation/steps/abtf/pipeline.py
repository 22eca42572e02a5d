"""The ABtF RePh in the seed's order (9.601-9.621), with its markers: "+" steps
alone bring CG Scenario End after the CG's last scenario; "†" steps alone come
before a CG Initial Scenario; after an Idle CG Date 9.612-9.620 are repeated
(9.62132). Stage 1 is part 1 (9.601-9.616), ending with each side's CPP; stage
2 (9.617-9.621: purchases and the next scenario) follows it; stage 3 is a Dual
Assault's first move (9.6215), rolled once the umpire says all setup is done
(the roster of the new CG Date is written before it, as setup needs it)."""
from __future__ import annotations

from automation.campaign.model import Dice, RefitRun, Step, StepResult, run_steps
from automation.steps.abtf import (
    cg_date, commencement, cpp, elr, encircled_markers, encirclement, equipment, escape, first_move, flames, fortifications,
    markers,
    melee, orders_check, prisoners, purchases, rally, recombining, reinforcements, rg_allotment, setup_areas, shift,
    summary, vehicles, weapons, wounded,
)
from automation.steps.abtf.common import note
from automation.steps.abtf.state import ABtFInputs, ABtFState, Mode

PLUS, DAGGER, PLAIN = "+", "†", ""

# (marker, first rule of the step's number, step)
SEQUENCE: tuple[tuple[str, str, Step[ABtFState, ABtFInputs]], ...] = (
    (PLUS, "9.601", Step(melee.STEP, melee.RULE, 1, melee.run)),
    (PLUS, "9.602", Step(markers.STEP, markers.RULE, 1, markers.run)),
    (PLUS, "9.603", Step(rally.STEP, rally.RULE, 1, rally.run)),
    (PLAIN, "9.604", Step(encirclement.STEP, encirclement.RULE, 1, encirclement.run)),
    (PLAIN, "9.605", Step(setup_areas.STEP, setup_areas.RULE, 1, setup_areas.run)),
    (PLAIN, "9.6054", Step(escape.STEP, escape.RULE, 1, escape.run)),
    (PLAIN, "9.606", Step(encircled_markers.STEP, encircled_markers.RULE, 1, encircled_markers.run)),
    (PLAIN, "9.607", Step(equipment.STEP, equipment.RULE, 1, equipment.run)),
    (PLAIN, "9.608", Step(prisoners.STEP, prisoners.RULE, 1, prisoners.run)),
    (PLAIN, "9.609", Step(flames.STEP, flames.RULE, 1, flames.run)),
    (PLAIN, "9.610", Step(wounded.STEP, wounded.RULE, 1, wounded.run)),
    (PLAIN, "9.611", Step(recombining.STEP, recombining.RULE, 1, recombining.run)),
    (PLAIN, "9.612", Step(cg_date.STEP, cg_date.RULE, 1, cg_date.run)),
    (PLAIN, "9.613", Step(shift.STEP, shift.RULE, 1, shift.run)),
    (PLAIN, "9.6141", Step(vehicles.STEP, vehicles.RULE, 1, vehicles.run)),
    (PLAIN, "9.6142", Step(weapons.STEP, weapons.RULE, 1, weapons.run)),
    (PLAIN, "9.615", Step(reinforcements.STEP, reinforcements.RULE, 1, reinforcements.run)),
    (PLAIN, "9.616", Step(cpp.STEP, cpp.RULE, 1, cpp.run)),
    (DAGGER, "9.617", Step(purchases.STEP, purchases.RULE, 2, purchases.run)),
    (DAGGER, "9.618", Step(rg_allotment.STEP, rg_allotment.RULE, 2, rg_allotment.run)),
    (DAGGER, "9.619", Step(fortifications.STEP, fortifications.RULE, 2, fortifications.run)),
    (DAGGER, "9.620", Step(elr.STEP, elr.RULE, 2, elr.run)),
    (DAGGER, "9.621", Step(commencement.STEP, commencement.RULE, 2, commencement.run)),
    (DAGGER, "9.6219", Step(summary.STEP, summary.RULE, 2, summary.run)),
    (DAGGER, "9.6215", Step(first_move.STEP, first_move.RULE, 3, first_move.run)),
)
IDLE_FROM = "9.612"
MODE_TEXT = {
    Mode.INITIAL: "before a CG Initial Scenario only the † steps (9.617-9.621) are performed",
    Mode.SCENARIO: "after a CG Scenario: every RePh step 9.601-9.621 in order",
    Mode.IDLE: "after an Idle CG Date: RePh steps 9.612-9.620 again (9.62132), then 9.621",
    Mode.FINAL: "after the CG's last CG Scenario: only the + steps (9.601-9.603), to reach CG Scenario End",
    Mode.FIRST_MOVE: "a Dual Assault once all setup is complete: the first move (9.6215)",
}
FIRST_MOVE_ONLY = first_move.STEP


def _sequence_note(state: ABtFState, inputs: ABtFInputs, dice) -> StepResult[ABtFState]:
    return StepResult(state, (note("RePh sequence", "9.6", f"{inputs.date.label}: {MODE_TEXT[inputs.mode]}"),))


def _number(rule: str) -> tuple[int, ...]:
    return tuple(int(p) for p in rule.split(".")[1][:3]) if "." in rule else ()


def steps_for(mode: Mode) -> list[Step[ABtFState, ABtFInputs]]:
    if mode is Mode.FIRST_MOVE:
        return [step for _, _, step in SEQUENCE if step.name == FIRST_MOVE_ONLY]
    chosen = [Step("RePh sequence", "9.6", 1, _sequence_note), Step(orders_check.STEP, orders_check.RULE, 1, orders_check.run)]
    for marker, rule, step in SEQUENCE:
        if mode is Mode.INITIAL and marker != DAGGER:
            continue
        if mode is Mode.FINAL and marker != PLUS:
            continue
        if mode is Mode.IDLE and _number(rule) < _number(IDLE_FROM):
            continue
        chosen.append(step)
    return chosen


def refit(state: ABtFState, inputs: ABtFInputs, dice: Dice) -> RefitRun[ABtFState]:
    return run_steps(steps_for(inputs.mode), state, inputs, dice)

"""The Battlefront: WWII refit in the seed's order (001, sections 2.1-2.1.2).

Stage 1 closes the last scenario and opens the new one: the forces the sides
chose for it checked against the scenario maximums (2.1.1.7), cleanup
(2.1.2.x) of the scenario just played, posture (2.1) and CPP replenishment
(2.1.1.1). The sides then see their CPP and decide how to spend them. Stage 2
is the rest of the refit phase: scheduled reinforcements (2.1.1.4.1), repair,
withdrawal, roster, discipline, combining, breakpoints, ammunition,
purchases, FPP and the scenario's length."""
from __future__ import annotations

from automation.campaign.model import Dice, RefitRun, Step, run_steps
from automation.steps.bf import (
    ammunition, breakpoints, casualties, cleanup, combine, cpp, discipline, forces, fpp, knocked_out, orders_check,
    posture, purchases, reinforcements, repair, reveal, summary, turn_length, withdrawal,
)
from automation.steps.bf.state import BFInputs, BFState

STEPS: tuple[Step[BFState, BFInputs], ...] = (
    Step("Orders check", "2.1", 1, orders_check.check_orders),
    Step(forces.STEP, forces.RULE, 1, forces.run),
    Step(cleanup.STEP, "2.1.2", 1, cleanup.run),
    Step(knocked_out.STEP, knocked_out.RULE, 1, knocked_out.run),
    Step(posture.STEP, posture.RULE, 1, posture.run),
    Step(cpp.STEP, cpp.RULE, 1, cpp.run),
    Step(reinforcements.STEP, reinforcements.RULE, 2, reinforcements.run),
    Step("Orders check", "2.1.1", 2, orders_check.check_spend),
    Step(repair.STEP, repair.RULE, 2, repair.run),
    Step(withdrawal.STEP, withdrawal.RULE, 2, withdrawal.run),
    Step(casualties.STEP, casualties.RULE, 2, casualties.run),
    Step(discipline.STEP, discipline.RULE, 2, discipline.run),
    Step(combine.STEP, combine.RULE, 2, combine.run),
    Step(breakpoints.STEP, breakpoints.RULE, 2, breakpoints.run),
    Step(ammunition.STEP, ammunition.RULE, 2, ammunition.run),
    Step(purchases.STEP, purchases.RULE, 2, purchases.run),
    Step(fpp.STEP, fpp.RULE, 2, fpp.run),
    Step(turn_length.STEP, turn_length.RULE, 2, turn_length.run),
    Step(reveal.STEP, reveal.RULE, 2, reveal.run),
    Step(summary.STEP, summary.RULE, 2, summary.run),
)


def refit(state: BFState, inputs: BFInputs, dice: Dice) -> RefitRun[BFState]:
    return run_steps(STEPS, state, inputs, dice)

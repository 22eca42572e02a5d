"""2.1.1.4.1 Scheduled reinforcements: groups the campaign brings in on given
dates (the umpire's Reinforcements sheet) join their side's roster at that
date's refit, free of CPP, before any purchase. Like the base force they count
against the RG chart's campaign total (the ledger's RG count) and, once on the
roster, against its per-scenario maximum when forces are chosen (2.1.1.7). An
OBA module or aircraft flight arriving so rolls on the Aircraft/Smoke Missions
Table (2.1.1.4.4) as a bought one does, with no additional CPP."""
from __future__ import annotations

from dataclasses import replace

from automation.campaign.model import StepResult
from automation.engine.resolver import Situation as Facts
from automation.errors import CellProblem, WorkbookError
from automation.steps.bf.common import note, rolled
from automation.steps.bf.purchases import ROLL_RULE, air_conditions, new_me, new_me_id, stands_of
from automation.steps.bf.state import BFInputs, BFState

STEP = "Scheduled reinforcements"
RULE = "2.1.1.4.1"


def run(state: BFState, inputs: BFInputs, dice) -> StepResult[BFState]:
    arrivals = [a for a in inputs.schedule if a.date == inputs.date.label]
    if not arrivals:
        return StepResult(state)
    entries = []
    problems: list[CellProblem] = []
    for a in arrivals:
        rg = inputs.rg_chart[(a.side, a.rg)]  # the adapter checked it is on the side's chart
        used = state.ledger.rg_used.get((a.side, rg.id), 0) + 1
        state = state.with_(ledger=replace(state.ledger, rg_used={**state.ledger.rg_used, (a.side, rg.id): used}))
        limit = rg.campaign_max if rg.campaign_max is not None else "no limit"
        if rg.campaign_max is not None and used > rg.campaign_max:
            problems.append(a.ref.problem(
                f"RG: {rg.id} arriving on {a.date} would be {used} of {a.side}'s campaign total of {rg.campaign_max} "
                f"(base force, scheduled reinforcements and purchases count, {RULE}); valid: a later date's row removed "
                "or the RG chart's Campaign max raised"))
            continue
        if rg.kind == "FPP":
            state = state.book(a.side, "FPP", f"Scheduled FPP from {rg.id}", rg.fpp or 0, "2.1.1.5")
            entries.append(note(STEP, RULE, f"{rg.id} arrives as scheduled: +{rg.fpp or 0} FPP, free of CPP "
                                f"({used} of {limit} in the campaign)", a.side, rg.id, visible=a.side))
            continue
        if a.me and (a.me in state.roster.mes or state.roster.stand(a.me) is not None):
            problems.append(a.ref.problem(f"ME: {a.me!r} is already on the roster; name the arriving ME with a new ID"))
            continue
        me_id = a.me or new_me_id(state, rg, used)
        stands = stands_of(rg, me_id, a.side)
        state = state.with_(roster=state.roster.with_me(new_me(rg, me_id, a.side, stands)).add_stands(stands))
        entries.append(note(STEP, RULE, f"{rg.id} ({rg.description}) arrives as scheduled, free of CPP, as {me_id}: "
                            f"{len(stands)} stand(s); {used} of {limit} in the campaign", a.side, me_id, visible=a.side))
        if rg.kind not in ("Aircraft", "OBA"):
            continue
        column = "Aircraft" if rg.kind == "Aircraft" else "Smoke missions"
        result = dice.roll("bf.aircraft_smoke", ("aircraft-smoke", a.side, me_id),
                           Facts(frozenset(air_conditions(inputs, a.side, rg))), column=column)
        entries.append(rolled(STEP, ROLL_RULE, a.side, me_id, result, visible=a.side))
        state = state.with_(roster=state.roster.replace_stands([stands[0].with_(notes=result.result)]))
    if problems:
        raise WorkbookError(problems)
    return StepResult(state, tuple(entries))

"""2.1.1.2 Armor ME withdrawal: for a side under the rule, each non-isolated,
retained tank/tank-destroyer-only ME that lost an AFV in the last scenario
rolls; "Withdraws" removes the ME (and any vehicle just repaired) from the
campaign."""
from __future__ import annotations

from automation.campaign.model import StepResult
from automation.steps.bf.common import isolated, note, rolled
from automation.steps.bf.state import BFInputs, BFState

STEP = "Armor withdrawal"
RULE = "2.1.1.2"


def tank_only(state: BFState, me_id: str) -> bool:
    me = state.roster.mes.get(me_id)
    stands = [s for s in state.roster.of_me(me_id) if s.kind != "Command"]
    return me is not None and me.me_class == "A" and bool(stands) and all(s.is_afv for s in stands)


def me_isolated(state: BFState, me_id: str) -> bool:
    active = [s for s in state.roster.of_me(me_id) if s.available]
    return bool(active) and all(isolated(s) for s in active)


def run(state: BFState, inputs: BFInputs, dice) -> StepResult[BFState]:
    entries = []
    roster = state.roster
    withdrawn = set()
    for side in inputs.sides:
        if not side.armor_withdrawal:
            continue
        for me_id in sorted(state.lost_afv):
            me = roster.mes.get(me_id)
            if me is None or me.side != side.name:
                continue
            if not tank_only(state, me_id):
                entries.append(note(STEP, RULE, "not a tank/tank-destroyer-only ME: no roll", side.name, me_id, visible=side.name))
                continue
            if me_isolated(state, me_id):
                entries.append(note(STEP, RULE, "isolated: no roll", side.name, me_id, visible=side.name))
                continue
            result = dice.roll("bf.armor_withdrawal", ("withdrawal", side.name, me_id))
            entries.append(rolled(STEP, RULE, side.name, me_id, result, visible=side.name))
            if result.effect.get("withdrawn"):
                withdrawn.add(me_id)
                roster = roster.remove_me(me_id)
    return StepResult(state.with_(roster=roster, withdrawn=frozenset(withdrawn)), tuple(entries))

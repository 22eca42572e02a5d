"""2.1.1.2 Armor ME withdrawal, after every repair attempt: for a side under
the rule, each non-isolated, retained tank/tank-destroyer-only ME that lost an
AFV in the last scenario rolls secretly; "Withdraws" removes the ME from the
rest of the campaign: its stands, the vehicles just repaired ("the vehicle is
also removed") and its unrepaired wrecks with it (they can never be repaired
now). Its RG still counts against the campaign total (the ledger keeps it)."""
from __future__ import annotations

from automation.campaign.model import StepResult
from automation.steps.bf.common import isolated, note, rolled
from automation.steps.bf.state import BFInputs, BFState, Status

STEP = "Armor withdrawal"
RULE = "2.1.1.2"


def tank_only(state: BFState, me_id: str) -> bool:
    """A-class ME whose every stand (a command stand aside) is an AFV."""
    me = state.roster.mes.get(me_id)
    stands = [s for s in state.roster.of_me(me_id) if s.kind != "Command"]
    return me is not None and me.me_class == "A" and bool(stands) and all(s.is_afv for s in stands)


def me_isolated(state: BFState, me_id: str) -> bool:
    """Every stand of the ME still in play is isolated or cut off."""
    active = [s for s in state.roster.of_me(me_id) if s.available]
    return bool(active) and all(isolated(s) for s in active)


def run(state: BFState, inputs: BFInputs, dice) -> StepResult[BFState]:
    entries = []
    roster = state.roster
    withdrawn: set[str] = set()
    gone: set[str] = set()
    for side in inputs.sides:
        mine = sorted(m for m in state.lost_afv if (me := roster.mes.get(m)) is not None and me.side == side.name)
        if not side.armor_withdrawal:
            if mine:
                entries.append(note(STEP, RULE, "not under armor withdrawal: no rolls", side.name, side.name, visible=side.name))
            continue
        for me_id in mine:
            if not tank_only(state, me_id):
                entries.append(note(STEP, RULE, "not a tank/tank-destroyer-only ME: no roll", side.name, me_id, visible=side.name))
                continue
            if me_isolated(state, me_id):
                entries.append(note(STEP, RULE, "isolated: no roll", side.name, me_id, visible=side.name))
                continue
            result = dice.roll("bf.armor_withdrawal", ("withdrawal", side.name, me_id))
            entries.append(rolled(STEP, RULE, side.name, me_id, result, visible=side.name))
            if not result.effect.get("withdrawn"):
                continue
            withdrawn.add(me_id)
            for s in roster.of_me(me_id):
                gone.add(s.id)
                if s.id in state.repaired:
                    why = "repaired this refit, but its ME is withdrawn: removed too"
                elif s.status is Status.WRECK:
                    why = f"wreck ({(s.wreck_lines or 'lines unknown').lower()}) leaves with its withdrawn ME"
                else:
                    why = "leaves the campaign with its withdrawn ME"
                entries.append(note(STEP, RULE, why, side.name, s.id, visible=side.name))
            roster = roster.remove_me(me_id)
    return StepResult(state.with_(roster=roster, withdrawn=frozenset(withdrawn), withdrawn_stands=frozenset(gone)),
                      tuple(entries))

"""2.1 Posture determination: each side's secret Attack or Defend; both attack:
a d10 roll-off (ties rolled again), the high roll attacks; both defend: no
scenario, though the refit still happens (2.1.1.6). Attacking at night is
flagged for the CPP roll (2.1.1.1.1): only the side that actually attacks
takes the penalty; a side that chose Attack but lost the roll-off defends, and
"the defender in a night action makes an unmodified die roll". The first
scenario's postures are set on the Sides sheet (2.1: predetermined)."""
from __future__ import annotations

from dataclasses import replace

from automation.campaign.model import ALL, UMPIRE, StepResult, Waiting
from automation.steps.bf.common import note, rolled, wait_orders
from automation.steps.bf.state import BFInputs, BFState

STEP = "Posture"
RULE = "2.1"
NIGHT_RULE = "2.1.1.1.1"


def _chosen(state: BFState, inputs: BFInputs) -> tuple[dict[str, str], Waiting | None]:
    postures: dict[str, str] = {}
    for side in inputs.sides:
        if inputs.date.is_first:
            if side.first_posture is None:
                return postures, Waiting("Umpire", f"the first scenario's posture of {side.name}", "Sides", STEP)
            postures[side.name] = side.first_posture
            continue
        orders = inputs.orders.get(side.name)
        if orders is None:
            return postures, wait_orders(inputs, side.name, "posture (Attack or Defend) and escape attempts", STEP)
        chosen = [o for o in orders if o.kind == "Posture"]
        if not chosen:
            return postures, wait_orders(inputs, side.name, "posture (Attack or Defend)", STEP)
        postures[side.name] = str(chosen[-1].value)
    return postures, None


def _roll_off(dice, sides: tuple[str, str], entries: list) -> tuple[str, str]:
    """Both attack: each side throws a d10, the high throw attacks, ties are
    thrown again; every throw is a roll of its own in the report."""
    shown = []
    for attempt in range(1, 1000):
        throws = []
        for side in sides:
            result = dice.roll("bf.posture_rolloff", ("posture", "rolloff", side, f"throw{attempt}"))
            entries.append(rolled(STEP, RULE, side, f"roll-off throw {attempt}", result, f"throws {result.natural}",
                                  visible=UMPIRE))
            throws.append(result.natural)
        x, y = throws
        shown.append(f"{sides[0]} {x}, {sides[1]} {y}" + (" (tie: rolled again)" if x == y else ""))
        if x != y:
            return "; ".join(shown), sides[0] if x > y else sides[1]
    raise AssertionError("a thousand ties in a row")  # pragma: no cover


def setup_order(attacker: str, defender: str) -> str:
    """2.1: the defender sets up first; the attacker sets up second and moves second."""
    return f"first to set up: {defender}; second to set up and to move: {attacker}"


def run(state: BFState, inputs: BFInputs, dice) -> StepResult[BFState]:
    postures, waiting = _chosen(state, inputs)
    if waiting:
        return StepResult(state, (), waiting)
    a, b = inputs.side_names
    entries = [note(STEP, RULE, f"chooses {postures[s]}", s, s, visible=s) for s in (a, b)]
    attackers = [s for s in (a, b) if postures[s] == "Attack"]
    attacker: str | None
    if len(attackers) == 2:
        throws, attacker = _roll_off(dice, (a, b), entries)
        entries.append(note(STEP, RULE, f"both attack: roll-off {throws}: attacker {attacker}, "
                            f"defender {inputs.other(attacker)}; {setup_order(attacker, inputs.other(attacker))}",
                            None, "roll-off"))
    elif len(attackers) == 1:
        attacker = attackers[0]
        entries.append(note(STEP, RULE, f"attacker {attacker}; defender {inputs.other(attacker)}; "
                            f"{setup_order(attacker, inputs.other(attacker))}"))
    else:
        attacker = None
        entries.append(note(STEP, RULE, "both defend: no scenario is played; the refit still happens (2.1.1.6)"))
    night: tuple[str, ...] = ()
    if inputs.date.is_night and attacker is not None:
        night = (attacker,)
        entries.append(note(STEP, NIGHT_RULE, "attacker at night: night penalty on the CPP roll", attacker, attacker,
                            visible=attacker))
    ledger = replace(state.ledger, night_attackers=night)
    return StepResult(state.with_(postures=postures, attacker=attacker, scenario=attacker is not None, ledger=ledger),
                      tuple(entries))


__all__ = ["ALL", "run"]

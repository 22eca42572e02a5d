"""9.611 Recombining and Battle Hardening.

9.6111: Retained HS of one side in one Setup/Entry Area with the same Quality,
identical Strength factors, the same Walking Wounded status and (Commandos,
Engineers) the same type recombine in pairs into their squad (the HS's Squad/HS
cell) until at most one of each is left, plus one per MTR/PSK/PIAT SW Retained
in that Area (an HS holding such a SW is kept first). 9.6112: each Retained
hero is eliminated (no CVP) and lets its side Battle Harden one non-crew MMC of
its Area (the side's Battle Harden order); with no MMC there the hero stays.
No MMC hardens twice in a RePh. 9.6113: each heroic leader Battle Hardens and
loses his heroic status (a heroic 10-3 only loses it)."""
from __future__ import annotations

from automation.campaign.model import StepResult
from automation.errors import CellProblem, WorkbookError
from automation.steps.abtf.common import battle_harden, need_orders, note, pausable, wait_umpire
from automation.steps.abtf.state import SIDES, ABtFInputs, ABtFState, Removal, Unit
from automation.workbook import abtf_sheets as K

STEP = "Recombining and Battle Hardening"
RULE = "9.611"
KEEP_SW = ("mtr", "mortar", "psk", "piat")
SPECIALISTS = ("commando", "engineer")


def specialist(unit: Unit) -> str:
    return next((w for w in SPECIALISTS if w in unit.type.lower()), "")


def keeps_hs(item: Unit) -> bool:
    return item.cls == "SW" and any(w in item.type.lower() for w in KEEP_SW)


def recombine(state: ABtFState, inputs: ABtFInputs) -> tuple[ABtFState, list]:
    entries = []
    groups: dict[tuple, list[Unit]] = {}
    for u in state.units:
        if u.cls == "HS" and u.area != K.WW_BOX:
            key = (u.side, u.area, u.quality, (u.strength or "").replace(" ", ""), u.has("Walking Wounded"), specialist(u))
            groups.setdefault(key, []).append(u)
    allowance: dict[tuple[str, str], int] = {}
    for item in state.units:
        if keeps_hs(item):
            allowance[(item.side, item.area)] = allowance.get((item.side, item.area), 0) + 1
    for key, hs in groups.items():
        side, area = key[0], key[1]
        spare = allowance.get((side, area), 0)
        extra = min(spare, max(0, len(hs) - 1))
        pairs = max(0, -(-(len(hs) - 1 - extra) // 2))
        keep_first = sorted(hs, key=lambda u: (any(keeps_hs(i) for i in state.carried_by(u.id)), u.id))
        kept_extra = len(hs) - 2 * pairs - 1 if len(hs) - 2 * pairs > 1 else 0
        allowance[(side, area)] = spare - kept_extra
        for n in range(pairs):
            a, b = keep_first[2 * n], keep_first[2 * n + 1]
            if not a.counterpart:
                raise wait_umpire(inputs, f"{a.id} and {b.id} recombine (9.6111): give the squad's factors in the Squad/HS "
                                          f"column of {a.id} ({a.ref.sheet}!{a.ref.cell})", STEP)
            squad = a.with_(cls="Squad", strength=a.counterpart, counterpart=a.strength, cvp=None)
            state = state.put(squad, *(i.with_(holder=a.id) for i in state.carried_by(b.id)))
            state = state.drop([b.id]).with_(removed=state.removed + (Removal(b, "9.6111", f"recombined with {a.id}", None, 0),))
            entries.append(note(STEP, "9.6111", f"{a.id} and {b.id} ({a.strength}) recombine into squad {squad.strength} in {area}",
                                side, a.id))
        if kept_extra:
            entries.append(note(STEP, "9.6111", f"{kept_extra} more {key[3]} HS kept in {area} for its MTR/PSK/PIAT", side, area))
    if not entries:
        entries.append(note(STEP, "9.6111", "no HS must recombine"))
    return state, entries


def heroes(state: ABtFState, inputs: ABtFInputs) -> tuple[ABtFState, list]:
    entries = []
    problems: list[CellProblem] = []
    for side in SIDES:
        mine = [u for u in state.units if u.side == side and u.cls == "Hero" and u.area != K.WW_BOX]
        if not mine:
            continue
        eligible = {h.id: [u for u in state.units if u.side == side and u.cls in ("Squad", "HS") and u.area == h.area]
                    for h in mine}
        if any(eligible.values()):
            need_orders(inputs, side, "which MMC each hero Battle Hardens (9.6112)", STEP)
        orders = inputs.orders_of(side, "Battle Harden")
        used: set[str] = set()
        for hero in mine:
            if not eligible[hero.id]:
                entries.append(note(STEP, "9.6112", f"no MMC in {hero.area} to Battle Harden: the hero is Retained", side, hero.id))
                continue
            order = next((o for o in orders if hero.id in o.units), None) or next(
                (o for o in orders if not o.units and (u := state.unit(o.subject)) is not None and u.area == hero.area
                 and o.subject not in used), None)
            state = state.drop([hero.id]).with_(removed=state.removed + (Removal(hero, "9.6112", "hero Battle Hardens an MMC", None, 0),))
            if order is None:
                entries.append(note(STEP, "9.6112", "eliminated; its side chose no MMC to Battle Harden", side, hero.id))
                continue
            target = state.unit(order.subject)
            most = inputs.setting("abtf.battle_harden_per_rephase")
            if target is None or target.id not in {u.id for u in eligible[hero.id]} or state.hardened.count(target.id) >= most:
                times = "once" if most == 1 else f"{most} times"
                problems.append(order.at("Subject").problem(f"Battle Harden: {order.subject!r} is not a non-crew MMC of the {side} "
                                                            f"in {hero.area} that has not Battle Hardened {times} this RePh"))
                continue
            try:
                hardened, text = battle_harden(inputs, target, str(order.value) if order.value not in (None, "") else None)
            except ValueError as exc:
                problems.append(order.at("Value").problem(f"Battle Harden: {exc}"))
                continue
            used.add(target.id)
            state = state.put(hardened).with_(hardened=state.hardened + (target.id,))
            entries.append(note(STEP, "9.6112", f"eliminated; {target.id} {text}", side, hero.id))
    if problems:
        raise WorkbookError(problems)
    return state, entries


def heroic_leaders(state: ABtFState, inputs: ABtFInputs) -> tuple[ABtFState, list]:
    entries = []
    for u in [u for u in state.units if u.is_leader and u.has("Heroic") and u.area != K.WW_BOX]:
        hardened, text = battle_harden(inputs, u.flagged(remove=("Heroic",)), None)
        state = state.put(hardened)
        entries.append(note(STEP, "9.6113", f"loses heroic status; {text}", u.side, u.id))
    return state, entries


@pausable
def run(state: ABtFState, inputs: ABtFInputs, dice) -> StepResult[ABtFState]:
    state, entries = recombine(state, inputs)
    for part in (heroes, heroic_leaders):
        state, more = part(state, inputs)
        entries += more
    return StepResult(state, tuple(entries))

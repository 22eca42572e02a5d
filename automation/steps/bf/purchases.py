"""2.1.1.4 Purchasing reinforcement groups from the RG chart: the CPP cost
and the campaign total, which the base force and scheduled reinforcements
(those still to arrive included) count against (2.1.1.4.1). The per-scenario
number limits deployment, not buying: it is checked when a side chooses its
forces (2.1.1.7, automation/steps/bf/forces.py). Aircraft must be used the next
day and are lost otherwise, and never at night (2.1.1.4.2). OBA modules
(2.1.1.4.3) are bought only in a day's first refit when the day has several
scenarios, are usable all day, and leave at the day's end once used (an
unused module stays). Preregistered points cost 1 CPP, at most 2 per module,
for one day (2.1.1.4.4). Each aircraft or OBA module bought rolls on the
Aircraft/Smoke Missions Table with its modifiers, +1 per additional CPP.

Orders (Spend sheet): Purchase (Subject = RG ID, Value = how many), Extra CPP
(Subject = an aircraft/OBA RG bought now, Value = CPP; one order per module
bought, in order), Preregistered points (Subject = an OBA module on the roster
or an OBA RG bought now, one order per module, Value = points)."""
from __future__ import annotations

import re
from dataclasses import replace

from automation.campaign.model import Entry, StepResult
from automation.engine.resolver import Situation as Facts
from automation.errors import CellProblem
from automation.steps.bf.common import ALLIED_WEST, Cost, counts_in_size, note, rolled, whole
from automation.steps.bf.state import BFInputs, BFState, ME, Order, RGEntry, Stand, Status

STEP = "Purchases"
RULE = "2.1.1.4"
AIR_RULE = "2.1.1.4.2"
OBA_RULE = "2.1.1.4.3"
ROLL_RULE = "2.1.1.4.4"
KIND_OF_CLASS = {"A": "AFV", "E": "Engineers", "G": "Gun", "O": "OBA module", "F": "Aircraft"}
PREREG_COST = "CPP cost of one OBA preregistered point"
PREREG_MAX = "Most preregistered points per OBA module"
PREREG = re.compile(r"(\d+) preregistered point\(s\)[^;]*")


def _count(o: Order) -> int | None:
    value = whole(o.value, 1)
    return value if value is not None and value >= 1 else None


def several_scenarios_today(inputs: BFInputs) -> bool:
    return sum(1 for d in inputs.dates if d.day == inputs.date.day) > 1


def day_ends(inputs: BFInputs) -> bool:
    """Is this the first refit of a new day (after an earlier one)?"""
    return inputs.previous is not None and inputs.date.starts_day


def expiring(state: BFState, inputs: BFInputs) -> dict[str, str]:
    """Stands that leave at this refit, with the rule: aircraft not used by the
    day's end (2.1.1.4.2) and OBA modules used during the day (2.1.1.4.3)."""
    if not day_ends(inputs):
        return {}
    out = {}
    for s in state.roster.stands:
        if s.kind == "Aircraft":
            out[s.id] = AIR_RULE
        elif s.kind == "OBA module" and s.status is Status.USED:
            out[s.id] = OBA_RULE
    return out


def on_roster(state: BFState, inputs: BFInputs, side: str, rg: str) -> int:
    """MEs of an RG that stay on the side's roster through this refit (for the
    note on the per-scenario maximum): expiring modules and MEs absorbed by a
    Combine order no longer count."""
    gone = set(expiring(state, inputs))
    absorbed = {str(o.value or "").strip() for o in (inputs.spend.get(side) or ()) if o.kind == "Combine"}
    count = 0
    for me in state.roster.mes.values():
        if me.side != side or me.rg != rg or me.id in absorbed:
            continue
        if all(s.id in gone for s in state.roster.of_me(me.id)):
            continue
        count += 1
    return count


def scheduled_later(inputs: BFInputs, side: str, rg: str) -> int:
    """Scheduled reinforcements of an RG still to arrive after this refit's date
    (2.1.1.4.1: they count against the campaign total; purchases come on top)."""
    later = {d.label for d in inputs.dates if d.index > inputs.date.index}
    return sum(1 for a in inputs.schedule if a.side == side and a.rg == rg and a.date in later)


def prereg_points(stand: Stand) -> int:
    return sum(int(m.group(1)) for m in PREREG.finditer(stand.notes))


def check(inputs: BFInputs, state: BFState, side: str, orders: tuple[Order, ...]) -> tuple[list[CellProblem], list[Cost]]:
    problems: list[CellProblem] = []
    costs: list[Cost] = []
    buying: dict[str, int] = {}
    first_order: dict[str, Order] = {}
    prereg = int(inputs.setting(PREREG_COST, 1) or 1)
    per_module = int(inputs.setting(PREREG_MAX, 2) or 2)
    valid = ", ".join(k[1] for k in inputs.rg_chart if k[0] == side) or "none"
    for o in orders:
        if o.kind != "Purchase":
            continue
        rg = inputs.rg_chart.get((side, str(o.subject or "").strip()))
        if rg is None:
            what = "the RG ID is empty" if not o.subject else f"{o.subject!r} is not on the RG chart of {side}"
            problems.append(o.at("Subject").problem(f"Purchase: {what}; valid: {valid}"))
            continue
        n = _count(o)
        if n is None:
            problems.append(o.at("Value").problem(f"Purchase: how many of {rg.id}: a whole number of 1 or more, not {o.value!r}"))
            continue
        buying[rg.id] = buying.get(rg.id, 0) + n
        first_order.setdefault(rg.id, o)
        costs.append(Cost(o, "CPP", rg.cpp * n, f"{n} x {rg.id} at {rg.cpp} CPP"))
        if rg.kind == "FPP":
            costs.append(Cost(o, "FPP", -(rg.fpp or 0) * n, f"{n} x {rg.id} gives {(rg.fpp or 0) * n} FPP"))
        if rg.kind == "Aircraft" and inputs.date.is_night:
            problems.append(o.at("Subject").problem(f"Purchase: {rg.id} is aircraft, which may not be used at night ({AIR_RULE})"))
        if rg.kind == "OBA" and several_scenarios_today(inputs) and not inputs.date.starts_day:
            problems.append(o.at("Subject").problem(
                f"Purchase: OBA ({rg.id}) is bought only in the day's first refit when a day has several scenarios ({OBA_RULE})"))
    for rg_id, n in buying.items():
        rg = inputs.rg_chart[(side, rg_id)]
        order = first_order[rg_id]
        used = state.ledger.rg_used.get((side, rg_id), 0)
        due = scheduled_later(inputs, side, rg_id)
        if rg.campaign_max is not None and used + due + n > rg.campaign_max:
            later = f" and {due} scheduled to arrive later" if due else ""
            problems.append(order.at("Value").problem(
                f"Purchase: {n} x {rg_id} exceeds the campaign total of {rg.campaign_max}: {used} already used "
                f"(base force included, 2.1.1.4.1){later}, "
                f"so at most {max(0, rg.campaign_max - used - due)} more"))
    extra_seen: dict[str, int] = {}
    prereg_seen: dict[str, int] = {}
    for o in orders:
        target = str(o.subject or "").strip()
        if o.kind == "Extra CPP":
            rg = inputs.rg_chart.get((side, target))
            n = _count(o)
            if rg is None or rg.id not in buying or rg.kind not in ("Aircraft", "OBA"):
                problems.append(o.at("Subject").problem(
                    f"Extra CPP: {o.subject!r} is not an aircraft or OBA RG bought in this refit ({ROLL_RULE})"))
            elif n is None:
                problems.append(o.at("Value").problem(f"Extra CPP: a whole number of 1 or more, not {o.value!r}"))
            else:
                extra_seen[rg.id] = extra_seen.get(rg.id, 0) + 1
                if extra_seen[rg.id] > buying[rg.id]:
                    problems.append(o.at("Subject").problem(
                        f"Extra CPP: one order per module; {extra_seen[rg.id]} orders for {buying[rg.id]} x {rg.id} bought"))
                costs.append(Cost(o, "CPP", n, f"{n} additional CPP on {rg.id}"))
        elif o.kind == "Preregistered points":
            n = _count(o)
            module = state.roster.stand(target)
            rg = inputs.rg_chart.get((side, target))
            if not ((module is not None and module.side == side and module.kind == "OBA module")
                    or (rg is not None and rg.kind == "OBA" and rg.id in buying)):
                problems.append(o.at("Subject").problem(
                    f"Preregistered points: {o.subject!r} is neither an OBA module of {side} nor an OBA RG bought now"))
                continue
            if n is None or n > per_module:
                problems.append(o.at("Value").problem(
                    f"Preregistered points: 1 to {per_module} per OBA module ({ROLL_RULE}), not {o.value!r}"))
                continue
            prereg_seen[target] = prereg_seen.get(target, 0) + (n if module is not None else 1)
            held = 0 if module is None or day_ends(inputs) else prereg_points(module)  # yesterday's expire now
            if module is not None and held + prereg_seen[target] > per_module:
                problems.append(o.at("Value").problem(
                    f"Preregistered points: {module.id} would have {held + prereg_seen[target]} today; "
                    f"at most {per_module} per OBA module ({ROLL_RULE})"))
            elif module is None and prereg_seen[target] > buying[target]:
                problems.append(o.at("Subject").problem(
                    f"Preregistered points: one order per module; {prereg_seen[target]} orders for {buying[target]} x {target} bought"))
            costs.append(Cost(o, "CPP", n * prereg, f"{n} preregistered point(s)"))
    return problems, costs


def air_conditions(inputs: BFInputs, side: str, rg: RGEntry) -> set[str]:
    """The Aircraft/Smoke table's nationality and date modifiers (aircraft only)."""
    if rg.kind != "Aircraft":
        return set()
    nationality = inputs.side(side).nationality.strip().lower()
    when = inputs.date.day
    if nationality in ALLIED_WEST and (when.year, when.month) > (1944, 6):
        return {"us_british_after_june_1944"}
    if nationality == "german" and when.year < 1942:
        return {"german_before_1942"}
    if nationality == "german" and when.year >= 1945:
        return {"german_1945"}
    return set()


def stands_of(rg: RGEntry, me_id: str, side: str) -> list[Stand]:
    out = []
    discipline = rg.discipline or ""
    if rg.kind in ("OBA", "Aircraft"):
        kind = "OBA module" if rg.kind == "OBA" else "Aircraft"
        return [Stand(f"{me_id} {rg.kind}", side, me_id, rg.description, kind, "")]
    for type_name, count, kind in rg.stands:
        k = kind or ("Command" if type_name.lower().startswith("command") else KIND_OF_CLASS.get(rg.me_class or "", "Troops"))
        for i in range(1, count + 1):
            out.append(Stand(f"{me_id} {type_name} {i}", side, me_id, type_name, k, discipline))
    return out


def _expire(state: BFState, inputs: BFInputs) -> tuple[BFState, list[Entry]]:
    entries = []
    leaving = expiring(state, inputs)
    for stand_id, rule in leaving.items():
        s = state.roster.stand(stand_id)
        assert s is not None
        text = ("aircraft are for the day after their purchase only: lost" if rule == AIR_RULE
                else "OBA module used during the day: removed at the day's end")
        entries.append(note(STEP, rule, text, s.side, s.id, visible=s.side))
    changed = []
    if day_ends(inputs):
        for s in state.roster.stands:
            if s.kind == "OBA module" and s.id not in leaving and PREREG.search(s.notes):
                notes = "; ".join(p for p in (part.strip() for part in PREREG.sub("", s.notes).split(";")) if p)
                changed.append(s.with_(notes=notes))
                entries.append(note(STEP, ROLL_RULE, "preregistered points expire with the day", s.side, s.id, visible=s.side))
    roster = state.roster.replace_stands(changed).remove_stands(leaving)
    return state.with_(roster=roster), entries


def new_me(rg: RGEntry, me_id: str, side: str, stands: list[Stand]) -> ME:
    """The ME an RG forms, its size without soft transport (house rules 26)."""
    size = sum(1 for s in stands if counts_in_size(s))
    return ME(me_id, side, rg.me_class or ("O" if rg.kind == "OBA" else "F" if rg.kind == "Aircraft" else "I"),
              rg.me_type or rg.description, rg.id, breakpoint_base=size, full_strength=size, discipline=rg.discipline or "")


def new_me_id(state: BFState, rg: RGEntry, used: int) -> str:
    me_id = f"{rg.id}-{used}"
    suffix = 0
    while me_id in state.roster.mes or any(s.me == me_id for s in state.roster.stands):
        suffix += 1
        me_id = f"{rg.id}-{used}.{suffix}"
    return me_id


def run(state: BFState, inputs: BFInputs, dice) -> StepResult[BFState]:
    state, entries = _expire(state, inputs)
    prereg_cost = int(inputs.setting(PREREG_COST, 1) or 1)
    for side in inputs.side_names:
        orders = inputs.spend.get(side) or ()
        extras: dict[str, list[int]] = {}
        for o in orders:
            if o.kind == "Extra CPP":
                extras.setdefault(str(o.subject).strip(), []).append(_count(o) or 0)
        bought: dict[str, list[Stand]] = {}
        for o in orders:
            if o.kind != "Purchase":
                continue
            rg = inputs.rg_chart[(side, str(o.subject).strip())]
            for _ in range(_count(o) or 0):
                used = state.ledger.rg_used.get((side, rg.id), 0) + 1
                rg_used = {**state.ledger.rg_used, (side, rg.id): used}
                state = state.with_(ledger=replace(state.ledger, rg_used=rg_used))
                state = state.book(side, "CPP", f"Purchase {rg.id} ({rg.description})", -rg.cpp, RULE)
                if rg.kind == "FPP":
                    state = state.book(side, "FPP", f"FPP from {rg.id}", rg.fpp or 0, "2.1.1.5")
                    entries.append(note(STEP, RULE, f"buys {rg.id}: +{rg.fpp or 0} FPP for {rg.cpp} CPP "
                                        f"({used} of {rg.campaign_max if rg.campaign_max is not None else 'no limit'} in the campaign)",
                                        side, rg.id, visible=side))
                    continue
                me_id = new_me_id(state, rg, used)
                stands = stands_of(rg, me_id, side)
                me = new_me(rg, me_id, side, stands)
                state = state.with_(roster=state.roster.with_me(me).add_stands(stands), purchased=state.purchased + (me_id,))
                limit = rg.campaign_max if rg.campaign_max is not None else "no limit"
                present = on_roster(state, inputs, side, rg.id)
                beyond = (f"; {present} on the roster, of which at most {rg.scenario_max} deploy in one scenario "
                          "(2.1.1.7)" if rg.scenario_max is not None and present > rg.scenario_max else "")
                entries.append(note(STEP, RULE, f"buys {rg.id} ({rg.description}) for {rg.cpp} CPP as {me_id}: "
                                    f"{len(stands)} stand(s); {used} of {limit} in the campaign{beyond}", side, me_id,
                                    visible=side))
                if rg.kind not in ("Aircraft", "OBA"):
                    continue
                queue = extras.get(rg.id, [])
                n_extra = queue.pop(0) if queue else 0
                if n_extra:
                    state = state.book(side, "CPP", f"Additional CPP on {me_id}", -n_extra, ROLL_RULE)
                column = "Aircraft" if rg.kind == "Aircraft" else "Smoke missions"
                facts = Facts(frozenset(air_conditions(inputs, side, rg)), {"additional_cpp": n_extra} if n_extra else {})
                result = dice.roll("bf.aircraft_smoke", ("aircraft-smoke", side, me_id), facts, column=column)
                module = stands[0].with_(notes=result.result)
                text = result.result + (f" (must be used on {inputs.date.day.isoformat()}'s scenarios, never at night)"
                                        if rg.kind == "Aircraft" else "")
                entries.append(rolled(STEP, ROLL_RULE, side, me_id, result, text, visible=side))
                state = state.with_(roster=state.roster.replace_stands([module]))
                bought.setdefault(rg.id, []).append(module)
        for o in orders:
            if o.kind != "Preregistered points":
                continue
            n = _count(o) or 0
            target = str(o.subject).strip()
            module = state.roster.stand(target)
            if module is None:
                queue = bought.get(target, [])
                if not queue:
                    continue  # the orders check allows one order per module bought
                module = state.roster.stand(queue.pop(0).id)
            assert module is not None
            state = state.book(side, "CPP", f"{n} preregistered point(s) for {module.id}", -n * prereg_cost, ROLL_RULE)
            notes = (module.notes + "; " if module.notes else "") + f"{n} preregistered point(s) until the end of {inputs.date.day.isoformat()}"
            state = state.with_(roster=state.roster.replace_stands([module.with_(notes=notes)]))
            entries.append(note(STEP, ROLL_RULE, f"{n} preregistered point(s) at {n * prereg_cost} CPP, "
                                f"for {inputs.date.day.isoformat()} only", side, module.id, visible=side))
    return StepResult(state, tuple(entries))

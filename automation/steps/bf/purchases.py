"""2.1.1.4 Purchasing reinforcement groups from the RG chart: CPP cost, the
per-scenario deployment limit (base force and scheduled reinforcements count),
the campaign total; aircraft used the next day and lost otherwise, never at
night (2.1.1.4.2); OBA modules bought only in a day's first refit when the day
has several scenarios, usable all day, removed at the day's end once used
(2.1.1.4.3); preregistered points at 1 CPP, at most 2 per module, for one day
(2.1.1.4.4); and the Aircraft/Smoke Missions roll for each module bought."""
from __future__ import annotations

from dataclasses import replace

from automation.engine.resolver import Situation as Facts
from automation.campaign.model import StepResult
from automation.errors import CellProblem
from automation.steps.bf.common import ALLIED_WEST, note, rolled
from automation.steps.bf.state import BFInputs, BFState, ME, Order, RGEntry, Stand, Status

STEP = "Purchases"
RULE = "2.1.1.4"
KIND_OF_CLASS = {"A": "AFV", "E": "Engineers", "G": "Gun", "O": "OBA module", "F": "Aircraft"}


def _count(o: Order) -> int | None:
    value = 1 if o.value is None else o.value
    return value if isinstance(value, int) and value >= 1 else None


def several_scenarios_today(inputs: BFInputs) -> bool:
    return sum(1 for d in inputs.dates if d.day == inputs.date.day) > 1


def on_roster(state: BFState, side: str, rg: str) -> int:
    return sum(1 for me in state.roster.mes.values() if me.side == side and me.rg == rg)


def check(inputs: BFInputs, state: BFState, side: str, orders: tuple[Order, ...]) -> tuple[list[CellProblem], int]:
    problems: list[CellProblem] = []
    cpp = 0
    buying: dict[str, int] = {}
    prereg = int(inputs.setting("CPP cost of one OBA preregistered point", 1) or 1)
    per_module = int(inputs.setting("Most preregistered points per OBA module", 2) or 2)
    for o in orders:
        if o.kind != "Purchase":
            continue
        rg = inputs.rg_chart.get((side, str(o.subject or "")))
        if rg is None:
            valid = ", ".join(k[1] for k in inputs.rg_chart if k[0] == side)
            problems.append(o.at("Subject").problem(f"Purchase: {o.subject!r} is not on {side}'s RG chart; valid: {valid}"))
            continue
        n = _count(o)
        if n is None:
            problems.append(o.at("Value").problem(f"Purchase: how many of {rg.id}: a whole number of 1 or more, not {o.value!r}"))
            continue
        buying[rg.id] = buying.get(rg.id, 0) + n
        cpp += rg.cpp * n
        if rg.kind == "Aircraft" and inputs.date.is_night:
            problems.append(o.at("Subject").problem(f"Purchase: {rg.id} is aircraft, which may not be used at night (2.1.1.4.2)"))
        if rg.kind == "OBA" and several_scenarios_today(inputs) and not inputs.date.starts_day:
            problems.append(o.at("Subject").problem(
                f"Purchase: OBA ({rg.id}) is bought only in the day's first refit when a day has several scenarios (2.1.1.4.3)"))
    for rg_id, n in buying.items():
        rg = inputs.rg_chart[(side, rg_id)]
        order = next(o for o in orders if o.kind == "Purchase" and o.subject == rg_id)
        used = state.ledger.rg_used.get((side, rg_id), 0)
        if rg.campaign_max is not None and used + n > rg.campaign_max:
            problems.append(order.at("Value").problem(
                f"Purchase: {n} x {rg_id} exceeds the campaign total: {used} of {rg.campaign_max} already used"))
        present = on_roster(state, side, rg_id)
        if rg.scenario_max is not None and present + n > rg.scenario_max:
            problems.append(order.at("Value").problem(
                f"Purchase: {n} x {rg_id} exceeds the per-scenario limit: {present} on the roster, at most {rg.scenario_max}"))
    for o in orders:
        if o.kind == "Extra CPP":
            rg = inputs.rg_chart.get((side, str(o.subject or "")))
            if rg is None or rg.id not in buying or rg.kind not in ("Aircraft", "OBA"):
                problems.append(o.at("Subject").problem(f"Extra CPP: {o.subject!r} is not an aircraft or OBA RG bought in this refit"))
            elif _count(o) is None:
                problems.append(o.at("Value").problem(f"Extra CPP: a whole number of 1 or more, not {o.value!r}"))
            else:
                cpp += _count(o) or 0
        elif o.kind == "Preregistered points":
            n = _count(o)
            target = str(o.subject or "")
            module = state.roster.stand(target)
            rg = inputs.rg_chart.get((side, target))
            if not ((module is not None and module.side == side and module.kind == "OBA module")
                    or (rg is not None and rg.kind == "OBA" and rg.id in buying)):
                problems.append(o.at("Subject").problem(f"Preregistered points: {target!r} is neither an OBA module of {side} nor an OBA RG bought now"))
            elif n is None or n > per_module:
                problems.append(o.at("Value").problem(f"Preregistered points: 1 to {per_module} per OBA module (2.1.1.4.4), not {o.value!r}"))
            else:
                cpp += n * prereg
    return problems, cpp


def _conditions(inputs: BFInputs, side: str, rg: RGEntry) -> set[str]:
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


def _stands(rg: RGEntry, me_id: str, side: str) -> list[Stand]:
    out = []
    discipline = rg.discipline or ""
    if rg.kind in ("OBA", "Aircraft"):
        kind = "OBA module" if rg.kind == "OBA" else "Aircraft"
        return [Stand(f"{me_id} {rg.kind}", side, me_id, rg.description, kind, discipline)]
    for type_name, count, kind in rg.stands:
        k = kind or ("Command" if type_name.lower().startswith("command") else KIND_OF_CLASS.get(rg.me_class or "", "Troops"))
        for i in range(1, count + 1):
            out.append(Stand(f"{me_id} {type_name} {i}", side, me_id, type_name, k, discipline))
    return out


def _expire(state: BFState, inputs: BFInputs) -> tuple[BFState, list]:
    if inputs.previous is None or not inputs.date.starts_day:
        return state, []
    entries = []
    gone = []
    changed = []
    for s in state.roster.stands:
        if s.kind == "Aircraft":
            gone.append(s.id)
            entries.append(note(STEP, "2.1.1.4.2", "aircraft not used by the day's end are lost", s.side, s.id, visible=s.side))
        elif s.kind == "OBA module" and s.status is Status.USED:
            gone.append(s.id)
            entries.append(note(STEP, "2.1.1.4.3", "OBA module used during the day: removed at the day's end", s.side, s.id, visible=s.side))
        elif s.kind == "OBA module" and "preregistered" in s.notes:
            changed.append(s.with_(notes=""))
    roster = state.roster.replace_stands(changed).remove_stands(gone)
    return state.with_(roster=roster), entries


def run(state: BFState, inputs: BFInputs, dice) -> StepResult[BFState]:
    state, entries = _expire(state, inputs)
    prereg_cost = int(inputs.setting("CPP cost of one OBA preregistered point", 1) or 1)
    for side in inputs.side_names:
        orders = inputs.spend.get(side) or ()
        extra = {str(o.subject): _count(o) or 0 for o in orders if o.kind == "Extra CPP"}
        for o in orders:
            if o.kind != "Purchase":
                continue
            rg = inputs.rg_chart[(side, str(o.subject))]
            for _ in range(_count(o) or 0):
                used = state.ledger.rg_used.get((side, rg.id), 0) + 1
                rg_used = dict(state.ledger.rg_used)
                rg_used[(side, rg.id)] = used
                state = state.with_(ledger=replace(state.ledger, rg_used=rg_used))
                state = state.book(side, "CPP", f"Purchase {rg.id} ({rg.description})", -rg.cpp, RULE)
                me_id = f"{rg.id}-{used}"
                if rg.kind == "FPP":
                    state = state.book(side, "FPP", f"FPP from {rg.id}", rg.fpp or 0, "2.1.1.5")
                    entries.append(note(STEP, RULE, f"buys {rg.id}: +{rg.fpp or 0} FPP for {rg.cpp} CPP", side, rg.id, visible=side))
                    continue
                stands = _stands(rg, me_id, side)
                me = ME(me_id, side, rg.me_class or ("O" if rg.kind == "OBA" else "F" if rg.kind == "Aircraft" else "I"),
                        rg.me_type or rg.description, rg.id, breakpoint_base=len(stands), full_strength=len(stands),
                        discipline=rg.discipline or "")
                state = state.with_(roster=state.roster.with_me(me).add_stands(stands), purchased=state.purchased + (me_id,))
                entries.append(note(STEP, RULE, f"buys {rg.id} ({rg.description}) for {rg.cpp} CPP as {me_id}: {len(stands)} stand(s)", side, me_id, visible=side))
                if rg.kind in ("Aircraft", "OBA"):
                    n_extra = extra.pop(rg.id, 0)
                    if n_extra:
                        state = state.book(side, "CPP", f"Additional CPP on {rg.id}", -n_extra, "2.1.1.4.4")
                    column = "Aircraft" if rg.kind == "Aircraft" else "Smoke missions"
                    facts = Facts(frozenset(_conditions(inputs, side, rg)), {"additional_cpp": n_extra} if n_extra else {})
                    result = dice.roll("bf.aircraft_smoke", ("aircraft-smoke", side, me_id), facts, column=column)
                    entries.append(rolled(STEP, "2.1.1.4.4", side, me_id, result, visible=side))
                    module = stands[0].with_(notes=result.result)
                    state = state.with_(roster=state.roster.replace_stands([module]))
        for o in orders:
            if o.kind != "Preregistered points":
                continue
            n = _count(o) or 0
            target = str(o.subject)
            module = state.roster.stand(target) or next(
                (s for s in state.roster.of_side(side) if s.kind == "OBA module" and s.me.startswith(f"{target}-")
                 and s.me in state.purchased and "preregistered" not in s.notes), None)
            if module is None:
                continue
            state = state.book(side, "CPP", f"{n} preregistered point(s) for {module.id}", -n * prereg_cost, "2.1.1.4.4")
            notes = (module.notes + "; " if module.notes else "") + f"{n} preregistered point(s), {inputs.date.label} only"
            state = state.with_(roster=state.roster.replace_stands([module.with_(notes=notes)]))
            entries.append(note(STEP, "2.1.1.4.4", f"{n} preregistered point(s) for {inputs.date.label}", side, module.id, visible=side))
    return StepResult(state, tuple(entries))

"""†9.617 Purchasing Reinforcement Groups (9.6171-9.6178).

Each side's Purchases sheet names the RGs it buys (ID, KG for a German RG,
Count, the Area its units go to). Every purchase is checked against the side's
RG Chart: a German RG needs its KG; the CPP spent may not exceed the CPP the
side has; the CG Date maximum and the CG maximum (from the RG Purchase Record)
hold. Unspent CPP are divided by two, FRU, and kept as Left. One RG Purchase
Record line is written per RG: #P bought so far in the CG, #R the CG maximum
less #P. OB-given RGs (9.615) and, before a CG Initial Scenario, the RGs of
its OB (OB RG lines) are recorded too, but never count against the limits."""
from __future__ import annotations

import math

from automation.campaign.model import StepResult
from automation.errors import CellProblem, WorkbookError
from automation.steps.abtf.common import friendly_areas, need_purchases, note, pausable
from automation.steps.abtf.rg_allotment import fpp_amount
from automation.steps.abtf.state import GERMAN, SIDES, ABtFInputs, ABtFState, Line, Mode, RGEntry, RGLine

STEP = "Purchasing Reinforcement Groups"
RULE = "9.617"


def bought_so_far(inputs: ABtFInputs, lines: list[RGLine], rg: RGEntry) -> int:
    return sum(1 for r in list(inputs.rg_record) + lines
               if r.counts and r.side == rg.side and r.rg_id == rg.id and (r.kg or None) == (rg.kg or None))


def check_line(state: ABtFState, inputs: ABtFInputs, side: str, o: Line, problems: list[CellProblem]) -> tuple[RGEntry, int] | None:
    if side == GERMAN and not o.kg:
        problems.append(o.at("KG").problem(f"{o.kind}: German RG {o.subject} needs its KG (9.6178), e.g. K for KG Knaust"))
        return None
    rg = inputs.rg(side, o.subject or "", o.kg)
    if rg is None:
        valid = ", ".join(sorted(e.label for k, e in inputs.rg_charts.items() if k[0] == side)) or "none (the chart is empty)"
        problems.append(o.at("Item").problem(f"{o.kind}: {o.subject}{f'({o.kg})' if o.kg else ''} is not on the {side} RG Chart; "
                                             f"valid: {valid}"))
        return None
    count = 1 if o.value in (None, "") else o.value
    if not isinstance(count, int) or count < 1:
        problems.append(o.at("Count").problem(f"{o.kind}: {o.value!r} is not a number of RGs (1 or more)"))
        return None
    valid_areas = friendly_areas(state, side)
    if o.area not in valid_areas and not (o.area in (None, "") and fpp_amount(rg) is not None):
        problems.append(o.at("Area").problem(f"{o.kind}: {o.area!r} is not a Setup or Entry Area of the {side}; valid: "
                                             f"{', '.join(valid_areas)}"))
        return None
    return rg, count


def ob_given_lines(state: ABtFState, inputs: ABtFInputs) -> list[RGLine]:
    out = []
    for r in state.ob_given:
        rg = inputs.rg(r.side, r.item, r.kg)
        entry = next((a for a in friendly_areas(state, r.side) if state.areas[a].is_entry), None)
        for _ in range(r.amount):
            out.append(RGLine(r.side, inputs.date.label, r.item, r.kg if r.side == GERMAN else None,
                              rg.group_type if rg else r.item, None, None, counts=False,
                              notes=f"OB-given (9.615): {r.entry or 'as scheduled'}", area=entry))
    return out


@pausable
def run(state: ABtFState, inputs: ABtFInputs, dice) -> StepResult[ABtFState]:
    for side in SIDES:
        need_purchases(inputs, side, "RG purchases, fortifications and the Initiative Chit", STEP)
    problems: list[CellProblem] = []
    entries = []
    lines: list[RGLine] = []
    divisor = inputs.setting("abtf.unspent_cpp_divisor")
    round_up = inputs.setting("abtf.unspent_cpp_round_up")
    for side in SIDES:
        available = state.records[side].cpp_left
        spent = 0
        per_date: dict[tuple, int] = {}
        first = None
        for o in inputs.purchases_of(side, "RG", "OB RG"):
            if o.kind == "OB RG" and inputs.mode is not Mode.INITIAL:
                problems.append(o.at("Purchase").problem("OB RG: only before a CG Initial Scenario (its OB's RGs, 9.6178)"))
                continue
            checked = check_line(state, inputs, side, o, problems)
            if checked is None:
                continue
            rg, count = checked
            if o.kind == "OB RG":
                lines += [RGLine(side, inputs.date.label, rg.id, rg.kg, rg.group_type, None, None, counts=False,
                                 notes="CG Initial Scenario OB", area=o.area) for _ in range(count)]
                continue
            first = first or o
            spent += rg.cpp * count
            key = (rg.id, rg.kg)
            per_date[key] = per_date.get(key, 0) + count
            if rg.date_max is not None and per_date[key] > rg.date_max:
                problems.append(o.at("Count").problem(f"RG: {per_date[key]} {rg.label} this CG Date; the CG Date maximum is "
                                                      f"{rg.date_max}"))
            so_far = bought_so_far(inputs, lines, rg)
            if rg.cg_max is not None and so_far + count > rg.cg_max:
                problems.append(o.at("Count").problem(f"RG: {rg.label} would be bought {so_far + count} times in the CG; the "
                                                      f"CG maximum is {rg.cg_max} ({so_far} bought so far)"))
            for n in range(1, count + 1):
                p = so_far + n
                lines.append(RGLine(side, inputs.date.label, rg.id, rg.kg, rg.group_type, p,
                                    rg.cg_max - p if rg.cg_max is not None else None, area=o.area))
                entries.append(note(STEP, "9.6178", f"bought {rg.label} {rg.group_type} for {rg.cpp} CPP (#P {p}"
                                    + (f", #R {rg.cg_max - p})" if rg.cg_max is not None else ")"), side, rg.label, visible=side))
        if spent > available and first is not None:
            problems.append(first.at("Item").problem(f"RG: the {side} purchases cost {spent} CPP, more than the {available} "
                                                     "CPP it has"))
            continue
        rest = available - spent
        left = math.ceil(rest / divisor) if round_up else rest // divisor
        entries.append(note(STEP, RULE, f"CPP spent {spent} of {available}; {rest} unspent, divided by {divisor} "
                                        f"({'FRU' if round_up else 'FRD'}): {left} Left", side, side, visible=side))
        bought = ", ".join(f"{r.label} {inputs.rg(side, r.rg_id, r.kg).cpp}" for r in lines if r.side == side and r.counts)
        state = state.record(side, cpp_spent=spent, cpp_left=left, rg_purchased=bought)
    if problems:
        raise WorkbookError(problems)
    given = ob_given_lines(state, inputs)
    entries += [note(STEP, "9.6178", f"OB-given {r.label} {r.group_type} recorded (outside the limits)", r.side, r.label,
                     visible=r.side)
                for r in given]
    return StepResult(state.with_(rg_lines=tuple(lines + given)), tuple(entries))

"""†9.619 Purchasing Fortifications.

Each side's Fortification purchases (Item: an Id of the Fortification Purchase
chart, Count, the Setup Area, Front Line) are checked against every cap of the
table and its notes: the buyer (German/British prices, British-only and
German-only items), the FPP the side has, at most 12 A-P minefield factors per
CG Date, British A-T Mines at most 2 per CG Date and 8 per CG, daytime HIP for
at most 10% (FRU) of the side's Infantry squads in that Setup Area (HS and
crews are not squads; a HIP HS counts half a squad, a crew HIP goes by SSR CG
5 and is not capped here), and only "F" items in a Front Line Location. Each
purchase joins the CG Roster as a Fortification in its Setup Area; Wire is
told whether it may be HIP (night only), a night scenario lists the Defender's
free HIP per Setup Area (E1.2); FPP not spent are lost (a setting)."""
from __future__ import annotations

import math
from fractions import Fraction

from automation.campaign.model import StepResult
from automation.errors import CellProblem, WorkbookError
from automation.steps.abtf.common import friendly_areas, note, pausable
from automation.steps.abtf.state import BRITISH, GERMAN, SIDES, ABtFInputs, ABtFState, Unit

STEP = "Purchasing Fortifications"
RULE = "9.619"
HIP_SQUAD_EQUIVALENTS = {"hip_squad": Fraction(1), "hip_hs": Fraction(1, 2)}  # crews: SSR CG 5, not this cap


def check(state: ABtFState, inputs: ABtFInputs, chart, side: str, problems: list[CellProblem]) -> list[tuple]:
    rows = {str(r["Id"]): r for r in chart.rows}
    valid_areas = friendly_areas(state, side, entry=False)
    out = []
    for o in inputs.purchases_of(side, "Fortification"):
        row = rows.get(o.subject or "")
        if row is None:
            problems.append(o.at("Item").problem(f"Fortification: {o.subject!r} is not on the Fortification Purchase chart; "
                                                 f"valid: {', '.join(rows)}"))
            continue
        count = 1 if o.value in (None, "") else o.value
        if not isinstance(count, int) or count < 1:
            problems.append(o.at("Count").problem(f"Fortification: {o.value!r} is not a number (1 or more)"))
            continue
        if (row["British only"] and side != BRITISH) or (row["German only"] and side != GERMAN) \
                or row["Buyer"] not in ("Both", side):
            problems.append(o.at("Item").problem(f"Fortification: {row['Fortification']} at {row['FPP']} FPP is for the "
                                                 f"{row['Buyer']} only (9.619)"))
            continue
        if o.area not in valid_areas:
            problems.append(o.at("Area").problem(f"Fortification: {o.area!r} is not a Setup Area of the {side}; valid: "
                                                 f"{', '.join(valid_areas)}"))
            continue
        if o.front_line and not row["Front line allowed"]:
            problems.append(o.at("Front Line").problem(f"Fortification: {row['Fortification']} may not set up in a Front Line "
                                                       "Location (only items marked F, 9.619)"))
        out.append((o, row, count))
    return out


def caps(state: ABtFState, inputs: ABtFInputs, side: str, bought: list[tuple], problems: list[CellProblem]) -> int:
    """Checks the per-date, per-CG and HIP caps; returns the A-T Mines bought."""
    ap = [(o, n) for o, row, n in bought if str(row["Id"]).startswith("ap_mine_factor")]
    at = [(o, n) for o, row, n in bought if row["Id"] == "at_mine_factor"]
    limit = inputs.setting("abtf.ap_mine_factors_per_cg_date")
    if sum(n for _, n in ap) > limit:
        problems.append(ap[-1][0].at("Count").problem(f"Fortification: {sum(n for _, n in ap)} A-P minefield factors this CG "
                                                      f"Date; at most {limit} (9.619 note 2)"))
    mines = sum(n for _, n in at)
    if at:
        per_date, per_cg = inputs.setting("abtf.at_mines_per_cg_date_british"), inputs.setting("abtf.at_mines_per_cg_british")
        used = state.records[side].at_mines
        if mines > per_date:
            problems.append(at[-1][0].at("Count").problem(f"Fortification: {mines} A-T Mines this CG Date; at most {per_date}"))
        if used + mines > per_cg:
            problems.append(at[-1][0].at("Count").problem(f"Fortification: {used} A-T Mines bought so far and {mines} more; at "
                                                          f"most {per_cg} in the CG"))
    if not inputs.date.night:
        percent = inputs.setting("abtf.hip_daytime_percent")
        for area in sorted({o.area for o, row, _ in bought if row["Id"] in HIP_SQUAD_EQUIVALENTS}):
            hip = [(o, n * HIP_SQUAD_EQUIVALENTS[row["Id"]]) for o, row, n in bought
                   if row["Id"] in HIP_SQUAD_EQUIVALENTS and o.area == area]
            squads = squads_in(state, side, area)
            cap = math.ceil(squads * percent / 100)
            wanted = sum(n for _, n in hip)
            if wanted > cap:
                problems.append(hip[-1][0].at("Count").problem(
                    f"Fortification: {float(wanted):g} squads HIP in {area} (an HS counts half); in a daytime scenario at most "
                    f"{percent}% (FRU) of its {squads} Infantry squads (HS and crews are not squads): {cap}"))
    return mines


def squads_in(state: ABtFState, side: str, area: str) -> int:
    """The side's Retained and just-bought Infantry squads in a Setup Area (9.619 note 5)."""
    return sum(1 for u in state.units if u.side == side and u.area == area and u.cls == "Squad")


def night_hip(state: ABtFState, inputs: ABtFInputs, side: str) -> list:
    """E1.2 as 9.619 note 5 cites it: the night Scenario Defender's free HIP, per Setup Area."""
    percent = inputs.setting("abtf.hip_night_defender_free_percent")
    counts = [f"{area} {math.ceil(squads_in(state, side, area) * percent / 100)} of {squads_in(state, side, area)}"
              for area in friendly_areas(state, side, entry=False)]
    return [note(STEP, RULE, f"night: if the {side} is the Scenario Defender, {percent}% (FRU) of its squads per Setup Area "
                             f"may set up HIP at no FPP (E1.2): {'; '.join(counts) or 'no Setup Area'}", side, side,
                 visible=side)]


def wire_hip(inputs: ABtFInputs) -> str:
    if not inputs.setting("abtf.wire_hip_night_only"):
        return "Wire may set up HIP (the night-only setting is off)"
    if inputs.date.night:
        return "Wire may set up HIP: a Night CG Scenario (9.619 note 7)"
    return "Wire may not set up HIP: a daytime CG Scenario (9.619 note 7)"


@pausable
def run(state: ABtFState, inputs: ABtFInputs, dice) -> StepResult[ABtFState]:
    chart = dice.system.charts["abtf.fortification_purchase"]
    problems: list[CellProblem] = []
    entries = []
    for side in SIDES:
        bought = check(state, inputs, chart, side, problems)
        mines = caps(state, inputs, side, bought, problems)
        have = state.records[side].fpp
        cost = sum(int(row["FPP"]) * n for _, row, n in bought)
        if cost > have and bought:
            problems.append(bought[0][0].at("Item").problem(f"Fortification: the {side} fortifications cost {cost} FPP, more "
                                                            f"than the {have} FPP it has"))
        if problems:
            continue
        for o, row, n in bought:
            name = " ".join(p for p in (row["Fortification"], row["Variant"]) if p)
            kind = f"{name} ({n} factors)" if "factor" in str(row["Fortification"]).lower() else (f"{name} x{n}" if n > 1 else name)
            uid = f"{side[0]}-{inputs.date.label}-F{len([u for u in state.units if u.cls == 'Fortification']) + 1}"
            state = state.put(Unit(uid, side, "Fortification", kind, area=o.area or "", pp=0,
                                   status=frozenset({"Front Line"} if o.front_line else ()), notes="bought 9.619"))
            entries.append(note(STEP, RULE, f"{kind} in {o.area}: {int(row['FPP']) * n} FPP", side, uid, visible=side))
            if row["Id"] == "wire":
                entries.append(note(STEP, "9.619", wire_hip(inputs), side, uid, visible=side))
        if inputs.date.night:
            entries += night_hip(state, inputs, side)
        forfeit = inputs.setting("abtf.unspent_fpp_forfeit")
        entries.append(note(STEP, RULE, f"FPP spent {cost} of {have}; {have - cost} unspent "
                                        + ("are lost" if forfeit else "are kept (the forfeit setting is off)"),
                            side, side, visible=side))
        state = state.record(side, fpp=0 if forfeit else have - cost, at_mines=state.records[side].at_mines + mines)
        state = state.with_(fortified={**state.fortified, side: cost})
    if problems:
        raise WorkbookError(problems)
    return StepResult(state, tuple(entries))

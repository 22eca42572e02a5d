"""†9.621 Scenario Commencement.

9.6212: if the German Controls Block H (all its Strategic Locations) the German
wins the CG (Sudden Death). 9.6213: each side's secret Initiative Chit (its
Purchases sheet) is revealed with the other; each CG's chit maximums (the Chit
Limits sheet) hold; the Initiative Matrix gives the scenario type, or an Idle
CG Date (the next refit repeats 9.612-9.620). 9.62133: who sets up and moves
first (Dual Assault: German dr ≤ 3 British sets up first; who moves first is
rolled only after all setup, by the later First Move step, 9.6215). 9.6216: weather (British DR), NVR for night,
EC and wind force (British dr), each with the previous CG Scenario's DRMs.
Before a CG Initial Scenario the CG itself gives all of these."""
from __future__ import annotations

from automation.campaign.model import StepResult
from automation.engine.resolver import Situation
from automation.errors import WorkbookError
from automation.steps.abtf import first_move
from automation.steps.abtf.common import need_purchases, note, pausable, purchases_sheet, rolled
from automation.steps.abtf.state import BRITISH, GERMAN, SIDES, ABtFInputs, ABtFState, Mode, Ref, SideRecord
from automation.campaign.names import match_name
from automation.workbook import abtf_sheets as K

STEP = "Scenario Commencement"
RULE = "9.621"
SUDDEN_DEATH_BLOCK = "H"
WEATHER = {"mist": "Mist", "overcast": "Overcast", "clear": "Clear", "clear_gusty": "Clear & Gusty"}
EC = {"wet": "Wet", "moist": "Moist", "moderate": "Moderate", "dry": "Dry"}
WIND = {"none": "No Wind", "mild_breeze": "Mild Breeze", "heavy_wind": "Heavy Wind"}


def chit(inputs: ABtFInputs, side: str) -> str:
    need_purchases(inputs, side, "the Initiative Chit (Attack or Idle)", STEP)
    lines = inputs.purchases_of(side, "Chit")
    if not lines:
        raise WorkbookError(Ref(purchases_sheet(inputs, side), "A2").problem(
            "Chit: no Chit line; give one with Item Attack or Idle (9.62132)"))
    if len(lines) > 1:
        raise WorkbookError(lines[1].at("Purchase").problem("Chit: a second Chit; a side selects one per CG Date (9.62132)"))
    chosen = match_name(lines[0].subject, ("Attack", "Idle"))  # typed in any case
    if chosen is None:
        raise WorkbookError(lines[0].at("Item").problem(f"Chit: {lines[0].subject!r} is not allowed; valid: Attack, Idle"))
    return chosen


def check_limit(state: ABtFState, inputs: ABtFInputs, side: str, selected: str) -> None:
    limits = inputs.chit_limits.get(side)
    if limits is None:
        raise WorkbookError(Ref("Chit Limits", "A2").problem(f"no line for the {side}: enter the CG's Attack and Idle Chit "
                                                             "maximums (9.62131)"))
    attack_max, idle_max, where = limits
    used = state.records[side].attack_chits if selected == "Attack" else state.records[side].idle_chits
    most = attack_max if selected == "Attack" else idle_max
    if most is None:
        cell = where if selected == "Attack" else Ref(where.sheet, "C" + where.cell[1:])
        raise WorkbookError(cell.problem(f"the {side} {selected} Chit maximum is empty: enter it (9.62131)"))
    if used + 1 > most:
        line = inputs.purchases_of(side, "Chit")[0]
        raise WorkbookError(line.at("Item").problem(f"Chit: the {side} have used {used} of their {most} {selected} Chits in "
                                                    "this CG; no more may be selected (9.62131)"))


def previous_scenario(history: tuple[SideRecord, ...]) -> SideRecord | None:
    return next((r for r in reversed(history) if r.side == BRITISH and r.played and r.weather), None)


def weather(state: ABtFState, inputs: ABtFInputs, dice, entries: list) -> tuple[str, str, str]:
    before = previous_scenario(state.history)
    night = inputs.date.night
    conditions = {"night"} if night else set()
    last = next((k for k, v in WEATHER.items() if before and v == before.weather), None)
    if last in ("mist", "overcast", "clear_gusty"):
        conditions.add(f"previous_{last}")
    r = dice.roll("abtf.weather", ("9.62161", BRITISH), Situation(frozenset(conditions)))
    sky = WEATHER[str(r.effect["weather"])]
    entries.append(rolled(STEP, "9.62161", None, "Weather", r, sky))  # the umpire rolls it for both sides
    if night:
        entries.append(note(STEP, "9.62162", "night CG Scenario: no Moon, Scattered Clouds; Base NVR per E1.11"))
    ec_conditions = {"night"} if night else set()
    if before and before.ec in ("Wet", "Moist"):
        ec_conditions.add("previous_wet_or_moist")
    elif before and before.ec == "Dry":
        ec_conditions.add("previous_dry")
    r = dice.roll("abtf.ec", ("9.62163", BRITISH), Situation(frozenset(ec_conditions)))
    ec = EC[str(r.effect["ec"])]
    entries.append(rolled(STEP, "9.62163", None, "EC", r, ec))
    wind_conditions = {"night"} if night else set()
    if sky == "Overcast":
        wind_conditions.add("overcast")
    if last == "clear_gusty":
        wind_conditions.add("previous_clear_gusty")
    r = dice.roll("abtf.wind_force", ("9.62164", BRITISH), Situation(frozenset(wind_conditions)))
    wind = WIND[str(r.effect["wind"])]
    entries.append(rolled(STEP, "9.62164", None, "Wind", r, wind + ("; wind direction per B26.52" if r.effect.get("direction")
                                                                       else "")))
    return sky, ec, wind


@pausable
def run(state: ABtFState, inputs: ABtFInputs, dice) -> StepResult[ABtFState]:
    entries = []
    h = state.area(SUDDEN_DEATH_BLOCK)
    if h is not None and h.controller == GERMAN:
        entries.append(note(STEP, "9.6212", f"the German Controls Block {SUDDEN_DEATH_BLOCK}: Sudden Death, the German wins "
                                            "the CG"))
    if inputs.mode is Mode.INITIAL:
        entries.append(note(STEP, RULE, "CG Initial Scenario: its CG (9.51-9.53) gives the setup, first move and weather"))
        return StepResult(state, tuple(entries))
    chits = {side: chit(inputs, side) for side in SIDES}
    for side in SIDES:
        check_limit(state, inputs, side, chits[side])
    matrix = dice.system.charts["abtf.initiative_matrix"]
    row = next(r for r in matrix.rows if r["British chit"] == chits[BRITISH] and r["German chit"] == chits[GERMAN])
    result = str(row["Result"])
    for side in SIDES:
        rec = state.records[side]
        state = state.record(side, chit=chits[side], attack_chits=rec.attack_chits + (chits[side] == "Attack"),
                             idle_chits=rec.idle_chits + (chits[side] == "Idle"))
    entries.append(note(STEP, "9.62132", f"Initiative Chits revealed: British {chits[BRITISH]}, German {chits[GERMAN]}: {result}"))
    if not row["Scenario generated"]:
        for side in SIDES:
            state = state.record(side, scenario="Idle")
        state = state.with_(next_scenario={"type": "Idle CG Date"})
        entries.append(note(STEP, "9.62132", "Idle CG Date: no CG Scenario; the next refit repeats RePh steps 9.612-9.620"))
        return StepResult(state, tuple(entries))
    if result == "Dual Assault":
        r = dice.roll("abtf.dual_assault_setup", ("9.62133", GERMAN))
        first_setup = str(r.effect["sets_up_first"])
        entries.append(rolled(STEP, "9.62133", GERMAN, "Setup", r))
        mover = None
        entries.append(note(STEP, "9.62133", "Dual Assault: the side moving first is determined only after all setup is "
                                             f"complete (9.6215), once the umpire's {K.SETUP.name_for(date=inputs.date.label)} "
                                             "sheet says both sides have set up"))
    else:
        first_setup, mover = str(row["Sets up first"]), str(row["Moves first"])
        entries.append(note(STEP, "9.62133", f"{result}: first to set up: {first_setup}; first to move: {mover}"))
    sky, ec, wind = weather(state, inputs, dice, entries)
    order = f"first to set up: {first_setup}; " + (f"first to move: {mover}" if mover
                                                   else first_move.PENDING)
    for side in SIDES:
        state = state.record(side, scenario=result, weather=sky, ec=ec, wind=wind, notes=order)
    state = state.with_(next_scenario={"type": result, "sets up first": first_setup, "moves first": mover,
                                       "weather": sky, "EC": ec, "wind": wind})
    entries.append(note(STEP, "9.6214", f"setup: {first_setup} first, then the other side; each unit only in its own "
                                        "Setup Area; the hexes of new Fortifications go on the CG Roster"))
    return StepResult(state, tuple(entries))

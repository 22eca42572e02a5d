"""2.1.1.7 Choose forces: for a scenario each side picks MEs, OBA modules and
aircraft from its roster, and the RG chart's scenario maximum limits how many
MEs of one RG take part; groups of that RG already on the map in isolated or
cut-off positions count against it (2.1.1.3, 2.1.1.4.1). For OBA the limit is
per day (2.1.1.4.3's O3 example): modules used in an earlier scenario of the
day count. Air support is never used at night (2.1.1.4.2).

A side names its choice on "Forces <date> <side>", one ME per row, after the
refit of that date has written the roster. The next refit checks the sheet
against that roster before anything else, so a choice beyond the limit is
reported at its cell (the workbook is left untouched); with no Forces sheet
nothing is checked. The RG chart limits deployment, not buying: a side may own
more MEs of an RG than it may deploy at once and rotate them between
scenarios."""
from __future__ import annotations

from automation.campaign.model import StepResult
from automation.errors import CellProblem, WorkbookError
from automation.steps.bf.common import isolated, note
from automation.steps.bf.state import ME, BFInputs, BFState, Deployment, Roster, Status

STEP = "Choose forces"
RULE = "2.1.1.7"
SHOWN = 12  # valid MEs listed in a message


def forces_sheet(inputs: BFInputs, side: str) -> str:
    label = inputs.previous.label if inputs.previous else inputs.date.label
    return inputs.sheet_names.get(f"forces:{side}", f"Forces {label} {side}")


def on_the_map(roster: Roster, me_id: str) -> bool:
    """Is a group of the ME still on the map in an isolated or cut-off position?"""
    return any(s.available and isolated(s) for s in roster.of_me(me_id))


def used_today(roster: Roster, me_id: str) -> bool:
    """Was an OBA module of the ME used in an earlier scenario of the day?"""
    return any(s.kind == "OBA module" and s.status is Status.USED for s in roster.of_me(me_id))


def deployable(roster: Roster, me: ME) -> bool:
    """Has the ME anything to deploy: a stand available, or an OBA module used
    earlier today (usable in any scenario of its day, 2.1.1.4.3)?"""
    return any(s.available or (s.kind == "OBA module" and s.status is Status.USED) for s in roster.of_me(me.id))


def _side_problems(state: BFState, inputs: BFInputs, side: str, rows: tuple[Deployment, ...]) -> list[CellProblem]:
    roster = state.roster
    own = sorted(m for m, me in roster.mes.items() if me.side == side and deployable(roster, me))
    valid = ", ".join(own[:SHOWN]) + (f" and {len(own) - SHOWN} more" if len(own) > SHOWN else "") or "none"
    problems: list[CellProblem] = []
    seen: dict[str, Deployment] = {}
    chosen: list[tuple[Deployment, ME]] = []
    night = inputs.previous is not None and inputs.previous.is_night
    for row in rows:
        me = roster.mes.get(row.me)
        if me is None or me.side != side:
            problems.append(row.ref.problem(f"Forces: {row.me!r} is not an ME of {side} on the roster; valid: {valid}"))
            continue
        if row.me in seen:
            problems.append(row.ref.problem(f"Forces: {row.me} is already chosen at {seen[row.me].ref.cell}; one row per ME"))
            continue
        seen[row.me] = row
        if not deployable(roster, me):
            problems.append(row.ref.problem(
                f"Forces: {row.me} has no stand available (wrecks are not deployed until repaired, 2.1.1.3.1 item 5); "
                f"valid: {valid}"))
            continue
        if night and any(s.kind == "Aircraft" for s in roster.of_me(me.id)):
            problems.append(row.ref.problem(f"Forces: {row.me} is air support, which may not be used at night (2.1.1.4.2)"))
            continue
        chosen.append((row, me))
    by_rg: dict[str, list[Deployment]] = {}
    for row, me in chosen:
        if me.rg:
            by_rg.setdefault(me.rg, []).append(row)
    for rg_id, named in by_rg.items():
        entry = inputs.rg_chart.get((side, rg_id))
        if entry is None or entry.scenario_max is None:
            continue
        trapped = sorted(m for m, me in roster.mes.items()
                         if me.side == side and me.rg == rg_id and m not in seen and on_the_map(roster, m))
        if entry.kind == "OBA":  # OBA: the limit is per day (2.1.1.4.3), so modules used earlier today count
            trapped = sorted(m for m, me in roster.mes.items() if me.side == side and me.rg == rg_id
                             and m not in seen and used_today(roster, m))
        total = len(named) + len(trapped)
        if total > entry.scenario_max:
            what = "used earlier today" if entry.kind == "OBA" else "isolated on the map"
            where = f"; {what}: {', '.join(trapped)}" if trapped else ""
            room = max(0, entry.scenario_max - len(trapped))
            problems.append(named[min(room, len(named) - 1)].ref.problem(
                f"Forces: {total} MEs of RG {rg_id} in one {'day' if entry.kind == 'OBA' else 'scenario'} ({', '.join(r.me for r in named)}{where}); "
                f"the RG chart's scenario maximum is {entry.scenario_max}, so at most {room} may be chosen ({RULE})"))
    return problems


def run(state: BFState, inputs: BFInputs, dice) -> StepResult[BFState]:
    """Check each side's Forces sheet for the scenario just played, if any."""
    if inputs.previous is None or not state.ledger.played:
        return StepResult(state)
    problems: list[CellProblem] = []
    entries = []
    for side in inputs.side_names:
        rows = inputs.forces.get(side)
        if rows is None:
            continue
        found = _side_problems(state, inputs, side, rows)
        problems += found
        if not found:
            entries.append(note(STEP, RULE, f"{len(rows)} ME(s) chosen on {forces_sheet(inputs, side)}, within the RG "
                                "chart's scenario maximums: " + (", ".join(r.me for r in rows) or "none"),
                                side, side, visible=side))
    if problems:
        raise WorkbookError(problems)
    return StepResult(state, tuple(entries))

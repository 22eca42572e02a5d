"""The sheets a Battlefront refit appends: the report of each stage with every
roll, and after the last stage the roster, the ledger and the summary."""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from automation.campaign.model import ALL, Entry, RefitRun
from automation.render import percent
from automation.steps.bf import posture
from automation.steps.bf.forces import deployable
from automation.steps.bf.state import BFInputs, BFState, Roster, Status
from automation.workbook import bf_sheets as K
from automation.workbook.package import LineChartSpec, ListValidation, NewSheet
from automation.workbook.reader import Workbook

UMPIRE = "Umpire"
# Beyond the REPORT kind's columns: the table column a roll used and the table's own
# result text, so `musterroll verify --key` can re-derive the result of every roll.
AUDIT_COLUMNS = (("Table column", 16), ("Table result", 24))
REPORT_HEADER = K.REPORT.header + [name for name, _ in AUDIT_COLUMNS]
REPORT_WIDTHS = [c.width for c in K.REPORT.columns] + [width for _, width in AUDIT_COLUMNS]


def visible_to(e: Entry, sides: Sequence[str]) -> str:
    """Who may see a report line. A step's own choice stands, except that:
    a line about one side (its stands, its rolls, its orders) is that side's
    business (2.1.1: secret DRs and purchases); and the posture outcome stays
    with the umpire until both sides reveal their postures after the refit
    (2.1.1.6), when the stage-2 report shows it to all."""
    if e.visible_to != ALL:
        return e.visible_to
    if e.step == posture.STEP and e.side is None:
        return UMPIRE
    if e.side in sides:
        return str(e.side)
    return ALL


def report_row(e: Entry, sides: Sequence[str] = ()) -> list[Any]:
    r = e.roll
    shown = visible_to(e, sides)
    if r is None:
        return [e.step, e.rule, e.side, e.subject, None, None, None, None, None, None, e.text, None, shown, None, None, None]
    mods = "; ".join(f"{m.value:+d} {m.name} ({m.source})" for m in r.modifiers) or "none"
    dice = "+".join(str(d) for d in r.dice) if r.dice_kind.value != "d100" else f"{r.dice[0] % 10}{r.dice[1] % 10}"
    return [e.step, e.rule, e.side, e.subject, f"{r.table_id} ({r.source})", f"{r.dice_kind.value}: {dice}", r.natural,
            mods, r.drm, r.final, e.text, percent(r.probability), shown, r.label, r.column, r.result]


def report_sheet(name: str, entries: Sequence[Entry], sides: Sequence[str] = ()) -> NewSheet:
    rows: list[list[Any]] = [REPORT_HEADER] + [report_row(e, sides) for e in entries]
    return NewSheet(name, rows, kind="report", column_widths=REPORT_WIDTHS)


def _validations(kind, lists: dict[str, list[str]]) -> list[ListValidation]:
    from automation.workbook.cellvalues import allowed_values

    out = []
    for i, c in enumerate(kind.columns):
        allowed = allowed_values(c, lists)
        if allowed:
            out.append(ListValidation(i, tuple(allowed)))
    return out


def roster_sheet(name: str, state: BFState, lists: dict[str, list[str]]) -> NewSheet:
    rows: list[list[Any]] = [K.ROSTER.header]
    for s in state.roster.stands:
        me = state.roster.mes[s.me]
        status = "Abandoned" if s.status is Status.WRECK and s.abandoned else s.status.value
        rows.append([s.side, s.me, me.me_class, me.me_type, me.rg, s.discipline, s.id, s.type, s.kind, s.tracks, status,
                     s.situation.value, s.wreck_lines, "Yes" if s.in_minefield else None, me.breakpoint_base,
                     me.losses_today, me.full_strength, s.ammunition, s.notes or None])
    return NewSheet(name, rows, kind="roster", column_widths=[c.width for c in K.ROSTER.columns],
                    validations=_validations(K.ROSTER, lists))


def forces_form(roster: Roster, date: str, side: str) -> NewSheet:
    """A blank ``Forces <date> <side>`` sheet (2.1.1.7) for the scenario of
    ``date``, from the roster its refit wrote (``Roster <date>``): its ME column offers
    only the side's own MEs, OBA modules and aircraft flights with something to
    deploy (as a dropdown where Excel's 255-character list allows; the next
    refit checks every row either way), one row for each."""
    mes = tuple(sorted(m for m, me in roster.mes.items() if me.side == side and deployable(roster, me)))
    fits = bool(mes) and len(",".join(mes)) <= 255 and not any("," in m or '"' in m for m in mes)
    rows = max(len(mes), 1)
    return NewSheet(K.FORCES.name_for(date=date, side=side), [K.FORCES.header], kind="orders",
                    column_widths=[c.width for c in K.FORCES.columns],
                    validations=[ListValidation(0, mes, 1, rows)] if fits else [])


def ledger_sheet(name: str, state: BFState, inputs: BFInputs) -> NewSheet:
    rows: list[list[Any]] = [K.LEDGER.header]
    for side, account, entry, amount, balance, rule in state.ledger_lines:
        rows.append([side, account, entry, amount, balance, rule, side or UMPIRE])
    for side in inputs.side_names:
        rows.append([side, "CPP", "Left", None, state.ledger.cpp.get(side, 0), "2.1.1.1", side])
        rows.append([side, "FPP", "Left", None, state.ledger.fpp.get(side, 0), "2.1.1.5", side])
    for (side, rg), used in sorted(state.ledger.rg_used.items()):
        rows.append([side, "RG", rg, None, used, "2.1.1.4", side])
    attacker = state.attacker or "none"
    rows.append([None, "Scenario", f"Attacker: {attacker}", None, None, "2.1", "All"])
    return NewSheet(name, rows, kind="ledger", column_widths=[c.width for c in K.LEDGER.columns])


def summary_sheet(name: str, book: Workbook, state: BFState, inputs: BFInputs) -> NewSheet:
    sides = inputs.side_names
    kind = K.summary_kind(sides)
    history: list[list[Any]] = []
    if inputs.previous is not None:
        prev = K.SUMMARY.name_for(date=inputs.previous.label)
        if book.has(prev):
            history = [[r[c.name] for c in kind.columns] for r in book.read(kind, prev)]
    now = [inputs.date.label] + [state.ledger.cpp.get(s, 0) for s in sides] + [state.ledger.fpp.get(s, 0) for s in sides] \
        + [state.roster.count(s) for s in sides]
    rows = [kind.header] + history + [now]
    chart = LineChartSpec(0, (1, 2, 5, 6), anchor="I2", title="CPP and stands by date")
    return NewSheet(name, rows, kind="ledger", column_widths=[c.width for c in kind.columns], chart=chart)


def sheets_for(run: RefitRun[BFState], inputs: BFInputs, book: Workbook, lists: dict[str, list[str]]) -> list[NewSheet]:
    """The sheets to append for the stages this run completed and the workbook lacks."""
    out: list[NewSheet] = []
    label = inputs.date.label
    for stage in sorted(run.stages_done):
        name = K.REPORT.name_for(date=label, side=str(stage))
        if book.has(name):
            continue
        entries = [e for e in run.entries if e.stage == stage]
        out.append(report_sheet(name, entries, inputs.side_names))
        if stage == 2:
            out.append(roster_sheet(K.ROSTER.name_for(date=label), run.state, lists))
            out.append(ledger_sheet(K.LEDGER.name_for(date=label), run.state, inputs))
            out.append(summary_sheet(K.SUMMARY.name_for(date=label), book, run.state, inputs))
    return out

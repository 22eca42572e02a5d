"""The sheets of an ABtF campaign: those a new campaign starts with (the CG
Dates and Reinforcement Schedule copied from the rules, ready for the umpire to
edit), and those a refit appends: the RePh report of each completed stage, and
once the RePh is done the CG Roster of the new CG Date (Units, Blocks, CG
Roster lines)."""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from automation.campaign.model import Entry, RefitRun
from automation.engine.tables import RuleSystem
from automation.render import percent
from automation.steps.abtf import first_move
from automation.steps.abtf.state import SIDES, ABtFInputs, ABtFState, RGLine, SideRecord, Unit
from automation.workbook import abtf_sheets as K
from automation.workbook.content import SheetContent

START = "Start"
FIRST_MOVE_STAGE = 3  # a report of its own only for a Dual Assault (9.6215)


def yes_no(value: bool) -> str:
    return "Yes" if value else "No"


def date_rows(system: RuleSystem) -> list[list[Any]]:
    chart = system.charts["abtf.cpp_base_number"]
    return [[r["Order"], r["CG Date"], yes_no(bool(r["Night"])), r["British"], r["German"], r["Campaign Exhaustion DRM"],
             "17N: no CPP Base # printed ('-')" if r["CG Date"] == "17N" else None] for r in chart.rows]


def reinforcement_rows(system: RuleSystem) -> list[list[Any]]:
    chart = system.charts["abtf.reinforcement_schedule"]
    notes = {n.split(":", 1)[0].strip(): n for n in chart.notes if n[:1].isdigit()}
    rows = []
    for r in chart.rows:
        text = "; ".join(notes[f] for f in str(r.get("Footnotes", "")).split(",") if f in notes) or None
        rows.append([r["CG Date"], r["Side"], r["Kind"], r["Item"], r["Amount"], None, r.get("Entry"), r.get("From turn"),
                     r.get("SAN maximum"), r.get("SAN minimum"), text])
    return rows


def class_rows() -> list[list[Any]]:
    return [list(r) for r in K.UNIT_CLASS_DEFAULTS]


def starting_sheets(system: RuleSystem) -> list[SheetContent]:
    first = system.charts["abtf.cpp_base_number"].rows[0]["CG Date"]
    roster = [[first, side, "Initial", None, None, None, None, None, 0, 0, None, None, 0, 0, 0, 0, None, None, None, None,
               None] for side in SIDES]
    chits = [[side, None, None, None] for side in SIDES]
    return [
        SheetContent(K.CG_DATES, K.CG_DATES.title, date_rows(system)),
        SheetContent(K.REINFORCEMENTS, K.REINFORCEMENTS.title, reinforcement_rows(system)),
        SheetContent(K.RG_BRITISH, K.RG_BRITISH.title),
        SheetContent(K.RG_GERMAN, K.RG_GERMAN.title),
        SheetContent(K.UNIT_CLASSES, K.UNIT_CLASSES.title, class_rows()),
        SheetContent(K.CHIT_LIMITS, K.CHIT_LIMITS.title, chits,
                     instructions="Enter each side's Attack and Idle Chit maximums for the CG (9.51-9.53)."),
        SheetContent(K.BLOCKS, K.BLOCKS.name_for(date=START)),
        SheetContent(K.UNITS, K.UNITS.name_for(date=START)),
        SheetContent(K.CG_ROSTER, K.CG_ROSTER.name_for(date=START), roster,
                     instructions="Enter each side's initial SAN, ELR and CPP for the CG (9.51-9.53); the refit "
                                  "adds a line per side for every CG Date."),
    ]


# ------------------------------------------------------------------ rows

def report_row(e: Entry) -> list[Any]:
    r = e.roll
    if r is None:
        return [e.step, e.rule, e.side, e.subject, None, None, None, None, None, None, e.text, None, e.visible_to, None, None,
                None]
    mods = "; ".join(f"{m.value:+d} {m.name} ({m.source})" for m in r.modifiers) or "none"
    dice = "+".join(str(d) for d in r.dice)
    return [e.step, e.rule, e.side, e.subject, f"{r.table_id} ({r.source})", f"{r.dice_kind.value}: {dice}", r.natural,
            mods, r.drm, r.final, e.text, percent(r.probability), e.visible_to, r.label, r.column, r.result]


def unit_row(u: Unit) -> list[Any]:
    return [u.side, u.id, u.cls, u.type, u.strength, u.morale_override, u.quality, u.area, u.location, u.holder,
            ", ".join(f for f in K.STATUS_FLAGS if f in u.status) or None, u.vehicle, u.pp or None, u.repair,
            ", ".join(u.ammo_depleted) or None, u.cvp, u.counterpart, u.replaced_by, u.rg, u.notes or None]


def record_row(r: SideRecord, reph_cvp: int | None = None) -> list[Any]:
    return [r.date, r.side, r.scenario, r.chit, r.final_cvp, reph_cvp if reph_cvp is not None else r.reph_cvp,
            r.cpp_replenished, r.cpp_spent, r.cpp_left, r.fpp, r.san, r.elr, r.shortage, r.attack_chits, r.idle_chits,
            r.at_mines, r.weather, r.ec, r.wind, r.rg_purchased or None, r.notes or None]


def rg_line_row(r: RGLine) -> list[Any]:
    return [r.side, r.date, r.label, r.group_type, r.purchased, r.remaining, r.strength or None, r.units or None,
            r.sw or None, r.leader or None, "Yes" if r.counts else "No", r.notes or None]


def block_rows(state: ABtFState) -> list[list[Any]]:
    return [[a.name, a.kind, a.side, ", ".join(a.strategic) or None, a.controller, a.notes or None] for a in state.areas.values()]


def _sheet(kind, name: str, rows: Sequence[Sequence[Any]], tab: str, lists: dict[str, list[str]] | None = None):
    from automation.workbook.package import ListValidation, NewSheet
    from automation.workbook.cellvalues import allowed_values

    validations = []
    if lists is not None:
        for i, c in enumerate(kind.columns):
            allowed = allowed_values(c, lists)
            if allowed:
                validations.append(ListValidation(i, tuple(allowed)))
    return NewSheet(name, [kind.header] + [list(r) for r in rows], kind=tab, column_widths=[c.width for c in kind.columns],
                    validations=validations)


def sheets_for(run: RefitRun[ABtFState], inputs: ABtFInputs, book: Any, lists: dict[str, list[str]]) -> list[Any]:
    """The report of each completed stage the workbook lacks (stage 3 only when it
    rolled a Dual Assault's first move) and, once every step of stages 1-2 is
    done, the new CG Date's Units, Blocks and CG Roster (a Dual Assault's setup
    needs them before its first move, 9.6214-9.6215)."""
    out = []
    label = inputs.date.label
    for stage in sorted(run.stages_done):
        name = K.REPORT.name_for(date=label, side=str(stage))
        entries = [report_row(e) for e in run.entries if e.stage == stage]
        if not book.has(name) and (entries or stage < FIRST_MOVE_STAGE):
            out.append(_sheet(K.REPORT, name, entries, "report"))
    roster_name = K.CG_ROSTER.name_for(date=label)
    setup_done = run.waiting is None or run.waiting.step == first_move.STEP  # setup needs the new CG Date's roster
    if setup_done and not book.has(roster_name):
        state = run.state
        out.append(_sheet(K.UNITS, K.UNITS.name_for(date=label), [unit_row(u) for u in state.units], "roster", lists))
        out.append(_sheet(K.BLOCKS, K.BLOCKS.name_for(date=label), block_rows(state), "roster", lists))
        rows = [record_row(r) for r in state.history]
        rows += [record_row(state.records[s], state.reph_cvp.get(s, 0)) for s in SIDES]
        out.append(_sheet(K.CG_ROSTER, roster_name, rows, "ledger", lists))
        record = [rg_line_row(r) for r in inputs.rg_record + state.rg_lines]
        if record:
            out.append(_sheet(K.RG_RECORD, K.RG_RECORD.name_for(date=label), record, "ledger", lists))
    return out

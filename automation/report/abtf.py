"""A Bridge Too Far's report data (seed 003, 9.6): the story of each CG Date
from the RePh reports' lines (Initiative Chits 9.62132, Block control 9.605,
final CVP 9.603, RG purchases 9.6178, eliminations, repairs 9.614, Escape
9.6054 and Shift 9.613), the CPP, FPP and CVP of each CG Date from the CG
Roster (9.612, its last sheet holds every date), strength from the Units
sheets by unit class and from the RG Purchase Record (9.6178)."""
from __future__ import annotations

import re

from automation.report.common import event, is_roll, lines, losses_from_events, number, table_rows
from automation.report.model import Category, Event, Measure
from automation.report.source import Source, where
from automation.workbook import abtf_sheets as K

ENEMY_ROSTER = "Enemy CG Roster"
FPP_LINE = re.compile(r"FPP spent (\d+) of (\d+); (\d+) unspent")
CG_ROSTER_MEASURES = (("CVP", "final CVP", "Final CVP"), ("CVP", "RePh CVP", "RePh CVP"),
                      ("CPP", "earned", "CPP replenished"), ("CPP", "spent", "CPP spent"), ("CPP", "saved", "CPP left"))
GONE_STATUS = ("Eliminated",)


def dates(source: Source) -> list[str]:
    return source.date_order(K.CG_DATES.title, "CG Date")


def events(source: Source) -> list[Event]:
    out: list[Event] = []
    for sheet, h, i, row in lines(source):
        step, text = str(h.get(row, "Step") or ""), str(h.get(row, "Result") or "")
        side, subject, roll = str(h.get(row, "Side") or ""), str(h.get(row, "Subject") or ""), is_roll(h, row)
        low = text.lower()
        if step == "Scenario Commencement" and not roll:
            category = Category.POSTURE if text.startswith("Initiative Chits") else Category.SCENARIO
            out.append(event(sheet, h, i, row, category, f"{subject}: {text}" if side else text, side=""))
        elif step == "CG Date summary" and not side and text.startswith("next CG Scenario"):
            out.append(event(sheet, h, i, row, Category.SCENARIO))
        elif step == "Purchasing Reinforcement Groups" and text.startswith("bought"):
            out.append(event(sheet, h, i, row, Category.BOUGHT))
        elif step == "Purchasing Fortifications" and side and subject != side:
            out.append(event(sheet, h, i, row, Category.BOUGHT))
        elif step == "OB-Given Reinforcements" and side:
            out.append(event(sheet, h, i, row, Category.BOUGHT))
        elif not roll and side and (low.startswith("eliminated") or ": eliminated" in low):
            out.append(event(sheet, h, i, row, Category.LOST))
        elif step in ("Weapons", "Vehicles") and roll:
            out.append(event(sheet, h, i, row, Category.REPAIRED, f"{h.get(row, 'Table')}: {text}"))
        elif (step == "Escape" and not roll and low.startswith("escapes")) or (step == "Shift" and roll):
            out.append(event(sheet, h, i, row, Category.WITHDREW))
        elif step == "Setup Area Determination" and str(h.get(row, "Rule")) == "9.605":
            out.append(event(sheet, h, i, row, Category.BLOCKS, side=""))
        elif step == "Rally and Unloading" and "final CVP" in text:
            out.append(event(sheet, h, i, row, Category.CVP))
    return out


def measures(source: Source, story: list[Event]) -> list[Measure]:
    return (roster_measures(source) + fpp(source) + strength(source) + rgs(source)
            + losses_from_events(story, "units eliminated"))


def _latest(source: Source, kind_id: str) -> str | None:
    found = source.of_kind(kind_id)
    return found[-1].name if found else None


def roster_measures(source: Source) -> list[Measure]:
    """CVP and CPP of each CG Date from the last CG Roster (and, in a side's
    export, the enemy's CVP from the lines of theirs it may see)."""
    out: list[Measure] = []
    for name in (n for n in (_latest(source, K.CG_ROSTER.id), ENEMY_ROSTER) if n and source.book.has(n)):
        h, rows = table_rows(source, name)
        for i, row in rows:
            date, side = str(h.get(row, "CG Date") or ""), str(h.get(row, "Side") or "")
            if not date or not side:
                continue
            for group, item, column in CG_ROSTER_MEASURES:
                value = number(h.get(row, column))
                if value is not None and column in h.positions:
                    out.append(Measure(date, side, group, item, value, where(name, h, column, i)))
    return out


def fpp(source: Source) -> list[Measure]:
    """FPP of each date: available, spent, and left (unspent FPP are lost, 9.619)."""
    out: list[Measure] = []
    for sheet, h, i, row in lines(source):
        m = FPP_LINE.match(str(h.get(row, "Result") or ""))
        if h.get(row, "Step") == "Purchasing Fortifications" and m:
            side, at = str(h.get(row, "Side") or ""), where(sheet.name, h, "Result", i)
            spent, of, left = (float(g) for g in m.groups())
            out += [Measure(sheet.date, side, "FPP", "earned", of, at), Measure(sheet.date, side, "FPP", "spent", spent, at),
                    Measure(sheet.date, side, "FPP", "lost unspent", left, at)]
    return out


def strength(source: Source) -> list[Measure]:
    """Units of each class on every Units sheet present, per side."""
    out: list[Measure] = []
    for sheet in source.of_kind(K.UNITS.id):
        h, rows = table_rows(source, sheet.name)
        counts: dict[tuple[str, str], tuple[int, str]] = {}
        for i, row in rows:
            side, cls = str(h.get(row, "Side") or ""), str(h.get(row, "Class") or "")
            status = str(h.get(row, "Status") or "")
            if not side or not cls or any(s in status for s in GONE_STATUS):
                continue
            n, w = counts.get((side, cls), (0, where(sheet.name, h, "Class", i)))
            counts[(side, cls)] = (n + 1, w)
        out += [Measure(sheet.date, side, "strength", cls, float(n), w) for (side, cls), (n, w) in counts.items()]
    return out


def rgs(source: Source) -> list[Measure]:
    """RGs received to date (bought or OB-given), from the last RG Purchase Record."""
    name = _latest(source, K.RG_RECORD.id)
    if name is None:
        return []
    h, rows = table_rows(source, name)
    order = dates(source)
    per: dict[tuple[str, str], tuple[int, str]] = {}
    for i, row in rows:
        side, date = str(h.get(row, "Side") or ""), str(h.get(row, "CG Date") or "")
        if side and date:
            n, w = per.get((side, date), (0, where(name, h, "RG ID", i)))
            per[(side, date)] = (n + 1, w)
    out: list[Measure] = []
    for side in sorted({s for s, _ in per}):
        total = 0
        for date in order:
            if (side, date) in per:
                n, w = per[(side, date)]
                total += n
                out.append(Measure(date, side, "RGs", "RGs received to date", float(total), w))
    return out

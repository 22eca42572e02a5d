"""The Battlefront campaign's report data (seed 001): the story of each date
from the refit reports' lines, the CPP and FPP accounts from the Ledger
sheets (2.1.1.1, 2.1.1.5), strength from each report's "Ledger and strength"
line and from the Roster sheets by kind of stand (2.1.1.3), and losses from
the umpire's Results sheets (2.1.2)."""
from __future__ import annotations

import re

from automation.report.common import event, is_roll, lines, number, table_rows
from automation.report.model import Category, Event, Measure
from automation.report.source import Source, where
from automation.workbook import bf_sheets as K

STRENGTH = re.compile(r"(\d+) ([^,\d][^,]*)")
LOST_WORDS = ("knocked out", "knocked-out", "abandoned vehicle")
LOST_OUTCOMES = ("Knocked out", "Abandoned")
GONE = ("Wreck", "Abandoned")
KEPT = "kept on the roster"
TOTALS = ("stands ready", "wrecks on the roster")


def dates(source: Source) -> list[str]:
    return source.date_order(K.DATES.title, "Date")


def events(source: Source) -> list[Event]:
    out: list[Event] = []
    wrecked: set[tuple[str, str]] = set()
    for sheet, h, i, row in lines(source):
        step, text = str(h.get(row, "Step") or ""), str(h.get(row, "Result") or "")
        roll = is_roll(h, row)
        if step in ("Posture", "Reveal posture") and not roll:
            out.append(event(sheet, h, i, row, Category.POSTURE))
        elif step == "Scenario length" and not roll and not h.get(row, "Subject"):
            out.append(event(sheet, h, i, row, Category.SCENARIO))
        elif step in ("Purchases", "Fortifications (FPP)") and text.startswith("buys"):
            out.append(event(sheet, h, i, row, Category.BOUGHT))
        elif step == "Casualties and roster" and not roll and any(w in text for w in LOST_WORDS):
            key = (str(h.get(row, "Side") or ""), str(h.get(row, "Subject") or ""))
            if KEPT in text and key in wrecked:
                continue  # a wreck the roster keeps: lost on an earlier date, not again
            wrecked.add(key)
            out.append(event(sheet, h, i, row, Category.LOST))
        elif step == "Armor repair" and roll:
            out.append(event(sheet, h, i, row, Category.REPAIRED, f"repair roll: {text}"))
        elif step == "Armor withdrawal" and roll:
            out.append(event(sheet, h, i, row, Category.WITHDREW, f"withdrawal roll: {text}"))
    for sheet in source.of_kind(K.LEDGER.id):
        h, rows = table_rows(source, sheet.name)
        for i, row in rows:
            if h.get(row, "Account") == "Scenario":
                out.append(Event(sheet.date, "", Category.SCENARIO, str(h.get(row, "Rule") or ""), "",
                                 str(h.get(row, "Entry") or ""), where(sheet.name, h, "Entry", i)))
    return out


def measures(source: Source, story: list[Event]) -> list[Measure]:
    return economy(source) + strength(source) + losses(source)


def economy(source: Source) -> list[Measure]:
    """Each Ledger's CPP and FPP per side: start, earned (every credit), spent
    (every debit) and saved (the 'Left' balance carried to the next date)."""
    out: list[Measure] = []
    for sheet in source.of_kind(K.LEDGER.id):
        h, rows = table_rows(source, sheet.name)
        acc: dict[tuple[str, str], dict[str, float]] = {}
        at: dict[tuple[str, str], str] = {}
        for i, row in rows:
            side, account = str(h.get(row, "Side") or ""), str(h.get(row, "Account") or "")
            if account not in ("CPP", "FPP") or not side:
                continue
            entry, amount, balance = str(h.get(row, "Entry") or ""), number(h.get(row, "Amount")), number(h.get(row, "Balance"))
            values = acc.setdefault((side, account), {"earned": 0.0, "spent": 0.0})
            at.setdefault((side, account), where(sheet.name, h, "Balance", i))
            if entry == "Start" and balance is not None:
                values["start"] = balance
            elif entry == "Left" and balance is not None:
                values["saved"] = balance
                at[(side, account)] = where(sheet.name, h, "Balance", i)
            elif amount is not None:
                values["earned" if amount > 0 else "spent"] += abs(amount)
        for (side, account), values in acc.items():
            out += [Measure(sheet.date, side, account, item, v, at[(side, account)]) for item, v in values.items()]
    return out


def strength(source: Source) -> list[Measure]:
    """The reports' strength line of each side (MEs, stands ready, wrecks,
    modules), and, from each Roster sheet present, the stands ready by kind."""
    out: list[Measure] = []
    seen: set[tuple[str, str]] = set()
    for sheet, h, i, row in lines(source):
        text = str(h.get(row, "Result") or "")
        if h.get(row, "Step") == "Ledger and strength" and text.startswith("strength:"):
            side = str(h.get(row, "Side") or "")
            for n, item in STRENGTH.findall(text.partition(":")[2]):
                out.append(Measure(sheet.date, side, "strength", item.strip(), float(n), where(sheet.name, h, "Result", i)))
            seen.add((sheet.date, side))
    for sheet in source.of_kind(K.ROSTER.id):
        h, rows = table_rows(source, sheet.name)
        counts: dict[tuple[str, str], int] = {}
        mes: dict[str, set[str]] = {}
        first: dict[str, str] = {}
        for i, row in rows:
            side = str(h.get(row, "Side") or "")
            if not side:
                continue
            first.setdefault(side, where(sheet.name, h, "Status", i))
            status = str(h.get(row, "Status") or "")
            kind = str(h.get(row, "Kind") or "")
            if status == "Available":
                counts[(side, kind)] = counts.get((side, kind), 0) + 1
                counts[(side, "stands ready")] = counts.get((side, "stands ready"), 0) + 1
                mes.setdefault(side, set()).add(str(h.get(row, "ME") or ""))
            elif status in GONE:
                counts[(side, "wrecks on the roster")] = counts.get((side, "wrecks on the roster"), 0) + 1
        for (side, item), n in counts.items():
            if item not in TOTALS:
                out.append(Measure(sheet.date, side, "ready by kind", item, float(n), first[side]))
            elif (sheet.date, side) not in seen:  # else the report's own line for that date gives it
                out.append(Measure(sheet.date, side, "strength", item, float(n), first[side]))
        for side, names in mes.items():
            if (sheet.date, side) not in seen:
                out.append(Measure(sheet.date, side, "strength", "MEs", float(len(names)), first[side]))
    return out


def losses(source: Source) -> list[Measure]:
    """Stands knocked out or abandoned in each date's scenario (Results sheets)."""
    out: list[Measure] = []
    for sheet in source.of_kind(K.RESULTS.id):
        h, rows = table_rows(source, sheet.name)
        counts: dict[str, tuple[int, str]] = {}
        for i, row in rows:
            side = str(h.get(row, "Side") or "")
            if side and str(h.get(row, "Outcome") or "") in LOST_OUTCOMES:
                n, w = counts.get(side, (0, where(sheet.name, h, "Outcome", i)))
                counts[side] = (n + 1, w)
        for side in source.sides:
            n, w = counts.get(side, (0, f"{sheet.name}!C1"))
            if source.viewer is None or side == source.viewer:
                out.append(Measure(sheet.date, side, "losses", "stands knocked out or abandoned", float(n), w))
    return out

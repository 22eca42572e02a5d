"""Battlefront campaign workbook <-> engine: reads the sheets a refit needs
into BFInputs/BFState (validating every reference with its Sheet!Cell) and
turns a refit's results into the sheets it appends."""
from __future__ import annotations

import datetime as dt
import re
from typing import Any

from automation.campaign.model import CampaignDate, Part
from automation.engine.tables import RuleSystem
from automation.errors import CellProblem, WorkbookError
from automation.steps.bf.state import (
    ME, Arrival, BFInputs, BFState, Deployment, Ledger, Order, Ref, RGEntry, Roster, SideInfo, Situation, Stand,
    StandResult, Status,
)
from automation.steps.bf.common import counts_in_size
from automation.workbook import bf_sheets as K
from automation.workbook.columns import START
from automation.workbook.reader import Problems, SheetRow, Workbook, match_name
from automation.workbook.schema import SIDES_SHEET

NO_DISCIPLINE = ("OBA module", "Aircraft", "Fortification")
_STATUS = {s.value: s for s in Status}  # (a roster's thousands of rows: a lookup, not an enum call, each)
_SITUATION = {s.value: s for s in Situation}
STANDS_SPEC = re.compile(r"^\s*(?P<type>.+?)\s*[x×]\s*(?P<n>\d+)\s*(?:\[(?P<kind>[^\]]+)\])?\s*$", re.I)


def ref(row: SheetRow, column: str) -> Ref:
    return Ref(row.sheet, row.cell(column))


def _fail(problems: list[CellProblem], book: Workbook) -> None:
    if problems:
        raise WorkbookError(problems, str(book.path))


def read_sides(book: Workbook) -> tuple[SideInfo, SideInfo]:
    rows = book.read(SIDES_SHEET)
    problems = []
    if len(rows) != 2:
        problems.append(CellProblem(SIDES_SHEET.title, "A2", f"{len(rows)} side(s) entered; exactly two sides are needed"))
    sides = []
    for r in rows:
        name = r["Side"]
        if len(name) > 10:
            problems.append(r.problem("Side", f"{name!r} has {len(name)} characters; at most 10 (it is part of sheet names)"))
        sides.append(SideInfo(name, r["Nationality"], r["Starting CPP"], r["Starting FPP"],
                              r["Armor withdrawal"] == "Yes", r["First posture"]))
    _fail(problems, book)
    return sides[0], sides[1]


def _calendar(row: SheetRow) -> dt.date | CellProblem:
    value = row["Calendar date"]
    try:
        return dt.date.fromisoformat(str(value)[:10])
    except ValueError:
        return row.problem("Calendar date", f"text {value!r} is not a date written YYYY-MM-DD")


def read_dates(book: Workbook, lists: dict[str, list[str]]) -> tuple[CampaignDate, ...]:
    problems: list[CellProblem] = []
    dates = []
    for i, r in enumerate(book.read(K.DATES, lists=lists)):
        day = _calendar(r)
        if isinstance(day, CellProblem):
            problems.append(day)
            continue
        label = r["Date"]
        if re.search(r"[\[\]:*?/\\]", label) or len(label) > 12:
            problems.append(r.problem("Date", f"{label!r} must be at most 12 characters and free of [ ] : * ? / \\"))
        if label == START:
            problems.append(r.problem("Date", f"{START!r} is reserved for the initial roster"))
        dates.append(CampaignDate(label, day, Part(r["Part"]), i))
    if not dates and not problems:
        problems.append(CellProblem(K.DATES.title, "A2", "no dates entered; list the campaign's scenarios in order"))
    _fail(problems, book)
    return tuple(dates)


def read_historical(book: Workbook, lists: dict[str, list[str]], dates: tuple[CampaignDate, ...]) -> dict[tuple[str, str], int | str]:
    """The umpire's historical CPP DRM per date and side (2.1.1.1): a whole
    number or "No CPP's"; one row per date and side."""
    from automation.steps.bf.cpp import no_cpp

    problems: list[CellProblem] = []
    out: dict[tuple[str, str], int | str] = {}
    seen: dict[tuple[str, str], str] = {}
    labels = {d.label for d in dates}
    for r in book.read(K.HISTORICAL_DRM, lists=lists):
        key = (r["Date"], r["Side"])
        if r["Date"] not in labels:
            problems.append(r.problem("Date", f"{r['Date']!r} is not a date on the Dates sheet; valid: {', '.join(d.label for d in dates)}"))
        if key in seen:
            problems.append(r.problem("Date", f"{r['Date']}, {r['Side']} already has a DRM at {seen[key]}; one row per date and side"))
        seen.setdefault(key, r.cell("Date"))
        drm = r["DRM"]
        if isinstance(drm, str) and not no_cpp(drm):
            problems.append(r.problem("DRM", f"text {drm!r} is neither a whole number nor No CPP's"))
        out[key] = drm
    _fail(problems, book)
    return out


def read_rg_chart(book: Workbook, lists: dict[str, list[str]]) -> dict[tuple[str, str], RGEntry]:
    problems: list[CellProblem] = []
    out: dict[tuple[str, str], RGEntry] = {}
    for r in book.read(K.RG_CHART, lists=lists):
        key = (r["Side"], r["ID"])
        if key in out:
            problems.append(r.problem("ID", f"{r['ID']!r} is already on the chart of {r['Side']} at {out[key].ref.cell}"))
            continue
        stands = []
        parts = [p.strip() for p in str(r["Stands"] or "").split(";") if p.strip()]
        for part in parts:
            m = STANDS_SPEC.match(part)
            typed = m.group("kind").strip() if m and m.group("kind") else None
            kind = match_name(typed, lists.get("stand_kind", ())) if typed else None
            if m is None:
                problems.append(r.problem("Stands", f"{part!r} is not 'Type xN' or 'Type xN [Kind]', e.g. 'Rifle x9' or "
                                                    "'T-34/76 x4 [AFV]'"))
                continue
            if typed and kind is None:
                problems.append(r.problem("Stands", f"{part!r}: [{typed}] is not a stand kind of the Lists sheet; valid: "
                                                    f"{', '.join(lists.get('stand_kind', ()))}"))
                continue
            stands.append((m.group("type"), int(m.group("n")), kind))
        if r["Kind"] == "ME" and not parts:
            problems.append(r.problem("Stands", "an ME reinforcement group needs its stands, e.g. 'Rifle x9; HMG x2'"))
        if r["Kind"] == "ME" and not r["ME class"]:
            problems.append(r.problem("ME class", "an ME reinforcement group needs its ME class"))
        if r["Kind"] == "FPP" and not r["FPP"]:
            problems.append(r.problem("FPP", "an FPP reinforcement group needs the FPP it gives"))
        out[key] = RGEntry(r["Side"], r["ID"], r["Description"], r["Kind"], r["ME class"], r["ME type"], tuple(stands),
                           r["Discipline"], r["CPP"], r["Scenario max"], r["Campaign max"], r["FPP"], r["Notes"] or "", ref(r, "ID"))
    _fail(problems, book)
    return out


def read_schedule(book: Workbook, lists: dict[str, list[str]], dates: tuple[CampaignDate, ...],
                  rg_chart: dict[tuple[str, str], RGEntry]) -> tuple[Arrival, ...]:
    """The umpire's scheduled reinforcements (2.1.1.4.1); none without the sheet."""
    if not book.has(K.REINFORCEMENTS.title):
        return ()
    problems: list[CellProblem] = []
    labels = [d.label for d in dates]
    out = []
    for r in book.read(K.REINFORCEMENTS, lists=lists):
        if r["Date"] not in labels:
            problems.append(r.problem("Date", f"{r['Date']!r} is not a date on the Dates sheet; valid: {', '.join(labels)}"))
        if (r["Side"], r["RG"]) not in rg_chart:
            valid = ", ".join(k[1] for k in rg_chart if k[0] == r["Side"]) or "(none)"
            problems.append(r.problem("RG", f"{r['RG']!r} is not on {r['Side']}'s RG chart; valid: {valid}"))
        out.append(Arrival(str(r["Date"]), r["Side"], str(r["RG"]), str(r["ME"]).strip() if r["ME"] else None,
                           ref(r, "ME" if r["ME"] else "RG")))
    _fail(problems, book)
    return tuple(out)


def read_forces(book: Workbook, name: str) -> tuple[Deployment, ...] | None:
    """A side's Forces sheet (2.1.1.7); None when it is not there."""
    if not book.has(name):
        return None
    return tuple(Deployment(str(r["ME"]).strip(), ref(r, "ME")) for r in book.read(K.FORCES, name)
                 if r["Deploy"] == "Yes" or not (r["Offered"] or r["Deploy"]))  # a form's offer not taken: not deployed


_READ_ROSTER: dict[int, tuple[list[SheetRow], tuple[Any, ...], Roster]] = {}
"""The roster last read, by the identity of the rows it was read from (the reader gives a sheet read again
the same way the same rows), with what its check depended on: an import plans its refit twice, the second
time with the returned orders laid over the master, and reads the same roster."""


def read_roster(book: Workbook, name: str, lists: dict[str, list[str]],
                rg_chart: dict[tuple[str, str], RGEntry] | None = None) -> Roster:
    """The stands of a Roster sheet; with ``rg_chart``, each RG named must be on
    its side's chart (2.1.1.4.1: the base force counts against the RG limits)."""
    rows = book.read(K.ROSTER, name, lists)
    checked_with = (tuple(lists.get("discipline", ())), None if rg_chart is None else frozenset(rg_chart))
    kept = _READ_ROSTER.get(id(rows))
    if kept is not None and kept[0] is rows and kept[1] == checked_with:
        return kept[2]
    roster = _roster_of(book, rows, lists, rg_chart)
    _READ_ROSTER.clear()  # (the last one only: it holds the rows, so no other list takes their identity)
    _READ_ROSTER[id(rows)] = (rows, checked_with, roster)
    return roster


def _roster_of(book: Workbook, rows: list[SheetRow], lists: dict[str, list[str]],
               rg_chart: dict[tuple[str, str], RGEntry] | None) -> Roster:
    problems: list[CellProblem] = []
    mes: dict[str, ME] = {}
    stands = []
    for r in rows:
        v = r.values.get  # (what r[column] gives, looked up without a call of its own: a roster is thousands of rows)
        me_id = v("ME")
        first = mes.get(me_id)
        if first is None:  # an ME is made from its first row; each of its other rows must agree with it
            mes[me_id] = ME(me_id, v("Side"), v("ME class"), v("ME type"), v("RG"), v("Breakpoint base") or 0,
                            v("Losses today") or 0, v("Full strength") or 0, v("Discipline"), ref(r, "ME"))
        elif (first.side, first.me_class, first.me_type, first.rg) != (v("Side"), v("ME class"), v("ME type"), v("RG")):
            for field_name, column in (("side", "Side"), ("me_class", "ME class"), ("me_type", "ME type"), ("rg", "RG")):
                if getattr(first, field_name) != v(column):
                    problems.append(r.problem(column, f"ME {me_id} has {v(column)!r} here but "
                                              f"{getattr(first, field_name)!r} at {first.ref.cell}; every row of an ME must agree"))
        if rg_chart is not None and v("RG") and (v("Side"), v("RG")) not in rg_chart:
            valid = ", ".join(k[1] for k in rg_chart if k[0] == v("Side")) or "(none)"
            problems.append(r.problem("RG", f"{r['RG']!r} is not on the RG chart of {r['Side']}; valid: {valid}"))
        status = v("Status")
        if not v("Discipline") and v("Kind") not in NO_DISCIPLINE:
            problems.append(r.problem("Discipline", f"is empty; a {r['Kind']} stand needs one of {', '.join(lists.get('discipline', ()))}"))
        if status in ("Wreck", "Abandoned") and v("Kind") not in ("AFV", "Soft vehicle"):
            problems.append(r.problem("Status", f"only vehicles can be wrecks; {r['Stand']} is {r['Kind']}"))
        if status in ("Wreck", "Abandoned") and not v("Wreck lines"):
            problems.append(r.problem("Wreck lines", "a wreck needs its lines: Own lines or Enemy lines"))
        stands.append(Stand.of_fields(
            v("Stand"), v("Side"), me_id, v("Stand type"), v("Kind"), v("Discipline") or "",
            Status.WRECK if status in ("Wreck", "Abandoned") else _STATUS.get(status) or Status(status),
            _SITUATION.get(v("Situation")) or Situation(v("Situation")),
            v("Tracks"), v("Wreck lines"), v("In minefield") == "Yes", status == "Abandoned",
            v("Ammunition") or "Normal", v("Notes") or "", ref(r, "Stand")))
    _fail(problems, book)
    in_size: dict[str, list[Stand]] = {}  # soft-skin transport is not part of an ME's size (house rules 26)
    for s in stands:
        if counts_in_size(s):
            in_size.setdefault(s.me, []).append(s)
    for me_id, me in mes.items():
        if not me.full_strength:
            mes[me_id] = me.with_(full_strength=len(in_size.get(me_id, ())))
        if not me.breakpoint_base:
            mes[me_id] = mes[me_id].with_(breakpoint_base=sum(1 for s in in_size.get(me_id, ()) if s.available))
    return Roster(mes, tuple(stands))


def read_results(book: Workbook, name: str, roster: Roster, lists: dict[str, list[str]]) -> dict[str, StandResult]:
    problems = []
    out: dict[str, StandResult] = {}
    for r in book.read(K.RESULTS, name, lists):
        if r["Outcome"] is None:
            if not r["Offered"]:  # a form's offered row left blank: the stand took no part
                problems.append(r.problem("Outcome", "Outcome is empty; one of "
                                          f"{', '.join(K.OUTCOMES)} is required"))
            continue
        stand = roster.stand(r["Stand"])
        if stand is None:
            problems.append(r.problem("Stand", f"{r['Stand']!r} is not a stand on the roster"))
            continue
        if stand.side != r["Side"]:
            problems.append(r.problem("Side", f"{stand.id} belongs to {stand.side}, not {r['Side']}"))
        if stand.id in out:
            problems.append(r.problem("Stand", f"{stand.id} already has a result at {out[stand.id].ref.cell}"))
        if r["Outcome"] == "Abandoned" and not stand.is_vehicle:
            problems.append(r.problem("Outcome", f"only vehicles are abandoned; {stand.id} is {stand.kind}"))
        if r["Outcome"] == "Used" and stand.kind not in ("OBA module", "Aircraft"):
            problems.append(r.problem("Outcome", f"'Used' is for OBA modules and aircraft; {stand.id} is {stand.kind}"))
        out[stand.id] = StandResult(
            r["Side"], stand.id, r["Outcome"], r["Knocked out by"], r["Ends in"] or "Own lines",
            Situation(r["Situation"] or stand.situation.value), r["In minefield"] == "Yes", r["Near friendly lines"] == "Yes",
            r["Turns isolated"] or 0, r["Turns cut off"] or 0, r["Kills by fire"] or 0, r["CC wins"] or 0,
            r["CC losses"] or 0, r["Notes"] or "", ref(r, "Stand"))
    _fail(problems, book)
    return out


def read_orders(book: Workbook, kind, name: str) -> tuple[Order, ...] | None:
    if not book.has(name):
        return None
    return tuple(
        Order(r["Order"], None if r["Subject"] is None else str(r["Subject"]), r["Value"], r["Detail"], ref(r, "Order"),
              {c: ref(r, c) for c in ("Order", "Subject", "Value", "Detail")})
        for r in book.read(kind, name)
        if not (r["Offered"] and r["Value"] is None))  # a form's offer left unchosen is no order


def read_ledger(book: Workbook, name: str, sides: tuple[SideInfo, SideInfo]) -> Ledger:
    cpp: dict[str, int] = {}
    fpp: dict[str, int] = {}
    rg_used: dict[tuple[str, str], int] = {}
    played, attacker = True, None
    for r in book.read(K.LEDGER, name, {"sides": [s.name for s in sides]}):
        if r["Entry"] == "Left" and r["Account"] in ("CPP", "FPP"):
            (cpp if r["Account"] == "CPP" else fpp)[r["Side"]] = r["Balance"] or 0
        elif r["Account"] == "RG":
            rg_used[(r["Side"], r["Entry"])] = r["Balance"] or 0
        elif r["Account"] == "Scenario" and r["Entry"].startswith("Attacker: "):
            attacker = r["Entry"][len("Attacker: "):] or None
            played = attacker not in (None, "none")
    return Ledger(cpp, fpp, rg_used, played, attacker if played else None)


def find_date(book: Workbook, dates: tuple[CampaignDate, ...]) -> CampaignDate | None:
    """The first date whose refit is not complete (None: the campaign is over)."""
    for d in dates:
        if not book.has(K.REPORT.name_for(date=d.label, side="2")):
            return d
    return None


def load(book: Workbook, system: RuleSystem, settings: dict[str, Any]) -> tuple[BFInputs, BFState]:
    """Every sheet the refit needs is read, and every problem of all of them
    is raised together; a sheet another depends on that fails still lets the
    other be checked on its own."""
    found = Problems(book.path)
    lists = dict(found.attempt(book.read_lists, default={}))
    sides = found.attempt(read_sides, book)
    if sides:  # else Side columns elsewhere are checked once the Sides sheet is right
        lists["sides"] = [s.name for s in sides]
    dates = found.attempt(read_dates, book, lists)
    rg_chart = found.attempt(read_rg_chart, book, lists)
    historical = found.attempt(read_historical, book, lists, dates) if dates is not None else \
        found.attempt(book.read, K.HISTORICAL_DRM, lists=lists)
    fp = found.attempt(lambda: {(r["Side"], r["Item"]): (r["FPP"], ref(r, "Item")) for r in book.read(K.FP_CHART, lists=lists)})
    schedule = found.attempt(read_schedule, book, lists, dates, rg_chart) if dates is not None and rg_chart is not None \
        else None
    date = find_date(book, dates) if dates else None
    if dates and date is None:
        raise WorkbookError(CellProblem(K.DATES.title, f"A{len(dates) + 1}",
                                        "every date's refit is done; add the next date to continue the campaign"),
                            str(book.path))
    previous = dates[date.index - 1] if date and date.index else None
    roster_name = K.ROSTER.name_for(date=previous.label if previous else START)
    roster = None
    if dates is not None:
        roster = found.attempt(read_roster, book, roster_name, lists, rg_chart)
    elif book.has(roster_name):  # which roster is due is unknown: check the first one on its own
        found.attempt(book.read, K.ROSTER, roster_name, lists)
    ledger = None
    if previous is not None and sides is not None:
        ledger = found.attempt(read_ledger, book, K.LEDGER.name_for(date=previous.label), sides)
    names: dict[str, str] = {}
    results = None
    if roster is not None and previous is not None and ledger is not None and ledger.played:
        names["results"] = K.RESULTS.name_for(date=previous.label)
        if book.has(names["results"]):
            results = found.attempt(read_results, book, names["results"], roster, lists)
    orders, spend, forces = {}, {}, {}
    if date is not None and sides is not None:
        for s in sides:
            if previous is not None:
                names[f"forces:{s.name}"] = K.FORCES.name_for(date=previous.label, side=s.name)
                forces[s.name] = found.attempt(read_forces, book, names[f"forces:{s.name}"])
            names[f"orders:{s.name}"] = K.ORDERS.name_for(date=date.label, side=s.name)
            names[f"spend:{s.name}"] = K.SPEND.name_for(date=date.label, side=s.name)
            orders[s.name] = found.attempt(read_orders, book, K.ORDERS, names[f"orders:{s.name}"])
            spend[s.name] = found.attempt(read_orders, book, K.SPEND, names[f"spend:{s.name}"])
    found.raise_all()
    assert sides is not None and dates is not None and date is not None and roster is not None
    assert rg_chart is not None and historical is not None and fp is not None and schedule is not None
    if previous is None:
        counts: dict[tuple[str, str], int] = {}
        for me in roster.mes.values():
            if me.rg:
                counts[(me.side, me.rg)] = counts.get((me.side, me.rg), 0) + 1
        ledger = Ledger({s.name: s.starting_cpp for s in sides}, {s.name: s.starting_fpp for s in sides}, counts)
    assert ledger is not None
    ladder = tuple(lists.get("discipline", ()))
    eligibility = {str(r["Nationality"]): (str(r["From"]), str(r["To"])) for r in system.charts["bf.armor_repair_eligibility"].rows}
    inputs = BFInputs(date, previous, sides, dates, historical, rg_chart, fp, ladder, eligibility,
                      settings, results, orders, spend, names, schedule, forces)
    _check_ladder(book, roster, ladder)
    return inputs, BFState(roster, ledger)


def _check_ladder(book: Workbook, roster: Roster, ladder: tuple[str, ...]) -> None:
    if len(ladder) < 2:
        raise WorkbookError(CellProblem("Lists", "A2", "the discipline list needs at least two ratings, low to high"), str(book.path))

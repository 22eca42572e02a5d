"""ABtF campaign workbook -> engine: reads the sheets an ABtF refit needs into
ABtFInputs/ABtFState, checking every reference with its Sheet!Cell (unknown
Setup Areas, impossible leader ratings, unknown status flags, a With that names
no unit ...). All problems of a load are raised together; nothing is written.

Which refit is due: the latest ``CG Roster {date}`` sheet names the last CG Date
refitted; the refit is for the next date of the CG Dates sheet. With only
``CG Roster Start`` the refit is the one before the CG Initial Scenario; after
an Idle CG Date it repeats 9.612 on; after the last date only the + steps run.
"""
from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any

from automation.engine.tables import RuleSystem
from automation.errors import CellProblem, WorkbookError
from automation.steps.abtf import first_move
from automation.steps.abtf.state import (
    ELIMINATED_IN_PLAY, SIDES, ABtFInputs, ABtFState, Area, CGDate, ClassInfo, Line, Mode, Ref, Removal, RGEntry, RGLine,
    Reinforcement, SideRecord, Unit, factors_morale,
)
from automation.workbook import abtf_sheets as K
from automation.workbook.reader import Problems, SheetRow, column_letter

START = "Start"
FINAL = "End"
SPLIT = re.compile(r"\s*[,;]\s*")


def ref(row: SheetRow, column: str) -> Ref:
    return Ref(row.sheet, row.cell(column))


def split_list(text: Any) -> tuple[str, ...]:
    return tuple(p for p in SPLIT.split(str(text or "").strip()) if p)


def _fail(problems: list[CellProblem], book: Any) -> None:
    if problems:
        raise WorkbookError(problems, str(book.path))


def settings_by_id(system: RuleSystem, by_title: Mapping[str, Any]) -> dict[str, Any]:
    """Each rules setting by id, as the Campaign sheet holds it (edited or not)."""
    out: dict[str, Any] = {}
    for sid, s in system.settings.items():
        default = s["value"]
        value = by_title.get(s["title"], default)
        if isinstance(default, bool):
            value = value is True or str(value).strip().lower() in ("yes", "true", "1")
        elif isinstance(default, int) and not isinstance(value, bool):
            try:
                value = int(value)
            except (TypeError, ValueError):
                value = default
        out[sid] = value
    return out


def default_lists(system: RuleSystem) -> dict[str, list[str]]:
    """Leader ratings (low to high) come from the Leader Table's own results."""
    leader = system.table("abtf.leader")
    ratings: list[str] = []
    armor: list[str] = []
    for band in reversed(leader.bands):
        for column, effect in band.effects.items():
            value = effect.get("leader") if column != "Armor" else effect.get("armor_leader")
            target = armor if column == "Armor" else ratings
            if value and value != "none" and value not in target:
                target.append(value)
    return {"leader_ratings": ratings, "armor_leader_ratings": armor, "quality": list(K.QUALITY_LADDER),
            "status": list(K.STATUS_FLAGS)}


def read_dates(book: Any) -> tuple[CGDate, ...]:
    rows = sorted(book.read(K.CG_DATES), key=lambda r: r["Order"])
    dates = tuple(CGDate(r["CG Date"], r["Order"], r["Night"] == "Yes", {"British": r["British CPP"], "German": r["German CPP"]},
                         r["Campaign Exhaustion"], ref(r, "CG Date")) for r in rows)
    problems = [r.problem("CG Date", f"{r['CG Date']!r} is reserved") for r in rows if r["CG Date"] in (START, FINAL)]
    if not dates:
        problems.append(CellProblem(K.CG_DATES.title, "A2", "no CG Dates entered; list them in order (17N, 18AM ...)"))
    _fail(problems, book)
    return dates


def read_areas(book: Any, name: str) -> dict[str, Area]:
    problems: list[CellProblem] = []
    areas: dict[str, Area] = {}
    seen_locations: dict[str, str] = {}
    for r in book.read(K.BLOCKS, name):
        strategic = split_list(r["Strategic Locations"])
        if r["Kind"] == "Entry Area" and not r["Side"]:
            problems.append(r.problem("Side", "an Entry Area needs its side: British or German"))
        if r["Kind"] == "Entry Area" and (strategic or r["Controlled by"]):
            problems.append(r.problem("Strategic Locations", "an Entry Area has no Strategic Locations and no controller"))
        if r["Kind"] == "Block" and r["Controlled by"] and not strategic:
            problems.append(r.problem("Controlled by", "a Block without Strategic Locations is never Controlled (9.605)"))
        if r["Area"] in (K.UNCONTROLLED, K.WW_BOX):
            problems.append(r.problem("Area", f"{r['Area']!r} is reserved; name the Block otherwise"))
        for loc in strategic:
            if loc in seen_locations:
                problems.append(r.problem("Strategic Locations", f"{loc} is already a Strategic Location of Block {seen_locations[loc]}"))
            seen_locations[loc] = r["Area"]
        areas[r["Area"]] = Area(r["Area"], r["Kind"], r["Side"], strategic, r["Controlled by"] if r["Kind"] == "Block" else None,
                                r["Notes"] or "", ref(r, "Area"))
    _fail(problems, book)
    return areas


def _unit(r: SheetRow) -> Unit:
    return Unit(
        r["Unit"], r["Side"], r["Class"], r["Type"], r["Strength"], r["Morale"], r["Quality"], r["Area"], r["Location"],
        r["With"], frozenset(f for f in split_list(r["Status"])), r["Vehicle"], r["PP"] or 0, r["Repair"],
        split_list(r["Ammo depleted"]), r["CVP"], r["Squad/HS"], r["Replaced by"], r["RG"], r["Notes"] or "", ref(r, "Unit"))


def check_unit(r: SheetRow, u: Unit, areas: Mapping[str, Area], lists: Mapping[str, list[str]]) -> list[CellProblem]:
    """Problems of one unit row that need no other row."""
    problems: list[CellProblem] = []
    valid_areas = list(areas) + [K.UNCONTROLLED, K.WW_BOX]
    if u.area not in valid_areas:
        problems.append(r.problem("Area", f"unknown Setup Area {u.area!r}; valid: {', '.join(valid_areas)}"))
    unknown = sorted(u.status - set(K.STATUS_FLAGS))
    if unknown:
        problems.append(r.problem("Status", f"unknown status {', '.join(map(repr, unknown))}; valid: {', '.join(K.STATUS_FLAGS)}"))
    if u.cls == "Leader" and u.strength not in lists.get("leader_ratings", ()):
        problems.append(r.problem("Strength", f"{u.strength!r} is not a possible leader rating; valid: "
                                              f"{', '.join(lists.get('leader_ratings', ()))}"))
    if u.cls == "Armor Leader" and u.strength not in lists.get("armor_leader_ratings", ()):
        problems.append(r.problem("Strength", f"{u.strength!r} is not a possible Armor Leader rating; valid: "
                                              f"{', '.join(lists.get('armor_leader_ratings', ()))}"))
    if u.cls in ("Squad", "HS", "Hero") and factors_morale(u.strength) is None:
        problems.append(r.problem("Strength", f"{u.strength!r} is not a {u.cls}'s factors such as 4-6-7"))
    if u.cls == "Crew" and u.strength and factors_morale(u.strength) is None:
        problems.append(r.problem("Strength", f"{u.strength!r} is not a crew's factors such as 2-2-8"))
    if u.is_vehicle and not u.vehicle:
        problems.append(r.problem("Vehicle", "a vehicle needs its kind: CT AFV, OT AFV or Unarmored"))
    if u.morale_override is not None and not 1 <= u.morale_override <= 12:
        problems.append(r.problem("Morale", f"{u.morale_override} is not a morale level (1-12)"))
    if u.pp < 0:
        problems.append(r.problem("PP", f"{u.pp} PP: portage points cannot be negative"))
    return problems


def read_units(book: Any, name: str, areas: Mapping[str, Area], lists: Mapping[str, list[str]], kind=K.UNITS) -> tuple[Unit, ...]:
    problems: list[CellProblem] = []
    units: list[Unit] = []
    rows: dict[str, SheetRow] = {}
    for r in book.read(kind, name, lists):
        u = _unit(r)
        problems += check_unit(r, u, areas, lists)
        units.append(u)
        rows[u.id] = r
    by_id = {u.id: u for u in units}
    for u in units:
        if u.holder is None:
            continue
        other = by_id.get(u.holder)
        if other is None:
            problems.append(rows[u.id].problem("With", f"{u.holder!r} is not a unit on this sheet"))
        elif other.side != u.side and not u.has("Prisoner"):
            problems.append(rows[u.id].problem("With", f"{u.holder} is {other.side}; only a prisoner is With an enemy unit"))
    _fail(problems, book)
    return tuple(units)


def account_for(units: tuple[Unit, ...], end_units: tuple[Unit, ...], units_sheet: str, end_sheet: str,
                book: Any) -> tuple[tuple[Unit, ...], tuple[Unit, ...]]:
    """Every unit of the Units sheet must be on the End sheet (9.603: the units at CG
    Scenario End); one eliminated in play has Status Eliminated. Returns the units
    still in play and those eliminated in play."""
    problems: list[CellProblem] = []
    listed = {u.id for u in end_units}
    missing = [u.id for u in units if u.id not in listed]
    if missing:
        shown = ", ".join(missing[:40]) + (f" and {len(missing) - 40} more" if len(missing) > 40 else "")
        problems.append(CellProblem(end_sheet, f"B{len(end_units) + 2}",
                                    f"{len(missing)} unit(s) of {units_sheet} missing: {shown}; list every unit as it stands "
                                    "at CG Scenario End, with Status Eliminated for one eliminated in play"))
    gone = {u.id for u in end_units if u.has("Eliminated")}
    with_column = column_letter([c.name for c in K.END.columns].index("With"))
    for u in end_units:
        if u.holder in gone and not u.has("Eliminated"):
            row = "".join(ch for ch in u.ref.cell if ch.isdigit())
            problems.append(CellProblem(end_sheet, f"{with_column}{row}", f"{u.holder} is Eliminated: clear the With of "
                                        f"{u.id} (left unpossessed) or name its new possessor"))
    _fail(problems, book)
    return tuple(u for u in end_units if u.id not in gone), tuple(u for u in end_units if u.id in gone)


def read_records(book: Any, name: str) -> tuple[SideRecord, ...]:
    out = []
    for r in book.read(K.CG_ROSTER, name):
        out.append(SideRecord(
            r["CG Date"], r["Side"], r["Scenario"], r["CPP left"], r["FPP"], r["SAN"], r["ELR"], r["Chit"], r["Final CVP"],
            r["RePh CVP"], r["CPP replenished"], r["CPP spent"], r["Ammunition shortage"] or 0, r["Attack chits"] or 0,
            r["Idle chits"] or 0, r["A-T mines"] or 0, r["Weather"], r["EC"], r["Wind"], r["RG purchased"] or "", r["Notes"] or "",
            ref(r, "CG Date")))
    missing = [s for s in SIDES if not any(x.side == s for x in out)]
    if missing:
        _fail([CellProblem(name, "A2", f"no line for {', '.join(missing)}; each side needs one")], book)
    return tuple(out)


def read_lines(book: Any, kind, name: str) -> tuple[Line, ...] | None:
    if not book.has(name):
        return None
    out = []
    problems: list[CellProblem] = []
    for r in book.read(kind, name):
        if kind is K.PURCHASES and r["Offered"] and r["Count"] is None:
            continue  # a form's offer left without a Count is no purchase
        if kind is K.ORDERS and r["Offered"] and r["Value"] is None:
            continue  # a form's offer left without a Value is no order
        if kind is K.UMPIRE and r["Offered"] and (r["Entry"] is None or all(r[c] is None for c in ("Value", "Area", "Hexes"))):
            continue  # a form's row left blank is no entry
        if kind is K.UMPIRE and r["Entry"] is None:
            problems.append(r.problem("Entry", f"Entry is empty; one of {', '.join(K.UMPIRE_ENTRIES)} is required"))
            continue
        refs = {c.name: ref(r, c.name) for c in kind.columns}
        item = r["Item"] if kind is K.PURCHASES else r["Subject"]
        subject = None if item is None else str(item)
        if kind is K.UMPIRE:
            out.append(Line(r["Entry"], subject, r["Value"], r["Area"], r["Hexes"], (), None, r["Notes"] or "", refs))
        elif kind is K.PURCHASES:
            out.append(Line(r["Purchase"], subject, r["Count"], r["Area"], None, (), None, r["Notes"] or "", refs, r["KG"],
                            r["Front Line"] == "Yes"))
        else:
            out.append(Line(r["Order"], subject, r["Value"], None, None, split_list(r["Units"]), r["Path"], r["Notes"] or "", refs))
    _fail(problems, book)
    return tuple(out)


def read_reinforcements(book: Any) -> tuple[Reinforcement, ...]:
    return tuple(Reinforcement(r["CG Date"], r["Side"], r["Kind"], r["Item"], r["Amount"], r["KG"], r["Entry"], r["From turn"],
                               r["SAN maximum"], r["SAN minimum"], r["Notes"] or "", ref(r, "Item"))
                 for r in book.read(K.REINFORCEMENTS))


def leader_conditions(system: RuleSystem, column: str) -> list[str]:
    return sorted({m.when for m in system.table("abtf.leader").modifiers if m.when and m.applies_to(column)})


def read_rg_charts(book: Any, system: RuleSystem) -> dict[tuple[str, str, str | None], RGEntry]:
    out: dict[tuple[str, str, str | None], RGEntry] = {}
    problems: list[CellProblem] = []
    for side, kind in (("British", K.RG_BRITISH), ("German", K.RG_GERMAN)):
        for r in book.read(kind):
            kg = r["KG"] if side == "German" else None
            key = (side, r["ID"], kg)
            if key in out:
                problems.append(r.problem("ID", f"{r['ID']}{f'({kg})' if kg else ''} is already on the chart at {out[key].ref.cell}"))
            valid = leader_conditions(system, side)
            if r["Leader DRM"] and r["Leader DRM"] not in valid:
                problems.append(r.problem("Leader DRM", f"{r['Leader DRM']!r} is not a {side} Leader Table DRM; valid: {', '.join(valid)}"))
            out[key] = RGEntry(side, r["ID"], kg, r["Group Type"], r["CPP Cost"], r["Full"], r["Depleted"], r["Unit Type"],
                               r["CG Date Max"], r["CG Max"], r["Depletion"] == "Yes", r["Leader"], r["Leader DRM"],
                               r["Notes"] or "", ref(r, "ID"), r["Vehicle"])
    _fail(problems, book)
    return out


def read_classes(book: Any) -> dict[str, ClassInfo]:
    got = {r["Class"]: ClassInfo(r["HS-equivalents"], r["IPC"], r["CVP"], r["Leadership DRM"]) for r in book.read(K.UNIT_CLASSES)}
    missing = [c for c in K.CLASSES if c not in got]
    if missing:
        _fail([CellProblem(K.UNIT_CLASSES.title, f"A{len(got) + 2}", f"no line for {', '.join(missing)}")], book)
    return got


def read_rg_record(book: Any, name: str) -> tuple[RGLine, ...]:
    if not book.has(name):
        return ()
    out = []
    for r in book.read(K.RG_RECORD, name):
        rg_id, _, kg = str(r["RG ID"]).partition("(")
        out.append(RGLine(r["Side"], r["CG Date"], rg_id, kg.rstrip(")") or None, r["Group Type"], r["#P"], r["#R"],
                          r["Str"] or "", r["# Units"] or "", r["SW Received"] or "", r["Leader"] or "", r["Counts"] == "Yes",
                          r["Notes"] or ""))
    return tuple(out)


def read_chit_limits(book: Any) -> dict[str, tuple[int | None, int | None, Ref]]:
    if not book.has(K.CHIT_LIMITS.title):
        return {}
    return {r["Side"]: (r["Attack"], r["Idle"], ref(r, "Attack")) for r in book.read(K.CHIT_LIMITS)}


def first_move_due(book: Any, latest: str) -> bool:
    """The CG Roster of ``latest`` holds a Dual Assault whose first move (9.6215,
    the date's third report) is not rolled yet."""
    lines = read_records(book, K.CG_ROSTER.name_for(date=latest))
    last = [[r for r in lines if r.side == s][-1] for s in SIDES]
    pending = all(r.scenario == first_move.DUAL_ASSAULT and first_move.PENDING in r.notes for r in last)
    return pending and not book.has(K.REPORT.name_for(date=latest, side="3"))


def read_setup(book: Any, name: str) -> tuple[Line, ...] | None:
    """The umpire's Setup sheet (9.6214): one line per side, Set up Yes once done."""
    if not book.has(name):
        return None
    return tuple(Line("Setup", r["Side"], r["Set up"], notes=r["Notes"] or "",
                      refs={c.name: ref(r, c.name) for c in K.SETUP.columns}) for r in book.read(K.SETUP, name))


def latest_roster(book: Any, dates: Iterable[CGDate]) -> str | None:
    found = None
    for d in dates:
        if book.has(K.CG_ROSTER.name_for(date=d.label)):
            found = d.label
    return found


def _check_reinforcements(rows: tuple[Reinforcement, ...], dates: tuple[CGDate, ...], rg: Mapping, book: Any) -> None:
    labels = {d.label for d in dates}
    problems = []
    for r in rows:
        if r.date not in labels:
            problems.append(r.ref.problem(f"CG Date of {r.item!r}: not a date of the CG Dates sheet; valid: {', '.join(sorted(labels))}"))
        if r.kind == "RG" and r.side == "German" and not r.kg and any(k[0] == "German" and k[1] == r.item for k in rg):
            problems.append(r.ref.problem(f"German RG {r.item} needs its KG (9.6178)"))
    _fail(problems, book)


def load(book: Any, system: RuleSystem, settings: dict[str, Any]) -> tuple[ABtFInputs, ABtFState]:
    """Every sheet the refit needs is read and every problem of all of them is
    raised together; a sheet another depends on that fails still lets the
    other be checked on its own."""
    found = Problems(book.path)
    lists = {k: v for k, v in found.attempt(book.read_lists, default={}).items() if v}
    for name, values in default_lists(system).items():
        lists.setdefault(name, values)
    dates = found.attempt(read_dates, book)
    reinforcements = found.attempt(read_reinforcements, book)
    rg = found.attempt(read_rg_charts, book, system)
    classes = found.attempt(read_classes, book)
    chit_limits = found.attempt(read_chit_limits, book)
    if reinforcements is not None and dates is not None and rg is not None:
        found.attempt(_check_reinforcements, reinforcements, dates, rg, book)
    if dates is None:
        for kind in (K.BLOCKS, K.UNITS):  # which date's sheets is unknown: check the starting ones on their own
            if book.has(kind.name_for(date=START)):
                found.attempt(book.read, kind, kind.name_for(date=START), lists)
        found.raise_all()
    latest = latest_roster(book, dates)
    if book.has(K.CG_ROSTER.name_for(date=FINAL)):
        raise WorkbookError(CellProblem(K.CG_ROSTER.name_for(date=FINAL), "A1", "the CG is over: its last CG Scenario has ended "
                                        "(9.603); add CG Dates to the CG Dates sheet to go on"), str(book.path))
    names: dict[str, str] = {}
    date: CGDate | None = None
    current: dict[str, SideRecord] = {}
    history: tuple[SideRecord, ...] = ()
    if latest is None:
        names["roster"] = K.CG_ROSTER.name_for(date=START)
        records = found.attempt(read_records, book, names["roster"])
        previous, mode, prev_label = None, Mode.INITIAL, START
        if records is not None:
            first = records[0].date
            date = next((d for d in dates if d.label == first), None)
            if date is None:
                found.add(records[0].ref.problem(f"{first!r} is not on the CG Dates sheet; valid: "
                                                 f"{', '.join(d.label for d in dates)}"))
            else:
                current = {s: next(r for r in records if r.side == s) for s in SIDES}
                current = {s: r.with_(date=date.label, scenario="Initial", ref=Ref()) for s, r in current.items()}
    elif first_move_due(book, latest):
        date = next(d for d in dates if d.label == latest)
        previous = next((d for d in reversed(dates) if d.order < date.order), None)
        names["roster"] = K.CG_ROSTER.name_for(date=latest)
        lines = found.attempt(read_records, book, names["roster"], default=())
        if lines:
            current = {s: [r for r in lines if r.side == s][-1] for s in SIDES}
            history = tuple(r for r in lines if all(r is not c for c in current.values()))
        mode, prev_label = Mode.FIRST_MOVE, latest
    else:
        previous = next(d for d in dates if d.label == latest)
        names["roster"] = K.CG_ROSTER.name_for(date=latest)
        history = found.attempt(read_records, book, names["roster"], default=())
        later = [d for d in dates if d.order > previous.order]
        mode = Mode.SCENARIO
        if history:
            last = {s: [r for r in history if r.side == s][-1] for s in SIDES}
            if later:
                date = later[0]
                mode = Mode.IDLE if any(r.scenario == "Idle" for r in last.values()) else Mode.SCENARIO
            else:
                date = CGDate(FINAL, previous.order + 1, False, {s: 0 for s in SIDES}, previous.exhaustion)
                mode = Mode.FINAL
            current = {s: SideRecord(date.label, s, "Played", r.cpp_left, r.fpp, r.san, r.elr, None, None, None, None,
                                     None, r.shortage, r.attack_chits, r.idle_chits, r.at_mines) for s, r in last.items()}
        prev_label = latest
    names["units"] = K.UNITS.name_for(date=prev_label)
    names["blocks"] = K.BLOCKS.name_for(date=prev_label)
    areas = found.attempt(read_areas, book, names["blocks"])
    units = found.attempt(read_units, book, names["units"], areas, lists) if areas is not None else \
        found.attempt(book.read, K.UNITS, names["units"], lists)
    end_units = None
    in_play: tuple[Removal, ...] = ()
    if mode in (Mode.SCENARIO, Mode.FINAL):
        names["end"] = K.END.name_for(date=prev_label)
        if book.has(names["end"]):
            if areas is None or units is None:
                found.attempt(book.read, K.END, names["end"], lists)
            else:
                end = found.attempt(read_units, book, names["end"], areas, lists, K.END)
                if end is not None:
                    accounted = found.attempt(account_for, units, end, names["units"], names["end"], book)
                    if accounted is not None:
                        end_units, fallen = accounted
                        in_play = tuple(Removal(u, "9.603", ELIMINATED_IN_PLAY, None, 0) for u in fallen)
    umpire, setup, orders, purchases = None, None, {}, {}
    if date is not None:
        names["umpire"] = K.UMPIRE.name_for(date=date.label)
        umpire = found.attempt(read_lines, book, K.UMPIRE, names["umpire"])
        for s in SIDES:
            names[f"orders:{s}"] = K.ORDERS.name_for(date=date.label, side=s)
            orders[s] = found.attempt(read_lines, book, K.ORDERS, names[f"orders:{s}"])
            names[f"purchases:{s}"] = K.PURCHASES.name_for(date=date.label, side=s)
            purchases[s] = found.attempt(read_lines, book, K.PURCHASES, names[f"purchases:{s}"])
        names["setup"] = K.SETUP.name_for(date=date.label)
        setup = found.attempt(read_setup, book, names["setup"])
    names["rg_record"] = K.RG_RECORD.name_for(date=prev_label)
    rg_record = found.attempt(read_rg_record, book, names["rg_record"], default=()) if mode is not Mode.FIRST_MOVE else ()
    found.raise_all()
    assert date is not None and units is not None and areas is not None
    inputs = ABtFInputs(
        date, previous, mode, dates, end_units, umpire, orders, reinforcements, rg, classes,
        tuple(lists.get("leader_ratings", ())), tuple(lists.get("armor_leader_ratings", ())),
        tuple(lists.get("quality", ())), settings_by_id(system, settings), names, purchases,
        rg_record, chit_limits, setup)
    state = ABtFState(end_units if end_units is not None else units, areas, current, history, removed=in_play)
    return inputs, state

"""Test support for the ABtF refit: a dice double that throws given natural dice
through the real resolver and tables, and builders of hand-made situations
(units, Blocks, CG Roster lines, umpire entries, orders)."""
from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace
from typing import Any

from automation.campaign.model import Dice, Entry, StepResult
from automation.engine.dice import DiceKind, RollLabel
from automation.rulebook import load_rulebook
from automation.steps.abtf.state import (
    SIDES, ABtFInputs, ABtFState, Area, CGDate, ClassInfo, Line, Mode, Ref, Reinforcement, RGEntry, RGLine, SideRecord,
    Unit,
)
from automation.workbook import abtf_sheets as K
from automation.workbook.abtf_adapter import default_lists, settings_by_id

SYSTEM = load_rulebook().system("asl-abtf")


class ScriptedKey:
    """Stands in for a CampaignKey: ``throw`` gives the scripted natural dice.

    ``by_label`` maps the end of a roll label (what follows the date, e.g.
    "9.6041/itc/British/B-6") to its dice; any other roll takes the next throw
    of ``queue``. Every throw is recorded in ``thrown``."""

    commitment = "scripted"

    def __init__(self, queue: Sequence[tuple[int, ...]] = (), by_label: Mapping[str, tuple[int, ...]] | None = None) -> None:
        self.queue = list(queue)
        self.by_label = dict(by_label or {})
        self.thrown: list[tuple[str, tuple[int, ...]]] = []

    def throw(self, kind: DiceKind, label: RollLabel) -> tuple[int, ...]:
        text = "/".join(label.parts[1:])
        if text in self.by_label:
            dice = tuple(self.by_label[text])
        elif self.queue:
            dice = tuple(self.queue.pop(0))
        else:
            raise AssertionError(f"no scripted dice for {label}")
        if len(dice) != len(kind.faces):
            raise AssertionError(f"{label}: scripted {dice} is not a throw of {kind.value}")
        self.thrown.append((text, dice))
        return dice


class ScriptedDice(Dice):
    """automation.campaign.model.Dice whose throws are scripted."""

    def __init__(self, *queue: tuple[int, ...], by_label: Mapping[str, tuple[int, ...]] | None = None,
                 date: str = "19AM", system=SYSTEM) -> None:
        super().__init__(ScriptedKey(queue, by_label), system, date)  # type: ignore[arg-type]

    @property
    def thrown(self) -> list[tuple[str, tuple[int, ...]]]:
        return self.key.thrown  # type: ignore[attr-defined]

    @property
    def unused(self) -> list[tuple[int, ...]]:
        return self.key.queue  # type: ignore[attr-defined]


def unit(uid: str, side: str = "British", cls: str = "Squad", strength: str | None = None, area: str = "A",
         location: str | None = None, **kw: Any) -> Unit:
    if strength is None:
        strength = {"Squad": "6-5-8", "HS": "3-4-8", "Leader": "8-1", "Armor Leader": "9-1", "Hero": "1-4-9"}.get(cls)
    status = kw.pop("status", ())
    status = frozenset([status] if isinstance(status, str) else status)
    type_ = kw.pop("type", cls)
    return Unit(uid, side, cls, type_, strength, area=area, location=location, status=status,
                ref=Ref("End 18N", f"B{sum(map(ord, uid)) % 90 + 2}"), **kw)


def block(name: str, controller: str | None, *strategic: str) -> Area:
    return Area(name, "Block", None, tuple(strategic), controller)


def entry_area(name: str, side: str) -> Area:
    return Area(name, "Entry Area", side)


def line(kind: str, subject: str | None = None, value: Any = None, area: str | None = None, hexes: int | None = None,
         units: Iterable[str] = (), path: str | None = None, notes: str = "", sheet: str = "Umpire 19AM", row: int = 2) -> Line:
    refs = {c: Ref(sheet, f"{letter}{row}") for c, letter in
            (("Entry", "A"), ("Order", "A"), ("Subject", "B"), ("Value", "C"), ("Area", "D"), ("Units", "D"),
             ("Hexes", "E"), ("Path", "E"), ("Notes", "F"))}
    return Line(kind, subject, value, area, hexes, tuple(units), path, notes, refs)


def order(side: str, kind: str, subject: str | None = None, value: Any = None, units: Iterable[str] = (),
          path: str | None = None, row: int = 2) -> Line:
    return line(kind, subject, value, units=units, path=path, sheet=f"Orders 19AM {side}", row=row)


def record(side: str, san: int = 3, elr: int = 4, cpp: int = 0, fpp: int = 0, shortage: int = 0, date: str = "19AM",
           scenario: str = "Played", chit: str | None = None, attack: int = 0, idle: int = 0, at_mines: int = 0,
           weather: str | None = None, ec: str | None = None) -> SideRecord:
    return SideRecord(date, side, scenario, cpp, fpp, san, elr, chit, shortage=shortage, attack_chits=attack,
                      idle_chits=idle, at_mines=at_mines, weather=weather, ec=ec)


def cg_date(label: str) -> CGDate:
    row = SYSTEM.charts["abtf.cpp_base_number"].row(label)
    return CGDate(label, row["Order"], bool(row["Night"]), {"British": row["British"], "German": row["German"]},
                  row["Campaign Exhaustion DRM"])


CLASSES = {r[0]: ClassInfo(r[1], r[2], r[3], r[4]) for r in K.UNIT_CLASS_DEFAULTS}
LISTS = default_lists(SYSTEM)


def inputs(date: str = "19AM", previous: str | None = "18N", mode: Mode = Mode.SCENARIO, umpire: Iterable[Line] = (),
           orders: Mapping[str, Iterable[Line] | None] | None = None, reinforcements: Iterable[Reinforcement] = (),
           purchases: Mapping[str, Iterable[Line] | None] | None = None, rgs: Iterable[RGEntry] = (),
           rg_record: Iterable[RGLine] = (), chit_limits: Mapping[str, tuple[int | None, int | None]] | None = None,
           **settings: Any) -> ABtFInputs:
    values = settings_by_id(SYSTEM, {})
    values.update(settings)
    given = {s: (tuple(orders[s]) if orders[s] is not None else None) for s in orders} if orders is not None else {}
    return ABtFInputs(
        cg_date(date), cg_date(previous) if previous else None, mode,
        tuple(cg_date(r["CG Date"]) for r in SYSTEM.charts["abtf.cpp_base_number"].rows), (), tuple(umpire),
        {s: given.get(s, ()) for s in SIDES}, tuple(reinforcements), _rg_map(rgs), CLASSES,
        tuple(LISTS["leader_ratings"]), tuple(LISTS["armor_leader_ratings"]), tuple(LISTS["quality"]), values,
        {"umpire": f"Umpire {date}", **{f"orders:{s}": f"Orders {date} {s}" for s in SIDES},
         **{f"purchases:{s}": f"Purchases {date} {s}" for s in SIDES}},
        {s: (tuple(purchases[s]) if purchases[s] is not None else None) for s in purchases} if purchases is not None
        else {s: () for s in SIDES},
        tuple(rg_record), {s: (a, i, Ref("Chit Limits", f"B{n}")) for n, (s, (a, i)) in enumerate((chit_limits or {}).items(), 2)},
    )


def _rg_map(rgs: Iterable[RGEntry]) -> dict:
    return {(r.side, r.id, r.kg): r for r in rgs}


def rg(side: str, rg_id: str, kg: str | None = None, cpp: int = 10, full: int = 3, depleted: int | None = 2,
       unit_type: str = "6-5-8", date_max: int | None = 1, cg_max: int | None = 4, depletion: bool = True,
       leader: str = "Infantry", leader_drm: str | None = None, vehicle: str | None = None, group: str = "Pltn") -> RGEntry:
    return RGEntry(side, rg_id, kg, group, cpp, full, depleted, unit_type, date_max, cg_max, depletion, leader, leader_drm,
                   ref=Ref(f"RG Chart {side}", "A2"), vehicle=vehicle)


def purchase(side: str, kind: str, item: str, count: int | None = None, area: str | None = None, kg: str | None = None,
             front_line: bool = False, row: int = 2) -> Line:
    sheet = f"Purchases 19AM {side}"
    refs = {c: Ref(sheet, f"{letter}{row}") for c, letter in
            (("Purchase", "A"), ("Item", "B"), ("KG", "C"), ("Count", "D"), ("Area", "E"), ("Front Line", "F"), ("Notes", "G"))}
    return Line(kind, item, count, area, None, (), None, "", refs, kg, front_line)


def state(*units: Unit, areas: Iterable[Area] = (), british: SideRecord | None = None, german: SideRecord | None = None) -> ABtFState:
    return ABtFState(tuple(units), {a.name: a for a in areas},
                     {"British": british or record("British"), "German": german or record("German")})


def with_orders(given: ABtFInputs, side: str, *orders: Line) -> ABtFInputs:
    return replace(given, orders={**given.orders, side: tuple(orders)})


def texts(result: StepResult, subject: str | None = None) -> list[str]:
    return [e.text for e in result.entries if subject is None or e.subject == subject]


def rolls(result: StepResult) -> list[Entry]:
    return [e for e in result.entries if e.roll is not None]


def mods(entry: Entry) -> dict[str, int]:
    return {m.id: m.value for m in entry.roll.modifiers}

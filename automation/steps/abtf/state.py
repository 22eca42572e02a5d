"""Domain types of an ASL "A Bridge Too Far" campaign (seed 003): the units of
the CG Roster with their Setup Areas, the Blocks and Entry Areas, each side's
CG Roster line (CPP, FPP, SAN, ELR, chits, CVP), the umpire's entries, a side's
orders, and the state a refit carries from step to step."""
from __future__ import annotations

import enum
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from automation.errors import CellProblem

BRITISH, GERMAN = "British", "German"
SIDES = (BRITISH, GERMAN)
MMC = ("Squad", "HS", "Crew")
SMC = ("Leader", "Armor Leader", "Hero")
LEADERS = ("Leader", "Armor Leader")
EQUIPMENT = ("SW", "Gun")
ELIMINATED_IN_PLAY = "eliminated in play"  # a Removal's why for a unit the End sheet marks Eliminated
RATING = re.compile(r"^\s*(\d{1,2})\s*([+-])\s*(\d)\s*$")
FACTORS = re.compile(r"^\s*\d{1,2}\s*-\s*\d{1,2}\s*-\s*(\d{1,2})\s*[A-Za-z]*\s*$")


def enemy(side: str) -> str:
    return GERMAN if side == BRITISH else BRITISH


def rating_parts(rating: str | None) -> tuple[int, int] | None:
    """'8-1' -> (8, -1); '6+1' -> (6, 1); anything else -> None."""
    m = RATING.match(rating or "")
    if m is None:
        return None
    size = int(m.group(3))
    return int(m.group(1)), (size if m.group(2) == "+" else -size)


def factors_morale(factors: str | None) -> int | None:
    """'4-6-7' -> 7 (the morale printed last on an MMC or hero)."""
    m = FACTORS.match(factors or "")
    return int(m.group(1)) if m else None


@dataclass(frozen=True)
class Ref:
    """Where a value came from in the workbook (for error messages)."""

    sheet: str = ""
    cell: str = ""

    def problem(self, message: str) -> CellProblem:
        return CellProblem(self.sheet or "(workbook)", self.cell or "A1", message)


class Mode(enum.Enum):
    """Which RePh steps this refit runs (9.6 markers)."""

    INITIAL = "initial"  # before a CG Initial Scenario: only the † steps
    SCENARIO = "scenario"  # after a CG Scenario: every step
    IDLE = "idle"  # after an Idle CG Date: 9.612-9.620 again (9.62132)
    FINAL = "final"  # after the CG's last scenario: only the + steps (CG Scenario End)
    FIRST_MOVE = "first move"  # a Dual Assault once all setup is done: 9.6215 only


@dataclass(frozen=True)
class Unit:
    """One line of the CG Roster: a unit, weapon, vehicle or fortification."""

    id: str
    side: str
    cls: str
    type: str
    strength: str | None = None
    morale_override: int | None = None
    quality: str | None = None
    area: str = ""
    location: str | None = None
    holder: str | None = None  # the With column
    status: frozenset[str] = frozenset()
    vehicle: str | None = None
    pp: int = 0
    repair: int | None = None
    ammo_depleted: tuple[str, ...] = ()
    cvp: int | None = None
    counterpart: str | None = None
    replaced_by: str | None = None
    rg: str | None = None
    notes: str = ""
    ref: Ref = field(default=Ref(), compare=False)

    @property
    def is_mmc(self) -> bool:
        return self.cls in MMC

    @property
    def is_smc(self) -> bool:
        return self.cls in SMC

    @property
    def is_personnel(self) -> bool:
        return self.is_mmc or self.is_smc

    @property
    def is_leader(self) -> bool:
        return self.cls in LEADERS

    @property
    def is_vehicle(self) -> bool:
        return self.cls == "Vehicle"

    @property
    def is_equipment(self) -> bool:
        return self.cls in EQUIPMENT

    @property
    def is_afv(self) -> bool:
        return self.is_vehicle and self.vehicle in ("CT AFV", "OT AFV")

    def has(self, flag: str) -> bool:
        return flag in self.status

    @property
    def mobile(self) -> bool:
        return self.is_vehicle and not (self.status & {"Immobile", "Abandoned", "Burnt-out"})

    @property
    def crewed(self) -> bool:
        """A vehicle with its Inherent crew aboard."""
        return self.is_vehicle and not (self.status & {"Abandoned", "No crew", "Burnt-out"})

    @property
    def armed(self) -> bool:
        return self.is_personnel and not (self.status & {"Unarmed", "Prisoner"})

    @property
    def morale(self) -> int | None:
        if self.morale_override is not None:
            return self.morale_override
        if self.is_leader:
            parts = rating_parts(self.strength)
            return parts[0] if parts else None
        return factors_morale(self.strength)

    @property
    def leadership_drm(self) -> int | None:
        parts = rating_parts(self.strength) if self.is_leader else None
        return parts[1] if parts else None

    def flagged(self, add: Iterable[str] = (), remove: Iterable[str] = ()) -> Unit:
        return replace(self, status=(self.status - set(remove)) | set(add))

    def with_(self, **changes: Any) -> Unit:
        return replace(self, **changes)


@dataclass(frozen=True)
class Area:
    """A Block (with its Strategic Locations and controller) or an Entry Area."""

    name: str
    kind: str
    side: str | None = None
    strategic: tuple[str, ...] = ()
    controller: str | None = None
    notes: str = ""
    ref: Ref = field(default=Ref(), compare=False)

    @property
    def is_block(self) -> bool:
        return self.kind == "Block"

    @property
    def is_entry(self) -> bool:
        return self.kind == "Entry Area"


@dataclass(frozen=True)
class CGDate:
    label: str
    order: int
    night: bool
    cpp: Mapping[str, int]
    exhaustion: int
    ref: Ref = field(default=Ref(), compare=False)


@dataclass(frozen=True)
class SideRecord:
    """One line of the CG Roster for a CG Date and side."""

    date: str
    side: str
    scenario: str
    cpp_left: int
    fpp: int
    san: int
    elr: int
    chit: str | None = None
    final_cvp: int | None = None
    reph_cvp: int | None = None
    cpp_replenished: int | None = None
    cpp_spent: int | None = None
    shortage: int = 0
    attack_chits: int = 0
    idle_chits: int = 0
    at_mines: int = 0
    weather: str | None = None
    ec: str | None = None
    wind: str | None = None
    rg_purchased: str = ""
    notes: str = ""
    ref: Ref = field(default=Ref(), compare=False)

    @property
    def played(self) -> bool:
        """A CG Scenario was (or will be) played on this CG Date."""
        return self.scenario != "Idle"

    def with_(self, **changes: Any) -> SideRecord:
        return replace(self, **changes)


@dataclass(frozen=True)
class Line:
    """One row of an Umpire or Orders sheet; ``refs`` holds each column's cell."""

    kind: str
    subject: str | None
    value: Any
    area: str | None = None
    hexes: int | None = None
    units: tuple[str, ...] = ()
    path: str | None = None
    notes: str = ""
    refs: Mapping[str, Ref] = field(default_factory=dict, compare=False)
    kg: str | None = None  # Purchases: a German RG's Kampfgruppe
    front_line: bool = False  # Purchases: a fortification set up in a Front Line Location

    def at(self, column: str) -> Ref:
        return self.refs.get(column) or self.refs.get("Entry") or self.refs.get("Order") or self.refs.get("Purchase") or Ref()


@dataclass(frozen=True)
class Reinforcement:
    date: str
    side: str
    kind: str
    item: str
    amount: int
    kg: str | None = None
    entry: str | None = None
    from_turn: int | None = None
    san_max: int | None = None
    san_min: int | None = None
    notes: str = ""
    ref: Ref = field(default=Ref(), compare=False)


@dataclass(frozen=True)
class RGEntry:
    side: str
    id: str
    kg: str | None
    group_type: str
    cpp: int
    full: int | None
    depleted: int | None
    unit_type: str | None
    date_max: int | None
    cg_max: int | None
    depletion: bool
    leader: str
    leader_drm: str | None
    notes: str = ""
    ref: Ref = field(default=Ref(), compare=False)
    vehicle: str | None = None

    @property
    def label(self) -> str:
        """The RG ID as the Purchase Record writes it: I1(K) for a German RG (9.6178)."""
        return f"{self.id}({self.kg})" if self.kg else self.id


@dataclass(frozen=True)
class RGLine:
    """One line of the RG Purchase Record (9.6178)."""

    side: str
    date: str
    rg_id: str
    kg: str | None
    group_type: str
    purchased: int | None
    remaining: int | None
    strength: str = ""
    units: str = ""
    sw: str = ""
    leader: str = ""
    counts: bool = True
    notes: str = ""
    area: str | None = None  # where its units go (not a record column)

    @property
    def label(self) -> str:
        return f"{self.rg_id}({self.kg})" if self.kg else self.rg_id

    def with_(self, **changes: Any) -> RGLine:
        return replace(self, **changes)


@dataclass(frozen=True)
class ClassInfo:
    hs_equivalents: int
    ipc: int
    cvp: int
    drm: int | None = None


@dataclass(frozen=True)
class ABtFInputs:
    """Everything an ABtF refit reads from the workbook besides the state."""

    date: CGDate
    previous: CGDate | None
    mode: Mode
    dates: tuple[CGDate, ...]
    end_units: tuple[Unit, ...] | None  # the units at CG Scenario End; None: not entered yet
    umpire: tuple[Line, ...] | None
    orders: Mapping[str, tuple[Line, ...] | None]
    reinforcements: tuple[Reinforcement, ...] = ()
    rg_charts: Mapping[tuple[str, str, str | None], RGEntry] = field(default_factory=dict)
    classes: Mapping[str, ClassInfo] = field(default_factory=dict)
    leader_ladder: tuple[str, ...] = ()
    armor_ladder: tuple[str, ...] = ()
    quality_ladder: tuple[str, ...] = ()
    settings: Mapping[str, Any] = field(default_factory=dict)
    sheet_names: Mapping[str, str] = field(default_factory=dict)
    purchases: Mapping[str, tuple[Line, ...] | None] = field(default_factory=dict)
    rg_record: tuple[RGLine, ...] = ()  # the RG Purchase Record so far
    chit_limits: Mapping[str, tuple[int | None, int | None, Ref]] = field(default_factory=dict)
    setup: tuple[Line, ...] | None = None  # the Setup sheet of a Dual Assault (9.6214); None: not entered yet

    @property
    def side_names(self) -> tuple[str, str]:
        return SIDES

    def setting(self, setting_id: str) -> Any:
        return self.settings[setting_id]

    def umpire_lines(self, *kinds: str) -> list[Line]:
        return [e for e in self.umpire or () if e.kind in kinds]

    def orders_of(self, side: str, *kinds: str) -> list[Line]:
        return [o for o in self.orders.get(side) or () if o.kind in kinds]

    def purchases_of(self, side: str, *kinds: str) -> list[Line]:
        return [o for o in self.purchases.get(side) or () if o.kind in kinds]

    def rg(self, side: str, rg_id: str, kg: str | None) -> RGEntry | None:
        return self.rg_charts.get((side, rg_id, kg if side == "German" else None))

    def cvp_of(self, unit: Unit) -> int:
        if unit.cvp is not None:
            return unit.cvp
        info = self.classes.get(unit.cls)
        return info.cvp if info else 0


@dataclass(frozen=True)
class Removal:
    """A unit that left play during this RePh, and why."""

    unit: Unit
    rule: str
    why: str
    cvp_to: str | None
    cvp: int


@dataclass(frozen=True)
class ABtFState:
    """The campaign as the RePh changes it step by step."""

    units: tuple[Unit, ...]
    areas: Mapping[str, Area]
    records: Mapping[str, SideRecord]  # the line each side's CG Roster gets for this CG Date
    history: tuple[SideRecord, ...] = ()  # earlier lines, oldest first
    final_cvp: Mapping[str, int] = field(default_factory=dict)
    reph_cvp: Mapping[str, int] = field(default_factory=dict)
    removed: tuple[Removal, ...] = ()
    ob_given: tuple[Reinforcement, ...] = ()
    armor_leaders: Mapping[str, str] = field(default_factory=dict)  # Armor Leader -> vehicle he mans next scenario
    hardened: tuple[str, ...] = ()  # each Battle Hardening of an MMC this RePh, by unit (9.6112)
    escaping: Mapping[str, Line] = field(default_factory=dict)  # unit -> the umpire's Escape entry (9.6053)
    rg_lines: tuple[RGLine, ...] = ()  # this CG Date's RG Purchase Record lines (9.6178)
    fortified: Mapping[str, int] = field(default_factory=dict)  # FPP spent per side (9.619)
    next_scenario: Mapping[str, str] = field(default_factory=dict)  # 9.621: type, setup, move, weather, EC, wind

    def with_(self, **changes: Any) -> ABtFState:
        return replace(self, **changes)

    def unit(self, unit_id: str | None) -> Unit | None:
        for u in self.units:
            if u.id == unit_id:
                return u
        return None

    def of_side(self, side: str) -> list[Unit]:
        return [u for u in self.units if u.side == side]

    def carried_by(self, unit_id: str) -> list[Unit]:
        """Equipment, leaders and vehicular weapons whose With names ``unit_id``."""
        return [u for u in self.units if u.holder == unit_id]

    def put(self, *changed: Unit) -> ABtFState:
        by_id = {u.id: u for u in changed}
        known = {u.id for u in self.units}
        units = tuple(by_id.get(u.id, u) for u in self.units) + tuple(u for u in changed if u.id not in known)
        return replace(self, units=units)

    def drop(self, unit_ids: Iterable[str]) -> ABtFState:
        gone = set(unit_ids)
        return replace(self, units=tuple(u for u in self.units if u.id not in gone))

    def area(self, name: str | None) -> Area | None:
        return self.areas.get(name or "")

    def controller(self, area_name: str | None) -> str | None:
        a = self.area(area_name)
        if a is None:
            return None
        return a.side if a.is_entry else a.controller

    def add_cvp(self, side: str, amount: int) -> ABtFState:
        values = dict(self.reph_cvp)
        values[side] = values.get(side, 0) + amount
        return replace(self, reph_cvp=values)

    def record(self, side: str, **changes: Any) -> ABtFState:
        records = dict(self.records)
        records[side] = records[side].with_(**changes)
        return replace(self, records=records)


__all__ = [
    "ABtFInputs", "ABtFState", "Area", "BRITISH", "CGDate", "ClassInfo", "ELIMINATED_IN_PLAY", "GERMAN", "Line", "Mode",
    "RGEntry", "RGLine", "Ref", "Reinforcement", "Removal", "SIDES", "SideRecord", "Unit", "enemy", "factors_morale", "rating_parts",
]

"""Domain types of a Battlefront: WWII campaign (seed 001): stands and MEs on
the roster, the CPP/FPP ledger, a scenario's results and a side's orders."""
from __future__ import annotations

import enum
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from automation.campaign.model import CampaignDate
from automation.errors import CellProblem
from automation.frozen import changed, made


class Situation(str, enum.Enum):
    NORMAL = "Normal"
    ISOLATED = "Isolated"
    CUT_OFF = "Cut off"


class Status(str, enum.Enum):
    AVAILABLE = "Available"
    WRECK = "Wreck"  # a knocked-out or abandoned "A" vehicle kept on the roster, unavailable
    USED = "Used"  # an OBA module used today (removed at the day's end)


VEHICLE_KINDS = ("AFV", "Soft vehicle")


@dataclass(frozen=True)
class Ref:
    """Where a value came from in the workbook (for error messages)."""

    sheet: str = ""
    cell: str = ""

    def problem(self, message: str) -> CellProblem:
        return CellProblem(self.sheet or "(workbook)", self.cell or "A1", message)


@dataclass(frozen=True)
class Stand:
    id: str
    side: str
    me: str
    type: str
    kind: str
    discipline: str
    status: Status = Status.AVAILABLE
    situation: Situation = Situation.NORMAL
    tracks: str | None = None
    wreck_lines: str | None = None
    in_minefield: bool = False
    abandoned: bool = False
    ammunition: str = "Normal"
    notes: str = ""
    ref: Ref = field(default=Ref(), compare=False)

    @property
    def is_vehicle(self) -> bool:
        return self.kind in VEHICLE_KINDS

    @property
    def is_afv(self) -> bool:
        return self.kind == "AFV"

    @property
    def is_troops(self) -> bool:
        return self.kind in ("Troops", "Engineers", "Command")

    @property
    def available(self) -> bool:
        return self.status is Status.AVAILABLE

    def with_(self, **changes: Any) -> Stand:
        return changed(self, changes)

    @classmethod
    def of_fields(cls, *values: Any) -> Stand:
        """The stand ``Stand(*values)`` makes, given every field in order
        (:func:`automation.frozen.made`: a roster read is thousands of stands)."""
        return made(cls, values)


@dataclass(frozen=True)
class ME:
    """A manoeuvre element: class (I, A, ...), type, the RG it came from, and its
    breakpoint base (stands at the start of the day) and losses today."""

    id: str
    side: str
    me_class: str
    me_type: str
    rg: str | None = None
    breakpoint_base: int = 0
    losses_today: int = 0
    full_strength: int = 0
    discipline: str = ""
    ref: Ref = field(default=Ref(), compare=False)

    def with_(self, **changes: Any) -> ME:
        return changed(self, changes)

    def breakpoints(self) -> tuple[int, int, int]:
        """Stands lost at 25%, 50% and 75% of the base (rounded up)."""
        base = self.breakpoint_base
        return tuple(-(-base * p // 100) for p in (25, 50, 75))  # type: ignore[return-value]


@dataclass(frozen=True)
class Roster:
    mes: Mapping[str, ME]
    stands: tuple[Stand, ...]
    # the stands by ME and by ID, built once for this tuple of stands and shared by the rosters that keep it
    # (an ME changed: the same stands), so a step going ME by ME does not scan the roster for each
    _index: dict[str, Any] = field(default_factory=dict, compare=False, repr=False)

    def of_side(self, side: str) -> list[Stand]:
        return [s for s in self.stands if s.side == side]

    def of_me(self, me: str) -> list[Stand]:
        return list(self._indexed()[0].get(me, ()))

    def stand(self, stand_id: str) -> Stand | None:
        return self._indexed()[1].get(stand_id)

    def _indexed(self) -> tuple[dict[str, list[Stand]], dict[str, Stand]]:
        if self._index.get("stands") is not self.stands:
            by_me: dict[str, list[Stand]] = {}
            by_id: dict[str, Stand] = {}
            for s in self.stands:
                by_me.setdefault(s.me, []).append(s)
                by_id.setdefault(s.id, s)  # the first, as a scan of the roster finds it
            self._index.update(stands=self.stands, by_me=by_me, by_id=by_id)
        return self._index["by_me"], self._index["by_id"]

    def replace_stands(self, changed: Iterable[Stand]) -> Roster:
        by_id = {s.id: s for s in changed}
        if not by_id:  # (most steps change no stand on most dates: the same stands, and their index, kept)
            return Roster(self.mes, self.stands, self._index)
        return Roster(self.mes, tuple(by_id.get(s.id, s) for s in self.stands))

    def remove_stands(self, ids: Iterable[str]) -> Roster:
        gone = set(ids)
        stands = tuple(s for s in self.stands if s.id not in gone)
        return Roster(self.mes, stands).prune()

    def with_me(self, me: ME) -> Roster:
        return Roster({**self.mes, me.id: me}, self.stands, self._index)

    def with_mes(self, mes: Iterable[ME]) -> Roster:
        """The roster with each of ``mes`` in place of the ME of its ID (or
        added), the MEs copied once: a step that changes every ME (the
        breakpoints of a new day: hundreds at 5,000 stands) does not copy
        them all for each."""
        return Roster({**self.mes, **{me.id: me for me in mes}}, self.stands, self._index)

    def remove_me(self, me_id: str) -> Roster:
        return Roster({k: v for k, v in self.mes.items() if k != me_id}, tuple(s for s in self.stands if s.me != me_id))

    def add_stands(self, stands: Iterable[Stand]) -> Roster:
        return Roster(self.mes, self.stands + tuple(stands))

    def prune(self) -> Roster:
        """MEs with no stand left leave the roster."""
        present = {s.me for s in self.stands}
        return Roster({k: v for k, v in self.mes.items() if k in present}, self.stands, self._index)

    def count(self, side: str) -> int:
        return sum(1 for s in self.stands if s.side == side and s.kind not in ("Fortification", "OBA module", "Aircraft"))


@dataclass(frozen=True)
class Ledger:
    """CPP and FPP per side, RG counts to date, and what the last scenario was."""

    cpp: Mapping[str, int]
    fpp: Mapping[str, int]
    rg_used: Mapping[tuple[str, str], int] = field(default_factory=dict)
    played: bool = True
    attacker: str | None = None
    night_attackers: tuple[str, ...] = ()

    def add(self, account: str, side: str, amount: int) -> Ledger:
        values = dict(getattr(self, account))
        values[side] = values.get(side, 0) + amount
        return replace(self, **{account: values})


@dataclass(frozen=True)
class StandResult:
    """What happened to one stand in a scenario (Results sheet)."""

    side: str
    stand: str
    outcome: str = "Unharmed"
    ko_by: str | None = None
    ends_in: str = "Own lines"
    situation: Situation = Situation.NORMAL
    in_minefield: bool = False
    near_friendly_lines: bool = False
    turns_isolated: int = 0
    turns_cut_off: int = 0
    kills_by_fire: int = 0
    cc_wins: int = 0
    cc_losses: int = 0
    notes: str = ""
    ref: Ref = field(default=Ref(), compare=False)


@dataclass(frozen=True)
class Order:
    kind: str
    subject: str | None
    value: Any
    detail: str | None
    ref: Ref = field(default=Ref(), compare=False)
    refs: Mapping[str, Ref] = field(default_factory=dict, compare=False)

    def at(self, column: str) -> Ref:
        return self.refs.get(column, self.ref)


@dataclass(frozen=True)
class RGEntry:
    side: str
    id: str
    description: str
    kind: str  # ME, OBA, Aircraft, FPP, Other
    me_class: str | None
    me_type: str | None
    stands: tuple[tuple[str, int, str | None], ...]  # (type, count, kind or None)
    discipline: str | None
    cpp: int
    scenario_max: int | None
    campaign_max: int | None
    fpp: int | None
    notes: str = ""
    ref: Ref = field(default=Ref(), compare=False)


@dataclass(frozen=True)
class Arrival:
    """One scheduled reinforcement (2.1.1.4.1): an RG that joins a side's
    roster free of CPP on a date, as the ME named (or a generated ID)."""

    date: str
    side: str
    rg: str
    me: str | None = None
    ref: Ref = field(default=Ref(), compare=False)


@dataclass(frozen=True)
class Deployment:
    """One row of a side's Forces sheet (2.1.1.7): an ME it deploys."""

    me: str
    ref: Ref = field(default=Ref(), compare=False)


@dataclass(frozen=True)
class SideInfo:
    name: str
    nationality: str
    starting_cpp: int
    starting_fpp: int
    armor_withdrawal: bool
    first_posture: str | None = None


@dataclass(frozen=True)
class BFInputs:
    """Everything a Battlefront refit for one date reads from the workbook."""

    date: CampaignDate
    previous: CampaignDate | None
    sides: tuple[SideInfo, SideInfo]
    dates: tuple[CampaignDate, ...]
    historical_drm: Mapping[tuple[str, str], int | str]
    rg_chart: Mapping[tuple[str, str], RGEntry]
    fp_chart: Mapping[tuple[str, str], tuple[int, Ref]]
    discipline_ladder: tuple[str, ...]
    repair_eligibility: Mapping[str, tuple[str, str]]
    settings: Mapping[str, Any]
    results: Mapping[str, StandResult] | None  # None: no results sheet (yet)
    orders: Mapping[str, tuple[Order, ...] | None]  # per side; None: not given (yet)
    spend: Mapping[str, tuple[Order, ...] | None]
    sheet_names: Mapping[str, str] = field(default_factory=dict)  # kind -> sheet name, for messages
    schedule: tuple[Arrival, ...] = ()  # scheduled reinforcements of the whole campaign (2.1.1.4.1)
    forces: Mapping[str, tuple[Deployment, ...] | None] = field(default_factory=dict)  # per side, for the previous scenario

    def side(self, name: str) -> SideInfo:
        for s in self.sides:
            if s.name == name:
                return s
        raise KeyError(name)

    def other(self, name: str) -> str:
        return self.sides[1].name if self.sides[0].name == name else self.sides[0].name

    def setting(self, title: str, default: Any = None) -> Any:
        return self.settings.get(title, default)

    @property
    def side_names(self) -> tuple[str, str]:
        return (self.sides[0].name, self.sides[1].name)


@dataclass(frozen=True)
class BFState:
    """The campaign as the refit changes it step by step."""

    roster: Roster
    ledger: Ledger
    postures: Mapping[str, str] = field(default_factory=dict)
    attacker: str | None = None
    scenario: bool = True
    fought: frozenset[str] = frozenset()  # MEs that took part in the previous scenario
    lost_afv: frozenset[str] = frozenset()  # MEs that lost an AFV in the previous scenario
    knocked_out: frozenset[str] = frozenset()  # stands knocked out in the previous scenario (to leave the roster)
    panicked: frozenset[str] = frozenset()
    scenario_losses: Mapping[str, int] = field(default_factory=dict)  # ME -> stands lost in the previous scenario
    repaired: frozenset[str] = frozenset()  # vehicles repaired this refit (2.1.1.2)
    withdrawn: frozenset[str] = frozenset()  # MEs withdrawn this refit
    withdrawn_stands: frozenset[str] = frozenset()  # stands that left the campaign with a withdrawn ME
    me_of: Mapping[str, str] = field(default_factory=dict)  # stand -> ME, for every stand with a result
    wreck_removals: frozenset[str] = frozenset()  # Removal orders aimed at enemy wrecks (2.1.1.3.1), not fortifications
    ledger_lines: tuple[tuple[str, str, str, int | None, int | None, str], ...] = ()
    purchased: tuple[str, ...] = ()

    def with_(self, **changes: Any) -> BFState:
        return replace(self, **changes)

    def record(self, side: str, account: str, entry: str, amount: int | None, rule: str) -> BFState:
        """Record a ledger line without moving the balance (e.g. the start)."""
        balance = getattr(self.ledger, account.lower()).get(side) if account in ("CPP", "FPP") else None
        return replace(self, ledger_lines=self.ledger_lines + ((side, account, entry, amount, balance, rule),))

    def book(self, side: str, account: str, entry: str, amount: int | None, rule: str) -> BFState:
        """Record a ledger line and move the balance."""
        ledger = self.ledger.add(account.lower(), side, amount or 0) if account in ("CPP", "FPP") else self.ledger
        balance = getattr(ledger, account.lower()).get(side) if account in ("CPP", "FPP") else None
        return replace(self, ledger=ledger, ledger_lines=self.ledger_lines + ((side, account, entry, amount, balance, rule),))

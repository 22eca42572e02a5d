"""Builders for Battlefront refit tests (seed 001), so a test reads as the
situation an umpire would write down:

    inputs, state = (Campaign(today="Dec 24")
        .me("II/11 Pz", "German", "A", "Panzer company", afv("G-Pz-1"), afv("G-Pz-2"))
        .result("G-Pz-2", "Knocked out", ends_in="Own lines")
        .spend("German", repair("G-Pz-2", cpp=1))
        .prepared())

Defaults are the Advance to Rostov campaign's frame: German and Russian sides,
one full-day scenario a day from Dec 23 to Dec 27 1942, the rules file's
tables, charts and settings. Order rows get the cells the workbook adapter
would give them (row 2 onwards of "Orders <date> <side>" / "Spend <date>
<side>", columns A-D), so error messages can be checked cell by cell.
"""
from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from typing import Any

from automation.campaign.model import CampaignDate, Part, StepResult
from automation.steps.bf import cleanup
from automation.steps.bf.state import (
    ME, BFInputs, BFState, Ledger, Order, Ref, RGEntry, Roster, SideInfo, Situation, Stand, StandResult, Status,
)
from tests.support.dice import ScriptedDice, bf_system

ROSTOV_DATES = tuple((f"Dec {d}", f"1942-12-{d}", "Full day") for d in range(23, 28))
ORDER_COLUMNS = ("Order", "Subject", "Value", "Detail")


# ------------------------------------------------------------------ stands
@dataclass(frozen=True)
class StandSpec:
    """A stand before it is put into an ME (side, ME and discipline come from the ME)."""

    id: str
    kind: str
    type: str
    fields: dict[str, Any] = field(default_factory=dict)


def afv(stand_id: str, type: str = "PzKpfw IVG", tracks: str | None = "Fully tracked", **fields: Any) -> StandSpec:
    return StandSpec(stand_id, "AFV", type, {"tracks": tracks, **fields})


def wreck(stand_id: str, lines: str = "Own lines", abandoned: bool = False, in_minefield: bool = False,
          type: str = "PzKpfw IVG", **fields: Any) -> StandSpec:
    """An "A" vehicle knocked out (or abandoned) earlier, kept on the roster unavailable."""
    return StandSpec(stand_id, "AFV", type, {"status": Status.WRECK, "wreck_lines": lines, "abandoned": abandoned,
                                             "in_minefield": in_minefield, "tracks": "Fully tracked", **fields})


def troops(stand_id: str, type: str = "Rifle", **fields: Any) -> StandSpec:
    return StandSpec(stand_id, "Troops", type, fields)


def command(stand_id: str, type: str = "Command", **fields: Any) -> StandSpec:
    return StandSpec(stand_id, "Command", type, fields)


def engineers(stand_id: str, type: str = "Pioneer", **fields: Any) -> StandSpec:
    return StandSpec(stand_id, "Engineers", type, fields)


def soft(stand_id: str, type: str = "Opel Blitz", **fields: Any) -> StandSpec:
    return StandSpec(stand_id, "Soft vehicle", type, {"tracks": "Wheeled", **fields})


def gun(stand_id: str, type: str = "10.5cm leFH 18", **fields: Any) -> StandSpec:
    return StandSpec(stand_id, "Gun", type, fields)


def oba(stand_id: str, type: str = "Medium artillery battalion", **fields: Any) -> StandSpec:
    return StandSpec(stand_id, "OBA module", type, fields)


def aircraft(stand_id: str, type: str = "Stuka flight", **fields: Any) -> StandSpec:
    return StandSpec(stand_id, "Aircraft", type, fields)


def fortification(stand_id: str, type: str = "Minefield section", **fields: Any) -> StandSpec:
    return StandSpec(stand_id, "Fortification", type, fields)


# ------------------------------------------------------------------ orders
OrderSpec = tuple[str, Any, Any, Any]


def posture(choice: str) -> OrderSpec:
    return ("Posture", None, choice, None)


def escape(stand_id: str, group: str | None = None, value: str = "Yes") -> OrderSpec:
    return ("Escape", stand_id, value, group)


def repair(stand_id: str, cpp: Any = 0) -> OrderSpec:
    return ("Repair", stand_id, cpp, None)


def combine(me_a: str, me_b: str) -> OrderSpec:
    return ("Combine", me_a, me_b, None)


def purchase(rg: str, count: Any = 1) -> OrderSpec:
    return ("Purchase", rg, count, None)


def extra_cpp(rg: str, cpp: Any = 1) -> OrderSpec:
    return ("Extra CPP", rg, cpp, None)


def preregistered(target: str, points: Any = 1) -> OrderSpec:
    return ("Preregistered points", target, points, None)


def removal(item: str, detail: str | None = None) -> OrderSpec:
    return ("Removal", item, None, detail)


def build_fortification(item: str, count: Any = 1) -> OrderSpec:
    return ("Fortification", item, count, None)


def order(kind: str, subject: Any = None, value: Any = None, detail: Any = None) -> OrderSpec:
    return (kind, subject, value, detail)


def _orders(sheet: str, specs: Iterable[OrderSpec]) -> tuple[Order, ...]:
    out = []
    for row, (kind, subject, value, detail) in enumerate(specs, start=2):
        refs = {c: Ref(sheet, f"{'ABCD'[i]}{row}") for i, c in enumerate(ORDER_COLUMNS)}
        out.append(Order(kind, None if subject is None else str(subject), value, detail, refs["Order"], refs))
    return tuple(out)


# ------------------------------------------------------------------ campaign
class Campaign:
    """A Battlefront campaign at one refit, built step by step (each method returns the builder)."""

    def __init__(self, today: str = "Dec 24", dates: Iterable[tuple[str, str, str]] = ROSTOV_DATES) -> None:
        self.system = bf_system()
        self._dates = [CampaignDate(label, dt.date.fromisoformat(iso), Part(part), i)
                       for i, (label, iso, part) in enumerate(dates)]
        self._today = today
        self._sides: dict[str, SideInfo] = {
            "German": SideInfo("German", "German", 10, 4, False, "Defend"),
            "Russian": SideInfo("Russian", "Russian", 10, 2, True, "Attack"),
        }
        self._mes: dict[str, ME] = {}
        self._stands: list[Stand] = []
        self._results: dict[str, StandResult] | None = {}
        self._orders: dict[str, tuple[Order, ...] | None] = {}
        self._spend: dict[str, tuple[Order, ...] | None] = {}
        self._rg: dict[tuple[str, str], RGEntry] = {}
        self._fp: dict[tuple[str, str], tuple[int, Ref]] = {}
        self._historical: dict[tuple[str, str], int | str] = {
            (r["Date"], side): r[side] for r in self.system.charts["bf.rostov_historical_drm"].rows
            for side in ("German", "Russian")}  # Dec 23-27 as the seed prints them
        self._settings = {s["title"]: s["value"] for s in self.system.settings.values()}
        self._cpp: dict[str, int] = {}
        self._fpp: dict[str, int] = {}
        self._rg_used: dict[tuple[str, str], int] | None = None
        self._played = True
        self._night_attackers: tuple[str, ...] = ()

    # -- frame ---------------------------------------------------------------
    def dated(self, *dates: tuple[str, str, str], today: str | None = None) -> Campaign:
        """The campaign's scenarios: (label, YYYY-MM-DD, part) in order."""
        self._dates = [CampaignDate(label, dt.date.fromisoformat(iso), Part(part), i)
                       for i, (label, iso, part) in enumerate(dates)]
        if today is not None:
            self._today = today
        return self

    def on(self, today: str) -> Campaign:
        self._today = today
        return self

    def side(self, name: str, nationality: str | None = None, cpp: int | None = None, fpp: int | None = None,
             withdrawal: bool | None = None, first_posture: str | None = None) -> Campaign:
        """Change one of the two sides (German and Russian by default)."""
        old = self._sides[name]
        self._sides[name] = SideInfo(name, old.nationality if nationality is None else nationality,
                                     old.starting_cpp if cpp is None else cpp, old.starting_fpp if fpp is None else fpp,
                                     old.armor_withdrawal if withdrawal is None else withdrawal,
                                     old.first_posture if first_posture is None else first_posture)
        return self

    def sides(self, *sides: SideInfo) -> Campaign:
        """Two other sides altogether."""
        self._sides = {s.name: s for s in sides}
        return self

    def setting(self, title: str, value: Any) -> Campaign:
        self._settings[title] = value
        return self

    def historical(self, date: str, side: str, drm: int | str) -> Campaign:
        self._historical[(date, side)] = drm
        return self

    # -- roster --------------------------------------------------------------
    def me(self, me_id: str, side: str, me_class: str, me_type: str, *stands: StandSpec, discipline: str = "Veteran",
           rg: str | None = None, base: int | None = None, losses: int = 0, full: int | None = None) -> Campaign:
        made = [Stand(s.id, side, me_id, s.type, s.kind,
                      "" if s.kind in ("OBA module", "Aircraft", "Fortification") else discipline, **s.fields)
                for s in stands]
        sized = [s for s in made if s.kind != "Soft vehicle"]  # soft transport is not ME size (house rules 26)
        available = sum(1 for s in sized if s.available)
        self._stands = [s for s in self._stands if s.me != me_id]  # naming an ME again replaces it
        self._mes[me_id] = ME(me_id, side, me_class, me_type, rg, available if base is None else base, losses,
                              len(sized) if full is None else full, discipline)
        self._stands += made
        return self

    def stand_is(self, stand_id: str, **changes: Any) -> Campaign:
        self._stands = [s.with_(**changes) if s.id == stand_id else s for s in self._stands]
        return self

    # -- the scenario just played ---------------------------------------------
    def result(self, stand_id: str, outcome: str = "Unharmed", **fields: Any) -> Campaign:
        stand = next((s for s in self._stands if s.id == stand_id), None)
        side = fields.pop("side", stand.side if stand else "German")
        row = len(self._results or {}) + 2
        previous = self._previous()
        sheet = f"Results {previous.label if previous else '?'}"
        if "situation" in fields and isinstance(fields["situation"], str):
            fields["situation"] = Situation(fields["situation"])
        elif "situation" not in fields and stand is not None:
            fields["situation"] = stand.situation
        self._results = dict(self._results or {})
        self._results[stand_id] = StandResult(side, stand_id, outcome, ref=Ref(sheet, f"B{row}"), **fields)
        return self

    def no_results_sheet(self) -> Campaign:
        self._results = None
        return self

    def both_defended_last_time(self) -> Campaign:
        """The previous refit's postures were both Defend: no scenario was played."""
        self._played = False
        self._results = None
        return self

    # -- decisions -----------------------------------------------------------
    def orders(self, side: str, *specs: OrderSpec) -> Campaign:
        self._orders[side] = _orders(f"Orders {self._today} {side}", specs)
        return self

    def spend(self, side: str, *specs: OrderSpec) -> Campaign:
        self._spend[side] = _orders(f"Spend {self._today} {side}", specs)
        return self

    def no_spend(self, side: str) -> Campaign:
        """That side's Spend sheet is not there (yet)."""
        self._spend[side] = None
        return self

    # -- charts --------------------------------------------------------------
    def rg(self, side: str, rg_id: str, kind: str = "ME", cpp: int = 5, scenario_max: int | None = None,
           campaign_max: int | None = None, me_class: str | None = None, me_type: str | None = None,
           stands: str = "", discipline: str | None = None, fpp: int | None = None,
           description: str | None = None) -> Campaign:
        parsed = []
        for part in filter(None, (p.strip() for p in stands.split(";"))):
            name, _, rest = part.partition(" x")
            count, _, kind_part = rest.partition(" [")
            parsed.append((name.strip(), int(count), kind_part.rstrip("]") or None))
        row = len(self._rg) + 2
        self._rg[(side, rg_id)] = RGEntry(side, rg_id, description or f"{rg_id} group", kind,
                                          me_class if me_class else ("I" if kind == "ME" else None),
                                          me_type or (f"{rg_id} type" if kind == "ME" else None), tuple(parsed),
                                          discipline if discipline else ("Trained" if kind == "ME" else None),
                                          cpp, scenario_max, campaign_max, fpp, "", Ref("RG Chart", f"B{row}"))
        return self

    def fp(self, side: str, item: str, fpp: int) -> Campaign:
        self._fp[(side, item)] = (fpp, Ref("FP Chart", f"B{len(self._fp) + 2}"))
        return self

    # -- ledger --------------------------------------------------------------
    def cpp(self, side: str, amount: int) -> Campaign:
        self._cpp[side] = amount
        return self

    def fpp(self, side: str, amount: int) -> Campaign:
        self._fpp[side] = amount
        return self

    def rg_used(self, side: str, rg_id: str, count: int) -> Campaign:
        self._rg_used = dict(self._rg_used or {})
        self._rg_used[(side, rg_id)] = count
        return self

    def night_attacker(self, *sides: str) -> Campaign:
        self._night_attackers = sides
        return self

    # -- building -------------------------------------------------------------
    def _previous(self) -> CampaignDate | None:
        date = self._date()
        return self._dates[date.index - 1] if date.index else None

    def _date(self) -> CampaignDate:
        for d in self._dates:
            if d.label == self._today:
                return d
        raise AssertionError(f"{self._today!r} is not one of the dates {[d.label for d in self._dates]}")

    def inputs(self) -> BFInputs:
        date = self._date()
        previous = self._previous()
        sides = tuple(self._sides.values())
        assert len(sides) == 2, "a campaign has two sides"
        names = {"results": f"Results {previous.label}" if previous else "Results ?"}
        for s in sides:
            names[f"orders:{s.name}"] = f"Orders {date.label} {s.name}"
            names[f"spend:{s.name}"] = f"Spend {date.label} {s.name}"
        eligibility = {str(r["Nationality"]): (str(r["From"]), str(r["To"]))
                       for r in self.system.charts["bf.armor_repair_eligibility"].rows}
        ladder = tuple(r["Rating"] for r in sorted(self.system.charts["bf.discipline_ladder"].rows,
                                                   key=lambda r: r["Rank"]))
        results = None if (self._results is None or previous is None or not self._played) else dict(self._results)
        return BFInputs(date, previous, (sides[0], sides[1]), tuple(self._dates), dict(self._historical),
                        dict(self._rg), dict(self._fp), ladder, eligibility, dict(self._settings), results,
                        {s.name: self._orders.get(s.name) for s in sides},
                        {s.name: self._spend.get(s.name, ()) for s in sides}, names)

    def state(self) -> BFState:
        rg_used = self._rg_used
        if rg_used is None:
            rg_used = {}
            for me in self._mes.values():
                if me.rg:
                    rg_used[(me.side, me.rg)] = rg_used.get((me.side, me.rg), 0) + 1
        sides = list(self._sides.values())
        ledger = Ledger({s.name: self._cpp.get(s.name, s.starting_cpp) for s in sides},
                        {s.name: self._fpp.get(s.name, s.starting_fpp) for s in sides},
                        rg_used, self._played, None, self._night_attackers)
        return BFState(Roster(dict(self._mes), tuple(self._stands)), ledger)

    def build(self) -> tuple[BFInputs, BFState]:
        """Inputs and state as the workbook adapter gives them to the first step."""
        return self.inputs(), self.state()

    def prepared(self) -> tuple[BFInputs, BFState]:
        """Inputs and state as the stage-2 steps see them: the scenario's
        results applied to the roster (2.1.2 cleanup, without escape rolls)."""
        inputs, state = self.build()
        if inputs.results is not None:
            state, _ = cleanup._apply_results(state, inputs)
        return inputs, state


# ------------------------------------------------------------------ running and reading
def run(step: Any, inputs: BFInputs, state: BFState, dice: ScriptedDice | None = None) -> StepResult[BFState]:
    """Run one step (its module or its function) and check every scripted throw was used."""
    dice = dice or ScriptedDice()
    fn = step.run if hasattr(step, "run") else step
    result = fn(state, inputs, dice)
    dice.assert_used_up()
    return result


def texts(result: StepResult[BFState], subject: str | None = None) -> list[str]:
    return [e.text for e in result.entries if subject is None or e.subject == subject]


def rolls(result: StepResult[BFState]) -> list[Any]:
    return [e.roll for e in result.entries if e.roll is not None]


def ledger(state: BFState, side: str, account: str = "CPP") -> list[tuple[str, int | None, int | None]]:
    """(entry, amount, balance) of one side's account, in order."""
    return [(entry, amount, balance) for s, acc, entry, amount, balance, _ in state.ledger_lines
            if s == side and acc == account]


def modifiers(roll: Any) -> dict[str, int]:
    """A roll's modifiers by id (the rules file's modifier ids)."""
    return {m.id: m.value for m in roll.modifiers}


def stand_ids(state: BFState, side: str | None = None) -> set[str]:
    return {s.id for s in state.roster.stands if side is None or s.side == side}


def with_state(state: BFState, **changes: Any) -> BFState:
    return replace(state, **changes)



"""The Battlefront campaign (seed 001) as one side sees it by email.

What a side gets besides the generic filtering of :mod:`automation.pbem.export`:
its latest roster, RG and FP charts, ledgers, a purchase record (the ledgers'
purchase and RG lines), its results, and the orders sheet the refit waits for:
``Orders <date> <side>`` (posture, 2.1; escape attempts, 2.1.2.4.3) or
``Spend <date> <side>`` (repairs, purchases, FPP: 2.1.1), with dropdowns, the
side's CPP and FPP left, and a Choices sheet listing what orders may name:
its own stands, MEs, RGs and fortification items, and the enemy's wrecks lying
behind its lines (2.1.1.5.1: it may try to destroy them), under aliases.
"""
from __future__ import annotations

import sys
from typing import Any

from automation.campaign.model import UMPIRE, Waiting
from automation.engine.dice import CampaignKey
from automation.pbem.carry import Carried
from automation.pbem.planning import Planned
from automation.pbem.reports import Header, kind_of, kinds_ready, name_parts
from automation.pbem.sidesheets import (
    Decision, alias, aliases, campaign_dates, campaign_kind, nothing_to_decide, own_sheet, side_rows, side_sheets, trim,
    visible_rows,
)
from automation.pbem.xlsx import Dropdown, OutSheet
from automation.workbook import bf_sheets as K
from automation.workbook.schema import system_kinds

PUBLIC = (K.DATES.id,)
LATEST_ONLY = (K.ROSTER.id,)
UMPIRE_ONLY = (K.HISTORICAL_DRM.id,)  # the umpire's chart; a side sees the DRM its own CPP roll had
TABS = {"settings": "settings", "roster": "roster", "results": "results", "orders": "orders", "ledger": "ledger",
        "report": "report"}
CHOICES = "Choices"
VALUES = ("Attack", "Defend", "Yes", "No")
ORDERS_WHAT = "posture (Attack or Defend, 2.1) and escape attempts of isolated and cut-off stands (2.1.2.4.3)"


FORCES_WHAT = "the MEs, OBA modules and aircraft you deploy in the scenario (2.1.1.7): Yes on each one"


def choose_forces(book: Any, planned: Planned, side: str) -> str | None:
    """``Forces <date> <side>`` when ``side`` must choose its forces for the
    scenario about to be played (2.1.1.7): it has no such sheet yet and owns
    more MEs of some RG than that RG's scenario maximum lets deploy."""
    from automation.workbook.forms.forces import forces_form

    date = planned.inputs.previous
    if date is None:
        return None
    sheet = K.FORCES.name_for(date=date.label, side=side)
    if book.has(sheet):
        return None
    form = forces_form(planned.run.state, planned.inputs, date, side)
    offered = {a.name: sum(1 for r in form.rows for c in r.costs if c.account == a.name) for a in form.accounts}
    return sheet if any(offered[a.name] > a.available for a in form.accounts) else None


class BattlefrontView:
    system_id = "bf-campaign"

    # ---------------------------------------------------------------- sides and decisions
    def sides(self, book: Any, planned: Planned | None) -> tuple[str, ...]:
        if planned is not None:
            return planned.sides
        from automation.workbook.schema import SIDES_SHEET

        return tuple(r["Side"] for r in book.read(SIDES_SHEET))

    def order_kinds(self, sheet: str) -> tuple[str, ...]:
        from automation.steps.bf.orders_check import ORDERS_KINDS, SPEND_KINDS

        kind = kind_of(sheet)
        return SPEND_KINDS if kind is not None and kind.id == K.SPEND.id else ORDERS_KINDS

    def decision(self, book: Any, planned: Planned, waiting: Waiting | None, side: str) -> Decision:
        if waiting is None:
            return Decision(None, "", f"the refit of {planned.date} is complete: nothing to decide until the next date")
        kind = kind_of(waiting.sheet)
        if kind is not None and kind.id in (K.ORDERS.id, K.SPEND.id):
            ours, already = own_sheet(book, planned, waiting, side, kind)
            return already or Decision(ours, self.sheet_what(planned, waiting))
        if waiting.who == UMPIRE and kind is not None and kind.id == K.RESULTS.id:
            forces = choose_forces(book, planned, side)
            if forces is not None:
                return Decision(forces, FORCES_WHAT, f"the umpire enters {waiting.sheet} after the scenario")
            ours = K.ORDERS.name_for(date=planned.date, side=side)
            if not book.has(ours):
                return Decision(ours, ORDERS_WHAT,
                                f"the umpire still enters {waiting.sheet}; the orders are checked against it on import")
        return nothing_to_decide(waiting, side)

    def accepts(self, sheet: str, waiting: Waiting | None) -> bool:
        """A returned sheet the refit does not wait for but takes now: a side's
        Forces for the scenario whose results the umpire still enters (2.1.1.7)."""
        kind, waited = kind_of(sheet), kind_of(waiting.sheet) if waiting is not None else None
        return kind is not None and waited is not None and kind.id == K.FORCES.id and waited.id == K.RESULTS.id \
            and name_parts(kind, sheet).get("date") == name_parts(waited, waiting.sheet).get("date")

    def sheet_what(self, planned: Planned, waiting: Waiting) -> str:
        """Every decision ``waiting.sheet`` asks for (the refit names only the one it stopped at)."""
        kind = kind_of(waiting.sheet)
        return ORDERS_WHAT if kind is not None and kind.id == K.ORDERS.id else waiting.what

    def balances(self, planned: Planned, side: str) -> list[tuple[str, Any]]:
        ledger = planned.run.state.ledger
        return [("CPP left", ledger.cpp.get(side, 0)), ("FPP left", ledger.fpp.get(side, 0))]

    # ---------------------------------------------------------------- the orders sheet
    def choices(self, book: Any, planned: Planned, side: str, key: CampaignKey) -> list[list[Any]]:
        state, inputs = planned.run.state, planned.inputs
        rows: list[list[Any]] = [["Subject", "What it is"]]
        for s in state.roster.of_side(side):
            where = f", {s.situation.value.lower()}" if s.situation.value != "Normal" else ""
            rows.append([s.id, f"stand: {s.type} ({s.kind}) of {s.me}, {s.status.value.lower()}{where}"])
        for me_id, me in state.roster.mes.items():
            if me.side == side:
                rows.append([me_id, f"ME: {me.me_type} (class {me.me_class})"])
        for (rg_side, rg_id), rg in inputs.rg_chart.items():
            if rg_side == side:
                used = state.ledger.rg_used.get((side, rg_id), 0)
                limit = f"{used} of {rg.campaign_max} used" if rg.campaign_max is not None else f"{used} used"
                rows.append([rg_id, f"RG: {rg.description}, {rg.cpp} CPP ({limit})"])
        for (fp_side, item), (fpp, _) in inputs.fp_chart.items():
            if fp_side in (side, "Both"):
                rows.append([item, f"fortification: {fpp} FPP"])
        from automation.steps.bf.common import isolated

        for s in state.roster.stands:  # a wreck in its own side's pocket may not be destroyed (2.1.1.3.1 item 3)
            if s.side != side and s.status.value == "Wreck" and s.wreck_lines == "Enemy lines" and not isolated(s):
                rows.append([alias(key, s.id), f"enemy wreck behind your lines: {s.type} (Removal, 2.1.1.5.1)"])
        for s in state.roster.stands:
            if s.side != side and s.kind == "Fortification":
                rows.append([alias(key, s.id), f"enemy fortification: {s.type} (Removal, 2.1.1.5.1)"])
        return rows

    def form(self, book: Any, planned: Planned, side: str, sheet: str, key: CampaignKey | None = None) -> Any:
        """The ready form of ``sheet`` for ``side`` (the umpire for the umpire's
        sheets; automation.workbook.forms.bf), or None when that sheet has no
        form: the one dispatch from a sheet to its form. Enemy stands by alias
        when ``key`` is given (a player's export)."""
        from automation.workbook.forms import bf as forms
        from automation.workbook.tables_io import campaign_settings, system_from_workbook, system_of

        from automation.workbook.forms import bf_umpire, forces as forces_forms

        kind = kind_of(sheet)
        if kind is None:
            return None
        if kind.id == K.RESULTS.id:
            return bf_umpire.results_form(planned, system_from_workbook(book, system_of(book, campaign_settings(book))))
        if side == UMPIRE:
            return None
        if kind.id == K.FORCES.id:
            return forces_forms.forces_form(planned.run.state, planned.inputs, planned.inputs.previous, side)
        if kind.id == K.SPEND.id:
            rules = system_from_workbook(book, system_of(book, campaign_settings(book)))
            name = (lambda stand: alias(key, stand)) if key is not None else str
            return forms.spend_form(planned, side, rules, name)
        if kind.id == K.ORDERS.id:
            return forms.orders_form(planned, side)
        return None

    def orders_sheets(self, book: Any, planned: Planned, side: str, decision: Decision, balances: list[tuple[str, Any]],
                      key: CampaignKey) -> list[OutSheet]:
        assert decision.sheet
        form = self.form(book, planned, side, decision.sheet, key)
        rows = [form.columns] + [[r.values.get(c) for c in form.columns] for r in form.rows]
        choices = self.choices(book, planned, side, key)
        return [OutSheet(decision.sheet, rows, tab="orders", form=form),
                OutSheet(CHOICES, choices, tab="settings", widths=[24, 70])]

    # ---------------------------------------------------------------- what the side may see
    def side_sheets(self, book: Any, planned: Planned | None, side: str,
                    carried: Carried | None = None) -> list[OutSheet]:
        sheets = side_sheets(book, side, PUBLIC, LATEST_ONLY, TABS, UMPIRE_ONLY, system_kinds(self.system_id).values(),
                             carried)
        return sheets + [self.purchase_record(book, side, carried)]

    def purchase_record(self, book: Any, side: str, carried: Carried | None = None) -> OutSheet:
        """Each ledger's purchase lines and RG counts of the side, date by date.
        With ``carried`` (:mod:`automation.pbem.carry`), a ledger's lines are
        carried once taken, and the lines of every ledger as one value while
        no sheet changed; after a refit, carried on from the side's last
        export, only the ledgers the refit added are read
        (:meth:`~automation.pbem.carry.Carried.walk`)."""
        kinds, dates = tuple(system_kinds(self.system_id).values()), campaign_dates(book)
        ready = kinds_ready(kinds)  # (one matcher for a long campaign's thousand names)
        names = list(book.sheet_names)

        def lines(start: int = 0, fresh: bool = False) -> list[list[Any]]:
            """The lines of the ledgers from sheet ``start`` on (``fresh``: sheets no earlier export read)."""
            found: list[list[Any]] = []
            for name in ready.of_kind(names[start:], K.LEDGER):
                kind = ready.kind(name)
                if campaign_kind(book, name, kinds, dates, None if fresh else carried) is None:
                    continue
                if carried is None:
                    found += self.purchase_lines(book, name, kind, side)
                else:
                    take = carried.fresh if fresh else carried.get
                    found += take(f"purchases:{side}", name, lambda: self.purchase_lines(book, name, kind, side))
            return found
        every = lines() if carried is None else carried.walk(
            f"purchases:{side}", names, "", lines, lambda before, start: before + lines(start, True))
        rows: list[list[Any]] = [["Date", "Account", "Entry", "Amount", "Balance", "Rule"], *every]
        return OutSheet("Purchase record", trim(rows), tab="ledger", widths=[10, 9, 40, 8, 8, 10])

    @staticmethod
    def purchase_lines(book: Any, name: str, kind: Any, side: str) -> list[list[Any]]:
        """The side's purchase and RG lines of ledger ``name``."""
        raw = visible_rows(side_rows(book.raw(name), side), side)
        h = Header.of(raw[0])
        date = name_parts(kind, name).get("date", "")
        lines = []
        for r in raw[1:]:
            entry = str(h.get(r, "Entry") or "")
            if h.get(r, "Account") == "RG" or entry.startswith(("Purchase", "FPP from", "Additional CPP")):
                lines.append([date, h.get(r, "Account"), entry, h.get(r, "Amount"), h.get(r, "Balance"), h.get(r, "Rule")])
        return lines

    def stand_names(self, book: Any, planned: Planned | None, carried: Carried | None = None) -> dict[str, set[str]]:
        """Every stand and ME name each side has had, from every roster (the
        names of the rosters read before carried as one set: removed stands
        stay secret without reading every roster again, see
        :meth:`automation.pbem.carry.Carried.fold`)."""
        rosters = kinds_ready().of_kind(book.sheet_names, K.ROSTER)
        names = Carried.union(carried, "roster names", rosters, lambda name: roster_names(book, name))
        if planned is not None:
            for s in planned.run.state.roster.stands:
                names.setdefault(s.side, set()).update((s.id, s.me))
        return names

    def secret_names(self, book: Any, planned: Planned | None, side: str, key: CampaignKey,
                     carried: Carried | None = None) -> dict[str, str]:
        names = self.stand_names(book, planned, carried)
        own = names.get(side, set())
        return aliases(key, (n for other, found in names.items() if other != side for n in found if n not in own))

    def unalias(self, book: Any, planned: Planned | None, side: str, key: CampaignKey,
                carried: Carried | None = None) -> dict[str, str]:
        return {a: n for n, a in self.secret_names(book, planned, side, key, carried).items()}

    def placeholder(self, sheet: str) -> list[list[Any]]:
        """The other side's orders while only one side's are checked (posture
        Defend: it changes nothing the checks of this side look at)."""
        kind = kind_of(sheet)
        if kind is not None and kind.id == K.ORDERS.id:
            return [K.ORDERS.header, ["Posture", None, "Defend", None]]
        if kind is not None and kind.id == K.FORCES.id:
            return [K.FORCES.header]
        return [K.SPEND.header]


def roster_names(book: Any, name: str) -> dict[str, list[str]]:
    """Side -> the stand and ME names roster ``name`` lists, first seen first.
    Each name is interned: the names of a hundred rosters read at once (a
    campaign with nothing carried yet) are mostly the same, held once. The
    three columns are taken whole, then walked together (a roster of 5,000
    stands: 2 ms, against 5 row by row)."""
    rows = book.raw(name)
    h = Header.of(rows[0]) if rows else Header({})
    body = rows[1:]
    sides, stands, mes = ([r[i] if i < len(r) else None for r in body] if i is not None else [None] * len(body)
                          for i in (h.positions.get(column) for column in ("Side", "Stand", "ME")))
    names: dict[str, dict[str, None]] = {}
    intern = sys.intern
    for side, stand, me in zip(sides, stands, mes):
        if not (stand or me):  # (an empty cell: "", none)
            continue
        if side.__class__ is not str:
            side = str(side or "")
        found = names.get(side)
        if found is None:
            found = names[side] = {}
        if stand:
            found[intern(stand if stand.__class__ is str else str(stand))] = None
        if me:
            found[intern(me if me.__class__ is str else str(me))] = None
    return {side: list(found) for side, found in names.items()}


__all__ = ["BattlefrontView", "Decision", "side_rows", "visible_rows"]

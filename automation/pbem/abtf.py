"""An ASL "A Bridge Too Far" campaign (seed 003) as one side sees it by email.

What a side gets besides the generic filtering of :mod:`automation.pbem.export`
(every report row visible to All or to it, its own Orders and Purchases sheets,
its rows of the End sheets and of the Chit Limits sheet):

* its rows of the latest ``Units``, ``CG Roster`` and ``RG Record`` sheets
  (its units, its CG Roster lines with CPP, FPP, SAN, ELR and chits, its RG
  Purchase Record lines: 9.617 lets a side keep its CPP and RGs secret);
* the latest ``Blocks`` sheet, the ``CG Dates`` and the ``Reinforcements``
  schedule whole: the map's Block control and the module's printed charts are
  known to both players;
* its own RG Chart;
* ``Enemy CG Roster``: of the enemy's CG Roster lines only what the rules make
  known to both: the scenario, the Initiative Chit once revealed (9.62132) and
  the chits used, the final and RePh CVP (9.603), SAN and ELR (9.612, 9.6202:
  both play with them on the map) and the weather;
* the decision the refit waits for: ``Orders <date> <side>`` (RePh part 1:
  Escape stacks, Transfers, Battle Hardening, Shifts ...) or
  ``Purchases <date> <side>`` (RGs, fortifications, the Initiative Chit:
  9.617-9.621), with dropdowns, its CPP and FPP left, and a Choices sheet.

Nothing about the enemy's CPP rolls, purchases or chits before their reveal
goes in (their report rows are visible to the enemy only), and the enemy's unit
IDs become aliases wherever they would show.
"""
from __future__ import annotations

import sys
from typing import Any

from automation.campaign.model import UMPIRE, Waiting
from automation.engine.dice import CampaignKey
from automation.pbem.carry import Carried
from automation.pbem.planning import Planned
from automation.pbem.reports import Header, kind_of, name_parts
from automation.pbem.sidesheets import (
    Decision, aliases, campaign_dates, campaign_kind, nothing_to_decide, own_sheet, project, side_sheets, trim,
)
from automation.pbem.xlsx import Dropdown, OutSheet
from automation.steps.abtf.state import Mode
from automation.workbook import abtf_sheets as K
from automation.workbook.schema import system_kinds

PUBLIC = (K.CG_DATES.id, K.BLOCKS.id, K.REINFORCEMENTS.id)
LATEST_ONLY = (K.UNITS.id, K.BLOCKS.id, K.CG_ROSTER.id, K.RG_RECORD.id)
UMPIRE_ONLY = (K.UNIT_CLASSES.id, K.UMPIRE.id)
TABS = {"settings": "settings", "roster": "roster", "results": "results", "orders": "orders", "ledger": "ledger",
        "report": "report"}
CHOICES = "Choices"
ENEMY_ROSTER = "Enemy CG Roster"
KNOWN_TO_BOTH = ("CG Date", "Side", "Scenario", "Chit", "Final CVP", "RePh CVP", "SAN", "ELR", "Ammunition shortage",
                 "Attack chits", "Idle chits", "Weather", "EC", "Wind")
RG_CHARTS = {"British": K.RG_BRITISH, "German": K.RG_GERMAN}
FINAL = "End"
WHAT = {
    K.ORDERS.id: "RePh decisions (9.6054-9.6143): Escape stacks, Transfers, Battle Hardening, Shifts, Armor Leaders, "
                 "MG exchanges, remanning; an empty sheet means none",
    K.PURCHASES.id: "RG purchases, fortifications and the Initiative Chit (9.617-9.621); an empty sheet means none",
}
TRANSFER_VALUES = (("Drop", "Transfer: drop the SW/Gun in its Location (9.6054)"),
                   ("Eliminate", "Transfer: eliminate the SW/Gun (9.6054)"))


def abtf_kind(name: str) -> Any:
    """The ABtF sheet kind of ``name`` (``Orders ...`` is this system's, not Battlefront's)."""
    return kind_of(name, K.KINDS)


class ABtFView:
    system_id = "asl-abtf"
    alias_columns = ("Subject", "Value", "Units")  # where orders name units (automation.pbem.importer.unalias)

    # ---------------------------------------------------------------- sides and decisions
    def sides(self, book: Any, planned: Planned | None) -> tuple[str, ...]:
        return planned.sides if planned is not None else K.SIDES

    def over(self, book: Any) -> bool:
        """The CG has ended (``CG Roster End``, 9.603): nothing is left to decide."""
        return bool(book.has(K.CG_ROSTER.name_for(date=FINAL)))

    def decision(self, book: Any, planned: Planned, waiting: Waiting | None, side: str) -> Decision:
        if waiting is None:
            return Decision(None, "", f"the RePh of {planned.date} is complete: nothing to decide until the next CG Date")
        kind = abtf_kind(waiting.sheet)
        if kind is not None and kind.id in (K.ORDERS.id, K.PURCHASES.id):
            ours, already = own_sheet(book, planned, waiting, side, kind)
            if already is not None:
                return already
            stopped = f"the refit stopped at: {waiting.what}" if waiting.who == side else ""
            return Decision(ours, self.what(planned, kind), stopped)
        if waiting.who == UMPIRE and planned.inputs.mode in (Mode.SCENARIO, Mode.IDLE):
            ours = K.ORDERS.name_for(date=planned.date, side=side)
            if not book.has(ours):
                return Decision(ours, self.what(planned, K.ORDERS),
                                f"the umpire still enters {waiting.sheet}; the orders are checked against it on import")
        return nothing_to_decide(waiting, side)

    def sheet_what(self, planned: Planned, waiting: Waiting) -> str:
        """Every decision ``waiting.sheet`` asks for (the refit names only the one it stopped at)."""
        kind = abtf_kind(waiting.sheet)
        return self.what(planned, kind) if kind is not None and kind.id in WHAT else waiting.what

    @staticmethod
    def what(planned: Planned, kind: Any) -> str:
        if kind.id == K.PURCHASES.id and planned.inputs.mode is Mode.INITIAL:
            return ("the CG Initial Scenario's OB RGs (OB RG), RG purchases and fortifications (9.617-9.619); "
                    "an empty sheet means none")
        return WHAT[kind.id]

    def balances(self, planned: Planned, side: str) -> list[tuple[str, Any]]:
        record = planned.run.state.records[side]
        return [("CPP left", record.cpp_left), ("FPP left", record.fpp)]

    # ---------------------------------------------------------------- the decision sheet
    def orders_sheets(self, book: Any, planned: Planned, side: str, decision: Decision, balances: list[tuple[str, Any]],
                      key: CampaignKey) -> list[OutSheet]:
        assert decision.sheet
        kind = abtf_kind(decision.sheet)
        form = self.form(book, planned, side, decision.sheet)
        rows = [form.columns] + [[r.values.get(c) for c in form.columns] for r in form.rows]
        choices = self.purchase_choices(book, planned, side) if kind.id == K.PURCHASES.id \
            else self.order_choices(planned, side)
        return [OutSheet(decision.sheet, rows, tab="orders", form=form),
                OutSheet(CHOICES, choices, tab="settings", widths=[24, 80])]

    def form(self, book: Any, planned: Planned, side: str, sheet: str, key: CampaignKey | None = None) -> Any:
        """The ready form of ``sheet`` for ``side`` (the umpire for the umpire's sheets;
        automation.workbook.forms.abtf, abtf_umpire, abtf_orders), or None when that sheet has
        no form: the one dispatch from a sheet to its form."""
        from automation.workbook.forms import abtf_orders, abtf_umpire
        from automation.workbook.forms.abtf import purchases_form

        kind = abtf_kind(sheet)
        umpire = {K.END.id: abtf_umpire.end_form, K.UMPIRE.id: abtf_umpire.umpire_form, K.SETUP.id: abtf_umpire.setup_form}
        if kind is not None and kind.id in umpire:
            return umpire[kind.id](planned)
        if kind is None or side == UMPIRE:
            return None
        if kind.id == K.ORDERS.id:
            return abtf_orders.orders_form(planned, side, book)
        if kind.id == K.PURCHASES.id:
            return purchases_form(planned, side, self.fortification_chart(book), self.what(planned, K.PURCHASES))
        return None

    def order_choices(self, planned: Planned, side: str) -> list[list[Any]]:
        """The side's units as the RePh has them where it stops, and the Transfer values."""
        rows: list[list[Any]] = [["Subject", "What it is"]]
        for u in planned.run.state.of_side(side):
            where = f"in {u.area}" + (f" ({u.location})" if u.location else "")
            parts = [f"{u.cls}: {u.type}" + (f" {u.strength}" if u.strength else ""), where,
                     f"with {u.holder}" if u.holder else "", ", ".join(f for f in K.STATUS_FLAGS if f in u.status)]
            rows.append([u.id, ", ".join(p for p in parts if p)])
        rows += [list(v) for v in TRANSFER_VALUES]
        return rows

    def purchase_choices(self, book: Any, planned: Planned, side: str) -> list[list[Any]]:
        """The side's RG Chart (with what it has bought so far), the fortifications
        it may buy (9.619) and the Initiative Chits it has left (9.62131)."""
        from automation.steps.abtf.purchases import bought_so_far

        inputs = planned.inputs
        rows: list[list[Any]] = [["Item", "What it is"]]
        for (rg_side, _, _), rg in sorted(inputs.rg_charts.items(), key=lambda kv: (kv[0][1], kv[0][2] or "")):
            if rg_side != side:
                continue
            so_far = bought_so_far(inputs, [], rg)
            limits = [f"{so_far} of {rg.cg_max} bought in the CG" if rg.cg_max is not None else f"{so_far} bought",
                      f"at most {rg.date_max} per CG Date" if rg.date_max is not None else ""]
            kg = f" (KG {rg.kg})" if rg.kg else ""
            rows.append([rg.id, f"RG{kg}: {rg.group_type}, {rg.cpp} CPP; " + "; ".join(p for p in limits if p)])
        for r in self.fortification_chart(book).rows:
            if r["Buyer"] not in ("Both", side) or (r["British only"] and side != "British") \
                    or (r["German only"] and side != "German"):
                continue
            variant = f" ({r['Variant']})" if r["Variant"] else ""
            front = ", may set up in a Front Line Location" if r["Front line allowed"] else ""
            rows.append([r["Id"], f"fortification: {r['Fortification']}{variant}, {r['FPP']} FPP{front}"])
        if planned.inputs.mode is not Mode.INITIAL:
            record = planned.run.state.records[side]
            attack, idle, _ = inputs.chit_limits.get(side, (None, None, None))
            rows.append(["Attack", f"Initiative Chit: {record.attack_chits} of {attack} Attack Chits used (9.62131)"])
            rows.append(["Idle", f"Initiative Chit: {record.idle_chits} of {idle} Idle Chits used (9.62131)"])
        return rows

    def purchase_form(self, planned: Planned, side: str, choices: int) -> tuple[list[list[Any]], list[Dropdown]]:
        from automation.steps.abtf.common import friendly_areas

        initial = planned.inputs.mode is Mode.INITIAL
        kinds = [k for k in K.PURCHASE_KINDS if (k != "OB RG" or initial) and (k != "Chit" or not initial)]
        rows: list[list[Any]] = [K.PURCHASES.header]
        if not initial:
            rows.append(["Chit"])  # a side selects one Initiative Chit per CG Date (9.62132)
        areas = friendly_areas(planned.run.state, side)
        dropdowns = [
            Dropdown(0, kinds, title="Purchase", message=f"One of: {', '.join(kinds)}"),
            Dropdown(1, f"={CHOICES}!$A$2:$A${max(choices, 2)}", strict=False, title="Item",
                     message=f"An RG ID, a fortification Id, or Attack/Idle for the Chit: see the {CHOICES} sheet"),
            Dropdown(5, list(K.YES_NO), title="Front Line", message="Yes: the fortification sets up in a Front Line "
                                                                      "Location (9.619)"),
        ]
        if areas:
            dropdowns.append(Dropdown(4, areas, strict=False, title="Area",
                                      message="Your Setup Area (or Entry Area, for an RG) it goes to"))
        kgs = sorted({rg.kg for (s, _, _), rg in planned.inputs.rg_charts.items() if s == side and rg.kg})
        if kgs:
            dropdowns.append(Dropdown(2, kgs, title="KG", message="The RG's Kampfgruppe (9.6178)"))
        return rows, dropdowns

    @staticmethod
    def fortification_chart(book: Any) -> Any:
        """The Fortification Purchase chart of the rules the workbook holds (9.619)."""
        from automation.workbook.tables_io import campaign_settings, system_from_workbook, system_of

        return system_from_workbook(book, system_of(book, campaign_settings(book))).charts["abtf.fortification_purchase"]

    # ---------------------------------------------------------------- what the side may see
    def side_sheets(self, book: Any, planned: Planned | None, side: str,
                    carried: Carried | None = None) -> list[OutSheet]:
        kinds = tuple(system_kinds(self.system_id).values())
        sheets = side_sheets(book, side, PUBLIC, LATEST_ONLY, TABS, UMPIRE_ONLY, kinds, carried)
        chart = RG_CHARTS.get(side)
        if chart is not None and campaign_kind(book, chart.title, kinds, None, carried) is not None:
            sheets.append(OutSheet(chart.title, trim(project(chart, book.raw(chart.title))), tab="settings"))
        enemy = self.enemy_roster(book, side, carried)
        return sheets + ([enemy] if enemy is not None else [])

    def enemy_roster(self, book: Any, side: str, carried: Carried | None = None) -> OutSheet | None:
        """The enemy's lines of the latest CG Roster, only the columns known to both."""
        kinds, dates = K.KINDS, campaign_dates(book)
        latest = [n for n in book.sheet_names
                  if (k := campaign_kind(book, n, kinds, dates, carried)) is not None and k.id == K.CG_ROSTER.id]
        if not latest:
            return None
        rows = book.raw(latest[-1])
        if not rows:
            return None
        h = Header.of(rows[0])
        out: list[list[Any]] = [list(KNOWN_TO_BOTH)]
        for r in rows[1:]:
            if str(h.get(r, "Side") or "") not in ("", side):
                out.append([h.get(r, c) for c in KNOWN_TO_BOTH])
        return OutSheet(ENEMY_ROSTER, trim(out), tab="ledger")

    def unit_ids(self, book: Any, planned: Planned | None, carried: Carried | None = None) -> dict[str, set[str]]:
        """Every unit ID each side has had, from every Units and End sheet (the
        IDs of the sheets read before carried as one set, see
        :meth:`automation.pbem.carry.Carried.fold`) and the refit in memory."""
        sheets = [name for name in book.sheet_names
                  if (kind := abtf_kind(name)) is not None and kind.id in (K.UNITS.id, K.END.id)]
        ids = Carried.union(carried, "unit ids", sheets, lambda name: sheet_unit_ids(book, name))
        if planned is not None:
            units = list(planned.run.state.units) + list(planned.inputs.end_units or ())
            for u in units:
                ids.setdefault(u.side, set()).add(u.id)
        return ids

    def secret_names(self, book: Any, planned: Planned | None, side: str, key: CampaignKey,
                     carried: Carried | None = None) -> dict[str, str]:
        ids = self.unit_ids(book, planned, carried)
        own = ids.get(side, set())
        return aliases(key, (n for other, found in ids.items() if other != side for n in found if n not in own))

    def unalias(self, book: Any, planned: Planned | None, side: str, key: CampaignKey,
                carried: Carried | None = None) -> dict[str, str]:
        return {a: n for n, a in self.secret_names(book, planned, side, key, carried).items()}

    def placeholder(self, sheet: str) -> list[list[Any]]:
        """The other side's sheet while one side's is checked: no orders, no purchases."""
        kind = abtf_kind(sheet)
        return [list(kind.header if kind is not None else K.ORDERS.header)]

    def stand_in(self, sheet: str, planned: Planned) -> list[list[Any]]:
        """:meth:`placeholder`, with an Initiative Chit the other side may still
        select (9.62131) when the CG Date needs one, so that only the returned
        sheet's own problems are found."""
        rows = self.placeholder(sheet)
        kind = abtf_kind(sheet)
        if kind is None or kind.id != K.PURCHASES.id or planned.inputs.mode is Mode.INITIAL:
            return rows
        other = name_parts(kind, sheet, planned.sides).get("side", "")
        record = planned.run.state.records.get(other)
        attack, idle, _ = planned.inputs.chit_limits.get(other, (None, None, None))
        chit = "Idle"
        if record is not None and attack is not None and record.attack_chits < attack:
            chit = "Attack"
        elif record is not None and idle is not None and record.idle_chits < idle:
            chit = "Idle"
        return rows + [["Chit", chit]]


def sheet_unit_ids(book: Any, name: str) -> dict[str, list[str]]:
    """Side -> the unit IDs a Units or End sheet lists, first seen first
    (interned: the sheets of every CG Date list mostly the same units)."""
    rows = book.raw(name)
    h = Header.of(rows[0]) if rows else Header({})
    ids: dict[str, dict[str, None]] = {}
    for r in rows[1:]:
        if h.get(r, "Unit"):
            ids.setdefault(str(h.get(r, "Side") or ""), {})[sys.intern(str(h.get(r, "Unit")))] = None
    return {side: list(found) for side, found in ids.items()}


__all__ = ["ABtFView", "abtf_kind"]

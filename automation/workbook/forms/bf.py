"""The Battlefront forms (seed 001): each side's ``Orders <date> <side>``
(posture 2.1, escape attempts 2.1.2.4.3) and ``Spend <date> <side>`` (2.1.1),
built from the refit's state where it stopped.

A row is offered only when the refit would accept it: a repair only for a
wreck that may try now (2.1.1.2, with its odds without and with the CPP), a
purchase only for an RG with room left under its campaign
maximum (2.1.1.4.1; aircraft not at night, 2.1.1.4.2; OBA only in the day's
first refit when the day has several, 2.1.1.4.3), a removal only for an enemy
wreck behind the side's lines outside a pocket (2.1.1.5.1), an escape only for
an isolated or cut-off stand (2.1.2.4.3). Enemy stands are shown as the
export names them (``name``).
"""
from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from typing import Any

from automation.workbook import bf_sheets as K
from automation.workbook.forms.model import Account, Choice, Cost, Form, FormRow, FreeCost, Whole

FREE_ROWS = 8
MOST = 99  # a purchase or fortification count when the chart sets no maximum


def _pct(p: Fraction) -> str:
    return f"{float(p) * 100:.0f}%"


def repair_odds(system: Any, conditions: set[str]) -> tuple[Fraction, Fraction]:
    """The chance a repair succeeds (the table's first, best result) without and with the CPP."""
    from automation.engine.resolver import Situation, applied_modifiers, odds

    table = system.table("bf.armor_repair")
    column = table.default_column()

    def chance(conds: set[str]) -> Fraction:
        drm = sum(m.value for m in applied_modifiers(table, column, Situation.of(*sorted(conds))))
        return odds(table, column, drm)[0].probability

    return chance(conditions), chance(conditions | {"cpp_spent"})


def repairs(planned: Any, side: str, rules: Any) -> list[FormRow]:
    from automation.steps.bf.common import is_russian
    from automation.steps.bf.repair import RULE, eligible, repair_cpp
    from automation.steps.bf.state import Status

    inputs, state = planned.inputs, planned.run.state
    allowed = repair_cpp(inputs)
    rows = []
    for stand in state.roster.of_side(side):
        if stand.status is not Status.WRECK or eligible(inputs, state, stand) is not None:
            continue
        conditions = {c for c, holds in (("in_minefield", stand.in_minefield), ("abandoned", stand.abandoned),
                                         ("russian", is_russian(inputs.side(side).nationality))) if holds}
        without, with_cpp = repair_odds(rules, conditions)
        rows.append(FormRow(
            {"Order": "Repair", "Subject": stand.id,
             "Offered": f"repair {stand.type} of {stand.me}: {_pct(without)} without CPP, {_pct(with_cpp)} with "
                        f"{allowed} CPP; the attempt is made either way, pick {allowed} to spend the CPP ({RULE})"},
            {"Value": Choice.of([allowed], f"{allowed}: spend {allowed} CPP on this repair; blank: none")},
            (Cost("CPP", 1),)))
    return rows


def purchases(planned: Any, side: str) -> list[FormRow]:
    from automation.steps.bf.purchases import on_roster, several_scenarios_today

    inputs, state = planned.inputs, planned.run.state
    rows = []
    for (rg_side, rg_id), rg in inputs.rg_chart.items():
        if rg_side != side:
            continue
        if rg.kind == "Aircraft" and inputs.date.is_night:
            continue
        if rg.kind == "OBA" and several_scenarios_today(inputs) and not inputs.date.starts_day:
            continue
        used = state.ledger.rg_used.get((side, rg_id), 0)
        room = [MOST]
        limits = []
        if rg.campaign_max is not None:
            room.append(rg.campaign_max - used)
            limits.append(f"{max(0, rg.campaign_max - used)} of the campaign's {rg.campaign_max} left")
        if rg.scenario_max is not None:  # limits what deploys in one scenario, not what is bought (2.1.1.7)
            limits.append(f"{on_roster(state, inputs, side, rg_id)} on the roster, at most {rg.scenario_max} "
                          "deploy in one scenario")
        most = min(room)
        if most < 1:
            continue
        gives = f", gives {rg.fpp} FPP" if rg.kind == "FPP" and rg.fpp else ""
        rows.append(FormRow(
            {"Order": "Purchase", "Subject": rg_id,
             "Offered": f"{rg.description}: {rg.cpp} CPP each{gives}; " + ("; ".join(limits) or "no maximum")
                        + " (2.1.1.4)"},
            {"Value": Whole(1, most, f"How many {rg_id} to buy (1 to {most}); blank: none")},
            (Cost("CPP", rg.cpp),)))
    return rows


def removals(planned: Any, side: str, name: Callable[[str], str]) -> list[FormRow]:
    from automation.steps.bf.casualties import RULE, removal_cost
    from automation.steps.bf.common import isolated
    from automation.steps.bf.state import Status

    inputs, state = planned.inputs, planned.run.state
    cost = removal_cost(inputs)
    rows = []
    for stand in state.roster.stands:
        if stand.side == side or stand.status is not Status.WRECK or stand.wreck_lines != "Enemy lines" \
                or isolated(stand):
            continue
        rows.append(FormRow(
            {"Order": "Removal", "Subject": name(stand.id),
             "Offered": f"destroy the enemy wreck ({stand.type}) behind your lines: {cost} FPP ({RULE})"},
            {"Value": Choice.of(["Yes"], "Yes: try to destroy this wreck; blank: leave it")},
            (Cost("FPP", cost, yes=True),)))
    return rows


def fortifications(planned: Any, side: str) -> list[FormRow]:
    rows = []
    for (fp_side, item), (fpp, _) in planned.inputs.fp_chart.items():
        if fp_side not in (side, "Both"):
            continue
        rows.append(FormRow(
            {"Order": "Fortification", "Subject": item,
             "Offered": f"{item}: {fpp} FPP each; placed in the next scenario (2.1.1.5.2)"},
            {"Value": Whole(1, MOST, f"How many {item} to buy; blank: none")},
            (Cost("FPP", fpp),)))
    return rows


def spend_form(planned: Any, side: str, rules: Any, name: Callable[[str], str] = str) -> Form:
    """``rules``: the rule system with the workbook's own tables (the repair odds)."""
    ledger = planned.run.state.ledger
    rows = repairs(planned, side, rules) + purchases(planned, side) + removals(planned, side, name) \
        + fortifications(planned, side)
    others = ("Combine", "Extra CPP", "Preregistered points", "Removal")
    title = (f"{side}: your spending for {planned.date} (2.1.1). Pick a Value on each row you want: repairs "
             "2.1.1.2, purchases 2.1.1.4, removals 2.1.1.5.1, fortifications 2.1.1.5.2; a row left blank is not "
             f"taken. Other orders ({', '.join(others)}) go in the empty rows below. Nothing chosen: you spend nothing.")
    return Form(K.SPEND.name_for(date=planned.date, side=side), K.SPEND, title, tuple(rows),
                (Account("CPP", int(ledger.cpp.get(side, 0))), Account("FPP", int(ledger.fpp.get(side, 0)))),
                FREE_ROWS, {"Order": Choice.of(others, "Another order: " + ", ".join(others))},
                free_costs=free_costs(planned))


def free_costs(planned: Any) -> tuple[FreeCost, ...]:
    """What the Spend form's free rows cost: Extra CPP its Value in CPP (2.1.1.4.4), preregistered points
    their Value at the campaign's cost a point (2.1.1.4.4), a removal its FPP per attempt (2.1.1.5.1)."""
    from automation.steps.bf.casualties import removal_cost
    from automation.steps.bf.purchases import PREREG_COST

    inputs = planned.inputs
    return (FreeCost("CPP", "Extra CPP", 1, blank_is_one=False),
            FreeCost("CPP", "Preregistered points", int(inputs.setting(PREREG_COST, 1) or 1), blank_is_one=False),
            FreeCost("FPP", "Removal", removal_cost(inputs)))


def escapes(planned: Any, side: str) -> list[FormRow]:
    from automation.steps.bf.orders_check import _escape_situation
    from automation.steps.bf.state import Situation, Status

    inputs, state = planned.inputs, planned.run.state
    results = inputs.results or {}
    rows = []
    for stand in state.roster.of_side(side):
        end = results.get(stand.id)
        where, near = _escape_situation(inputs, state, stand.id)
        if where is Situation.NORMAL or stand.status is not Status.AVAILABLE or (
                end and end.outcome in ("Knocked out", "Abandoned")):
            continue
        group = " (troops may roll together: give them the same Detail)" if stand.is_troops else ""
        rows.append(FormRow(
            {"Order": "Escape", "Subject": stand.id,
             "Offered": f"{stand.type} of {stand.me} is {where.value.lower()}"
                        f"{', near friendly lines' if near else ''}: Yes to try to escape, No to stay{group} "
                        "(2.1.2.4.3)"},
            {"Value": Choice.of(["Yes", "No"], "Yes: roll to escape; No: stay; blank: stay")}))
    return rows


def orders_form(planned: Any, side: str) -> Form:
    rows: list[FormRow] = []
    posture = not planned.inputs.date.is_first
    if posture:
        rows.append(FormRow({"Order": "Posture", "Offered": "your posture for the next scenario: Attack or Defend; "
                                                       "the refit cannot go on without it (2.1)"},
                            {"Value": Choice.of(["Attack", "Defend"], "Your posture for the next scenario (2.1)")}))
    rows += escapes(planned, side)
    asks = ["your posture (Attack or Defend) on the Posture row (2.1)"] if posture else []
    asks.append("Yes or No on each Escape row (2.1.2.4.3)" if len(rows) > int(posture)
                else "no stand of yours is isolated or cut off: no escape to decide")
    title = f"{side}: your orders before the refit of {planned.date}. Choose " + "; ".join(asks) + "."
    return Form(K.ORDERS.name_for(date=planned.date, side=side), K.ORDERS, title, tuple(rows))

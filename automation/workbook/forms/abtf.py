"""The A Bridge Too Far purchases form (seed 003): ``Purchases <date> <side>``
(RePh part 2, 9.617-9.621), built from the RePh state where it stopped.

One row per RG of the side's chart (per Kampfgruppe for the Germans, 9.6178)
with room left under its CG and CG Date maxima (9.617), with its cost; one per
fortification the side may buy, with its FPP (9.619); the Initiative Chit line
offering only the chits the side has left (9.62131). Before the CG Initial
Scenario the RG rows are the OB's RGs instead (OB RG, 9.6178) and there is no
chit.
"""
from __future__ import annotations

from typing import Any

from automation.workbook import abtf_sheets as K
from automation.workbook.forms.model import Account, Choice, Cost, Form, FormRow, FreeCost, Whole

FREE_ROWS = 6
MOST = 99


def rg_rows(planned: Any, side: str, areas: list[str]) -> list[FormRow]:
    from automation.steps.abtf.purchases import bought_so_far
    from automation.steps.abtf.state import Mode

    inputs = planned.inputs
    initial = inputs.mode is Mode.INITIAL
    kind = "OB RG" if initial else "RG"
    rows = []
    for (rg_side, _, _), rg in sorted(inputs.rg_charts.items(), key=lambda kv: (kv[0][1], kv[0][2] or "")):
        if rg_side != side:
            continue
        so_far = bought_so_far(inputs, [], rg)
        room = [MOST]
        limits = []
        if rg.cg_max is not None and not initial:
            room.append(rg.cg_max - so_far)
            limits.append(f"{max(0, rg.cg_max - so_far)} of the CG's {rg.cg_max} left")
        if rg.date_max is not None and not initial:
            room.append(rg.date_max)
            limits.append(f"at most {rg.date_max} this CG Date")
        most = min(room)
        if most < 1:
            continue
        rules: dict[str, Any] = {"Count": Whole(1, most, f"How many {rg.id} (1 to {most}); blank: none")}
        if areas:
            rules["Area"] = Choice.of(areas, "The Setup or Entry Area it goes to (9.617)")
        kg = f" of KG {rg.kg}" if rg.kg else ""
        cost = "" if initial else f": {rg.cpp} CPP each"
        rows.append(FormRow(
            {"Purchase": kind, "Item": rg.id, "KG": rg.kg or None,
             "Offered": f"{rg.group_type}{kg}{cost}; " + ("; ".join(limits) or "no maximum")
                        + (" (9.6178)" if initial else " (9.617)")},
            rules, () if initial else (Cost("CPP", rg.cpp),)))
    return rows


def fortification_rows(chart: Any, side: str, areas: list[str]) -> list[FormRow]:
    rows = []
    for r in chart.rows:
        if r["Buyer"] not in ("Both", side) or (r["British only"] and side != "British") \
                or (r["German only"] and side != "German"):
            continue
        variant = f" ({r['Variant']})" if r["Variant"] else ""
        rules: dict[str, Any] = {"Count": Whole(1, MOST, "How many; blank: none")}
        if areas:
            rules["Area"] = Choice.of(areas, "The Setup Area it goes to (9.619)")
        if r["Front line allowed"]:
            rules["Front Line"] = Choice.of(K.YES_NO, "Yes: it sets up in a Front Line Location (9.619)")
        rows.append(FormRow(
            {"Purchase": "Fortification", "Item": r["Id"],
             "Offered": f"{r['Fortification']}{variant}: {r['FPP']} FPP each"
                        + (", may set up in a Front Line Location" if r["Front line allowed"] else "") + " (9.619)"},
            rules, (Cost("FPP", int(r["FPP"] or 0)),)))
    return rows


def chits_left(planned: Any, side: str) -> list[str]:
    record = planned.run.state.records[side]
    attack, idle, _ = planned.inputs.chit_limits.get(side, (None, None, None))
    left = []
    if attack is None or record.attack_chits < attack:
        left.append("Attack")
    if idle is None or record.idle_chits < idle:
        left.append("Idle")
    return left


def purchases_form(planned: Any, side: str, chart: Any, what: str) -> Form:
    """``chart``: the Fortification Purchase chart the workbook holds (9.619)."""
    from automation.steps.abtf.common import friendly_areas
    from automation.steps.abtf.state import Mode

    areas = list(friendly_areas(planned.run.state, side))
    initial = planned.inputs.mode is Mode.INITIAL
    rows: list[FormRow] = []
    if not initial:
        left = chits_left(planned, side)
        rows.append(FormRow({"Purchase": "Chit"},
                            {"Item": Choice.of(left or ["Idle"], "Your Initiative Chit for this CG Date (9.62131)")}))
    rows += rg_rows(planned, side, areas) + fortification_rows(chart, side, areas)
    record = planned.run.state.records[side]
    chit = "" if initial else " Pick your Initiative Chit (Attack or Idle) on the Chit row (9.6213)."
    title = (f"{side}: {what}.{chit} Give a Count (and an Area) on each RG or fortification row you buy; a row "
             "left blank is not bought.")
    return Form(K.PURCHASES.name_for(date=planned.date, side=side), K.PURCHASES, title, tuple(rows),
                (Account("CPP", int(record.cpp_left)), Account("FPP", int(record.fpp))), FREE_ROWS,
                {"Purchase": Choice.of([k for k in K.PURCHASE_KINDS if (k != "OB RG" or initial)
                                        and (k != "Chit" or not initial)])},
                widths={"Item": 20, "Area": 12, "Front Line": 8, "Notes": 16}, value_column="Count",
                free_costs=free_costs(planned, side, chart, initial))


def free_costs(planned: Any, side: str, chart: Any, initial: bool) -> tuple[FreeCost, ...]:
    """What the free rows cost: an RG the CPP of its ID on the side's chart (9.617; none for the CG Initial
    Scenario's OB RGs, 9.6178), a fortification the FPP of its Id on the chart (9.619), each times its Count."""
    rgs = {rg.id: int(rg.cpp or 0) for (rg_side, _, _), rg in planned.inputs.rg_charts.items() if rg_side == side}
    forts = {str(r["Id"]): int(r["FPP"] or 0) for r in chart.rows if r["Buyer"] in ("Both", side)
             and not (r["British only"] and side != "British") and not (r["German only"] and side != "German")}
    costs = [FreeCost("FPP", "Fortification", prices=tuple(sorted(forts.items())))]
    if not initial:
        costs.insert(0, FreeCost("CPP", "RG", prices=tuple(sorted(rgs.items()))))
    return tuple(costs)

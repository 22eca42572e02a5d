"""The A Bridge Too Far orders form (seed 003): ``Orders <date> <side>``, a
side's decisions in RePh part 1, built from the RePh state where it stopped.

One row per decision the rules offer the side now, its Value a dropdown of
what that order accepts for that row (the checks of automation.steps.abtf):

* Transfer (9.6054): each SW and Gun of the side: Drop, Eliminate, or a unit
  of the side in its Location;
* Armor leader (9.6141): each Armor Leader: a vehicle of the side in its Area;
* Reman (9.6141a): each Abandoned vehicle in a Friendly Area: an armed squad,
  HS or crew of the side in that Area;
* MG exchange (9.61421): each disabled vehicular MG: an LMG of the side in the
  vehicle's Area;
* Battle Harden (9.6112): each hero and each MMC in its Area it may harden:
  Yes for an Elite MMC (it becomes Fanatic), else the new factors (typed);
* Escape stack (9.6054): each Location from which several units must escape:
  Yes to escape together.

Shifts (9.613) and anything else go in the free rows below.
"""
from __future__ import annotations

from typing import Any

from automation.workbook import abtf_sheets as K
from automation.workbook.forms.model import Choice, Form, FormRow

MAX_LIST = 255
FREE_ROWS = 6
START = ""  # the state as the RePh begins: orders are checked against it (automation.steps.abtf.orders_check)


def _choice(values: list[str], prompt: str) -> dict[str, Any]:
    """A Value dropdown, or none when the list is longer than Excel writes (the refit still checks it)."""
    if not values or len(",".join(values)) > MAX_LIST or any("," in v for v in values):
        return {}
    return {"Value": Choice.of(values, prompt)}


def _where(u: Any) -> str:
    return u.location or u.area


def transfers(state: Any, side: str) -> list[FormRow]:
    rows = []
    for item in state.of_side(side):
        if not item.is_equipment:
            continue
        holder = state.unit(item.holder) if item.holder else None
        spot = ((holder or item).area, (holder or item).location)
        takers = [u.id for u in state.of_side(side) if (u.is_personnel or u.is_vehicle) and (u.area, u.location) == spot
                  and u.id != item.holder]
        with_ = f", with {item.holder}" if item.holder else ""
        rows.append(FormRow(
            {"Order": "Transfer", "Subject": item.id,
             "Offered": f"{item.cls} {item.type} in {spot[1] or spot[0]}{with_}: Drop it, Eliminate it, or give it to a "
                        "unit in its Location (9.6054)"},
            _choice(["Drop", "Eliminate"] + takers, "Drop, Eliminate, or the unit that takes it")))
    return rows


def armor_leaders(state: Any, side: str) -> list[FormRow]:
    rows = []
    for al in state.of_side(side):
        if al.cls != "Armor Leader":
            continue
        vehicles = [v.id for v in state.of_side(side) if v.is_vehicle and v.area == al.area]
        if vehicles:
            rows.append(FormRow({"Order": "Armor leader", "Subject": al.id,
                                 "Offered": f"Armor Leader {al.strength or ''} in {al.area}: the vehicle he is with (9.6141)"},
                                _choice(vehicles, "A vehicle of yours in his Area")))
    return rows


def remans(state: Any, side: str) -> list[FormRow]:
    from automation.steps.abtf.common import friendly_areas

    rows = []
    friendly = friendly_areas(state, side)
    for v in state.of_side(side):
        if not (v.is_vehicle and v.has("Abandoned") and not v.has("Burnt-out") and v.area in friendly):
            continue
        crews = [c.id for c in state.of_side(side) if c.is_mmc and c.armed and c.area == v.area]
        if crews:
            rows.append(FormRow({"Order": "Reman", "Subject": v.id,
                                 "Offered": f"Abandoned {v.type} in {v.area}: the squad, HS or crew that remans it "
                                            "(9.6141a; not a crew: Non-Qualified Use)"},
                                _choice(crews, "An armed squad, HS or crew of yours in its Area")))
    return rows


def mg_exchanges(state: Any, side: str) -> list[FormRow]:
    from automation.steps.abtf.weapons import captured, vehicle_of

    rows = []
    for mg in state.of_side(side):
        v = vehicle_of(state, mg)
        if v is None or "MG" not in mg.type.upper() or not mg.has("Disabled") or captured(state, mg):
            continue
        lmgs = [w.id for w in state.of_side(side) if w.cls == "SW" and "LMG" in w.type.upper() and w.area == v.area]
        if lmgs:
            rows.append(FormRow({"Order": "MG exchange", "Subject": mg.id,
                                 "Offered": f"disabled {mg.type} of {v.id}: an LMG eliminated to repair it (9.61421)"},
                                _choice(lmgs, "An LMG of yours in the vehicle's Area")))
    return rows


def battle_hardening(planned: Any, side: str, state: Any) -> list[FormRow]:
    ladder = planned.inputs.quality_ladder
    elite = ladder[-1] if ladder else "Elite"
    rows = []
    for hero in state.of_side(side):
        if hero.cls != "Hero" or hero.area == K.WW_BOX:
            continue
        for u in state.of_side(side):
            if u.cls not in ("Squad", "HS") or u.area != hero.area:
                continue
            if u.quality == elite:
                rule = _choice(["Yes"], "Yes: the hero Battle Hardens it (Elite: it becomes Fanatic)")
                what = "Yes: it becomes Fanatic"
            else:
                rule, what = {}, f"type its new factors (now {u.strength}, {u.quality or 'no quality'}), e.g. 4-6-8"
            rows.append(FormRow({"Order": "Battle Harden", "Subject": u.id, "Units": hero.id,
                                 "Offered": f"hero {hero.id} Battle Hardens {u.type} {u.strength or ''} in {hero.area}: "
                                            f"{what}; one MMC per hero (9.6112)"}, rule))
    return rows


def escape_stacks(state: Any, side: str) -> list[FormRow]:
    places: dict[tuple[str, str | None], list[str]] = {}
    for u in state.of_side(side):
        if u.id in state.escaping and u.is_personnel:
            places.setdefault((u.area, u.location), []).append(u.id)
    rows = []
    for (area, location), ids in sorted(places.items(), key=lambda kv: (kv[0][0], kv[0][1] or "")):
        if len(ids) > 1:
            rows.append(FormRow({"Order": "Escape stack", "Subject": f"stack {location or area}", "Units": ", ".join(ids),
                                 "Offered": f"units escaping from {location or area}: Yes to escape as one stack "
                                            "(edit Units to leave one out; 9.6054)"},
                                _choice(["Yes"], "Yes: they escape together")))
    return rows


def states_before(book: Any, planned: Any, names: set[str]) -> dict[str, Any]:
    """The RePh state as each step of ``names`` begins, the refit run again in
    memory with no orders where none are in yet (an order is checked against
    the state of the step that reads it, not of the step where the refit
    stopped). Empty when the campaign key is not beside the workbook."""
    import dataclasses
    from pathlib import Path

    from automation.campaign.model import Dice
    from automation.errors import MusterrollError
    from automation.keys import key_path_for, read_key
    from automation.steps.abtf.pipeline import steps_for
    from automation.workbook.tables_io import system_from_workbook, system_of

    settings = planned.settings  # the campaign's settings as the refit that planned this read them
    try:
        key = read_key(key_path_for(Path(str(book.path))), str(settings.get("Key commitment") or "").strip())
    except (MusterrollError, OSError):
        return {}
    system = system_from_workbook(book, system_of(book, settings))
    inputs, state = planned.system.load(book, system, settings)
    inputs = dataclasses.replace(inputs, orders={s: o if o is not None else () for s, o in inputs.orders.items()})
    dice = Dice(key, system, planned.system.date_of(inputs))
    out: dict[str, Any] = {START: state}
    names = names | {START}
    for step in steps_for(inputs.mode):
        if step.name in names:
            out[step.name] = state
        if step.stage > 1 or len(out) == len(names):
            break
        result = step.run(state, inputs, dice)
        if result.waiting is not None:
            break
        state = result.state
    return out


def named_ok(start: Any, side: str, row: FormRow) -> bool:
    """Does the row name only units the orders check accepts: the side's own
    as the RePh begins, or a crew or hero the RePh creates?"""
    from automation.steps.abtf.orders_check import DERIVED

    named = [u.strip() for u in str(row.values.get("Units") or "").split(",")] \
        if row.values["Order"] in ("Escape stack", "Shift") else [str(row.values.get("Subject") or "")]
    return all((u := start.unit(n)) is not None and u.side == side or (u is None and n.endswith(DERIVED))
               for n in named if n)


def orders_form(planned: Any, side: str, book: Any = None) -> Form:
    """``book``: the workbook, to see each order's step as it begins (:func:`states_before`)."""
    from automation.steps.abtf import escape, recombining, vehicles, weapons

    at = states_before(book, planned, {escape.STEP, recombining.STEP, vehicles.STEP, weapons.STEP}) \
        if book is not None else {}
    stop = planned.run.state

    def state(step: str) -> Any:
        return at.get(step, stop)

    rows = (escape_stacks(state(escape.STEP), side) + transfers(state(escape.STEP), side)
            + battle_hardening(planned, side, state(recombining.STEP)) + armor_leaders(state(vehicles.STEP), side)
            + remans(state(vehicles.STEP), side) + mg_exchanges(state(weapons.STEP), side))
    rows = [r for r in rows if named_ok(state(START), side, r)]
    title = (f"{side}: your RePh decisions for {planned.date} (9.6054-9.6143). Pick a Value on each row you want; a "
             "row left blank is not taken. Shifts (9.613: Subject the group's name, Value the Area, Units and Path) "
             "and anything else go in the empty rows below. Nothing chosen: no orders.")
    return Form(K.ORDERS.name_for(date=planned.date, side=side), K.ORDERS, title, tuple(rows), free_rows=FREE_ROWS,
                free_rules={"Order": Choice.of(K.ORDER_KINDS, "The kind of order")}, widths={"Notes": 14})

"""The A Bridge Too Far umpire's forms (seed 003), built from the RePh state
where it stopped:

* ``End <date>`` (9.603): every unit of the Units sheet, one row each, as it
  stood when the scenario began; the umpire changes what the scenario changed
  (Area from a dropdown of the map's Areas, Location, With, Status). The End
  sheet must account for every unit, so an untouched form is a valid answer:
  nothing moved.
* ``Umpire <date>`` (9.601-9.6053): each side's Final CVP (9.603), the
  controller of each Strategic Location (9.6051), an outcome for each unit in a
  minefield (9.6042), bogged (9.6043) or shocked (9.6044), and Retain or
  Escape for each unit outside its side's Blocks (9.6053). A row left blank is
  no entry; the refit asks for any further entry it needs on the same sheet.
* ``Setup <date>`` (9.6214): Set up Yes or No for each side of a Dual Assault;
  the first move is rolled once both say Yes (9.6215).
"""
from __future__ import annotations

from typing import Any

from automation.workbook import abtf_sheets as K
from automation.workbook.forms.model import Choice, Form, FormRow, Whole

MAX_LIST = 255  # Excel's limit on a dropdown's written list
MOST_CVP = 999
MOST_HEXES = 99
YES_NO = ("Yes", "No")


def fits(values: list[str]) -> bool:
    return bool(values) and len(",".join(values)) <= MAX_LIST and not any("," in v for v in values)


def map_areas(state: Any) -> list[str]:
    """Where a unit may stand at CG Scenario End: a Block or Entry Area, Uncontrolled, the WW Box."""
    return list(state.areas) + [K.UNCONTROLLED, K.WW_BOX]


def end_form(planned: Any) -> Form:
    from automation.workbook.abtf_output import unit_row

    state = planned.run.state
    prev = planned.inputs.previous.label if planned.inputs.previous else planned.date
    units_sheet = K.UNITS.name_for(date=prev)
    areas = map_areas(state)
    area_rule = {"Area": Choice.of(areas, "Its Block or Entry Area, Uncontrolled or the Walking Wounded Box (9.605)")} \
        if fits(areas) else {}
    rows = tuple(FormRow(dict(zip(K.END.header, unit_row(u))), dict(area_rule)) for u in state.units)
    title = (f"Umpire: the units at CG Scenario End of {prev} (9.603), one row per unit of {units_sheet}: keep every row. "
             "Change what the scenario changed: Area, Location, With, and Status (comma separated: Eliminated for a "
             "unit eliminated in play, Encircled, Wounded, Minefield, Bogged, Shocked, Immobile, Abandoned ...).")
    return Form(K.END.name_for(date=prev), K.END, title, rows, value_column="Status",
                widths={"Status": 24, "Notes": 14, "Type": 14, "Ammo depleted": 8, "Replaced by": 8})


def _unit_text(u: Any) -> str:
    return f"{u.side} {u.cls} {u.type}" + (f" {u.strength}" if u.strength else "") + \
        f" in {u.location or u.area}"


def umpire_form(planned: Any) -> Form:
    from automation.steps.abtf.common import isolated
    from automation.steps.abtf.encirclement import BOG, MINEFIELD, SHOCK
    from automation.steps.abtf.state import SIDES

    state, inputs = planned.run.state, planned.inputs
    rows: list[FormRow] = []
    for side in SIDES:
        rows.append(FormRow({"Entry": "Final CVP", "Subject": side,
                             "Offered": f"the CVP the {side} scored in the scenario just ended (9.603)"},
                            {"Value": Whole(0, MOST_CVP, f"The {side}'s Final CVP, 0 or more")}))
    for area in state.areas.values():
        for loc in area.strategic if area.is_block else ():
            rows.append(FormRow({"Entry": "Location control", "Subject": loc,
                                 "Offered": f"who Controls Strategic Location {loc} of Block {area.name} (9.6051)"},
                                {"Value": Choice.of(SIDES, "The side that Controls it at CG Scenario End")}))
    for entry, flag, values, rule, vehicles in (("Minefield", "Minefield", MINEFIELD, "9.6042", False),
                                                ("Bog", "Bogged", BOG, "9.6043", True),
                                                ("Shock", "Shocked", SHOCK, "9.6044", True)):
        for u in state.units:
            if u.has(flag) and (u.is_vehicle or not vehicles) and not (flag == "Bogged" and u.has("Abandoned")):
                offered = [v for v in values if v != "Immobilized" or u.is_vehicle]
                rows.append(FormRow({"Entry": entry, "Subject": u.id,
                                     "Offered": f"{entry} outcome for {_unit_text(u)} ({rule})"},
                                    {"Value": Choice.of(offered, f"The {entry} outcome ({rule})")}))
    for u in state.units:
        if not isolated(state, u) or u.has("Prisoner") or u.has("Eliminated") or not (u.is_personnel or u.is_vehicle):
            continue
        if u.is_vehicle and u.status & {"Abandoned", "Burnt-out"}:
            continue
        friendly = [a.name for a in state.areas.values()
                    if (a.is_block and a.controller == u.side) or (a.is_entry and a.side == u.side)]
        rules: dict[str, Any] = {"Entry": Choice.of(("Retain", "Escape"), "Retain: a path to a Friendly Area; Escape: none")}
        if fits(friendly):
            rules["Area"] = Choice.of(friendly, "Retain: the Friendly Setup or Entry Area its path leads to (9.6053)")
        rules["Hexes"] = Whole(0, MOST_HEXES, "Escape: the hexes it must cross (9.6053)")
        rows.append(FormRow({"Subject": u.id,
                             "Offered": f"{_unit_text(u)} is outside its side's Blocks: Retain with an Area, or "
                                        "Escape with the hexes to cross (9.6053)"}, rules))
    title = (f"Umpire: your entries for the RePh of {planned.date} (9.601-9.6053). Give each side's Final CVP, who "
             "Controls each Strategic Location, each outcome asked, and Retain (with an Area) or Escape (with hexes) "
             "for each unit outside its Blocks. A row left blank is no entry; add any other entry in the rows below.")
    return Form(K.UMPIRE.name_for(date=planned.date), K.UMPIRE, title, tuple(rows), free_rows=6,
                free_rules={"Entry": Choice.of(K.UMPIRE_ENTRIES, "The kind of entry")},
                widths={"Notes": 14})


def setup_form(planned: Any) -> Form:
    from automation.steps.abtf.state import SIDES

    rows = tuple(FormRow({"Side": side, "Set up": "No"},
                         {"Set up": Choice.of(YES_NO, f"Yes once the {side} has set up all its units, Equipment and "
                                                      "Fortifications (9.6214)")}) for side in SIDES)
    title = (f"Umpire: the Dual Assault of {planned.date}. Answer Yes for each side once it has set up everything "
             "(9.6214); the refit then rolls who moves first (9.6215).")
    return Form(K.SETUP.name_for(date=planned.date), K.SETUP, title, rows, value_column="Set up")

"""The Battlefront ``Forces <date> <side>`` form (2.1.1.7): the MEs, OBA
modules and aircraft flights a side deploys in the scenario of ``<date>``,
built from the roster the refit of that date wrote.

One row per ME of the side with something to deploy
(:func:`automation.steps.bf.forces.deployable`; no air support at night,
2.1.1.4.2), its Deploy cell a Yes dropdown. Each RG of the side's chart with a
scenario maximum is a live count at the top: how many more of its MEs may
deploy, that is its maximum less its groups still isolated on the map (for
OBA, its modules used earlier that day, 2.1.1.4.3) less the rows answered Yes,
red when over. The refit's forces step (2.1.1.7) checks the same numbers.
"""
from __future__ import annotations

from typing import Any

from automation.workbook import bf_sheets as K
from automation.workbook.forms.model import Account, Choice, Cost, Form, FormRow

FREE_ROWS = 0


def counted(state: Any, inputs: Any, side: str, rg_id: str) -> list[str]:
    """The MEs of RG ``rg_id`` that count against its maximum before any is chosen."""
    from automation.steps.bf.forces import on_the_map, used_today

    roster = state.roster
    entry = inputs.rg_chart.get((side, rg_id))
    test = used_today if entry is not None and entry.kind == "OBA" else on_the_map
    return sorted(m for m, me in roster.mes.items() if me.side == side and me.rg == rg_id and test(roster, m))


def forces_form(state: Any, inputs: Any, date: Any, side: str) -> Form:
    """The form for the scenario of ``date`` (a campaign date), from ``state``'s
    roster (the roster the refit of ``date`` wrote)."""
    from automation.steps.bf.forces import deployable

    roster = state.roster
    limits: dict[str, int] = {}
    for (rg_side, rg_id), entry in sorted(inputs.rg_chart.items()):
        if rg_side == side and entry.scenario_max is not None:
            limits[rg_id] = entry.scenario_max - len(counted(state, inputs, side, rg_id))
    rows = []
    for me_id, me in sorted(roster.mes.items()):
        if me.side != side or not deployable(roster, me):
            continue
        stands = roster.of_me(me_id)
        if date.is_night and any(s.kind == "Aircraft" for s in stands):
            continue  # air support is never used at night (2.1.1.4.2)
        entry = inputs.rg_chart.get((side, me.rg)) if me.rg else None
        trapped = any(s.available and s.situation.value != "Normal" for s in stands)
        what = f"{me.me_type} (class {me.me_class}), {sum(1 for s in stands if s.available)} stand(s) available"
        if trapped:
            what += ", some isolated or cut off on the map"
        if entry is not None and entry.scenario_max is not None:
            what += f"; RG {me.rg}: at most {entry.scenario_max} in one {'day' if entry.kind == 'OBA' else 'scenario'}"
        rows.append(FormRow({"ME": me_id, "Offered": what + " (2.1.1.7)"},
                            {"Deploy": Choice.of(["Yes"], "Yes: it takes part in the scenario; blank: it does not")},
                            (Cost(me.rg, 1, yes=True),) if me.rg in limits else ()))
    title = (f"{side}: your forces for the scenario of {date.label} (2.1.1.7). Answer Yes on each ME, OBA module or "
             "aircraft flight you deploy. The counts at the top say how many more of each RG may deploy (its "
             "scenario maximum, less its groups still isolated on the map); red: too many.")
    return Form(K.FORCES.name_for(date=date.label, side=side), K.FORCES, title, tuple(rows),
                tuple(Account(rg_id, room) for rg_id, room in limits.items()), FREE_ROWS,
                widths={"Notes": 14}, value_column="Deploy",
                totals_label="How many more of each RG may deploy (red: too many):")

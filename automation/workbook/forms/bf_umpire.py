"""The Battlefront umpire's form (seed 001): ``Results <date>`` (2.1.2), what
happened to each stand in the scenario just played, built from the roster the
refit holds where it stopped for it.

One row per stand that may have taken part: every stand of both sides that was
available for the scenario (or, where a side's ``Forces <date> <side>`` sheet
names what it deployed, 2.1.1.7, the stands of those MEs) and every stand still
isolated or cut off on the map; no aircraft after a night scenario (2.1.1.4.2). A row's Outcome offers only what the reader
accepts for that stand (Abandoned: vehicles; Used: OBA modules and aircraft);
left blank, the stand took no part. A stand of a deployed ME starts as
Unharmed, since it took part. Kills and close combats are whole numbers up to
the number of enemy stands that may have fought; turns isolated or cut off up
to the scenario's last turn on the turn record chart (2.1.2).
"""
from __future__ import annotations

import re
from typing import Any

from automation.workbook import bf_sheets as K
from automation.workbook.forms.model import Choice, Form, FormRow, Whole

YES_NO = ("Yes", "No")
FALLBACK_TURNS = 1  # when the turn record chart names no turn (never for the seed's chart)


def outcomes(stand: Any) -> tuple[str, ...]:
    """The outcomes the Results reader accepts for ``stand`` (2.1.2; Abandoned
    only for vehicles, Used only for OBA modules and aircraft)."""
    if stand.kind in ("OBA module", "Aircraft"):
        return ("Unharmed", "Used") + (("Knocked out",) if stand.kind == "Aircraft" else ())
    return tuple(o for o in K.OUTCOMES if o != "Used" and (o != "Abandoned" or stand.is_vehicle))


def last_turn(rules: Any) -> int:
    """The last turn on the turn record chart (its columns 'Turn 11' ... 'Turn 20', 2.1.2)."""
    try:
        columns = rules.table("bf.scenario_turn_end").columns
    except (KeyError, AttributeError):
        return FALLBACK_TURNS
    turns = [int(m.group(1)) for c in columns if (m := re.fullmatch(r"Turn (\d+)", str(c)))]
    return max(turns, default=FALLBACK_TURNS)


def took_part(planned: Any, side: str) -> set[str] | None:
    """The MEs ``side`` named on its Forces sheet for the scenario (None: no sheet)."""
    rows = (planned.inputs.forces or {}).get(side)
    return None if rows is None else {r.me for r in rows}


def in_play(planned: Any) -> list[Any]:
    """The stands that may have taken part, by side and ME."""
    from automation.steps.bf.common import isolated
    from automation.steps.bf.state import Status

    state = planned.run.state
    night = planned.inputs.previous is not None and planned.inputs.previous.is_night
    out = []
    for side in planned.sides:
        deployed = took_part(planned, side)
        for s in state.roster.of_side(side):
            if s.kind == "Fortification" or (night and s.kind == "Aircraft"):  # no air support at night (2.1.1.4.2)
                continue
            used_oba = s.kind == "OBA module" and s.status is Status.USED
            if not (s.status is Status.AVAILABLE or used_oba):
                continue
            if deployed is not None and s.me not in deployed and not isolated(s):
                continue
            out.append(s)
    return out  # by side, in roster order


def results_form(planned: Any, rules: Any) -> Form:
    """``rules``: the rule system with the workbook's own tables (the turn record chart)."""
    from automation.steps.bf.common import isolated

    date = planned.inputs.previous.label if planned.inputs.previous else planned.date
    stands = in_play(planned)
    turns = last_turn(rules)
    rows = []
    for s in stands:
        enemy = sum(1 for t in stands if t.side != s.side)
        deployed = took_part(planned, s.side)
        where = f", {s.situation.value.lower()} on the map" if isolated(s) else ""
        values: dict[str, Any] = {"Side": s.side, "Stand": s.id,
                                  "Offered": f"{s.type} ({s.kind}) of {s.me}{where}"}
        if deployed is not None and s.me in deployed:
            values["Outcome"] = "Unharmed"
        rules_: dict[str, Any] = {
            "Outcome": Choice.of(outcomes(s), "What happened to it; blank: it took no part (2.1.2)"),
        }
        if s.kind not in ("OBA module", "Aircraft"):
            rules_ |= {
                "Knocked out by": Choice.of(K.KO_BY, "How it was knocked out (2.1.1.3.1)"),
                "Ends in": Choice.of(K.LINES, "Where it ends; blank: own lines (2.1.1.3.1)"),
                "Situation": Choice.of(K.SITUATIONS, "Its situation at the end; blank: as on the roster (2.1.2.4)"),
                "In minefield": Choice.of(YES_NO, "A wreck left in a minefield (2.1.1.2)"),
                "Near friendly lines": Choice.of(YES_NO, "Escape modifier (2.1.2.4.3)"),
                "Turns isolated": Whole(0, turns, f"Turns it spent isolated, 0 to {turns} (2.1.1.3.1)"),
                "Turns cut off": Whole(0, turns, f"Turns it spent cut off, 0 to {turns} (2.1.1.3.1)"),
                "Kills by fire": Whole(0, enemy, f"Enemy stands it knocked out by fire, 0 to {enemy} (2.1.1.3.1)"),
                "CC wins": Whole(0, enemy, f"Close combats it won, 0 to {enemy} (2.1.1.3.1)"),
                "CC losses": Whole(0, enemy, f"Close combats it lost, 0 to {enemy} (2.1.1.3.1)"),
            }
        rows.append(FormRow(values, rules_))
    forces = [side for side in planned.sides if took_part(planned, side) is not None]
    given = (f" Stands of the MEs on {' and '.join(K.FORCES.name_for(date=date, side=s) for s in forces)} start as "
             "Unharmed.") if forces else ""
    title = (f"Umpire: the results of the scenario of {date} (2.1.2). Choose an Outcome for each stand that took part "
             "(Unharmed if nothing happened to it) and fill in what happened: knocked out by, where it ends, its "
             "situation, kills by fire and close combats (2.1.1.3.1). A stand whose Outcome is left blank took no "
             f"part.{given}")
    return Form(K.RESULTS.name_for(date=date), K.RESULTS, title, tuple(rows), value_column="Outcome",
                widths={"Notes": 12, "Near friendly lines": 14, "Offered": 38})

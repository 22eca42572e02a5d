"""Battlefront engineering (house rules, seed 002, sections 14, 16 and 23 as
numbered in the body): preparing and blowing demolitions, laying minefields and
dummy fields, and building bridge spans.

Input sheet "Engineering", one row per entry (Subject names the work, e.g.
"Wire W1", "Field M2", "Bridge B1"):
- ``Prepare``: engineering actions spent on Task (a task of the chart
  house.engineering_actions, e.g. "Prepare a wire demolition"); Count = actions
  this turn (default 1). When the chart's actions are done the work is complete,
  or prepared when the chart says a demolition action follows.
- ``Prepared``: a demolition the scenario sets up already prepared (14).
- ``Demolition``: the demolition action (14): a d10, a 1 is a dud and the
  demolition must be prepared again.
- ``Remove demolition``: an enemy unit's engineering action removes a prepared
  demolition (14).
- ``Mine laying`` / ``Dummy field``: Count engineer stands spend an engineering
  action on the field this turn (16): at most three stands on one field; nine
  actions lay a scattered field of one type (Task AT or AP), five a dummy field.
- ``Bridge``: a gap the scenario says needs Count spans (23).
- ``Bridge span``: the builders' Improve Position roll for the next span (23),
  Modifiers as on the Improve Position table (builder_discipline_rating=N,
  swollen_river, several_units_on_span). The table is a main-rule table: the
  umpire enters it in Desk tables, giving the successful band Effect success=true.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from automation.desk.modifiers import ModifierProblem, parse as parse_modifiers
from automation.desk.trackers.base import ALL, Context, Line, Problems, Tracker, TrackerOutput, Where, roll_at, where
from automation.engine.resolver import RollResult
from automation.rulebook import load_rulebook
from automation.workbook.reader import SheetRow
from automation.workbook.schema import Column, Kind, SheetKind, choice

ENTRIES = ("Prepare", "Prepared", "Demolition", "Remove demolition", "Mine laying", "Dummy field", "Bridge",
           "Bridge span")
DEMOLITION = "house.demolition"
IMPROVE = "house.improve_position"
CHART = "house.engineering_actions"
H = "house."
SUCCESS_WORDS = ("success", "succeed", "improved", "done", "built", "yes")

KIND = SheetKind(
    "desk.engineering", "Engineering",
    (choice("Entry", ENTRIES, width=16), Column("Turn", Kind.INT, width=6), Column("Subject", width=16),
     Column("Task", required=False, width=34, note="Prepare: a task of the chart house.engineering_actions; "
                                                    "Mine laying: AT or AP"),
     Column("Count", Kind.INT, required=False, width=7, note="actions or stands this turn; Bridge: spans needed"),
     Column("Modifiers", required=False, width=34, note="Bridge span: Improve Position modifiers"),
     Column("Notes", required=False, width=30)),
    tab="orders", rule="14-23",
    description="Engineering work: demolitions prepared and blown, minefields and dummy fields laid, bridge spans built.",
)


@dataclass(frozen=True)
class Entry:
    entry: str
    turn: int
    subject: str
    task: str = ""
    count: int | None = None
    modifiers: str = ""
    at: Where = Where()
    task_at: Where = Where()
    count_at: Where = Where()


@dataclass
class Work:
    kind: str  # demolition | task | field | dummy | bridge
    task: str = ""
    done: int = 0  # actions (or spans) done
    needed: int = 0
    prepared: bool = False
    complete: int = 0  # turn completed (0: not yet)
    blown: int = 0
    dud: int = 0
    per_turn: dict[int, int] = field(default_factory=dict)
    last_turn: int = 0


def chart_tasks() -> dict[str, dict]:
    chart = load_rulebook().chart(CHART)
    return {str(r["Task"]): dict(r) for r in chart.rows}


def turns_to_lay(actions: int, stands: int) -> int:
    """16: turns for ``stands`` working every turn to spend ``actions`` (9 actions: 9, 5 and 3 turns)."""
    return -(-actions // stands)


def parse(rows: list[SheetRow]) -> list[Entry]:
    return [Entry(r["Entry"], r["Turn"], str(r["Subject"]), str(r["Task"] or "").strip(), r["Count"],
                  str(r["Modifiers"] or ""), where(r, "Subject"), where(r, "Task"), where(r, "Count")) for r in rows]


def _succeeded(r: RollResult) -> bool:
    if "success" in r.effect:
        return bool(r.effect["success"])
    return r.result.strip().lower().startswith(SUCCESS_WORDS)


def track(entries: list[Entry], ctx: Context) -> TrackerOutput:
    st = ctx.settings
    tasks = chart_tasks()
    problems = Problems()
    lines: list[Line] = []
    works: dict[str, Work] = {}
    counts: dict[tuple[str, int, str], int] = {}
    for e in sorted(entries, key=lambda x: x.turn):
        w = works.get(e.subject)
        if e.turn < 1:
            problems.add(e.at, "the turn must be 1 or more")
            continue
        n = counts[(e.subject, e.turn, e.entry)] = counts.get((e.subject, e.turn, e.entry), 0) + 1
        if e.entry == "Prepare":
            task = tasks.get(e.task)
            if task is None:
                problems.add(e.task_at, f"{e.task!r} is not a task of {CHART}; valid: {'; '.join(tasks)}")
                continue
            if w is None or w.kind != "task" or w.task != e.task or w.complete:
                w = works[e.subject] = Work("task", e.task, needed=int(task["Actions"]))
            w.done += e.count or 1
            then = str(task["Then"])
            if w.done >= w.needed:
                w.complete = e.turn
                w.prepared = then.startswith("Demolition")
                text = (f"{w.done} of {w.needed} engineering action(s): " +
                        ("prepared; a demolition action blows it (14)" if w.prepared else
                         f"done; then: {then}" if then not in ("-", "") else "done"))
            else:
                text = f"{w.done} of {w.needed} engineering action(s) for: {e.task}"
            lines.append(Line("Prepare", str(task["Section"]).split(".")[0], text, e.subject, e.turn, None, ALL, e.at))
        elif e.entry == "Prepared":
            works[e.subject] = Work("demolition", "scenario", prepared=True)
            lines.append(Line("Prepared", "14", "prepared for demolition by the scenario", e.subject, e.turn, None, ALL,
                              e.at))
        elif e.entry in ("Demolition", "Remove demolition"):
            if w is None or not w.prepared:
                problems.add(e.at, f"{e.subject} is not a prepared demolition in turn {e.turn}; prepare it first (14)")
                continue
            if e.entry == "Remove demolition":
                w.prepared = False
                lines.append(Line("Removed", "14", "the prepared demolition is removed", e.subject, e.turn, None, ALL,
                                  e.at))
                continue
            r = roll_at(ctx.dice, e.at, DEMOLITION, ("engineering", e.subject, "demolition", f"T{e.turn}", n))
            w.prepared = False
            if r.effect.get("success"):
                w.blown = e.turn
                text = f"{r.result}: the demolition goes off"
            else:
                w.done, w.complete, w.dud = 0, 0, e.turn
                text = f"{r.result}: a dud; it must be prepared again before another attempt (14)"
            lines.append(Line("Demolition", "14", text, e.subject, e.turn, r, ALL, e.at))
        elif e.entry in ("Mine laying", "Dummy field"):
            _lay(e, w, works, st, lines, problems)
        elif e.entry == "Bridge":
            if not e.count or e.count < 1:
                problems.add(e.count_at, "a bridge needs the number of spans the scenario sets (Count, 1 or more)")
                continue
            works[e.subject] = Work("bridge", needed=e.count)
            lines.append(Line("Bridge", "23", f"{e.count} span(s) needed", e.subject, e.turn, None, ALL, e.at))
        elif e.entry == "Bridge span":
            _span(e, w, ctx, n, lines, problems)
    problems.raise_if_any()
    return TrackerOutput(tuple(lines), tuple(_status(works, st)))


def _lay(e: Entry, w: Work | None, works: dict[str, Work], st, lines: list[Line], problems: Problems) -> None:
    kind = "dummy" if e.entry == "Dummy field" else "field"
    needed = st.number(H + ("dummy_minefield_actions" if kind == "dummy" else "mine_laying_actions"))
    most = st.number(H + "mine_laying_max_stands")
    if kind == "field" and e.task.upper() not in ("AT", "AP"):
        problems.add(e.task_at, "a field laid in play is one type: AT or AP (16); lay a mixed field as two fields")
        return
    if w is None or w.complete:
        if w is not None and w.complete:
            problems.add(e.at, f"{e.subject} was finished in turn {w.complete}; name a new field")
            return
        w = works[e.subject] = Work(kind, e.task.upper(), needed=needed)
    if w.kind != kind or (kind == "field" and w.task != e.task.upper()):
        problems.add(e.at, f"{e.subject} is a {w.task or w.kind} field; only one type is laid at a time (16)")
        return
    stands = e.count or 1
    w.per_turn[e.turn] = w.per_turn.get(e.turn, 0) + stands
    if stands < 1 or w.per_turn[e.turn] > most:
        problems.add(e.count_at, f"{w.per_turn[e.turn]} stands on {e.subject} in turn {e.turn}; at most {most} "
                     "engineer stands work on one field (16)")
        return
    w.done += stands
    w.last_turn = e.turn
    what = "dummy field" if kind == "dummy" else f"scattered surface {w.task} field"
    if w.done >= w.needed:
        w.complete = e.turn
        text = f"{w.needed} of {w.needed} engineering actions: the {what} is laid"
    else:
        left = w.needed - w.done
        text = (f"{w.done} of {w.needed} engineering actions; {left} to go "
                f"(with {stands} stand(s) a turn: turn {e.turn + turns_to_lay(left, stands)})")
    lines.append(Line(e.entry, "16", text, e.subject, e.turn, None, ALL, e.at))


def _span(e: Entry, w: Work | None, ctx: Context, n: int, lines: list[Line], problems: Problems) -> None:
    if w is None or w.kind != "bridge":
        problems.add(e.at, f"{e.subject} is not a bridge; add a Bridge row with the spans needed first (23)")
        return
    if w.done >= w.needed:
        problems.add(e.at, f"{e.subject} is already built ({w.needed} span(s))")
        return
    if n > 1:
        problems.add(e.at, f"{e.subject} already has a span roll in turn {e.turn}")
        return
    table = ctx.dice.table(IMPROVE)
    try:
        situation = parse_modifiers(e.modifiers, table, table.default_column(), "umpire")
    except ModifierProblem as exc:
        problems.add(e.at, str(exc))
        return
    r = roll_at(ctx.dice, e.at, IMPROVE, ("engineering", e.subject, "span", f"T{e.turn}"), situation)
    if _succeeded(r):
        w.done += 1
        if w.done >= w.needed:
            w.complete = e.turn
        text = f"{r.result}: span {w.done} of {w.needed} in place" + ("; the bridge is built" if w.complete else "")
    else:
        text = f"{r.result}: no span this turn ({w.done} of {w.needed})"
    lines.append(Line("Bridge span", "23", text, e.subject, e.turn, r, ALL, e.at))


def _status(works: dict[str, Work], st) -> list[Line]:
    out = []
    for name, w in works.items():
        if w.kind in ("task", "demolition"):
            text = ("blown in turn " + str(w.blown) if w.blown else "prepared for demolition" if w.prepared
                    else f"done in turn {w.complete}" if w.complete
                    else f"a dud in turn {w.dud}: prepare it again" if w.dud and not w.done
                    else f"{w.done} of {w.needed} actions")
            rule = "14"
        elif w.kind == "bridge":
            text, rule = (f"built in turn {w.complete}" if w.complete else f"{w.done} of {w.needed} span(s)"), "23"
        else:
            what = "dummy field" if w.kind == "dummy" else f"{w.task} field"
            text = (f"{what} laid in turn {w.complete}" if w.complete else
                    f"{what}: {w.done} of {w.needed} engineering actions")
            rule = "16"
        out.append(Line("Status", rule, text, name, None, None, ALL))
    return out


def run(rows: list[SheetRow], ctx: Context) -> TrackerOutput:
    return track(parse(rows), ctx)


TRACKER = Tracker("engineering", KIND, "14-23", "Engineering", run, (DEMOLITION, IMPROVE),
                  tuple(H + n for n in ("mine_laying_actions", "mine_laying_max_stands", "dummy_minefield_actions")))

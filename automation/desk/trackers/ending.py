"""Variable game ending (BFTA 16.81-16.84).

Input sheet "Game ending", one row per scenario: the umpire-entered row of the
Scenario Game Ending Chart (16.84: the game turn from which the checks are
made, in columns Better, Even and Worse for the German player's experience
against the Allied player's, 16.82), the Experience used (default: the setting,
Even), and the Turn the game has reached. At the start of each game turn from
the chart's turn up to Turn, each player rolls one die; matching dice end the
scenario at once (16.81). The scenario's printed length is ignored and an
extended game brings no more reinforcements (16.83).
"""
from __future__ import annotations

from dataclasses import dataclass

from automation.desk.trackers.base import ALL, Context, Line, Problems, Tracker, TrackerOutput, Where, roll_at, where
from automation.workbook.reader import SheetRow
from automation.workbook.schema import Column, Kind, SheetKind, choice

TABLE = "bfta.game_ending_check"
EXPERIENCE = ("Better", "Even", "Worse")
S = "bfta."

KIND = SheetKind(
    "desk.ending", "Game ending",
    (Column("Scenario", Kind.INT_OR_TEXT, unique=True, width=18),
     *(Column(x, Kind.INT, required=False, width=8, note=f"16.84 chart: first turn checked when the German player's "
              f"experience is {x.lower()}") for x in EXPERIENCE),
     choice("Experience", EXPERIENCE, required=False, width=11, note="16.82 (default: Desk settings, Even)"),
     Column("Turn", Kind.INT, required=False, width=6, note="the game turn the scenario has reached"),
     Column("Notes", required=False, width=30)),
    tab="orders", rule="16.8",
    description="The Scenario Game Ending Chart (16.84) as the umpire enters it, and the turn each scenario being "
    "played has reached: the tracker makes the ending checks up to that turn.",
)


@dataclass(frozen=True)
class Scenario:
    name: str
    start: dict[str, int | None]
    experience: str | None = None
    turn: int | None = None
    at: Where = Where()
    start_at: dict[str, Where] | None = None


def parse(rows: list[SheetRow]) -> list[Scenario]:
    return [Scenario(str(r["Scenario"]), {x: r[x] for x in EXPERIENCE}, r["Experience"], r["Turn"],
                     where(r, "Scenario"), {x: where(r, x) for x in EXPERIENCE}) for r in rows]


def track(scenarios: list[Scenario], ctx: Context) -> TrackerOutput:
    problems = Problems()
    lines: list[Line] = []
    status: list[Line] = []
    default = ctx.settings.text(S + "default_experience") or "Even"
    for sc in scenarios:
        if sc.turn is None:
            continue
        experience = sc.experience or default
        if experience not in EXPERIENCE:
            problems.add(sc.at, f"experience {experience!r} (Desk settings) is not one of {', '.join(EXPERIENCE)}")
            continue
        first = sc.start.get(experience)
        if first is None:
            at = (sc.start_at or {}).get(experience, sc.at)
            problems.add(at, f"the Scenario Game Ending Chart (16.84) is not entered for {sc.name} ({experience}): "
                         "enter the turn the checks start from; the article does not print the chart")
            continue
        ended = None
        for turn in range(first, sc.turn + 1):
            r = roll_at(ctx.dice, sc.at, TABLE, ("ending", sc.name, f"T{turn}"))
            lines.append(Line("Ending check", "16.81", r.result, sc.name, turn, r, ALL, sc.at))
            if r.effect.get("ends"):
                ended = turn
                break
        if ended is not None:
            status.append(Line("Status", "16.81", f"the scenario ends at the start of turn {ended}: read the Victory "
                               "Conditions; if neither side meets them it is a draw", sc.name, ended, None, ALL, sc.at))
        elif sc.turn < first:
            status.append(Line("Status", "16.81", f"no ending check before turn {first} ({experience})", sc.name,
                               sc.turn, None, ALL, sc.at))
        else:
            status.append(Line("Status", "16.83", f"play on; next ending check at the start of turn {sc.turn + 1} "
                               "(the printed length is ignored; no reinforcements in the extension)", sc.name, sc.turn,
                               None, ALL, sc.at))
    problems.raise_if_any()
    return TrackerOutput(tuple(lines), tuple(status))


def run(rows: list[SheetRow], ctx: Context) -> TrackerOutput:
    return track(parse(rows), ctx)


TRACKER = Tracker("game-ending", KIND, "16.8", "Variable game ending", run, (TABLE,), (S + "default_experience",))

"""Operation Greif (BFTA 16.41-16.47): the German player's secret target hexes,
the American units they stop, the clearing rolls, and the brigade's removal.

Input sheet "Greif", one row per entry:
- ``Target``: a target hex (16.41), Priority Primary or Secondary (16.46
  variant), and with the 16.47 variant the Mechanized MP from hex 1125.
- ``Entered``: an American unit enters a target hex in game turn Turn.
- ``Supply phase``: the clearing attempt for a discovered hex in the Mutual
  Supply Determination Phase of game turn Turn (16.43), with Engineer (16.44
  +1) and Other unit (16.44 +2: a non-artillery, non-engineer unit other than
  the one stopped there on the turn the hex was first encountered).
"""
from __future__ import annotations

import math
from dataclasses import dataclass

from automation.desk.trackers.base import (
    ALL, UMPIRE, Context, Line, Problems, Tracker, TrackerOutput, Where, hex_number, roll_at, where, yes,
)
from automation.engine.resolver import Situation
from automation.workbook.reader import SheetRow
from automation.workbook.schema import YES_NO, Column, Kind, SheetKind, choice

ENTRIES = ("Target", "Entered", "Supply phase")
PRIMARY, SECONDARY = "Primary", "Secondary"
SECONDARY_TABLE = "bfta.greif_secondary_target"
CLEAR_TABLE = "bfta.greif_clearance"
S = "bfta."

KIND = SheetKind(
    "desk.greif", "Greif",
    (choice("Entry", ENTRIES, width=13), Column("Hex", Kind.INT_OR_TEXT, width=8),
     choice("Priority", (PRIMARY, SECONDARY), required=False, width=10),
     Column("MP", Kind.INT, required=False, width=6, note="16.47 variant: Mechanized MP from hex 1125 to the target"),
     Column("Turn", Kind.INT, required=False, width=6),
     choice("Engineer", YES_NO, required=False, width=9, note="16.44: an American engineer unit is in the hex"),
     choice("Other unit", YES_NO, required=False, width=9,
            note="16.44: a non-artillery, non-engineer unit is in the hex (not the one stopped there when it was found)"),
     Column("Notes", required=False, width=30)),
    tab="orders", rule="16.4",
    description="Operation Greif: the secret target list (Target rows), American units entering target hexes "
    "(Entered) and the clearing attempts each supply phase (Supply phase).",
)


@dataclass(frozen=True)
class Target:
    hex: str
    priority: str = PRIMARY
    mp: int | None = None
    at: Where = Where()


@dataclass(frozen=True)
class Event:
    entry: str  # Entered or Supply phase
    turn: int
    hex: str
    engineer: bool = False
    other_unit: bool = False
    at: Where = Where()


def activation_turn(mp: int, divisor: int = 8, rounding: str = "up") -> int:
    """16.47: MP / divisor, rounded, game turns must fully pass; the hex works
    from the start of the next turn (19 MP -> 3 turns -> turn 4)."""
    turns = math.ceil(mp / divisor) if rounding == "up" else math.floor(mp / divisor)
    return turns + 1


def parse(rows: list[SheetRow]) -> tuple[list[Target], list[Event]]:
    problems = Problems()
    targets: dict[str, Target] = {}
    events: list[Event] = []
    for r in rows:
        hex_ = hex_number(r["Hex"])
        if not hex_:
            problems.add(where(r, "Hex"), "is empty; every entry names a hex")
            continue
        if r["Entry"] == "Target":
            if hex_ in targets:
                problems.add(where(r, "Hex"), f"hex {hex_} is already a target at {targets[hex_].at}")
                continue
            targets[hex_] = Target(hex_, r["Priority"] or PRIMARY, r["MP"], where(r, "Hex"))
            continue
        if r["Turn"] is None or r["Turn"] < 1:
            problems.add(where(r, "Turn"), f"{r['Entry']} needs the game turn (1 or more)")
            continue
        events.append(Event(r["Entry"], r["Turn"], hex_, yes(r["Engineer"]), yes(r["Other unit"]), where(r, "Hex")))
    problems.raise_if_any()
    return list(targets.values()), events


def _check_list(targets: list[Target], ctx: Context, problems: Problems) -> dict[str, int]:
    """Validate the list against 16.41/16.46/16.47; the turn each hex works from."""
    st = ctx.settings
    variant = st.flag(S + "variant_greif_secondary_targets")
    delayed = st.flag(S + "variant_greif_delayed_activation")
    first = targets[0].at if targets else Where(KIND.title, "A2")
    primaries = [t for t in targets if t.priority == PRIMARY]
    secondaries = [t for t in targets if t.priority == SECONDARY]
    if secondaries and not variant:
        problems.add(secondaries[0].at, "secondary targets belong to the 16.46 variant; set 'Variant in use: primary "
                     "and secondary target hexes' to Yes in Desk settings, or make every target Primary")
    want_p = st.number(S + ("greif_variant_primary_targets" if variant else "greif_primary_targets"))
    want_s = st.number(S + "greif_variant_secondary_targets") if variant else 0
    if (len(primaries), len(secondaries)) != (want_p, want_s):
        rule = "16.46" if variant else "16.41"
        problems.add(first, f"the list holds {len(primaries)} primary and {len(secondaries)} secondary target hexes; "
                     f"{rule} wants {want_p} primary" + (f" and {want_s} secondary" if variant else ""))
    start: dict[str, int] = {}
    for t in targets:
        if delayed and t.mp is None:
            problems.add(t.at, f"hex {t.hex}: the 16.47 variant needs the MP from hex {st.text(S + 'greif_start_hex')} "
                         "in column MP")
        elif not delayed and t.mp is not None:
            problems.add(t.at, f"hex {t.hex}: MP counts only with the 16.47 variant; set 'Variant in use: target hexes "
                         "become operational only after the commandos' travel time' to Yes, or clear the MP")
        elif t.mp is not None and t.mp < 0:
            problems.add(t.at, f"hex {t.hex}: MP {t.mp} cannot be negative")
        start[t.hex] = activation_turn(t.mp, st.number(S + "greif_activation_mp_divisor"),
                                       st.text(S + "greif_activation_rounding")) if delayed and t.mp else 1
    return start


def track(targets: list[Target], events: list[Event], ctx: Context) -> TrackerOutput:
    problems = Problems()
    start = _check_list(targets, ctx, problems)
    problems.raise_if_any()
    removed_after = ctx.settings.number(S + "greif_removed_after_turn")
    by_hex = {t.hex: t for t in targets}
    state: dict[str, tuple[str, int]] = {}  # hex -> (discovered | crossed_off | cleared, turn)
    lines: list[Line] = []
    seen_clear: set[tuple[str, int]] = set()
    entries_in: dict[tuple[str, int], int] = {}
    order = sorted(events, key=lambda e: (e.turn, 0 if e.entry == "Supply phase" else 1))
    for e in order:
        target = by_hex.get(e.hex)
        if target is None:
            problems.add(e.at, f"hex {e.hex} is not on the target list; list it as a Target row first")
            continue
        status, since = state.get(e.hex, ("secret", 0))
        if e.entry == "Supply phase":
            if status == "secret":
                problems.add(e.at, f"hex {e.hex} has not been found before turn {e.turn}'s supply phase; clearing "
                             "starts in the turn after an American unit is stopped there (16.43)")
                continue
            if status != "discovered":
                problems.add(e.at, f"hex {e.hex} is {status.replace('_', ' ')} already; only a discovered hex is "
                             "cleared (16.43)")
                continue
            if e.turn <= since:
                problems.add(e.at, f"hex {e.hex} was found in turn {since}; clearing starts in turn {since + 1} (16.43)")
                continue
            if (e.hex, e.turn) in seen_clear:
                problems.add(e.at, f"hex {e.hex} already has its clearing roll for turn {e.turn}")
                continue
            seen_clear.add((e.hex, e.turn))
            facts = {c for c, on in (("engineer_present", e.engineer), ("combat_unit_present", e.other_unit)) if on}
            r = roll_at(ctx.dice, e.at, CLEAR_TABLE, ("greif", e.hex, "clear", f"T{e.turn}"), Situation(frozenset(facts)))
            lines.append(Line("Clearing roll", "16.43", r.result, e.hex, e.turn, r, ALL, e.at))
            if r.effect.get("cleared"):
                state[e.hex] = ("cleared", e.turn)
            continue
        n = entries_in[(e.hex, e.turn)] = entries_in.get((e.hex, e.turn), 0) + 1
        if status == "discovered":
            lines.append(Line("Entered", "16.42", "blocked hex: the unit stops", e.hex, e.turn, None, ALL, e.at))
        elif status in ("cleared", "crossed_off"):
            lines.append(Line("Entered", "16.43", "a normal hex again: no effect", e.hex, e.turn, None, ALL, e.at))
        elif e.turn > removed_after:
            lines.append(Line("Entered", "16.45", f"the commandos left play after turn {removed_after}: no effect",
                              e.hex, e.turn, None, UMPIRE, e.at))
        elif e.turn < start[e.hex]:
            lines.append(Line("Entered", "16.47", f"not operational before turn {start[e.hex]}: not revealed, no roll",
                              e.hex, e.turn, None, UMPIRE, e.at))
        elif target.priority == PRIMARY:
            state[e.hex] = ("discovered", e.turn)
            lines.append(Line("Entered", "16.41", "primary target: the unit stops; no supply line through the hex "
                              "until it is cleared", e.hex, e.turn, None, ALL, e.at))
        else:
            r = roll_at(ctx.dice, e.at, SECONDARY_TABLE, ("greif", e.hex, "entry", f"T{e.turn}", n))
            state[e.hex] = ("discovered" if r.effect.get("stopped") else "crossed_off", e.turn)
            lines.append(Line("Secondary target", "16.46", r.result, e.hex, e.turn, r, ALL, e.at))
    problems.raise_if_any()
    last = max((e.turn for e in events), default=0)
    return TrackerOutput(tuple(lines), tuple(_status(targets, state, start, seen_clear, last, removed_after)))


def _status(targets: list[Target], state: dict[str, tuple[str, int]], start: dict[str, int],
            cleared_rolls: set[tuple[str, int]], last: int, removed_after: int) -> list[Line]:
    out: list[Line] = []
    for t in targets:
        status, turn = state.get(t.hex, ("secret", 0))
        if status == "secret":
            text = (f"secret {t.priority.lower()} target, " +
                    (f"lapsed: the commandos left play after turn {removed_after}" if last > removed_after
                     else f"operational from turn {start[t.hex]}"))
            out.append(Line("Status", "16.41", text, t.hex, None, None, UMPIRE, t.at))
            continue
        text = {"discovered": f"discovered in turn {turn}: units entering stop, no supply line through it (16.42)",
                "crossed_off": f"crossed off in turn {turn} (16.46)",
                "cleared": f"cleared in turn {turn} (16.43)"}[status]
        out.append(Line("Status", "16.4", text, t.hex, None, None, ALL, t.at))
        if status == "discovered":
            for due in range(turn + 1, last + 1):
                if (t.hex, due) not in cleared_rolls:
                    out.append(Line("Status", "16.43", f"due: clearing roll in the supply phase of turn {due} "
                                    "(add a Supply phase row)", t.hex, due, None, ALL, t.at))
    if last > removed_after:
        out.append(Line("Status", "16.45", f"the Skorzeny/150th Panzer Brigade left play after turn {removed_after}",
                        "150 Pz Bde", removed_after, None, ALL))
    return out


def run(rows: list[SheetRow], ctx: Context) -> TrackerOutput:
    targets, events = parse(rows)
    return track(targets, events, ctx)


TRACKER = Tracker("greif", KIND, "16.4", "Operation Greif", run, (SECONDARY_TABLE, CLEAR_TABLE),
                  tuple(S + n for n in ("greif_primary_targets", "greif_removed_after_turn",
                                        "variant_greif_secondary_targets", "greif_variant_primary_targets",
                                        "greif_variant_secondary_targets", "variant_greif_delayed_activation",
                                        "greif_start_hex", "greif_activation_mp_divisor", "greif_activation_rounding")))

"""Campaign dice statistics: per side, how often each table gave each result
over the whole campaign, against the exact expectation (the sum, over the
rolls, of each result's probability at the DRM that roll had, from
:func:`automation.engine.resolver.odds`), and how often each face of each die
came up. Read from the reports' roll rows, so any rule system's reports work.
"""
from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import Any

from automation.engine.resolver import Situation, odds, resolve
from automation.engine.tables import RuleSystem, Table, TableKind
from automation.errors import UsageError
from automation.pbem.reports import ALL, STATS_STEP, UMPIRE, RollRow, as_int, parse_dice
from automation.render import percent


@dataclass(frozen=True)
class ResultCount:
    result: str
    observed: int
    expected: Fraction

    @property
    def share(self) -> Fraction:
        return self.expected


@dataclass(frozen=True)
class TableStats:
    side: str
    table_id: str
    title: str
    rule: str
    column: str
    rolls: int
    results: tuple[ResultCount, ...]


@dataclass(frozen=True)
class DieStats:
    side: str
    die: int  # faces
    faces: tuple[int, ...]  # how often 1..die came up

    @property
    def rolls(self) -> int:
        return sum(self.faces)


@dataclass
class CampaignStats:
    tables: list[TableStats] = field(default_factory=list)
    dice: list[DieStats] = field(default_factory=list)
    unreadable: list[str] = field(default_factory=list)  # Sheet!Cell of rolls left out

    def sides(self) -> list[str]:
        seen: list[str] = []
        for s in [t.side for t in self.tables] + [d.side for d in self.dice]:
            if s not in seen:
                seen.append(s)
        return seen


def die_faces(dice_text: str) -> tuple[int, list[int]] | None:
    """'d10: 7' -> (10, [7]); 'd100: 94' -> (10, [9, 4]) (0 reads 10); '2d6: 3+4' -> (6, [3, 4])."""
    parsed = parse_dice(dice_text)
    faces = {"d6": 6, "2d6": 6, "d10": 10, "d100": 10}.get(parsed[0]) if parsed else None
    if parsed is None or faces is None or not all(1 <= v <= faces for v in parsed[1]):
        return None
    return faces, list(parsed[1])


def table_result(table: Table, column: str, dice_text: str, drm: int) -> str | None:
    """The table's result for the dice a report shows at that DRM (for reports
    that do not carry the table's result text)."""
    parsed = parse_dice(dice_text)
    if parsed is None or parsed[0] != table.dice.value:
        return None
    try:
        return resolve(replace(table, modifiers=()), parsed[1], Situation.with_drm(drm), column=column).result
    except UsageError:
        return None


def collect(rolls: Iterable[RollRow], system: RuleSystem) -> CampaignStats:
    """Tally every roll by side (the roll's Side; side-less rolls are the umpire's)."""
    groups: dict[tuple[str, str, str], list[tuple[str, dict[str, Fraction]]]] = {}
    faces: dict[tuple[str, int], list[int]] = {}
    known: dict[tuple[str, str, int], dict[str, Fraction]] = {}  # exact odds, once per table, column and DRM
    out = CampaignStats()
    for r in rolls:
        side = r.side if r.visible_to in (ALL, r.side) else UMPIRE
        table = system.tables.get(r.table_id)
        drm = as_int(r.drm)
        if table is None or drm is None or table.kind is TableKind.OPPOSED:
            out.unreadable.append(f"{r.sheet}!A{r.row}")
            continue
        column = r.column or table.default_column()
        if column not in table.columns:
            out.unreadable.append(f"{r.sheet}!A{r.row}")
            continue
        chances = known.get((table.id, column, drm))
        if chances is None:
            chances = known[(table.id, column, drm)] = {o.result: o.probability for o in odds(table, column, drm)}
        observed = r.result if r.result is not None else table_result(table, column, r.dice, drm) or r.result_text
        groups.setdefault((side, table.id, column), []).append((observed, chances))
        thrown = die_faces(r.dice)
        if thrown:
            counts = faces.setdefault((side, thrown[0]), [0] * thrown[0])
            for v in thrown[1]:
                counts[v - 1] += 1
    for (side, table_id, column), items in groups.items():
        table = system.tables[table_id]
        order: list[str] = []
        for _, chances in items:
            order += [res for res in chances if res not in order]
        for observed, _ in items:
            if observed not in order:
                order.append(observed)
        results = tuple(ResultCount(res, sum(1 for o, _ in items if o == res),
                                    sum((c.get(res, Fraction(0)) for _, c in items), Fraction(0))) for res in order)
        out.tables.append(TableStats(side, table_id, table.title, table.source, column, len(items), results))
    for (side, die), counts in faces.items():
        out.dice.append(DieStats(side, die, tuple(counts)))
    return out


def result_text(rc: ResultCount, rolls: int) -> str:
    seen = percent(Fraction(rc.observed, rolls)) if rolls else "-"
    share = percent(rc.expected / rolls) if rolls else "-"
    return f"{rc.result}: {rc.observed} of {rolls} ({seen}); expected {float(rc.expected):.2f} ({share})"


def dice_text(d: DieStats) -> str:
    each = Fraction(d.rolls, d.die)
    counts = ", ".join(f"{face}: {n}" for face, n in enumerate(d.faces, start=1))
    return f"faces {counts} ({d.rolls} dice; each face expected {float(each):.2f})"


def report_rows(stats: CampaignStats, header: Sequence[str]) -> list[list[Any]]:
    """The statistics as rows of a report with ``header``'s columns; each side's
    rows are visible to that side only (its rolls are its secret)."""
    pos = {h: i for i, h in enumerate(header)}

    def row(values: dict[str, Any]) -> list[Any]:
        out: list[Any] = [None] * len(header)
        for column, value in values.items():
            if column in pos:
                out[pos[column]] = value
        return out

    rows: list[list[Any]] = []
    for t in sorted(stats.tables, key=lambda t: (t.side, t.table_id, t.column)):
        for rc in t.results:
            rows.append(row({"Step": STATS_STEP, "Rule": t.rule, "Side": None if t.side == UMPIRE else t.side,
                             "Subject": f"{t.table_id} ({t.column})", "Table": f"{t.table_id} ({t.rule})",
                             "Result": result_text(rc, t.rolls), "Odds": percent(rc.expected / t.rolls),
                             "Visible to": t.side}))
    for d in sorted(stats.dice, key=lambda d: (d.side, d.die)):
        rows.append(row({"Step": STATS_STEP, "Rule": "-", "Side": None if d.side == UMPIRE else d.side,
                         "Subject": f"d{d.die} faces", "Result": dice_text(d), "Visible to": d.side}))
    return rows


def as_json(stats: CampaignStats) -> dict[str, Any]:
    sides: dict[str, Any] = {}
    for side in stats.sides():
        sides[side] = {
            "tables": [
                {"table": t.table_id, "title": t.title, "rule": t.rule, "column": t.column, "rolls": t.rolls,
                 "results": [{"result": rc.result, "observed": rc.observed, "expected": float(rc.expected),
                              "expected_fraction": str(rc.expected),
                              "observed_share": rc.observed / t.rolls, "expected_share": float(rc.expected / t.rolls)}
                             for rc in t.results]}
                for t in stats.tables if t.side == side],
            "dice": [{"die": f"d{d.die}", "dice": d.rolls, "faces": {str(i + 1): n for i, n in enumerate(d.faces)},
                      "expected_each": d.rolls / d.die} for d in stats.dice if d.side == side],
        }
    return {"sides": sides, "left_out": stats.unreadable}


def text(stats: CampaignStats) -> str:
    lines = []
    for side in stats.sides():
        lines.append(f"{side}:")
        for t in (t for t in stats.tables if t.side == side):
            lines.append(f"  {t.title} ({t.table_id}, {t.rule}), column {t.column}: {t.rolls} roll(s)")
            lines += [f"    {result_text(rc, t.rolls)}" for rc in t.results]
        for d in (d for d in stats.dice if d.side == side):
            lines.append(f"  d{d.die} {dice_text(d)}")
    if stats.unreadable:
        lines.append(f"left out (unreadable table, column or DRM): {', '.join(stats.unreadable)}")
    return "\n".join(lines) or "no rolls yet"

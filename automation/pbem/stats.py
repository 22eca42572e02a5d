"""Campaign dice statistics: per side, how often each table gave each result
over the whole campaign, against the exact expectation (the sum, over the
rolls, of each result's probability at the DRM that roll had, from
:func:`automation.engine.resolver.odds`), and how often each face of each die
came up. Read from the reports' roll rows, so any rule system's reports work.

The totals are carried from report to report: the "Dice statistics" section of
the report that completes a date holds every tally exactly (counts as whole
numbers, expectations as fractions such as ``7/12``), so the next refit reads
that one section back (:meth:`Tally.carried`), adds its own rolls
(:meth:`Tally.add`) and writes the new totals, whatever the campaign's length.
``musterroll verify --key`` recounts every roll and checks each carried total
(:func:`check_section`).
"""
from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import Any

from automation.engine.resolver import Situation, odds, resolve
from automation.engine.tables import RuleSystem, Table, TableKind
from automation.errors import CellProblem, UsageError
from automation.pbem.reports import ALL, STATS_STEP, UMPIRE, Header, RollRow, as_int, chain_start, norm, parse_dice
from automation.render import percent

# "+10: 2 of 5 (40.00%); expected 0.40 (8.00%), exactly 2/5" -- the result is whatever comes before
REPORT_RESULT = re.compile(r"(?P<result>.*): (?P<observed>\d+) of (?P<rolls>\d+) \([^()]*\); "
                           r"expected [-0-9.]+ \([^()]*\), exactly (?P<expected>\d+(?:/\d+)?)\Z", re.S)
# "faces 1: 2, 2: 0, ... (11 dice; each face expected 1.10)"
REPORT_FACES = re.compile(r"faces (?P<counts>\d+: \d+(?:, \d+: \d+)*) \((?P<dice>\d+) di(?:ce|e); [^()]*\)\Z")
FACES_SUBJECT = re.compile(r"d(?P<die>\d+) faces\Z")


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
    physical: list[str] = field(default_factory=list)  # dice rolled at the table and entered by hand (never counted above)

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


# ------------------------------------------------------------------ the running totals

@dataclass
class _Group:
    """One side's rolls on one table column: counts and exact expectations."""

    title: str
    rule: str
    rolls: int = 0
    expected: dict[str, Fraction] = field(default_factory=dict)  # results some roll's odds listed, first seen first
    observed: dict[str, int] = field(default_factory=dict)
    extra: list[str] = field(default_factory=list)  # results observed that no roll's odds listed (yet)

    def order(self) -> list[str]:
        return list(self.expected) + [r for r in self.extra if r not in self.expected]


class Tally:
    """Running dice statistics: start empty (or from a report's carried
    section), :meth:`add` rolls, read :meth:`stats`. Adding the same rolls in
    any number of steps gives the same totals, in the same order, as adding
    them at once."""

    def __init__(self) -> None:
        self.groups: dict[tuple[str, str, str], _Group] = {}
        self.faces: dict[tuple[str, int], list[int]] = {}
        self.unreadable: list[str] = []
        self._odds: dict[tuple[str, str, int], dict[str, Fraction]] = {}  # once per table, column and DRM
        self._results: dict[tuple[str, str, str, int], str | None] = {}

    def _chances(self, table: Table, column: str, drm: int) -> dict[str, Fraction]:
        found = self._odds.get((table.id, column, drm))
        if found is None:
            found = self._odds[(table.id, column, drm)] = {o.result: o.probability for o in odds(table, column, drm)}
        return found

    def _result(self, table: Table, column: str, dice: str, drm: int) -> str | None:
        at = (table.id, column, dice, drm)
        if at not in self._results:
            self._results[at] = table_result(table, column, dice, drm)
        return self._results[at]

    def add(self, rolls: Iterable[RollRow], system: RuleSystem) -> Tally:
        """Count each roll for its side (the roll's Side; side-less rolls, and
        rolls kept from their side, are the umpire's)."""
        for r in rolls:
            side = r.side if r.visible_to in (ALL, r.side) else UMPIRE
            table = system.tables.get(r.table_id)
            drm = as_int(r.drm)
            readable = table is not None and drm is not None and table.kind is not TableKind.OPPOSED
            column = (r.column or table.default_column()) if readable and table is not None else ""
            if table is None or drm is None or not readable or column not in table.columns:
                self.unreadable.append(f"{r.sheet}!A{r.row}")
                continue
            chances = self._chances(table, column, drm)
            observed = r.result if r.result is not None else self._result(table, column, r.dice, drm) or r.result_text
            group = self.groups.get((side, table.id, column))
            if group is None:
                group = self.groups[(side, table.id, column)] = _Group(table.title, table.source)
            group.rolls += 1
            for result, p in chances.items():
                group.expected[result] = group.expected.get(result, Fraction(0)) + p
            group.observed[observed] = group.observed.get(observed, 0) + 1
            if observed not in group.expected and observed not in group.extra:
                group.extra.append(observed)
            thrown = die_faces(r.dice)
            if thrown:
                counts = self.faces.setdefault((side, thrown[0]), [0] * thrown[0])
                for v in thrown[1]:
                    counts[v - 1] += 1
        return self

    def stats(self) -> CampaignStats:
        """The totals so far, by side, table and column (and by side and die)."""
        out = CampaignStats(unreadable=list(self.unreadable))
        for (side, table_id, column), g in sorted(self.groups.items(), key=lambda kv: kv[0]):
            results = tuple(ResultCount(res, g.observed.get(res, 0), g.expected.get(res, Fraction(0)))
                            for res in g.order())
            out.tables.append(TableStats(side, table_id, g.title, g.rule, column, g.rolls, results))
        for (side, die), counts in sorted(self.faces.items()):
            out.dice.append(DieStats(side, die, tuple(counts)))
        return out

    @classmethod
    def carried(cls, rows: Sequence[Sequence[Any]], system: RuleSystem) -> Tally | None:
        """The totals a report's "Dice statistics" section carries, or None when
        the report has no such section or a row of it cannot be read exactly."""
        if not rows:
            return None
        h = Header.of(rows[0])
        out = cls()
        found = False
        for row in rows[1:chain_start(h, rows)]:
            if h.get(row, "Step") != STATS_STEP:
                continue
            found = True
            if not out._take(h, row, system):
                return None
        return out if found else None

    def _take(self, h: Header, row: Sequence[Any], system: RuleSystem) -> bool:
        side, subject, text = (norm(h.get(row, c)) for c in ("Visible to", "Subject", "Result"))
        faces = FACES_SUBJECT.match(subject)
        if faces:
            counts = read_faces(text, int(faces.group("die")))
            if counts is None or (side, len(counts)) in self.faces:
                return False
            self.faces[(side, len(counts))] = counts
            return True
        tally, key = REPORT_RESULT.match(text), table_key(h, row)
        if tally is None or key is None:
            return False
        table = system.tables.get(key[0])
        group = self.groups.get((side, *key))
        if group is None:
            group = self.groups[(side, *key)] = _Group(table.title if table else key[0], norm(h.get(row, "Rule")),
                                                       int(tally.group("rolls")))
        result, expected = tally.group("result"), Fraction(tally.group("expected"))
        if group.rolls != int(tally.group("rolls")) or result in group.observed:
            return False
        group.observed[result] = int(tally.group("observed"))
        if expected:
            group.expected[result] = expected
        else:
            group.extra.append(result)
        return True


def table_key(h: Header, row: Sequence[Any]) -> tuple[str, str] | None:
    """(table id, column) of a statistics row: its Table reads 'id (rule)', its Subject 'id (column)'."""
    table_id = norm(h.get(row, "Table")).split(" (")[0].strip()
    subject = norm(h.get(row, "Subject"))
    if not table_id or not subject.startswith(f"{table_id} (") or not subject.endswith(")"):
        return None
    return table_id, subject[len(table_id) + 2:-1]


def read_faces(text: str, die: int) -> list[int] | None:
    m = REPORT_FACES.match(text)
    if m is None:
        return None
    pairs = [p.split(": ") for p in m.group("counts").split(", ")]
    counts = [int(n) for _, n in pairs]
    if [int(f) for f, _ in pairs] != list(range(1, die + 1)) or sum(counts) != int(m.group("dice")):
        return None
    return counts


def collect(rolls: Iterable[RollRow], system: RuleSystem) -> CampaignStats:
    """Tally every roll by side (the roll's Side; side-less rolls are the umpire's)."""
    return Tally().add(rolls, system).stats()


# ------------------------------------------------------------------ as text and rows

def result_text(rc: ResultCount, rolls: int) -> str:
    seen = percent(Fraction(rc.observed, rolls)) if rolls else "-"
    share = percent(rc.expected / rolls) if rolls else "-"
    return f"{rc.result}: {rc.observed} of {rolls} ({seen}); expected {float(rc.expected):.2f} ({share})"


def report_result_text(rc: ResultCount, rolls: int) -> str:
    """:func:`result_text` with the exact expectation, which the next refit carries on."""
    return f"{result_text(rc, rolls)}, exactly {rc.expected}"


def dice_text(d: DieStats) -> str:
    each = Fraction(d.rolls, d.die)
    counts = ", ".join(f"{face}: {n}" for face, n in enumerate(d.faces, start=1))
    return f"faces {counts} ({d.rolls} {'die' if d.rolls == 1 else 'dice'}; each face expected {float(each):.2f})"


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
                             "Result": report_result_text(rc, t.rolls), "Odds": percent(rc.expected / t.rolls),
                             "Visible to": t.side}))
    for d in sorted(stats.dice, key=lambda d: (d.side, d.die)):
        rows.append(row({"Step": STATS_STEP, "Rule": "-", "Side": None if d.side == UMPIRE else d.side,
                         "Subject": f"d{d.die} faces", "Result": dice_text(d), "Visible to": d.side}))
    return rows


# ------------------------------------------------------------------ checking a carried section

def _row_key(h: Header, row: Sequence[Any]) -> tuple[str, str, str]:
    text = norm(h.get(row, "Result"))
    tally = REPORT_RESULT.match(text)
    return norm(h.get(row, "Visible to")), norm(h.get(row, "Subject")), tally.group("result") if tally else ""


def check_section(sheet: str, rows: Sequence[Sequence[Any]], recount: CampaignStats) -> list[CellProblem]:
    """Each row of ``sheet``'s "Dice statistics" section against ``recount`` (the
    statistics of every roll of the campaign up to and including this report):
    a changed, added or missing total is named by its cell."""
    from automation.workbook.reader import cell_ref

    h = Header.of(rows[0])
    end = chain_start(h, rows)
    want = {_row_key(h, r): r for r in report_rows(recount, [str(c) if c is not None else "" for c in rows[0]])}
    seen: dict[tuple[str, str, str], int] = {}  # the tallies found, at their row
    out: list[CellProblem] = []
    last = 0
    for i, row in enumerate(rows[1:end], start=2):
        if h.get(row, "Step") != STATS_STEP:
            continue
        last = i
        key, text = _row_key(h, row), norm(h.get(row, "Result"))
        if key in seen or key not in want:
            why = "repeats a tally above it" if key in seen else "is a tally that no roll of the campaign gives"
            out.append(CellProblem(sheet, h.cell("Result", i), f"the dice statistics show {text!r}, which {why}"))
            continue
        seen[key] = i
        given, wanted = [norm(v) for v in row], [norm(v) for v in want[key]]
        width = max(len(given), len(wanted))
        given, wanted = given + [""] * (width - len(given)), wanted + [""] * (width - len(wanted))
        for j in (j for j in range(width) if given[j] != wanted[j]):
            out.append(CellProblem(sheet, cell_ref(j, i), f"the dice statistics show {given[j] or 'nothing'!r} but a "
                                                          f"recount of the campaign's rolls gives {wanted[j]!r}"))
            break
    order = list(want)
    for n, key in enumerate(order):
        if key in seen:
            continue
        side, subject, result = key
        what = f"{subject} {result}".strip()
        at = next((seen[k] for k in order[n + 1:] if k in seen), (last or end) + 1)  # where the row belongs
        out.append(CellProblem(sheet, h.cell("Result", at),
                               f"the dice statistics lack the {what} of {side}: a recount of the campaign's rolls gives "
                               f"{norm(want[key][h.positions.get('Result', 0)])!r}"))
    return out


# ------------------------------------------------------------------ the stats command

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
    return {"sides": sides, "left_out": stats.unreadable, "physical_dice": stats.physical}


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
    if stats.physical:
        lines.append(f"physical dice entered by hand (not derived from the key, not in the counts above): "
                     f"{len(stats.physical)}")
        lines += [f"  {p}" for p in stats.physical]
    return "\n".join(lines) or "no rolls yet"

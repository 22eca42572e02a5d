"""The inputs a refit reads that are not dated sheets (Campaign, Sides, Lists,
Dates, Historical DRM, the charts, Tables, Modifiers, the desk's settings and
tables...), sealed into the chain as they stood at each refit.

The first report of each refit batch records, for every input sheet:

* ``input: NAME`` -- the digest of the sheet's values;
* ``input tags: NAME`` -- a short tag per row;
* ``input row: NAME!N`` -- the values of row N, as JSON, for every row whose
  tag differs from the last record (the first record holds every row).

So the chain holds each input sheet's whole content at every refit, and a
change made between two refits is in the open: ``verify`` rebuilds every
input sheet as each refit read it, lists each change (sheet, cell, the refit
it took effect at, old and new value), names any edit made after the last
refit, and gives replay the inputs each refit really read.
"""
from __future__ import annotations

import datetime as dt
import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from automation.errors import CellProblem
from automation.pbem.reports import canonical, norm, row_tags, sheet_digest, sheet_kinds

INPUT = "input"
INPUT_TAGS = "input tags"
INPUT_ROW = "input row"
KINDS = (INPUT, INPUT_TAGS, INPUT_ROW)
TAGS_PER_CELL = 3000


def input_sheets(names: Sequence[str]) -> list[str]:
    """The sheets among ``names`` that a refit or the desk reads as settings,
    charts or tables (every sheet of the contract that is not dated)."""
    from automation.workbook.desk_sheets import DESK_MODIFIERS, DESK_SETTINGS, DESK_TABLES

    static = {k.title for k in sheet_kinds() if not k.dated}
    static |= {DESK_SETTINGS.title, DESK_TABLES.title, DESK_MODIFIERS.title}
    return [n for n in names if n in static]


def _cell(v: Any) -> Any:
    if v is None or v == "":
        return None
    if isinstance(v, (bool, int, float, str)):
        return v
    if isinstance(v, dt.datetime):
        return {"datetime": v.isoformat()}
    if isinstance(v, dt.date):
        return {"date": v.isoformat()}
    return {"text": norm(v)}


def _value(v: Any) -> Any:
    if isinstance(v, dict):
        if "datetime" in v:
            return dt.datetime.fromisoformat(v["datetime"])
        if "date" in v:
            return dt.date.fromisoformat(v["date"])
        return str(v.get("text", ""))
    return v


def encode_row(row: Sequence[Any]) -> str:
    cells = [_cell(v) for v in row]
    while cells and cells[-1] is None:
        cells.pop()
    return json.dumps(cells, ensure_ascii=False, separators=(",", ":"))


def decode_row(text: str) -> list[Any] | None:
    try:
        cells = json.loads(text)
    except ValueError:
        return None
    if not isinstance(cells, list):
        return None
    return [_value(v) for v in cells]


def record_rows(book: Any, last: dict[str, list[str]], read: Sequence[str] | None = None) -> list[tuple[str, str, str]]:
    """(kind, target, value) rows recording every input sheet of ``book`` (of
    those in ``read``, when given);
    rows whose tag is in ``last`` (the previous record's tags) at the same
    place are not repeated."""
    out: list[tuple[str, str, str]] = []
    for name in input_sheets(book.sheet_names):
        if read is not None and name not in read:
            continue
        raw = book.raw(name)
        rows = canonical(raw)
        tags = row_tags(name, rows)
        out.append((INPUT, name, sheet_digest(name, rows)))
        for i in range(0, max(len(tags), 1), TAGS_PER_CELL):
            out.append((INPUT_TAGS, name, " ".join(tags[i:i + TAGS_PER_CELL])))
        before = last.get(name, [])
        for i, tag in enumerate(tags):
            if i >= len(before) or before[i] != tag:
                out.append((INPUT_ROW, f"{name}!{i + 1}", encode_row(raw[i])))
    return out


def recorded_tags(links: Sequence[Any]) -> dict[str, list[str]]:
    """Input sheet -> its row tags, as a report's links record them."""
    out: dict[str, list[str]] = {}
    for ln in links:
        if ln.kind == INPUT_TAGS:
            out.setdefault(ln.target, []).extend(ln.value.split())
    return out


@dataclass(frozen=True)
class Change:
    """A cell of an input sheet that changed, in the open, at a refit."""

    sheet: str
    cell: str
    report: str
    old: str
    new: str

    def __str__(self) -> str:
        return (f"{self.sheet}!{self.cell} changed at {self.report}: {self.old or '(empty)'!r} -> "
                f"{self.new or '(empty)'!r}")


def cell_changes(sheet: str, old: Sequence[Sequence[Any]], new: Sequence[Sequence[Any]], report: str) -> list[Change]:
    from automation.workbook.reader import cell_ref

    a, b = canonical(old), canonical(new)
    out = []
    for i in range(max(len(a), len(b))):
        ra = a[i] if i < len(a) else []
        rb = b[i] if i < len(b) else []
        for j in range(max(len(ra), len(rb))):
            va = ra[j] if j < len(ra) else ""
            vb = rb[j] if j < len(rb) else ""
            if va != vb:
                out.append(Change(sheet, cell_ref(j, i + 1), report, va, vb))
    return out


@dataclass
class Inputs:
    """The input sheets as the chain has recorded them so far (walked in
    report order), with every change seen between two records."""

    state: dict[str, list[list[Any]]] = field(default_factory=dict)
    sealed_by: dict[str, str] = field(default_factory=dict)
    changes: list[Change] = field(default_factory=list)
    digests: dict[str, str] = field(default_factory=dict)

    def apply(self, report: str, links: Sequence[Any], where: Any) -> list[CellProblem]:
        """Take the record of ``report`` (its links); problems if the record
        does not rebuild to its own digests."""
        digests = {ln.target: ln for ln in links if ln.kind == INPUT}
        if not digests:
            return []
        tags = recorded_tags(links)
        rows_given: dict[str, dict[int, Any]] = {}
        problems = []
        for ln in links:
            if ln.kind != INPUT_ROW:
                continue
            name, _, n = ln.target.rpartition("!")
            row = decode_row(ln.value)
            if row is None or not n.isdigit():
                problems.append(CellProblem(report, where(ln), f"the recorded row of {ln.target!r} is not readable"))
                continue
            rows_given.setdefault(name, {})[int(n) - 1] = (row, ln)
        for name, link in digests.items():
            before = self.state.get(name)
            if name not in rows_given and self.digests.get(name) == link.value and before is not None \
                    and len(before) == len(tags.get(name, [])):
                self.sealed_by[name] = report  # recorded again as it was: nothing to rebuild
                continue
            rows = [list(r) for r in (before or [])][:len(tags.get(name, []))]
            rows += [[] for _ in range(len(tags.get(name, [])) - len(rows))]
            for i, (row, _) in rows_given.get(name, {}).items():
                if i < len(rows):
                    rows[i] = row
            if sheet_digest(name, canonical(rows)) != link.value:
                problems.append(CellProblem(report, where(link), f"the recorded content of {name!r} does not add up "
                                                                 "to its digest: the record was edited"))
                continue
            if before is not None:
                self.changes += cell_changes(name, before, rows, report)
            self.state[name] = rows
            self.sealed_by[name] = report
            self.digests[name] = link.value
        return problems

    def edited_since(self, book: Any) -> list[CellProblem]:
        """Input sheets edited (or removed) after the last refit that sealed them."""
        out = []
        for name, rows in self.state.items():
            sealer = self.sealed_by[name]
            if not book.has(name):
                out.append(CellProblem(name, "A1", f"was sealed by {sealer} but is no longer in the workbook (removed)"))
                continue
            for c in cell_changes(name, rows, book.raw(name), sealer)[:20]:
                out.append(CellProblem(name, c.cell, f"edited after {sealer} sealed it (then {c.old or '(empty)'!r}, "
                                                     f"now {c.new or '(empty)'!r}); a change of a rule or setting "
                                                     "takes effect, in the open, when the next refit seals it"))
        return out

    def snapshot(self) -> dict[str, list[list[Any]]]:
        return dict(self.state)

    def to_json(self) -> dict[str, Any]:
        """What :meth:`from_json` takes back as it was (a date stays a date)."""
        def cell(v: Any) -> Any:
            return v if v is None or isinstance(v, (bool, int, float, str)) else _cell(v)
        return {"state": {n: [[cell(v) for v in r] for r in rows] for n, rows in self.state.items()},
                "sealed_by": dict(self.sealed_by), "digests": dict(self.digests),
                "changes": [[c.sheet, c.cell, c.report, c.old, c.new] for c in self.changes]}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Inputs:
        return cls({str(n): [[_value(v) for v in r] for r in rows] for n, rows in data["state"].items()},
                   {str(k): str(v) for k, v in data["sealed_by"].items()},
                   [Change(*(str(x) for x in c)) for c in data["changes"]],
                   {str(k): str(v) for k, v in data["digests"].items()})

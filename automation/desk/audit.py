"""The audit trail of a desk roll, written the way the refit report writes it
(automation.workbook.bf_output.report_row): the dice, each modifier with its
name, value and rule, the DRM, the final number, the result and its odds; and
the guard that keeps an already logged roll from being made again with other
modifiers."""
from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from automation.engine.resolver import RollResult
from automation.render import percent
from automation.systems import BookSource


def dice_text(r: RollResult) -> str:
    if r.dice_kind.value == "d100":
        return f"d100: {r.dice[0] % 10}{r.dice[1] % 10}"
    return f"{r.dice_kind.value}: " + "+".join(str(d) for d in r.dice)


def modifiers_text(r: RollResult) -> str:
    return "; ".join(f"{m.value:+d} {m.name} ({m.source})" for m in r.modifiers) or "none"


@dataclass(frozen=True)
class Trail:
    """The cells of one roll in a log sheet."""

    table: str
    rule: str
    column: str
    dice: str
    natural: int
    modifiers: str
    drm: int
    final: int
    result: str
    odds: str
    label: str


def trail(r: RollResult) -> Trail:
    return Trail(r.table_id, r.source, r.column, dice_text(r), r.natural, modifiers_text(r), r.drm, r.final, r.result,
                 percent(r.probability), r.label)


@dataclass(frozen=True)
class Logged:
    """A roll already in a log sheet: where, and with which table, column and modifiers."""

    sheet: str
    row: int
    table: str
    column: str
    modifiers: str
    result: str


def _text(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value).strip()


def logged_rolls(book: BookSource, sheets: Iterable[str]) -> dict[str, Logged]:
    """Label -> the roll as logged, over the given log sheets (oldest first)."""
    out: dict[str, Logged] = {}
    for name in sheets:
        raw = book.raw(name)
        if not raw:
            continue
        header = [_text(h) for h in raw[0]]
        if "Label" not in header:
            continue
        pos = {h: i for i, h in enumerate(header)}

        def cell(row: list[Any], column: str) -> str:
            i = pos.get(column)
            return _text(row[i]) if i is not None and i < len(row) else ""

        for r, row in enumerate(raw[1:], start=2):
            label = cell(row, "Label")
            if label and label not in out:
                table = cell(row, "Table").split(" (")[0]
                out[label] = Logged(name, r, table, cell(row, "Column"), cell(row, "Modifiers"), cell(row, "Result"))
    return out


def changed_since_logged(r: RollResult, logged: Logged) -> str | None:
    """Why ``r`` differs from the roll logged under the same label (None: it does not)."""
    now = trail(r)
    for what, before, after in (("table", logged.table, now.table), ("modifiers", logged.modifiers, now.modifiers)):
        if before != after:
            return (f"this roll ({r.label}) was made in {logged.sheet} row {logged.row} with {what} {before!r}, "
                    f"now {after!r}; a roll is never made again: undo the change, or enter the new roll as a new entry")
    if logged.column and logged.column != now.column:
        return (f"this roll ({r.label}) was made in {logged.sheet} row {logged.row} on column {logged.column!r}, "
                f"now {now.column!r}; a roll is never made again")
    return None


def same_rows(a: list[list[Any]], b: list[list[Any]]) -> bool:
    """Do two sheets hold the same values (as a reader gives them back)?"""
    def norm(rows: list[list[Any]]) -> list[list[str]]:
        out = []
        for row in rows:
            cells = [_text(v) for v in row]
            while cells and cells[-1] == "":
                cells.pop()
            if cells:
                out.append(cells)
        return out

    return norm(a) == norm(b)


# ------------------------------------------------------------------ what a run read, recorded in its log

READ_ROW = "Read row"
READ_SHEET = "Read sheet"
RECORD_MARKS = (READ_ROW, READ_SHEET)
_MARK_COLUMNS = ("ID", "Entry")  # a Desk log's first text column, a tracker log's
_WHERE_COLUMNS = ("For", "Subject")


def _columns(header: list[Any]) -> tuple[int, int, int, int]:
    pos = {_text(h): i for i, h in enumerate(header)}
    mark = next(pos[c] for c in _MARK_COLUMNS if c in pos)
    where = next(pos[c] for c in _WHERE_COLUMNS if c in pos)
    return mark, where, pos["Result"], pos["Visible to"]


def _record_row(header: list[Any], mark: str, where: str, value: str) -> list[Any]:
    m, w, r, v = _columns(header)
    row: list[Any] = [None] * len(header)
    row[m], row[w], row[r], row[v] = mark, where, value, "Umpire"
    return row


def input_record(header: list[Any], sheet: str, raw: list[list[Any]]) -> list[list[Any]]:
    """Rows of a log (in its ``header``'s layout) that record every row of the
    input sheet the run read (``sheet``, rows ``raw``, its header included),
    as JSON, at its row number: the run can be replayed from them."""
    from automation.audit.inputs import encode_row

    out = []
    for n, row in enumerate(raw, start=1):
        text = encode_row(row)
        if text != "[]":
            out.append(_record_row(header, READ_ROW, f"{sheet}!{n}", text))
    return out


def digest_record(header: list[Any], book: Any, sheets: Iterable[str]) -> list[list[Any]]:
    """Rows of a log recording the digest of each other sheet the run read
    (settings, tables...): replay finds those sheets as they stood."""
    from automation.pbem.reports import canonical, sheet_digest

    return [_record_row(header, READ_SHEET, name, sheet_digest(name, canonical(book.raw(name)))) for name in sheets]


@dataclass(frozen=True)
class Record:
    """What a log records of the run that wrote it: the input rows (sheet ->
    row number -> values) and the digests of the other sheets read."""

    rows: dict[str, dict[int, list[Any]]]
    digests: dict[str, str]

    @classmethod
    def of(cls, rows: list[list[Any]]) -> Record | None:
        """The record of a log's rows (None: the log records nothing: written before records were kept)."""
        from automation.audit.inputs import decode_row

        if not rows or not any(_text(h) in _MARK_COLUMNS for h in rows[0]):
            return None
        m, w, r, _ = _columns(rows[0])
        got: dict[str, dict[int, list[Any]]] = {}
        digests: dict[str, str] = {}
        for row in rows[1:]:
            mark = _text(row[m]) if m < len(row) else ""
            where = _text(row[w]) if w < len(row) else ""
            value = _text(row[r]) if r < len(row) else ""
            if mark == READ_ROW:
                sheet, _, n = where.rpartition("!")
                got.setdefault(sheet, {})[int(n) if n.isdigit() else 0] = decode_row(value) or []
            elif mark == READ_SHEET:
                digests[where] = value
        if not got and not digests:
            return None
        return cls(got, digests)

    def sheet(self, name: str) -> list[list[Any]]:
        """The input sheet ``name`` as the run read it (the rows it did not use are empty)."""
        rows = self.rows.get(name, {})
        out: list[list[Any]] = [[] for _ in range(max(rows, default=0))]
        for n, values in rows.items():
            if n >= 1:
                out[n - 1] = list(values)
        return out

    def merged(self, other: Record) -> Record:
        rows = {n: dict(r) for n, r in self.rows.items()}
        for n, r in other.rows.items():
            rows.setdefault(n, {}).update(r)
        return Record(rows, {**self.digests, **other.digests})


def without_digests(rows: list[list[Any]]) -> list[list[Any]]:
    """A log's rows without its record of the digests of other sheets (those
    change the log only through what they make it roll)."""
    if not rows or not any(_text(h) in _MARK_COLUMNS for h in rows[0]):
        return rows
    m = _columns(rows[0])[0]
    return [rows[0]] + [r for r in rows[1:] if not (m < len(r) and _text(r[m]) == READ_SHEET)]


def without_record(rows: list[list[Any]]) -> list[list[Any]]:
    """A log's rows without the record of what its run read."""
    if not rows or not any(_text(h) in _MARK_COLUMNS for h in rows[0]):
        return rows
    m = _columns(rows[0])[0]
    return [rows[0]] + [r for r in rows[1:] if not (m < len(r) and _text(r[m]) in RECORD_MARKS)]

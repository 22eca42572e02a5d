"""The dice desk: roll requests the umpire lists in the "Roll requests" sheet,
resolved into a dated log sheet ("Desk <date> <n>") with the refit's audit
trail. Requests are independent: a bad one is reported at its cell and the
others are resolved all the same. A request's dice derive from the campaign key and its ID alone
(``desk/request/<ID>``), so resolving again never rerolls; a request already in
a log is skipped, and changing its table, column or modifiers afterwards is
refused."""
from __future__ import annotations

import datetime as dt
import difflib
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from automation.desk.audit import Logged, logged_rolls, trail
from automation.desk.dice import PHYSICAL_MARK, Roller, is_physical
from automation.desk.modifiers import ModifierProblem, parse as parse_modifiers
from automation.engine.resolver import RollResult
from automation.engine.tables import Table, TableKind
from automation.errors import CellProblem, UsageError, WorkbookError
from automation.workbook.desk_sheets import DESK_LOG, ROLL_REQUESTS, desk_log_name
from automation.workbook.package import NewSheet
from automation.workbook.reader import SheetRow, match_name, read_each
from automation.workbook.schema import FORBIDDEN_SHEET_CHARS

LOG_NAME = re.compile(r"^Desk (?P<date>.+) (?P<n>\d+)$")
DEFAULT_VISIBLE = "Umpire"


@dataclass(frozen=True)
class Request:
    id: str
    table: str
    column: str | None
    modifiers: str
    purpose: str
    date: str | None
    visible_to: str
    row: SheetRow
    physical: str | None = None


@dataclass(frozen=True)
class Resolved:
    request: Request
    date: str
    roll: RollResult


def label_for(request_id: str) -> tuple[str, str]:
    """The label parts of a request's roll (after the desk prefix)."""
    return ("request", request_id)


def log_sheets(names: Sequence[str]) -> list[str]:
    return [n for n in names if LOG_NAME.match(n)]


def read_requests(rows: list[SheetRow], visible: Sequence[str]) -> tuple[list[Request], list[CellProblem]]:
    """The requests of good rows, and the problems of the others."""
    problems: list[CellProblem] = []
    out = []
    for r in rows:
        before = len(problems)
        rid = str(r["ID"]).strip()
        date = r["Date"]
        if date is not None:
            date = str(date).strip()
            if len(date) > 12 or FORBIDDEN_SHEET_CHARS.search(date):
                problems.append(r.problem("Date", f"{date!r} names the log sheet: at most 12 characters, none of [ ] : * ? / \\"))
        who = str(r["Visible to"] or DEFAULT_VISIBLE).strip()
        match = match_name(who, visible)
        if match is None:
            problems.append(r.problem("Visible to", f"{who!r} is not one of {', '.join(visible)}"))
        if "/" in rid or not rid:
            problems.append(r.problem("ID", f"{rid!r}: an ID may not be empty or hold '/'"))
        dice = r.get("Physical dice")
        if len(problems) == before:
            out.append(Request(rid, str(r["Table"]).strip(), r["Column"], str(r["Modifiers"] or "").strip(),
                               str(r["For"] or ""), date, match or who, r, None if dice in (None, "") else str(dice)))
    return out, problems


def _unknown_table(table_id: str, tables: Mapping[str, Table]) -> str:
    close = difflib.get_close_matches(table_id, list(tables), n=3, cutoff=0.5)
    hint = f"; did you mean {', '.join(close)}?" if close else ""
    return f"unknown table {table_id!r}{hint} (`musterroll tables` lists them all)"


def resolve(requests: list[Request], dice: Roller, tables: Mapping[str, Table], logged: Mapping[str, Logged],
            today: dt.date) -> tuple[list[Resolved], list[Request], list[CellProblem]]:
    """(new requests resolved, requests already logged, the problems of the
    requests that could not be resolved: each names its cell)."""
    from automation.desk.audit import changed_since_logged
    from automation.desk.dice import desk_label, physical_label

    problems: list[CellProblem] = []
    done: list[Resolved] = []
    old: list[Request] = []
    for q in requests:
        r = q.row
        table = tables.get(q.table) or tables.get(match_name(q.table, list(tables)) or "")
        if table is None:
            problems.append(r.problem("Table", _unknown_table(q.table, tables)))
            continue
        if table.kind is not TableKind.BANDED:
            problems.append(r.problem("Table", f"{table.id} is an opposed roll; roll it with `musterroll roll`"))
            continue
        if table.is_empty:
            problems.append(r.problem("Table", f"{table.id} ({table.title}, {table.source}) is not printed by the rules; "
                                      "enter its rows in Desk tables (or the campaign's Tables) before using it"))
            continue
        column = str(q.column).strip() if q.column is not None else table.default_column()
        column = match_name(column, table.columns) or column
        if column not in table.columns:
            problems.append(r.problem("Column", f"{column!r} is not a column of {table.id}; valid: {', '.join(table.columns)}"))
            continue
        try:
            situation = parse_modifiers(q.modifiers, table, column, "umpire")
        except ModifierProblem as exc:
            problems.append(r.problem("Modifiers", str(exc)))
            continue
        try:
            if q.physical is not None:
                from automation.desk.dice import parse_physical

                try:
                    thrown = parse_physical(q.physical, table)
                except ValueError as exc:
                    problems.append(r.problem("Physical dice", str(exc)))
                    continue
                roll = dice.physical(table.id, label_for(q.id), thrown, situation, column)  # type: ignore[attr-defined]
            else:
                roll = dice.roll(table.id, label_for(q.id), situation, column)
        except UsageError as exc:
            problems.append(r.problem("Modifiers", str(exc)))
            continue
        keyed, by_hand = str(desk_label(label_for(q.id))), str(physical_label(label_for(q.id)))
        before = logged.get(keyed) or logged.get(by_hand)
        if before is not None and (keyed in logged) != (roll.label == keyed):
            problems.append(r.problem("Physical dice", f"request {q.id} was logged in {before.sheet} row {before.row} "
                                      f"{'from the key' if keyed in logged else 'with physical dice'}; a roll is "
                                      "never made again: enter the new roll as a new request"))
            continue
        if before is not None:
            why = changed_since_logged(roll, before)
            if why:
                problems.append(r.problem("ID", f"request {q.id}: {why}"))
            else:
                old.append(q)
            continue
        done.append(Resolved(q, q.date or today.isoformat(), roll))
    return done, old, problems


def without_physical():
    """The Roll requests kind as it was before its Physical dice column."""
    import dataclasses

    return dataclasses.replace(ROLL_REQUESTS, columns=tuple(c for c in ROLL_REQUESTS.columns if c.name != "Physical dice"))


def log_rows(resolved: list[Resolved]) -> list[list[Any]]:
    rows: list[list[Any]] = [DESK_LOG.header]
    for item in resolved:
        q, t = item.request, trail(item.roll)
        shown = t.dice + PHYSICAL_MARK if is_physical(t.label) else t.dice
        rows.append([q.id, item.date, q.purpose or None, t.table, t.rule, t.column, shown, t.natural, t.modifiers,
                     t.drm, t.final, t.result, t.odds, q.visible_to, t.label])
    return rows


def log_sheets_for(resolved: list[Resolved], existing: Sequence[str]) -> list[NewSheet]:
    """One log sheet per date, numbered after the logs of that date already there."""
    taken = {n.lower() for n in existing}
    out: list[NewSheet] = []
    for date in dict.fromkeys(item.date for item in resolved):
        n = 1
        while desk_log_name(date, n).lower() in taken:
            n += 1
        name = desk_log_name(date, n)
        taken.add(name.lower())
        rows = log_rows([item for item in resolved if item.date == date])
        out.append(NewSheet(name, rows, kind="log", column_widths=[c.width for c in DESK_LOG.columns]))
    return out


def plan(book: Any, dice: Roller, tables: Mapping[str, Table], visible: Sequence[str],
         today: dt.date) -> tuple[list[Resolved], list[Request], list[NewSheet], list[CellProblem]]:
    """Resolve the new requests of ``book``'s Roll requests sheet: (resolved,
    already logged, sheets to append, the problems of the requests left out)."""
    if not book.has(ROLL_REQUESTS.title):
        raise WorkbookError(CellProblem(ROLL_REQUESTS.title, "A1", "the sheet is missing; add it with "
                                        "`musterroll desk-add BOOK.xlsx roll-requests` (header: "
                                        f"{', '.join(ROLL_REQUESTS.header)})"), str(book.path))
    header = {str(h).strip() for h in (book.raw(ROLL_REQUESTS.title)[:1] or [[]])[0] if h not in (None, "")}
    kind = ROLL_REQUESTS if "Physical dice" in header else without_physical()  # a sheet added before the column
    rows, problems = read_each(book, kind, ROLL_REQUESTS.title)
    requests, bad = read_requests(rows, visible)
    logged = logged_rolls(book, log_sheets(book.sheet_names))
    resolved, old, refused = resolve(requests, dice, tables, logged, today)
    return resolved, old, log_sheets_for(resolved, book.sheet_names), sorted(problems + bad + refused, key=_order)


def _order(problem: CellProblem) -> tuple[int, int, str]:
    """Problems in the order of the sheet: by row, then column."""
    m = re.match(r"([A-Z]+)(\d+)$", problem.cell)
    return (int(m.group(2)), len(m.group(1)), m.group(1)) if m else (0, 0, problem.cell)

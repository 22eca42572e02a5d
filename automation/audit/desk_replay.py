"""The dice desk's and the trackers' runs in ``musterroll verify``.

Each log sheet a desk or tracker run appends ends with the record of what the
run read (:class:`automation.desk.audit.Record`): the rows of its input sheet
(the Roll requests it rolled, or every entry of the tracker's sheet) and the
digest of each other sheet (settings, tables). The log is a dated sheet: the
next refit seals it, record included.

* :func:`edited_inputs` (with or without the key): a request already rolled
  whose Table, Column, Modifiers or Physical dice now differ in Roll requests,
  or a tracker entry that differs from what the tracker's last log read, is
  named at its cell: a roll is never made again.
* :func:`replay_desk` (with the key): every desk and tracker batch is run
  again, in order, through the same service code as ``musterroll
  roll-requests`` / ``musterroll trackers``, on the workbook as it stood
  before that batch, its input sheet as recorded and the other sheets it read
  as they stood (the sheet now, or a state the chain sealed, whichever has
  the recorded digest); every log it wrote must be, cell for cell, what the
  rules give.
"""
from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from automation.audit.desk import is_desk_log
from automation.audit.replay import Before, first_difference
from automation.engine.dice import CampaignKey
from automation.errors import CellProblem, MusterrollError
from automation.pbem.reports import Header, canonical, norm, sheet_digest, title_pattern

ROLL_COLUMNS = ("Table", "Column", "Modifiers", "Physical dice")  # what makes a request's roll


def _logs(book: Any) -> list[str]:
    return [n for n in book.sheet_names if is_desk_log(n) and is_desk_log(n, (book.raw(n)[:1] or [[]])[0])]


def _is_requests_log(name: str) -> bool:
    from automation.workbook.desk_sheets import DESK_LOG

    return bool(title_pattern(DESK_LOG).match(name))


def _record(book: Any, name: str) -> Any:
    from automation.desk.audit import Record

    return Record.of(book.raw(name))


def edited_inputs(book: Any) -> list[CellProblem]:
    """Input rows edited after a run read them (see the module's doc)."""
    from automation.desk.trackers import TRACKERS
    from automation.desk.tracking import log_names
    from automation.workbook.desk_sheets import ROLL_REQUESTS
    from automation.workbook.reader import cell_ref

    logs = _logs(book)
    problems: list[CellProblem] = []
    sheet = ROLL_REQUESTS.title
    if book.has(sheet):
        now = book.raw(sheet)
        h = Header.of(now[0] if now else [])
        current = {norm(h.get(r, "ID")): (i, r) for i, r in enumerate(now[1:], start=2) if norm(h.get(r, "ID"))}
        for log in (n for n in logs if _is_requests_log(n)):
            record = _record(book, log)
            if record is None:
                continue
            then = record.sheet(sheet)
            th = Header.of(then[0] if then else [])
            for row in then[1:]:
                rid = norm(th.get(row, "ID"))
                if not rid or rid not in current:
                    continue  # a request removed after its roll: its log keeps it
                i, r = current[rid]
                for column in ROLL_COLUMNS:
                    old, new = norm(th.get(row, column)), norm(h.get(r, column))
                    if old != new and column in h.positions:
                        problems.append(CellProblem(sheet, h.cell(column, i), f"request {rid} was edited after its "
                                                    f"roll in {log} (then {old or '(empty)'!r}, now "
                                                    f"{new or '(empty)'!r}): a roll is never made again; enter the "
                                                    "new roll as a new request"))
    names = list(book.sheet_names)
    for tracker in TRACKERS.values():
        title = tracker.kind.title
        mine = [n for n in log_names(tracker, names) if n in logs]
        if not mine or not book.has(title):
            continue
        record = _record(book, mine[-1])
        if record is None or title not in record.rows:
            continue
        then, now = canonical(record.sheet(title)), canonical(book.raw(title))
        for i, old in enumerate(then):
            new = now[i] if i < len(now) else []
            if old and new != old:
                j = next(j for j in range(max(len(old), len(new)))
                         if (old[j] if j < len(old) else "") != (new[j] if j < len(new) else ""))
                was, is_ = (old[j] if j < len(old) else ""), (new[j] if j < len(new) else "")
                problems.append(CellProblem(title, cell_ref(j, i + 1), f"edited after {mine[-1]} read it (then "
                                            f"{was or '(empty)'!r}, now {is_ or '(empty)'!r}): bring the tracker up "
                                            "to date again so the change is logged in the open"))
                break
    return problems


@dataclass
class DeskReplayed:
    runs: int = 0
    sheets: int = 0
    unrecorded: list[str] = field(default_factory=list)
    problems: list[CellProblem] = field(default_factory=list)


def desk_batches(book: Any, batches: Sequence[Any]) -> list[Any]:
    """The recorded batches that wrote desk or tracker logs (and nothing else)."""
    logs = set(_logs(book))
    return [b for b in batches if b.sheets and all(s in logs or not book.has(s) for s in b.sheets)
            and any(s in logs for s in b.sheets)]


def _states(book: Any, name: str, inputs_at: dict[str, dict[str, list[list[Any]]]]) -> list[list[list[Any]]]:
    """The states of sheet ``name`` known to be genuine: as it is now, then as every refit sealed it."""
    out = [book.raw(name)] if book.has(name) else []
    out += [state[name] for state in reversed(list(inputs_at.values())) if name in state]
    return out


def _today(written: dict[str, list[list[Any]]]) -> dt.date:
    """The day a request without a Date was rolled on: the Date its log shows."""
    for rows in written.values():
        h = Header.of(rows[0] if rows else [])
        for row in rows[1:]:
            try:
                return dt.date.fromisoformat(norm(h.get(row, "Date")))
            except ValueError:
                continue
    return dt.date.today()


def replay_desk(book: Any, key: CampaignKey, batches: Sequence[Any],
                inputs_at: dict[str, dict[str, list[list[Any]]]],
                progress: Callable[[int, int, str], None] | None = None) -> DeskReplayed:
    """Run every desk and tracker batch of ``book`` again (see the module's doc); stop at the first that differs."""
    from automation.desk.service import plan_roll_requests, plan_trackers
    from automation.desk.trackers import TRACKERS
    from automation.desk.tracking import log_names

    out = DeskReplayed()
    names = list(book.sheet_names)
    runs = desk_batches(book, batches)
    for n, batch in enumerate(runs, start=1):
        if progress:
            progress(n, len(runs), batch.name, "replaying desk")
        written = [s for s in batch.sheets if s in names]
        rows = {s: book.raw(s) for s in written}
        records = [_record(book, s) for s in written]
        if any(r is None for r in records):
            out.unrecorded += written
            continue
        record = records[0]
        for r in records[1:]:
            record = record.merged(r)
        given = {sheet: record.sheet(sheet) for sheet in record.rows}
        for sheet, digest in record.digests.items():
            state = next((s for s in _states(book, sheet, inputs_at) if sheet_digest(sheet, canonical(s)) == digest),
                         None)
            if state is not None:
                given[sheet] = state
        view = Before(book, names[:names.index(written[0])], given, lambda _n, _r: False)
        try:
            if all(_is_requests_log(s) for s in written):
                _, sheets = plan_roll_requests(view, key=key, today=_today(rows))
            else:
                only = [t.id for t in TRACKERS.values() if any(s in log_names(t, written) for s in written)]
                _, sheets = plan_trackers(view, key=key, only=only)
        except MusterrollError as exc:
            out.problems.append(CellProblem(written[0], "A1", f"{batch.name!r} cannot be run again from what it "
                                                              f"read: {exc}"))
            return out
        expected = [s.name for s in sheets]
        if expected != written:
            out.problems.append(CellProblem(written[0], "A1", f"{batch.name!r} wrote {', '.join(written)} but the "
                                                              f"rules give {', '.join(expected) or 'nothing'} from "
                                                              "what it read"))
            return out
        for sheet in sheets:
            found = first_difference(sheet.name, canonical(rows[sheet.name]), canonical(sheet.rows))
            if found is not None:
                out.problems.append(found)
                return out
            out.sheets += 1
        out.runs += 1
    return out


__all__ = ["DeskReplayed", "desk_batches", "edited_inputs", "replay_desk"]

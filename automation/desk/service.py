"""Service functions of the desk, shared by the command line and the Excel
ribbon. The ``plan_*`` functions are pure: they take a BookSource (the file
adapter's Workbook) like
:func:`automation.pbem.planning.plan_refit` and return the sheets to append; the
others read a file, plan, and append with
:func:`automation.workbook.package.append_sheets`."""
from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from automation.desk import requests as desk_requests
from automation.desk import tracking
from automation.desk.dice import DeskDice
from automation.desk.settings import from_book
from automation.desk.tables import desk_tables
from automation.desk.trackers import TRACKERS
from automation.desk.trackers.base import Context, TrackerOutput
from automation.engine.dice import CampaignKey
from automation.errors import CellProblem, UsageError, WorkbookError
from automation.systems import BookSource
from automation.workbook.desk_sheets import DESK_LOG, ROLL_REQUESTS, TRACKER_LOG
from automation.workbook.lock import writing
from automation.workbook.package import NewSheet
from automation.workbook.schema import SETTINGS, SIDES_SHEET


@dataclass
class DeskOutcome:
    path: Path
    job: str
    written: list[str] = field(default_factory=list)
    lines: list[dict[str, Any]] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    problems: list[CellProblem] = field(default_factory=list)  # lines left out; the others were resolved

    def summary(self) -> str:
        out = [f"{self.path}: {self.job}"]
        out += [f"  {n}" for n in self.notes]
        out += [f"  wrote {n}" for n in self.written] or ["  nothing new to write"]
        if self.problems:
            out.append(f"  {len(self.problems)} problem(s): the lines they name were left out; fix them and run again")
        return "\n".join(out)

    def as_json(self) -> dict[str, Any]:
        return {"workbook": str(self.path), "job": self.job, "written": self.written, "notes": self.notes,
                "lines": self.lines, "problems": [str(p) for p in self.problems]}


def _commitment(book: BookSource) -> str:
    if not book.has(SETTINGS.title):
        return ""
    for row in book.read(SETTINGS):
        if row["Setting"] == "Key commitment":
            return str(row["Value"] or "")
    return ""


def _key(book: BookSource, key: CampaignKey | None, key_file: Path | None) -> CampaignKey:
    from automation.keys import key_path_for, read_key

    commitment = _commitment(book)
    if key is None:
        return read_key(key_path_for(Path(str(book.path)), key_file), commitment)
    if commitment and key.commitment != commitment:
        raise UsageError(f"{book.path}: the key given does not match the workbook's commitment (Campaign sheet)")
    return key


def visible_choices(book: BookSource) -> list[str]:
    """All, Umpire, and the side names of the Sides sheet (when there is one)."""
    out = ["All", "Umpire"]
    if book.has(SIDES_SHEET.title):
        raw = book.raw(SIDES_SHEET.title)
        if raw and raw[0] and str(raw[0][0]).strip() == "Side":
            out += [str(r[0]).strip() for r in raw[1:] if r and r[0] not in (None, "")]
    return out


def _dice(book: BookSource, key: CampaignKey | None, key_file: Path | None) -> DeskDice:
    return DeskDice(_key(book, key, key_file), desk_tables(book))


def plan_roll_requests(book: BookSource, key: CampaignKey | None = None, key_file: Path | None = None,
                       today: dt.date | None = None) -> tuple[DeskOutcome, list[NewSheet]]:
    """Resolve the new roll requests of ``book``: (outcome, log sheets to append)."""
    if not book.has(ROLL_REQUESTS.title):
        raise WorkbookError(CellProblem(ROLL_REQUESTS.title, "A1", "the sheet is missing; add it with "
                                        "`musterroll desk-add BOOK.xlsx roll-requests`, then list the rolls there"),
                            str(book.path))
    from automation.audit.chain import Reads

    reads = Reads(book)  # what the run read is recorded in its logs: verify --key replays it
    dice = _dice(reads, key, key_file)
    resolved, old, sheets, problems = desk_requests.plan(reads, dice, dice.tables, visible_choices(reads),
                                                         today or dt.date.today())
    sheets = [_with_record(reads, s, ROLL_REQUESTS.title, sorted(r.request.row.row for r in resolved
                                                                 if s.name == _log_of(r, sheets)))
              for s in sheets]
    if problems and not sheets:  # nothing to write: a refusal, the workbook stays as it is
        raise WorkbookError(problems, str(book.path))
    outcome = DeskOutcome(Path(str(book.path)), "roll requests", [s.name for s in sheets], problems=problems)
    if old:
        outcome.notes.append(f"{len(old)} request(s) already in a Desk log: not rolled again")
    from automation.render import roll_json

    outcome.lines = [{"id": r.request.id, "date": r.date, "for": r.request.purpose, "visible_to": r.request.visible_to,
                      "roll": roll_json(r.roll)} for r in resolved]
    for r in resolved:
        outcome.notes.append(f"{r.request.id}: {r.roll.table_id} {r.roll.natural}{r.roll.drm:+d} = {r.roll.final} "
                             f"-> {r.roll.result}")
    return outcome, sheets


def _line_json(tracker: str, line: Any) -> dict[str, Any]:
    from automation.render import roll_json

    return {"tracker": tracker, "entry": line.entry, "rule": line.rule, "subject": line.subject, "turn": line.turn,
            "text": line.text, "visible_to": line.visible_to, "from": str(line.source) or None,
            "roll": roll_json(line.roll) if line.roll else None}


def plan_trackers(book: BookSource, key: CampaignKey | None = None, key_file: Path | None = None,
                  only: list[str] | None = None) -> tuple[DeskOutcome, list[NewSheet]]:
    """Bring every tracker whose input sheet is in ``book`` (or those in ``only``) up to date."""
    chosen = [TRACKERS[t] for t in only] if only else [t for t in TRACKERS.values() if book.has(t.kind.title)]
    outcome = DeskOutcome(Path(str(book.path)), "trackers")
    if not chosen:
        outcome.notes.append("no tracker sheet in the workbook; add one with `musterroll desk-add BOOK.xlsx "
                             f"{'|'.join(TRACKERS)}`")
        return outcome, []
    for t in chosen:
        if not book.has(t.kind.title):
            raise WorkbookError(CellProblem(t.kind.title, "A1", f"the sheet is missing; add it with "
                                            f"`musterroll desk-add BOOK.xlsx {t.id}`"), str(book.path))
    from automation.audit.chain import Reads

    shared = Reads(book)  # what each tracker read is recorded in its log: verify --key replays it
    ctx = Context(from_book(shared), _dice(shared, key, key_file))
    sheets: list[NewSheet] = []
    problems: list[CellProblem] = []
    for t in chosen:
        reads = Reads(book)
        reads.names = list(shared.names)
        try:
            output, sheet, left_out = tracking.plan(reads, t, ctx)
        except WorkbookError as exc:
            problems.extend(exc.problems)
            continue
        if sheet is not None:
            sheet = _with_record(reads, sheet, t.kind.title, None)
        outcome.problems += left_out
        outcome.lines += [_line_json(t.id, ln) for ln in output.lines + output.status]
        if sheet is None and not output.lines and not output.status:
            outcome.notes.append(f"{t.title}: no entries yet in {t.kind.title}")
        elif sheet is None:
            outcome.notes.append(f"{t.title}: up to date")
        else:
            sheets.append(sheet)
            outcome.notes.append(f"{t.title}: {_count(output)}")
    outcome.problems = problems + outcome.problems  # a tracker that cannot run does not hold up the others
    if outcome.problems and not sheets:  # nothing to write: a refusal, with every problem
        raise WorkbookError(outcome.problems, str(book.path))
    outcome.written = [s.name for s in sheets]
    return outcome, sheets


def _log_of(resolved: Any, sheets: list[NewSheet]) -> str | None:
    """The log sheet a resolved request went into (one log per date)."""
    for s in sheets:
        if any(row and row[0] == resolved.request.id and row[1] == resolved.date for row in s.rows[1:]):
            return s.name
    return None


def _with_record(reads: Any, sheet: NewSheet, source: str, rows: list[int] | None) -> NewSheet:
    """``sheet`` (a log) with the record of what its run read: the rows of
    ``source`` it used (all when ``rows`` is None; a tracker's log holds them
    already) and the digest of every other sheet it read but the logs."""
    import dataclasses

    from automation.audit.desk import is_desk_log
    from automation.desk.audit import digest_record, input_record

    header = list(sheet.rows[0])
    out = [list(r) for r in sheet.rows]
    if rows is not None:
        raw = reads.raw(source)
        wanted = {f"{source}!{n}" for n in [1, *rows]}  # the header, and the rows it rolled
        out += [r for r in input_record(header, source, raw) if r[_where(header)] in wanted]
    inputs = {t.kind.title for t in TRACKERS.values()} | {ROLL_REQUESTS.title}
    others = [n for n in reads.names if n not in inputs and not is_desk_log(n)]
    return dataclasses.replace(sheet, rows=out + digest_record(header, reads, others))


def _where(header: list[Any]) -> int:
    return next(i for i, h in enumerate(header) if h in ("For", "Subject"))


def _count(output: TrackerOutput) -> str:
    due = sum(1 for s in output.status if s.text.startswith("due:"))
    return f"{len(output.rolls)} roll(s) logged" + (f", {due} due" if due else "")


def desk_job(sheet: str | None) -> str | None:
    """What the desk does when ``sheet`` is active: "Roll requests" (the Roll
    requests sheet or a Desk log), a tracker's title (its sheet or one of its
    logs), or None: not a sheet the desk works on (the ribbon then refits)."""
    if sheet is None:
        return None
    if sheet == ROLL_REQUESTS.title or desk_requests.LOG_NAME.match(sheet):
        return ROLL_REQUESTS.title
    for t in TRACKERS.values():
        if sheet == t.kind.title or sheet in tracking.log_names(t, [sheet]):
            return str(t.title)
    return None


def plan_active_sheet(book: BookSource, sheet: str, key: CampaignKey | None = None, key_file: Path | None = None,
                      today: dt.date | None = None) -> tuple[DeskOutcome, list[NewSheet]]:
    """What the ribbon's desk button does on the active sheet: roll the requests
    (on Roll requests or a Desk log) or bring that sheet's tracker up to date."""
    job = desk_job(sheet)
    if job == ROLL_REQUESTS.title:
        return plan_roll_requests(book, key, key_file, today)
    if job is not None:
        return plan_trackers(book, key, key_file, [t.id for t in TRACKERS.values() if str(t.title) == job])
    names = ", ".join([ROLL_REQUESTS.title] + [t.kind.title for t in TRACKERS.values()])
    raise UsageError(f"sheet {sheet!r} is not a desk sheet; the desk works on: {names}")


def _append(path: Path, sheets: list[NewSheet], batch: str, book: Any) -> None:
    """Append ``sheets`` to the bytes ``book`` (the command's reader) read, as one batch."""
    from automation.workbook.package import append_sheets

    if sheets:
        append_sheets(path, sheets, batch=batch, read=book.gate)


def roll_requests(path: Path, key_file: Path | None = None, today: dt.date | None = None) -> DeskOutcome:
    from automation.workbook.reader import Workbook

    with writing(path):  # one writer at a time, from the read to the write
        book = Workbook(Path(path))
        outcome, sheets = plan_roll_requests(book, key_file=key_file, today=today)
        _append(Path(path), sheets, f"Desk {', '.join(s.name for s in sheets)}", book)
    return outcome


def update_trackers(path: Path, key_file: Path | None = None, only: list[str] | None = None) -> DeskOutcome:
    from automation.workbook.reader import Workbook

    with writing(path):
        book = Workbook(Path(path))
        outcome, sheets = plan_trackers(book, key_file=key_file, only=only)
        _append(Path(path), sheets, "Trackers " + ", ".join(s.name for s in sheets), book)
    return outcome


def add_sheets(path: Path, what: list[str]) -> list[str]:
    """Append the empty desk sheets named in ``what`` (see :data:`automation.desk.sheets.ADDABLE`)."""
    from automation.desk.sheets import new_sheets
    from automation.workbook.reader import Workbook

    with writing(path):
        book = Workbook(Path(path))
        sheets = new_sheets(book, what)
        _append(Path(path), sheets, "Desk sheets", book)
    return [s.name for s in sheets]


__all__ = ["DESK_LOG", "TRACKER_LOG", "DeskOutcome", "add_sheets", "plan_active_sheet", "plan_roll_requests",
           "plan_trackers", "roll_requests", "update_trackers", "visible_choices"]

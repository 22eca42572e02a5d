"""Bringing trackers up to date: run each tracker on its input sheet, refuse a
roll already logged that would now be made with other modifiers, and append a
new "<sheet> log <n>" when anything changed since the last one."""
from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from automation.desk.audit import changed_since_logged, input_record, logged_rolls, same_rows, trail, without_digests
from automation.desk.trackers.base import UMPIRE, Context, Line, Tracker, TrackerOutput
from automation.errors import CellProblem, WorkbookError
from automation.workbook.desk_sheets import TRACKER_LOG, tracker_log_name
from automation.workbook.reader import read_each

if TYPE_CHECKING:  # the package writer is loaded by the plan that writes a log (verify reads the names alone)
    from automation.workbook.package import NewSheet


def log_row(line: Line) -> list[Any]:
    src = str(line.source) or None
    if line.roll is None:
        return [line.turn, line.subject or None, line.entry, line.rule, None, None, None, None, None, None, None,
                line.text, None, line.visible_to, None, src]
    t = trail(line.roll)
    return [line.turn, line.subject or None, line.entry, line.rule, t.table, t.column, t.dice, t.natural, t.modifiers,
            t.drm, t.final, line.text, t.odds, line.visible_to, t.label, src]


def log_rows(output: TrackerOutput) -> list[list[Any]]:
    return [TRACKER_LOG.header] + [log_row(ln) for ln in output.lines] + [log_row(ln) for ln in output.status]


def log_names(tracker: Tracker, names: Sequence[str]) -> list[str]:
    """The tracker's log sheets already in the workbook, oldest first."""
    pattern = re.compile(re.escape(tracker.kind.title) + r" log (\d+)$")
    found = [(int(m.group(1)), n) for n in names if (m := pattern.match(n))]
    return [n for _, n in sorted(found)]


def check_logged(output: TrackerOutput, book: Any, logs: list[str]) -> list[Line]:
    """Refuse changed rolls; lines noting logged rolls no longer in the entries."""
    logged = logged_rolls(book, logs)
    problems: list[CellProblem] = []
    labels = set()
    for line in output.lines:
        if line.roll is None:
            continue
        labels.add(line.roll.label)
        before = logged.get(line.roll.label)
        why = changed_since_logged(line.roll, before) if before else None
        if why:
            problems.append(line.source.problem(why))
    if problems:
        raise WorkbookError(problems)
    return [Line("Status", "desk", f"a roll logged in {b.sheet} row {b.row} ({b.result}) is no longer among the "
                 "entries", label, None, None, UMPIRE)
            for label, b in logged.items() if label not in labels]


def plan(book: Any, tracker: Tracker, ctx: Context) -> tuple[TrackerOutput, NewSheet | None, list[CellProblem]]:
    """The tracker's output, the log sheet to append (None: the last log is up
    to date) and the problems of the lines left out: a line with a problem is
    reported at its cell and the tracker runs on the others."""
    from automation.workbook.package import NewSheet

    rows, problems = read_each(book, tracker.kind)
    output = TrackerOutput()
    while rows:
        try:
            output = tracker.run(rows, ctx)
            break
        except WorkbookError as exc:
            problems += exc.problems
            bad = {_row_of(p) for p in exc.problems if p.sheet == tracker.kind.title}
            kept = [r for r in rows if r.row not in bad]
            if len(kept) == len(rows):  # a problem of no line of the sheet (its settings): nothing can run
                raise WorkbookError(problems, str(book.path)) from None
            rows = kept
    if not rows:
        if problems:
            raise WorkbookError(problems, str(book.path))
        return output, None, []
    logs = log_names(tracker, book.sheet_names)
    missing = check_logged(output, book, logs)
    output = TrackerOutput(output.lines, output.status + tuple(missing))
    rows_out = log_rows(output)
    rows_out += input_record(rows_out[0], tracker.kind.title, book.raw(tracker.kind.title))  # replayed by verify --key
    if logs and same_rows(without_digests(book.raw(logs[-1])), rows_out):
        return output, None, problems
    taken = {n.lower() for n in book.sheet_names}
    n = len(logs) + 1
    while tracker_log_name(tracker.kind.title, n).lower() in taken:
        n += 1
    sheet = NewSheet(tracker_log_name(tracker.kind.title, n), rows_out, kind="log",
                     column_widths=[c.width for c in TRACKER_LOG.columns])
    return output, sheet, problems


def _row_of(problem: CellProblem) -> int:
    m = re.match(r"[A-Z]+(\d+)$", problem.cell)
    return int(m.group(1)) if m else 0

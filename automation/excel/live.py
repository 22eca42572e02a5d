"""The ribbon button: the refit, or the dice desk, on the workbook open in Excel.

The add-in's RunMain runs ``import musterroll_addin; musterroll_addin.main()``,
which is :func:`main` here. It takes the workbook active in the Excel that
called it (never the add-in itself) and reads it through the sheet contract
(:class:`automation.excel.source.ExcelSource`). What it then does depends on
the workbook's active sheet, as the umpire means it:

* the "Roll requests" sheet or a Desk log: the new roll requests are resolved,
  as ``musterroll roll-requests`` does;
* a tracker's sheet (Greif, Supply dumps, Fires...) or one of its logs: that
  tracker is brought up to date, as ``musterroll trackers --only TRACKER`` does;
* any other sheet: the refit, as ``musterroll refit`` does.

Both run the same pure service functions as the command line
(:func:`automation.desk.service.plan_active_sheet`,
:func:`automation.service.plan_sealed`), with the key in BOOK.key beside the
workbook, and the new sheets are written into the open workbook as one batch
(:class:`automation.excel.writer.Writer`), recorded under the name the command
line gives it so ``musterroll undo`` takes it back. The umpire saves the workbook.

What the umpire sees: progress in Excel's status bar, then one alert: what was
written and what follows (what the refit waits for, or the rolls the desk
made); or a Musterroll error as it is (Sheet!Cell, what is there, what is
valid), with nothing written; or, for an unexpected error, a short message with
the details in BOOK.musterroll.log beside the workbook. Never a silent failure,
never a Python traceback.
"""
from __future__ import annotations

import datetime as dt
import platform
import sys
import tempfile
import traceback
from pathlib import Path
from typing import Any

from automation.errors import MusterrollError

TITLE = "Musterroll"
ADDIN_SUFFIXES = (".xlam", ".xla")
MAX_ALERT_LINES = 15
MAX_ALERT_CHARS = 900


class ExcelError(MusterrollError):
    """Excel holds no campaign workbook to work on (none open, the add-in, not saved)."""


def main() -> None:
    """Run the button on the active workbook of the Excel that called the add-in."""
    try:
        app = caller_app()
    except Exception as exc:  # no Excel to show an alert in: RunPython shows stderr
        print(f"Musterroll: Excel could not be reached from Python ({type(exc).__name__}: {exc}). "
              "Click Refit in Excel with the campaign workbook open.", file=sys.stderr)
        raise SystemExit(1) from None
    run_active_book(app)


def caller_app() -> Any:
    """The Excel application that ran the add-in's RunMain."""
    import xlwings as xw

    return xw.Book.caller().app


def active_book(app: Any) -> Any:
    """The workbook in front of the umpire; refuses the add-in itself."""
    try:
        book = app.books.active
    except Exception:
        book = None
    if book is None:
        raise ExcelError("No workbook is open. Open the campaign workbook, then click Refit.")
    if str(book.name).lower().endswith(ADDIN_SUFFIXES):
        raise ExcelError(f"{book.name} is an add-in, not a campaign workbook. Click into the campaign workbook's "
                         "window, then click Refit.")
    return book


def active_sheet_name(book: Any) -> str | None:
    """The name of ``book``'s active sheet; None when Excel gives none (a chart sheet, say)."""
    try:
        return str(book.sheets.active.name)
    except Exception:
        return None


def run_active_book(app: Any) -> list[str]:
    """One click of the button on ``app``'s active workbook: the desk's job when
    the active sheet is one the desk works on, else the refit. Returns the names
    of the sheets written. Every outcome ends in one alert (SystemExit only if
    Excel cannot show it)."""
    from automation.excel.source import ExcelSource
    from automation.excel.writer import Writer
    from automation.keys import key_path_for

    book: Any = None
    writer: Any = None
    job: str | None = None
    written: list[str] = []
    try:
        book = active_book(app)
        sheet = active_sheet_name(book)
        from automation.desk.service import desk_job

        job = desk_job(sheet)
        _status(app, f"Musterroll: reading {book.name}...")
        source = ExcelSource(book)
        key_file = key_path_for(source.path)
        if job is None:
            from automation.service import plan_sealed

            _status(app, f"Musterroll: refit of {book.name}...")
            outcome, sheets = plan_sealed(source, key_file=key_file)
            batch = f"Refit {outcome.date}"
        else:
            from automation.desk.service import plan_active_sheet

            _status(app, f"Musterroll: {job} in {book.name}...")
            outcome, sheets = plan_active_sheet(source, str(sheet), key_file=key_file)
            batch = desk_batch(outcome.job, [s.name for s in sheets])
        if sheets:
            writer = Writer(book, status=lambda text: _status(app, text))
            screen = app.screen_updating
            app.screen_updating = False
            try:
                written = writer.write_batch(sheets, batch=batch)
            finally:
                _quietly(setattr, app, "screen_updating", screen)
            if writer.notes:
                write_log(book, "Notes on the appearance of the new sheets:\n" + "\n".join(writer.notes))
        message = (success_message(book.name, outcome.date, written, outcome.waiting) if job is None
                   else desk_message(book.name, job, written, outcome.notes))
        _status(app, f"Musterroll: {message.splitlines()[0]}")
        _alert(app, message, "info")
    except MusterrollError as exc:
        _alert(app, shown(str(exc), book), "info" if exc.exit_code == 0 else "critical")
    except Exception:
        notes = writer.notes if writer is not None else []
        log = write_log(book, "Unexpected error:\n" + traceback.format_exc() + "".join(f"\n{n}" for n in notes))
        left = [n for n in notes if n.startswith("could not remove")]
        outcome_text = ("some new sheets could not be removed again: delete them by hand (the log names them)"
                        if left else "nothing was written to the workbook")
        what = "The refit" if job is None else f"The desk ({job})"
        _alert(app, f"{what} stopped on an unexpected error; {outcome_text}.\n"
                    f"The details are in {log}. Please send that file with your report.", "critical")
    finally:
        _quietly(setattr, app, "status_bar", False)
    return written


def desk_batch(job: str, names: list[str]) -> str:
    """The batch name the command line records for the same sheets
    (automation.desk.service.roll_requests / update_trackers), so undo reads it alike."""
    return ("Desk " if job == "roll requests" else "Trackers ") + ", ".join(names)


def success_message(book_name: str, date: str | None, written: list[str], waiting: Any) -> str:
    lines = [f"Refit of {date} in {book_name}"]
    if written:
        lines.append("Added: " + ", ".join(written))
        lines.append("Save the workbook to keep the new sheets.")
    else:
        lines.append("Nothing new to write.")
    lines.append(f"Now {waiting}." if waiting else f"{date}: refit complete.")
    return "\n".join(lines)


def desk_message(book_name: str, job: str, written: list[str], notes: list[str]) -> str:
    """What the desk did: the sheets added, then its notes (each roll made, what
    was already logged, each tracker's state), cut to fit an alert; the whole is
    in the new sheets."""
    lines = [f"{job} in {book_name}"]
    if written:
        lines.append("Added: " + ", ".join(written))
        lines.append("Save the workbook to keep the new sheets.")
    else:
        lines.append("Nothing new to write.")
        if job == "Roll requests" and not notes:
            lines.append("The Roll requests sheet lists no request yet: one row per roll, ID and Table at least.")
    room = MAX_ALERT_LINES - len(lines)
    if len(notes) > room:
        notes = notes[:room - 1] + [f"... and {len(notes) - room + 1} more: see the new sheets."]
    return "\n".join(lines + notes)


def shown(message: str, book: Any) -> str:
    """A Musterroll error as it is; a long list is cut, the whole kept in the log."""
    lines = message.splitlines()
    if len(lines) <= MAX_ALERT_LINES and len(message) <= MAX_ALERT_CHARS:
        return message + "\n\nNothing was written."
    head: list[str] = []
    for line in lines:
        if len(head) == MAX_ALERT_LINES or sum(len(x) + 1 for x in head) + len(line) > MAX_ALERT_CHARS:
            break
        head.append(line)
    log = write_log(book, "Problems found:\n" + message)
    return "\n".join(head) + f"\n... and {len(lines) - len(head)} more (all of them are in {log}).\n\nNothing was written."


def log_path(book: Any) -> Path:
    """BOOK.musterroll.log beside the workbook (the temporary folder if there is none)."""
    try:
        path = Path(str(book.fullname))
        if path.is_absolute() and path.parent.is_dir():
            return path.with_name(path.stem + ".musterroll.log")
    except Exception:
        pass
    return Path(tempfile.gettempdir()) / "musterroll.log"


def write_log(book: Any, text: str) -> Path:
    path = log_path(book)
    try:
        import xlwings

        version = xlwings.__version__
    except Exception:  # the log must be written whatever is broken
        version = "unknown"
    head = (f"--- {dt.datetime.now().isoformat(timespec='seconds')} Musterroll Refit button; "
            f"Python {platform.python_version()} on {sys.platform}; xlwings {version}\n")
    for where in (path, Path(tempfile.gettempdir()) / "musterroll.log"):
        try:
            with open(where, "a", encoding="utf-8") as fh:
                fh.write(head + text.rstrip() + "\n")
            return where
        except OSError:
            continue
    return path


def _status(app: Any, text: str) -> None:
    _quietly(setattr, app, "status_bar", text)


def _alert(app: Any, text: str, mode: str) -> None:
    try:
        app.alert(text, title=TITLE, mode=mode)
    except Exception as exc:  # Excel would not show it: RunPython shows stderr instead
        print(f"{text}\n(the alert could not be shown: {exc})", file=sys.stderr)
        raise SystemExit(1) from None


def _quietly(call: Any, *args: Any) -> None:
    try:
        call(*args)
    except Exception:
        pass

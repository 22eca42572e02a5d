"""The ribbon button: save the workbook, run the command line's job on the file,
open the workbook again on the first new sheet.

The add-in's RunMain runs ``import musterroll_addin; musterroll_addin.main()``,
which is :func:`main` here. One click:

1. finds the Excel and the workbook clicked in from what RunPython passes
   (automation.excel.clicked; never ``xlwings.Book.caller()``);
2. refuses, with what to do, a workbook that is not an .xlsx file on this
   computer (never saved, an unsynced OneDrive or SharePoint address, a file
   Python may not open, as macOS's folder protection can decide);
3. notes the active sheet, saves the workbook and closes it (Excel would keep
   the file locked);
4. runs on the file exactly what the command line runs: the desk's job when the
   active sheet is a desk sheet (``musterroll roll-requests`` or
   ``musterroll trackers --only TRACKER``), else ``musterroll refit``: the same
   service functions, so the same bytes, charts and dropdowns included; a
   problem in the workbook leaves the file untouched;
5. opens the workbook again, on the first new sheet (or the sheet that was
   active), and shows one dialog: what was added and what follows, or the
   error as the command line words it (Sheet!Cell, what is there, what is valid).

A second click while a run is going (Excel stays usable on a Mac) does nothing
but say so in the status bar: one run at a time holds a lock file in the
temporary folder. Unexpected errors go to BOOK.musterroll.log beside the
workbook and a short dialog points to it. Every dialog goes through
automation.excel.dialogs, which falls back to an AppleScript alert (macOS) or
a Windows message box when Excel cannot show it.
"""
from __future__ import annotations

import datetime as dt
import platform
import sys
import tempfile
import traceback
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from automation.errors import MusterrollError
from automation.excel import dialogs
from automation.excel.clicked import ADDIN_SUFFIXES, Click, ExcelError, caller_app, find_book

LOCK_NAME = "musterroll-refit-button.lock"
MAX_ALERT_LINES = 15
MAX_ALERT_CHARS = 900


@dataclass
class Result:
    """What one click did: the message shown and the sheets added."""

    message: str
    critical: bool = False
    written: list[str] = field(default_factory=list)


def main(argv: list[str] | None = None) -> None:
    """The button, as RunPython runs it."""
    try:
        import xlwings as xw

        click = Click.from_argv(sys.argv if argv is None else argv)
        app = caller_app(click, xw.apps)
    except Exception as exc:  # no Excel to show the dialog in: the system's own dialog
        dialogs.alert(None, f"Musterroll could not reach the Excel you clicked in: {exc}.\n\nNothing was written.",
                      True)
        return
    click_refit(app, click.book_name)


def click_refit(app: Any, book_name: str, lock_folder: Path | None = None) -> Result | None:
    """One click on workbook ``book_name`` of ``app``; None if another run is going."""
    from filelock import FileLock, Timeout

    lock = FileLock(str(Path(lock_folder or tempfile.gettempdir()) / LOCK_NAME), timeout=0)
    try:
        lock.acquire()
    except Timeout:
        _status(app, "Musterroll: a refit is already running; wait for its message")
        return None
    try:
        result = _run(app, book_name)
        _status(app, f"Musterroll: {result.message.splitlines()[0]}")
        dialogs.alert(app, result.message, result.critical)
        return result
    finally:
        _quietly(setattr, app, "status_bar", False)
        lock.release()


def _run(app: Any, book_name: str) -> Result:
    path: Path | None = None
    closed = False
    sheet: str | None = None
    result = Result("")
    try:
        book = find_book(app, book_name)
        if str(book.name).lower().endswith(ADDIN_SUFFIXES):
            raise ExcelError(f"{book.name} is an add-in, not a campaign workbook. Click into the campaign "
                             "workbook's window, then click Refit")
        path = saved_path(book)
        sheet = active_sheet_name(book)
        _status(app, f"Musterroll: saving {book.name}...")
        try:
            book.save()
        except Exception as exc:
            raise ExcelError(f"{path}: Excel could not save the workbook ({exc}). Save it yourself, then click "
                             "Refit again") from None
        book.close()
        closed = True
        _status(app, f"Musterroll: working on {path.name}...")
        result = run_on_file(path, sheet)
    except MusterrollError as exc:
        result = Result(shown(str(exc), path), critical=exc.exit_code != 0)
    except Exception:
        log = write_log(path, "Unexpected error:\n" + traceback.format_exc())
        result = Result("The refit stopped on an unexpected error; nothing was written to the workbook.\n"
                        f"The details are in {log}. Please send that file with your report.", critical=True)
    if closed and path is not None:
        reopened = reopen(app, path, (result.written or [sheet])[0])
        if reopened is not None:
            result.message += f"\n\nExcel could not open {path} again ({reopened}): open it with File > Open."
    return result


def saved_path(book: Any) -> Path:
    """The .xlsx file of ``book`` on this computer, readable and writable by Python."""
    try:
        fullname = str(book.fullname or "")
    except Exception as exc:  # xlwings could not map a OneDrive/SharePoint address to a synced folder
        raise ExcelError(f"{book.name}: Excel gives the workbook's location as a web address (OneDrive or "
                         f"SharePoint) and no synced copy was found on this computer ({exc}). Let OneDrive sync "
                         "the folder, or save a copy in a local folder beside the key file and open that") from None
    path = Path(fullname)
    if "://" in fullname:
        raise ExcelError(f"{fullname}: the workbook is not a file on this computer. Save a copy in a local folder "
                         "beside its key file, open that copy, then click Refit again")
    if not fullname or not path.is_absolute():
        raise ExcelError(f"{book.name}: the workbook has not been saved yet. Save it as .xlsx in the folder of its "
                         "key file (BOOK.key beside BOOK.xlsx), then click Refit again")
    if path.suffix.lower() != ".xlsx":
        raise ExcelError(f"{path}: Musterroll works on .xlsx workbooks. Use File > Save As, Excel Workbook "
                         "(.xlsx), then click Refit again")
    try:
        with open(path, "r+b"):
            pass
    except PermissionError:
        raise ExcelError(f"{path}: Python may not open this file. On a Mac, macOS protects the Desktop, Documents "
                         "and Downloads folders: move the campaign to another folder (e.g. ~/Campaigns), or allow "
                         "Python in System Settings > Privacy & Security > Files and Folders") from None
    except FileNotFoundError:
        raise ExcelError(f"{path}: Excel names this file but it is not on the disk (a OneDrive folder not synced "
                         "yet?). Save the workbook in a local folder beside its key file, then click Refit again") \
            from None
    except OSError as exc:
        raise ExcelError(f"{path}: cannot be opened ({exc.strerror or exc})") from None
    return path


def active_sheet_name(book: Any) -> str | None:
    """The name of ``book``'s active sheet; None when Excel gives none (a chart sheet, say)."""
    try:
        return str(book.sheets.active.name)
    except Exception:
        return None


def run_on_file(path: Path, sheet: str | None) -> Result:
    """The command line's job for ``sheet`` on the file ``path``."""
    from automation.desk.service import desk_job

    job = desk_job(sheet)
    if job is None:
        from automation.service import refit

        outcome = refit(path)
        return Result(success_message(path.name, outcome.date, outcome.written, outcome.waiting, outcome.forms),
                      written=list(outcome.written))
    from automation.desk.service import roll_requests, update_trackers
    from automation.desk.trackers import TRACKERS

    if job == "Roll requests":
        desk = roll_requests(path)
    else:
        desk = update_trackers(path, only=[t.id for t in TRACKERS.values() if str(t.title) == job])
    left_out = [f"Left out (fix it and click again): {p}" for p in desk.problems]
    return Result(desk_message(path.name, job, desk.written, left_out + desk.notes), written=list(desk.written))


def reopen(app: Any, path: Path, sheet: str | None) -> str | None:
    """Open ``path`` again in ``app`` and bring ``sheet`` to the front; what failed, or None."""
    try:
        book = app.books.open(str(path))
    except Exception as exc:
        return str(exc) or type(exc).__name__
    if sheet:
        _quietly(lambda: book.sheets[sheet].activate())
    return None


def success_message(book_name: str, date: str | None, written: list[str], waiting: Any,
                    forms: list[str] | tuple[str, ...] = ()) -> str:
    lines = [f"Refit of {date} in {book_name}"]
    lines.append("Added: " + ", ".join(written) if written else "Nothing new to write.")
    if forms:
        lines.append(forms_line(forms))
    lines.append(f"Now {waiting}." if waiting else f"{date}: refit complete.")
    return "\n".join(lines)


def forms_line(forms: list[str] | tuple[str, ...]) -> str:
    """The forms a refit wrote for the decisions it waits for, as the dialog says them."""
    return f"Forms to fill: {', '.join(forms)} (set B2 of each to Ready when it is complete)."


def desk_message(book_name: str, job: str, written: list[str], notes: list[str]) -> str:
    """What the desk did: the sheets added, then its notes, cut to fit a dialog."""
    lines = [f"{job} in {book_name}"]
    if written:
        lines.append("Added: " + ", ".join(written))
    else:
        lines.append("Nothing new to write.")
        if job == "Roll requests" and not notes:
            lines.append("The Roll requests sheet lists no request yet: one row per roll, ID and Table at least.")
    room = MAX_ALERT_LINES - len(lines)
    if len(notes) > room:
        notes = notes[:room - 1] + [f"... and {len(notes) - room + 1} more: see the new sheets."]
    return "\n".join(lines + notes)


def shown(message: str, path: Path | None) -> str:
    """A Musterroll error as it is; a long list is cut, the whole kept in the log."""
    lines = message.splitlines()
    if len(lines) <= MAX_ALERT_LINES and len(message) <= MAX_ALERT_CHARS:
        return message + "\n\nNothing was written."
    head: list[str] = []
    for line in lines:
        if len(head) == MAX_ALERT_LINES or sum(len(x) + 1 for x in head) + len(line) > MAX_ALERT_CHARS:
            break
        head.append(line)
    log = write_log(path, "Problems found:\n" + message)
    return "\n".join(head) + f"\n... and {len(lines) - len(head)} more (all of them are in {log}).\n\nNothing was written."


def log_path(path: Path | None) -> Path:
    """BOOK.musterroll.log beside the workbook (the temporary folder if there is none)."""
    if path is not None and path.is_absolute() and path.parent.is_dir():
        return path.with_name(path.stem + ".musterroll.log")
    return Path(tempfile.gettempdir()) / "musterroll.log"


def write_log(path: Path | None, text: str) -> Path:
    try:
        import xlwings

        version = xlwings.__version__
    except Exception:  # the log must be written whatever is broken
        version = "unknown"
    head = (f"--- {dt.datetime.now().isoformat(timespec='seconds')} Musterroll Refit button; "
            f"Python {platform.python_version()} on {sys.platform}; xlwings {version}\n")
    for where in (log_path(path), Path(tempfile.gettempdir()) / "musterroll.log"):
        try:
            with open(where, "a", encoding="utf-8") as fh:
                fh.write(head + text.rstrip() + "\n")
            return where
        except OSError:
            continue
    return log_path(path)


def _status(app: Any, text: str) -> None:
    _quietly(setattr, app, "status_bar", text)


def _quietly(call: Any, *args: Any) -> None:
    try:
        call(*args)
    except Exception:
        pass

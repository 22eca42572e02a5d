"""Musterroll's Refit button in LibreOffice Calc (part of the musterroll.oxt extension).

LibreOffice runs this file with its own Python, which has none of Musterroll's
packages, so it only uses the standard library and ``uno``. One click:

1. stores the campaign workbook (it must already be an .xlsx file on disk);
2. closes it, so the file is free (Calc's lock file would stop the refit);
3. runs ``musterroll refit FILE --json`` with the program written into the
   extension when it was built (musterroll_calc.json: the project's
   virtual environment), exactly as on the command line;
4. opens the workbook again and shows the first new sheet;
5. tells what happened in a message box: what was added and what the refit
   waits for, or the error exactly as the command line words it (Sheet!Cell,
   what is there, what would be valid).

Every message shown is also appended, as one JSON line, to the file named by
the environment variable MUSTERROLL_CALC_MESSAGE_LOG when it is set.
"""
import json
import os
import subprocess
import time

import uno

EXTENSION_ID = "org.musterroll.calc"
SETTINGS_FILE = "musterroll_calc.json"
MESSAGE_LOG = "MUSTERROLL_CALC_MESSAGE_LOG"
TITLE = "Musterroll"
TIMEOUT_SECONDS = 900
MAX_MESSAGE_LINES = 20
_busy = []  # non-empty while a click is being handled: a second click then does nothing


def refit(*_args):
    """The Refit button."""
    if _busy:
        return
    _busy.append(True)
    try:
        _refit(XSCRIPTCONTEXT)  # noqa: F821 (given by LibreOffice's script provider)
    finally:
        _busy.clear()


def _refit(script_context):
    ctx = script_context.getComponentContext()
    desktop = script_context.getDesktop()
    doc = script_context.getDocument()
    if doc is None or not doc.supportsService("com.sun.star.sheet.SpreadsheetDocument"):
        return show(ctx, None, "Open the campaign workbook (.xlsx) in Calc, then click Refit.", True)
    frame = doc.getCurrentController().getFrame()
    if not doc.hasLocation():
        return show(ctx, frame, "This workbook has not been saved yet. Save it as Excel 2007-365 (.xlsx) in the "
                                "folder of its key file (BOOK.key beside BOOK.xlsx), then click Refit again.\n\n"
                                "Nothing was written.", True)
    url = doc.getURL()
    if not url.startswith("file:"):
        return show(ctx, frame, f"{url}: the workbook is not a file on this computer. Save a copy in a local "
                                "folder beside its key file, then click Refit again.\n\nNothing was written.", True)
    path = uno.fileUrlToSystemPath(url)
    if not path.lower().endswith(".xlsx"):
        return show(ctx, frame, f"{path}: Musterroll works on .xlsx workbooks. Use File > Save As, type "
                                "Excel 2007-365 (.xlsx), then click Refit again.\n\nNothing was written.", True)
    try:
        program = settings(ctx)["musterroll"]
    except (OSError, KeyError, ValueError) as exc:
        return show(ctx, frame, f"The Musterroll extension is incomplete ({exc}). Install it again with: "
                                "musterroll calc install\n\nNothing was written.", True)
    if not os.path.isfile(program):
        return show(ctx, frame, f"{program} is not there any more (was Musterroll moved or removed?). Install the "
                                "extension again from Musterroll's folder with: musterroll calc install\n\n"
                                "Nothing was written.", True)
    try:
        doc.store()
    except Exception as exc:  # a UNO IOException: read-only file, full disk...
        return show(ctx, frame, f"{path}: Calc could not save the workbook ({getattr(exc, 'Message', exc)}). "
                                "Save it yourself (File > Save), then click Refit again.\n\nNothing was written.",
                    True)
    sheet = doc.getCurrentController().getActiveSheet().getName()
    hidden = any(arg.Name == "Hidden" and arg.Value for arg in doc.getArgs())
    try:
        doc.close(True)
    except Exception as exc:  # a CloseVetoException: something else holds the document
        return show(ctx, frame, f"{path}: the workbook was saved, but Calc could not close it to refit the file "
                                f"({getattr(exc, 'Message', exc)}). Close it, run musterroll refit \"{path}\", "
                                "and open it again.", True)
    try:
        code, out, err = run(program, path)
    finally:
        doc = reopen(desktop, url, hidden)
    frame = doc.getCurrentController().getFrame() if doc is not None else None
    text, failed, first_new = outcome_text(code, out, err, path)
    if doc is not None:
        activate(doc, first_new or sheet)
    elif not failed:
        text += f"\n\nCalc could not open {path} again: open it with File > Open."
    show(ctx, frame, text, failed)


def settings(ctx):
    """The settings written into the extension when it was built."""
    provider = ctx.getValueByName("/singletons/com.sun.star.deployment.PackageInformationProvider")
    root = provider.getPackageLocation(EXTENSION_ID)
    if not root:
        raise KeyError(f"{EXTENSION_ID} is not installed")
    with open(uno.fileUrlToSystemPath(root + "/" + SETTINGS_FILE), encoding="utf-8") as fh:
        return json.load(fh)


def run(program, path):
    """``musterroll refit PATH --json``: (exit code, stdout, stderr)."""
    options = {}
    if os.name == "nt":
        options["creationflags"] = 0x08000000  # CREATE_NO_WINDOW: no console flashes up
    try:
        done = subprocess.run([program, "refit", path, "--json"], capture_output=True, text=True,
                              encoding="utf-8", errors="replace", timeout=TIMEOUT_SECONDS, **options)
    except subprocess.TimeoutExpired:
        return 3, "", f"the refit did not finish within {TIMEOUT_SECONDS // 60} minutes and was stopped"
    except OSError as exc:
        return 3, "", f"{program} could not be started ({exc})"
    return done.returncode, done.stdout, done.stderr


def outcome_text(code, out, err, path):
    """(message, failed, first new sheet or None) for what the command said."""
    if code == 0:
        try:
            outcome = json.loads(out)
        except ValueError:
            return f"The refit ended without a readable result:\n{out[-600:]}", True, None
        written = outcome.get("written") or []
        lines = [f"Refit of {outcome.get('date')} in {os.path.basename(path)}"]
        lines.append("Added: " + ", ".join(written) if written else "Nothing new to write.")
        forms = outcome.get("forms") or []
        if forms:
            lines.append(f"Forms to fill: {', '.join(forms)} (set B2 of each to Ready when it is complete).")
        waiting = outcome.get("waiting")
        if waiting:
            lines.append(f"Now waiting for {waiting.get('sheet')}: {waiting.get('what')}.")
        else:
            lines.append(f"{outcome.get('date')}: refit complete.")
        return "\n".join(lines), False, (written[0] if written else None)
    said = (err or out).strip()
    if said.startswith("musterroll: "):
        said = said[len("musterroll: "):]
    lines = said.splitlines() or [f"the refit stopped with exit code {code}"]
    if len(lines) > MAX_MESSAGE_LINES:
        lines = lines[:MAX_MESSAGE_LINES] + [f"... and {len(lines) - MAX_MESSAGE_LINES} more: run "
                                             f"musterroll refit \"{path}\" to see them all."]
    return "\n".join(lines) + "\n\nNothing was written.", True, None


def reopen(desktop, url, hidden):
    """The workbook opened again as it was (None if Calc cannot open it)."""
    options = (uno.createUnoStruct("com.sun.star.beans.PropertyValue", "Hidden", 0, hidden, 0),)
    for attempt in range(3):
        try:
            doc = desktop.loadComponentFromURL(url, "_default", 0, options)
            if doc is not None:
                return doc
        except Exception:
            pass
        time.sleep(0.5 * (attempt + 1))
    return None


def activate(doc, name):
    sheets = doc.getSheets()
    if sheets.hasByName(name):
        doc.getCurrentController().setActiveSheet(sheets.getByName(name))


def show(ctx, frame, text, failed):
    """The message box, and the same text in MUSTERROLL_CALC_MESSAGE_LOG when set."""
    log = os.environ.get(MESSAGE_LOG)
    if log:
        try:
            with open(log, "a", encoding="utf-8") as fh:
                fh.write(json.dumps({"kind": "error" if failed else "info", "text": text}, ensure_ascii=False) + "\n")
        except OSError:
            pass
    try:
        toolkit = ctx.getServiceManager().createInstanceWithContext("com.sun.star.awt.Toolkit", ctx)
        parent = frame.getContainerWindow() if frame is not None else toolkit.getDesktopWindow()
        kind = uno.Enum("com.sun.star.awt.MessageBoxType", "ERRORBOX" if failed else "INFOBOX")
        box = toolkit.createMessageBox(parent, kind, 1, TITLE, text)  # 1: MessageBoxButtons.BUTTONS_OK
        box.execute()
    except Exception:
        pass  # no window to show it in (a headless office): the log above has it


g_exportedScripts = (refit,)

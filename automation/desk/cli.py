"""Command-line commands of the dice desk (registered by automation.commands):
``roll-requests``, ``trackers`` and ``desk-add``. Each calls a function of
automation.desk.service, as the ribbon does."""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path


def report(outcome) -> int:
    """Print the outcome; the lines left out for their problems go to stderr,
    each at its cell (the run still wrote what the other lines resolved)."""
    if outcome.problems:  # listed as every refusal is (and capped the same way)
        from automation.errors import WorkbookError

        print(f"musterroll: {WorkbookError(outcome.problems, str(outcome.path))}", file=sys.stderr)
    return 0


def cmd_roll_requests(args: argparse.Namespace) -> int:
    from automation.desk.service import roll_requests

    outcome = roll_requests(Path(args.book), Path(args.key) if args.key else None)
    print(json.dumps(outcome.as_json(), ensure_ascii=False, indent=1) if args.json else outcome.summary())
    return report(outcome)


def cmd_trackers(args: argparse.Namespace) -> int:
    from automation.desk.service import update_trackers
    from automation.desk.trackers import TRACKERS
    from automation.errors import UsageError

    for t in args.only or ():
        if t not in TRACKERS:
            raise UsageError(f"unknown tracker {t!r}; valid: {', '.join(TRACKERS)}")
    outcome = update_trackers(Path(args.book), Path(args.key) if args.key else None, args.only)
    print(json.dumps(outcome.as_json(), ensure_ascii=False, indent=1) if args.json else outcome.summary())
    return report(outcome)


def cmd_desk_add(args: argparse.Namespace) -> int:
    from automation.desk.service import add_sheets

    added = add_sheets(Path(args.book), list(args.what))
    print("added: " + ", ".join(added))
    return 0


# The sheets desk-add knows (automation.desk.sheets.ADDABLE), spelled out so the
# command line starts without loading the workbook libraries.
ADDABLE = ("roll-requests", "greif", "dumps", "intensive-fire", "saturation", "game-ending", "engineering", "foo",
           "fire", "settings", "tables")


def register(sub: "argparse._SubParsersAction[argparse.ArgumentParser]") -> None:
    """Add the desk's commands to the parser."""
    p = sub.add_parser("roll-requests", help="resolve the new rows of the Roll requests sheet into a Desk log sheet")
    p.add_argument("book")
    p.add_argument("--key", help="the campaign key file (default: BOOK.key beside the workbook)")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_roll_requests)
    p = sub.add_parser("trackers", help="bring the tracker sheets (Greif, Supply dumps, Fires...) up to date")
    p.add_argument("book")
    p.add_argument("--only", action="append", metavar="TRACKER", help="only this tracker (repeatable)")
    p.add_argument("--key", help="the campaign key file (default: BOOK.key beside the workbook)")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_trackers)
    p = sub.add_parser("desk-add", help="append empty desk sheets: " + ", ".join(ADDABLE))
    p.add_argument("book")
    p.add_argument("what", nargs="+", metavar="SHEET", help=", ".join(ADDABLE))
    p.set_defaults(func=cmd_desk_add)

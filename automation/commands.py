"""Workbook commands of the command line (new, refit, undo, demo, ...).

Each command calls a service function; the ribbon add-in calls the same ones.
"""
from __future__ import annotations

import argparse
import json
from pathlib import Path


def cmd_new(args: argparse.Namespace) -> int:
    from automation.service import new_campaign

    out = new_campaign(args.system, Path(args.out), args.campaign, tuple(args.entropy or ()))
    print(f"created {out} and its key {out.with_suffix('.key')} (keep the key file; never email it)")
    return 0


def outcome_json(outcome) -> dict:
    from automation.render import roll_json

    forms = list(getattr(outcome, "forms", []))  # the forms this run wrote, each to fill and set Ready
    return {
        "workbook": str(outcome.path),
        "system": outcome.system,
        "date": outcome.date,
        "written": outcome.written,
        "completed_steps": outcome.completed,
        "waiting": None if outcome.waiting is None else {
            "who": outcome.waiting.who, "what": outcome.waiting.what, "sheet": outcome.waiting.sheet},
        "forms": forms,
        "pending": [{"who": p.who, "sheet": p.sheet, "what": p.what, "did_you_mean": p.near or None,
                     "form_written": p.sheet in forms}
                    for p in getattr(outcome, "pending", [])],
        "steps": [
            {"step": e.step, "rule": e.rule, "stage": e.stage, "side": e.side, "subject": e.subject, "text": e.text,
             "visible_to": e.visible_to, "roll": roll_json(e.roll) if e.roll else None}
            for e in outcome.entries
        ],
    }


def cmd_refit(args: argparse.Namespace) -> int:
    from automation.service import refit

    outcome = refit(Path(args.book), Path(args.key) if args.key else None)
    print(json.dumps(outcome_json(outcome), ensure_ascii=False, indent=1) if args.json
          else outcome.summary(quiet=args.quiet))
    return 0


def cmd_undo(args: argparse.Namespace) -> int:
    from automation.workbook.undo import remove_last_batch  # (not the service: undo reads no sheet, resolves no rule)

    removed = remove_last_batch(Path(args.book))
    print("removed: " + ", ".join(removed))
    return 0


DEMO_FOLDER = "musterroll-demo"


def cmd_demo(args: argparse.Namespace) -> int:
    from automation import samples, samples_abtf, samples_demo

    abtf = args.sample == "abtf"
    sample = samples_abtf.SAMPLE if abtf else samples.SAMPLE
    folder = Path(args.folder or DEMO_FOLDER)
    if args.folder is None:  # a fresh copy each time: musterroll-demo, musterroll-demo-2, ...
        n = 1
        while (folder / sample.name).exists():
            n += 1
            folder = Path(f"{DEMO_FOLDER}-{n}")
    (samples_abtf.run_demo if abtf else samples_demo.run_demo)(folder)
    return 0


def register(sub: "argparse._SubParsersAction[argparse.ArgumentParser]") -> None:
    """Add the workbook commands to the parser."""
    p = sub.add_parser("new", help="a new campaign workbook (and its key file beside it)")
    p.add_argument("system", help="a rule system id, as `musterroll tables --json` reports in 'system'")
    p.add_argument("out", help="the workbook to create, e.g. campaign.xlsx")
    p.add_argument("--campaign", help="the campaign's name (default: the file name)")
    p.add_argument("--entropy", action="append", metavar="TEXT", help="a player's secret mixed into the key (repeatable)")
    p.set_defaults(func=cmd_new)
    p = sub.add_parser("refit", help="run the refit as far as the decisions entered allow")
    p.add_argument("book")
    p.add_argument("--key", help="the campaign key file (default: BOOK.key beside the workbook)")
    output = p.add_mutually_exclusive_group()
    output.add_argument("--json", action="store_true", help="the outcome as JSON, every roll with its whole trail")
    output.add_argument("--quiet", action="store_true", help="only the sheets written and what the refit waits for")
    p.set_defaults(func=cmd_refit)
    p = sub.add_parser("undo", help="remove exactly the sheets the last refit added")
    p.add_argument("book")
    p.set_defaults(func=cmd_undo)
    p = sub.add_parser("demo", help="the main job on a bundled sample (Advance to Rostov, or abtf: A Bridge Too "
                                    "Far), in a fresh copy")
    p.add_argument("sample", nargs="?", choices=("rostov", "abtf"), default="rostov",
                   help="rostov (default) or abtf")
    p.add_argument("--folder", help="where the copy goes (default: ./musterroll-demo, or -2, -3... if taken)")
    p.set_defaults(func=cmd_demo)
    from automation.desk import cli as desk_cli
    from automation.excel import cli as excel_cli
    from automation.pbem import cli as pbem_cli

    for part in (pbem_cli, excel_cli, desk_cli):
        part.register(sub)

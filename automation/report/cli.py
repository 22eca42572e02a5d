"""The ``report`` command (registered by :mod:`automation.cli`)."""
from __future__ import annotations

import argparse
from pathlib import Path

from automation.pbem.cli import guarded


@guarded
def cmd_report(args: argparse.Namespace) -> int:
    from automation.report import build_report

    print(build_report(Path(args.book), Path(args.out), args.side, Path(args.key) if args.key else None,
                       args.reveal_key, args.quiet))
    return 0


def register(sub: "argparse._SubParsersAction[argparse.ArgumentParser]") -> None:
    p = sub.add_parser("report", help="the campaign at a glance: one self-contained HTML file (umpire or one side)")
    p.add_argument("book")
    p.add_argument("--side", help="a report for this side only: built from its export, it holds nothing more")
    p.add_argument("-o", "--out", required=True, help="the HTML file to write, e.g. report.html")
    p.add_argument("--key", help="the campaign key file (default: BOOK.key beside the workbook)")
    p.add_argument("--reveal-key", action="store_true",
                   help="print the campaign key in the report (once the campaign is over) so players can verify")
    p.add_argument("--quiet", action="store_true", help="no progress bar on stderr")
    p.set_defaults(func=cmd_report)

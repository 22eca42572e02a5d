"""Command-line commands of play by email (registered by automation.commands):
export, import, verify and stats."""
from __future__ import annotations

import argparse
import functools
import json
import os
from collections.abc import Callable
from pathlib import Path

from automation.errors import MusterrollError, VerificationError, WorkbookFileError, listed


def guarded(func: Callable[[argparse.Namespace], int]) -> Callable[[argparse.Namespace], int]:
    """Whatever a hostile file makes a library raise becomes a clear error
    (exit 2) naming the file, never a traceback (MUSTERROLL_DEBUG=1 shows it)."""

    @functools.wraps(func)
    def run(args: argparse.Namespace) -> int:
        try:
            return func(args)
        except MusterrollError:
            raise
        except MemoryError:
            raise WorkbookFileError(f"{args.book}: the workbook is too large to read") from None
        except Exception as exc:  # noqa: BLE001 - the promise is: no traceback for any input
            if os.environ.get("MUSTERROLL_DEBUG"):
                raise
            raise WorkbookFileError(f"{args.book}: cannot be used ({type(exc).__name__}: {str(exc)[:200]})") from None

    return run


@guarded
def cmd_export(args: argparse.Namespace) -> int:
    from automation.pbem.export import export

    print(export(Path(args.book), args.side, Path(args.out), args.password, Path(args.key) if args.key else None))
    return 0


@guarded
def cmd_import(args: argparse.Namespace) -> int:
    from automation.pbem.importer import import_orders

    print(import_orders(Path(args.book), Path(args.orders), args.password, Path(args.key) if args.key else None))
    return 0


@guarded
def cmd_verify(args: argparse.Namespace) -> int:
    from automation.pbem.checks import verify

    path = Path(args.book)
    result = verify(path, Path(args.key) if args.key else None, tuple(args.contribution or ()))
    if result.problems:
        lines = [f"{path}: verification failed: {len(result.problems)} problem(s)"]
        lines += listed(result.problems, lambda p: f"  {p}")
        raise VerificationError("\n".join(lines))
    print(result.summary(path, result.key_file is not None))
    return 0


@guarded
def cmd_stats(args: argparse.Namespace) -> int:
    from automation.pbem.checks import campaign_stats
    from automation.pbem import stats

    found = campaign_stats(Path(args.book))
    if args.json:
        print(json.dumps({"workbook": str(args.book), **stats.as_json(found)}, ensure_ascii=False, indent=1))
    else:
        print(stats.text(found))
    return 0


def register(sub: "argparse._SubParsersAction[argparse.ArgumentParser]") -> None:
    """Add this part's commands to the parser."""
    p = sub.add_parser("export", help="a workbook for one side: what it may see, and its orders sheet to fill")
    p.add_argument("book")
    p.add_argument("--side", required=True, help="the side the export is for")
    p.add_argument("-o", "--out", required=True, help="the workbook to write, e.g. german.xlsx")
    p.add_argument("--password", help="encrypt the export with this password (Excel asks for it)")
    p.add_argument("--key", help="the campaign key file (default: BOOK.key beside the workbook)")
    p.set_defaults(func=cmd_export)
    p = sub.add_parser("import", help="check a side's returned orders and add them to the campaign workbook")
    p.add_argument("book")
    p.add_argument("orders", help="the export the player filled in and sent back")
    p.add_argument("--password", help="the password the returned workbook is encrypted with")
    p.add_argument("--key", help="the campaign key file (default: BOOK.key beside the workbook)")
    p.set_defaults(func=cmd_import)
    p = sub.add_parser("verify", help="check the reports' tamper-evident chain (and, with --key, every roll)")
    p.add_argument("book")
    p.add_argument("--key", help="the campaign key file (default: BOOK.key beside the workbook, when there): also "
                        "check the seals, re-derive every roll and run every refit again")
    p.add_argument("--contribution", action="append", metavar="TEXT",
                   help="a player's entropy text given to `musterroll new` (repeatable, in order): check the key was "
                        "made from them (needs --key)")
    p.set_defaults(func=cmd_verify)
    p = sub.add_parser("stats", help="per side, every table's results over the campaign against their exact odds")
    p.add_argument("book")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_stats)

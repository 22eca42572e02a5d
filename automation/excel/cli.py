"""Command-line commands of this part (registered by automation.commands):
``musterroll addin build | install | uninstall | status | test-workbooks``."""
from __future__ import annotations

import argparse
from pathlib import Path


def cmd_build(args: argparse.Namespace) -> int:
    from automation.excel.build import build_addin, xlwings_version

    path = build_addin(Path(args.out))
    print(f"built {path} from the xlwings {xlwings_version()} custom add-in")
    return 0


def cmd_install(args: argparse.Namespace) -> int:
    from automation.excel.install import install

    print(install(Path(args.file) if args.file else None))
    return 0


def cmd_uninstall(args: argparse.Namespace) -> int:
    from automation.excel.install import uninstall

    print(uninstall())
    return 0


def cmd_status(args: argparse.Namespace) -> int:
    from automation.excel.install import status

    print(status())
    return 0


def cmd_test_workbooks(args: argparse.Namespace) -> int:
    from automation.excel.rehearsal import make_test_workbooks

    print("\n".join(make_test_workbooks(Path(args.folder))))
    return 0


def register(sub: "argparse._SubParsersAction[argparse.ArgumentParser]") -> None:
    """Add this part's commands to the parser."""
    from automation.excel.names import ADDIN_DIR, ADDIN_FILE

    p = sub.add_parser("addin", help="the Excel add-in: a Musterroll ribbon tab with a Refit button")
    addin = p.add_subparsers(dest="addin_command", required=True)
    b = addin.add_parser("build", help=f"rebuild {ADDIN_FILE} from the installed xlwings' custom add-in")
    b.add_argument("--out", default=str(ADDIN_DIR), help=f"the folder to write it to (default: {ADDIN_DIR})")
    b.set_defaults(func=cmd_build)
    i = addin.add_parser("install", help="install the add-in in Excel (Windows, macOS), running this Python")
    i.add_argument("--file", help=f"an add-in file to install instead of the bundled {ADDIN_FILE}")
    i.set_defaults(func=cmd_install)
    u = addin.add_parser("uninstall", help="remove the add-in from Excel (Windows, macOS)")
    u.set_defaults(func=cmd_uninstall)
    s = addin.add_parser("status", help="say whether the add-in is installed (Windows, macOS)")
    s.set_defaults(func=cmd_status)
    t = addin.add_parser("test-workbooks", help="copies of the sample for the add-in's manual release test "
                                                "(docs/excel.md), with musterroll refit's results beside them")
    t.add_argument("folder", help="a new (or empty) folder")
    t.set_defaults(func=cmd_test_workbooks)

"""``musterroll calc build | install | uninstall | status`` (registered by automation.cli)."""
from __future__ import annotations

import argparse
from pathlib import Path


def cmd_build(args: argparse.Namespace) -> int:
    from automation.calc.build import build_oxt, settings_of

    path = build_oxt(Path(args.out))
    print(f"built {path}; its Refit button runs {settings_of(path)['musterroll']}")
    return 0


def cmd_install(args: argparse.Namespace) -> int:
    from automation.calc.install import install

    print(install(args.user_installation))
    return 0


def cmd_uninstall(args: argparse.Namespace) -> int:
    from automation.calc.install import uninstall

    print(uninstall(args.user_installation))
    return 0


def cmd_status(args: argparse.Namespace) -> int:
    from automation.calc.install import status

    print(status(args.user_installation))
    return 0


def register(sub: "argparse._SubParsersAction[argparse.ArgumentParser]") -> None:
    p = sub.add_parser("calc", help="the LibreOffice Calc extension: a Musterroll toolbar with a Refit button")
    calc = p.add_subparsers(dest="calc_command", required=True)
    b = calc.add_parser("build", help="write musterroll.oxt, set to run this environment's musterroll")
    b.add_argument("--out", default=".", help="the folder to write it to (default: the current folder)")
    b.set_defaults(func=cmd_build)
    for name, func, text in (("install", cmd_install, "build the extension and install it with LibreOffice's unopkg"),
                             ("uninstall", cmd_uninstall, "remove the extension from LibreOffice"),
                             ("status", cmd_status, "say whether the extension is installed")):
        c = calc.add_parser(name, help=text)
        c.add_argument("--user-installation", metavar="URL",
                       help="a LibreOffice profile other than the usual one (file: URL, passed to unopkg as "
                            "-env:UserInstallation=URL)")
        c.set_defaults(func=func)

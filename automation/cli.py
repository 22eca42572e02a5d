"""The ``musterroll`` command line. Heavy libraries are imported only by the
commands that use them, so table look-ups start fast."""
from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Sequence
from typing import NoReturn
from pathlib import Path

from automation.errors import MusterrollError, UsageError


def _rulebook():
    from automation.rulebook import load_rulebook

    return load_rulebook()


def _table(table_id: str):
    from automation.rulebook import find_table

    found = find_table(table_id)  # the one rules file that defines it, not all of them
    if found is not None:
        return found
    book = _rulebook()
    try:
        return book.table(table_id)
    except KeyError:
        ids = ", ".join(t.id for t in book.all_tables())
        raise UsageError(f"unknown table {table_id!r}; valid: {ids}") from None


def _situation(args: argparse.Namespace, table):
    from automation.engine.resolver import AppliedModifier, Situation

    quantities: dict[str, int] = {}
    for item in args.set or ():
        name, _, value = item.partition("=")
        try:
            quantities[name] = int(value)
        except ValueError:
            raise UsageError(f"--set {item!r}: expected NAME=INTEGER") from None
    extra = (AppliedModifier("Die-roll modifier given", args.drm, "command line", "drm"),) if args.drm else ()
    return Situation(frozenset(args.when or ()), quantities, extra)


def cmd_tables(args: argparse.Namespace) -> int:
    book = _rulebook()
    systems = [args.system] if args.system else list(book.systems)
    for s in systems:
        if s not in book.systems:
            raise UsageError(f"unknown system {s!r}; valid: {', '.join(book.systems)}")
    items = []
    for s in systems:
        system = book.systems[s]
        for t in system.tables.values():
            items.append({
                "id": t.id, "system": s, "title": t.title, "source": t.source, "dice": t.dice.value,
                "columns": list(t.columns), "kind": t.kind.value, "umpire_entered": t.umpire_entered,
                "modifiers": [
                    {"id": m.id, "name": m.name, "value": m.value, "source": m.source, "when": m.when,
                     "input": m.input, "columns": list(m.columns)} for m in t.modifiers
                ],
            })
        for c in system.charts.values():
            items.append({
                "id": c.id, "system": s, "title": c.title, "source": c.source, "dice": None,
                "columns": list(c.columns), "kind": "chart", "umpire_entered": c.umpire_entered,
            })
    if args.json:
        print(json.dumps(items, indent=2, ensure_ascii=False))
    else:
        for i in items:
            print(f"{i['id']:<40} {i['source']:<12} {i['dice'] or 'chart':<6} {i['title']}")
    return 0


def cmd_odds(args: argparse.Namespace) -> int:
    from automation.engine.resolver import applied_modifiers, odds
    from automation.render import outcome_json, table_text

    table = _table(args.table)
    column = args.column or table.default_column()
    if column not in table.columns:
        raise UsageError(f"table {table.id} has no column {column!r}; valid: {', '.join(table.columns)}")
    drm = sum(m.value for m in applied_modifiers(table, column, _situation(args, table)))
    outcomes = odds(table, column, drm)
    if args.json:
        print(json.dumps({"table": table.id, "drm": drm, "column": column,
                          "outcomes": [outcome_json(o) for o in outcomes]}, ensure_ascii=False))
    else:
        print(table_text(table, column, drm, outcomes))
    return 0


def cmd_roll(args: argparse.Namespace) -> int:
    from automation.engine.dice import CampaignKey, RollLabel
    from automation.engine.resolver import roll, roll_opposed
    from automation.engine.tables import TableKind
    from automation.render import roll_json, roll_text

    table = _table(args.table)
    key = CampaignKey.from_text(args.seed)
    try:
        label = RollLabel.parse(args.label)
    except ValueError as exc:
        raise UsageError(f"--label {args.label!r}: {exc}") from None
    if table.kind is TableKind.OPPOSED:
        res = roll_opposed(table, key, label, (table.columns[0], table.columns[1]))
        data = {"label": res.label, "table": res.table_id, "source": res.source,
                "throws": [list(t) for t in res.throws], "result": f"{res.winner} higher"}
        print(json.dumps(data) if args.json else f"{res.label}: throws {res.throws} -> {res.winner} higher")
        return 0
    result = roll(table, key, label, _situation(args, table), column=args.column)
    print(json.dumps(roll_json(result), ensure_ascii=False) if args.json else roll_text(result))
    return 0


def _add_roll_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("table", help="table id, as `musterroll tables` lists it")
    p.add_argument("--drm", type=int, default=0, help="an extra die-roll modifier (integer)")
    p.add_argument("--column", help="result column (default: the first)")
    p.add_argument("--when", action="append", metavar="CONDITION", help="a named condition of the table that holds")
    p.add_argument("--set", action="append", metavar="NAME=N", help="a quantity a computed modifier needs")
    p.add_argument("--json", action="store_true")


OWN = ("tables", "odds", "roll")  # the commands this module registers itself; the others' modules register theirs


class _Partial(argparse.ArgumentParser):
    """A command line built for one command: an error it finds is said by the
    whole command line instead (whose usage lists every command)."""

    def error(self, message: str) -> NoReturn:
        raise _Whole


class _Whole(Exception):
    pass


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The whole command line, or (``only``, one of :data:`OWN`) just that
    command: a table look-up does not build and import every other command's
    options (its help is the same; an error is said by the whole command line)."""
    parser = (_Partial if only in OWN else argparse.ArgumentParser)(
        prog="musterroll", description="Refit phases for WW2 wargame campaigns kept in Excel.")
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("tables", help="list the rule systems' tables and charts")
    p.add_argument("--system")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_tables)
    p = sub.add_parser("odds", help="exact odds of a table's results")
    _add_roll_options(p)
    p.set_defaults(func=cmd_odds)
    p = sub.add_parser("roll", help="an auditable roll on a table")
    _add_roll_options(p)
    p.add_argument("--seed", required=True, help="the key the roll derives from")
    p.add_argument("--label", required=True, help="what the roll is for, e.g. 24DEC/cpp/German")
    p.set_defaults(func=cmd_roll)
    if only in OWN:
        return parser
    from automation import commands
    from automation.calc import cli as calc_cli

    commands.register(sub)
    from automation.report import cli as report_cli

    report_cli.register(sub)
    calc_cli.register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    try:
        args = build_parser(argv[0] if argv and argv[0] in OWN else None).parse_args(argv)
    except _Whole:
        args = build_parser().parse_args(argv)  # says the error, and exits
    try:
        return int(args.func(args) or 0)
    except MusterrollError as exc:
        print(f"musterroll: {exc}", file=sys.stderr)
        return exc.exit_code
    except KeyboardInterrupt:  # pragma: no cover
        return 130


COLLECT_EVERY = 200_000  # the young generation's threshold of the cycle collector (see run)


def run(argv: Sequence[str] | None = None) -> int:
    """The command line as a process of its own (``musterroll``, ``python -m
    automation``): the cycle collector runs rarely, and never over what the
    start-up loaded. A command allocates many small objects (rows, cells,
    carried entries) and frees them by reference counting; with the default
    thresholds the collector scanned them hundreds of times a run (half a
    second of a first export of a long campaign). Cycles are still
    collected, every 200,000 allocations net: a young generation's
    collection costs in proportion to its size, so fewer, larger ones cost
    the same in all, while a command that allocates less than that (every
    command on a campaign whose carried work is done) is never paused; at
    50,000 a long campaign's export and verify each paid one 25 ms pause a
    short one did not. A caller that runs :func:`main` in its own process
    (the tests, an add-in) keeps its own settings."""
    import gc

    gc.freeze()
    gc.set_threshold(COLLECT_EVERY, 20, 10)
    return main(argv)


def console() -> NoReturn:
    """The process entry (``musterroll``, ``python -m automation``): :func:`run`,
    then the process ends at once, with its output flushed. Every file a
    command writes is written, synced and closed before it returns, so what
    the interpreter would do on its way out (take apart every module and free
    every object one by one: about 0.15 s after a refit of 5,000 stands) is
    left to the system, which takes the memory back whole. A process that
    still runs another thread or child process (a report's background check
    that failed early) ends the usual way, waiting for them."""
    code = run()
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except (OSError, ValueError):  # a closed or broken pipe: let the interpreter report it as it does
        raise SystemExit(code) from None
    if _others_running():
        raise SystemExit(code)
    os._exit(code)


def _others_running() -> bool:
    import threading

    if threading.active_count() > 1:
        return True
    processes = sys.modules.get("multiprocessing")
    return processes is not None and bool(processes.active_children())


if __name__ == "__main__":  # pragma: no cover
    console()

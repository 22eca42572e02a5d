"""The dice desk's and the trackers' rolls in ``musterroll verify``.

Their log sheets ("Desk <date> <n>", "<tracker sheet> log <n>") are dated
sheets of the contract: the next refit's report seals them into the chain
like orders and results. With the key, each logged roll is derived again from
its Label (dice, natural, DRM = the modifiers listed, final, result on the
table as the desk has it; a tracker's Result is its own text, sealed by the
chain), and a request's label must be the one its ID
gives (``desk/request/<ID>``). Dice rolled at the table and entered by hand
(``physical/...``, Dice marked "(physical)") cannot come from the key: they
are counted and listed, never taken for keyed rolls.
"""
from __future__ import annotations

import dataclasses
import functools
import re
from dataclasses import dataclass, field
from typing import Any

from automation.engine.dice import CampaignKey, RollLabel
from automation.errors import CellProblem
from automation.pbem.reports import Header, as_int, norm, parse_dice, title_pattern, title_prefix


def desk_log_kinds() -> tuple[Any, ...]:
    from automation.workbook.desk_sheets import DESK_LOG, TRACKER_LOG

    return (DESK_LOG, TRACKER_LOG)


@functools.cache
def _log_patterns() -> tuple[tuple[str, re.Pattern[str]], ...]:
    """The text their names begin with and the name pattern of each of :func:`desk_log_kinds`, made once: verify
    asks about every sheet of a long campaign two or three times (2.3 µs a name found anew each time, 0.3 µs so;
    the pattern is tried only on a name that begins as it does)."""
    return tuple((title_prefix(kind), title_pattern(kind)) for kind in desk_log_kinds())


def is_desk_log(name: str, header: list[Any] | None = None) -> bool:
    """A log sheet the desk or a tracker appended (its header holds Result and Label)."""
    for prefix, pattern in _log_patterns():
        if name.startswith(prefix) and pattern.match(name):
            if header is None:
                return True
            present = {str(h).strip() for h in header if h not in (None, "")}
            return {"Result", "Label", "Table"} <= present
    return False


@dataclass
class DeskChecked:
    rolls: int = 0
    physical: list[str] = field(default_factory=list)
    problems: list[CellProblem] = field(default_factory=list)


def check_desk(book: Any, key: CampaignKey | None) -> DeskChecked:
    """Every roll of every desk and tracker log in ``book``."""
    from automation.desk.tables import desk_tables

    out = DeskChecked()
    logs = [n for n in book.sheet_names if is_desk_log(n)]
    logs = [n for n in logs if is_desk_log(n, (book.raw(n)[:1] or [[]])[0])]
    if not logs:
        return out
    tables = desk_tables(book)
    for name in logs:
        _check_log(name, book.raw(name), tables, key, out)
    return out


def _check_log(name: str, rows: list[list[Any]], tables: dict[str, Any], key: CampaignKey | None,
               out: DeskChecked) -> None:
    from automation.audit.rolls import dice_text, modifiers_drm
    from automation.desk.dice import PHYSICAL_MARK, is_physical
    from automation.engine.resolver import Situation, resolve
    from automation.workbook.desk_sheets import DESK_LOG

    h = Header.of(rows[0])
    requests = bool(title_pattern(DESK_LOG).match(name)) and "ID" in h.positions
    for i, row in enumerate(rows[1:], start=2):
        label = norm(h.get(row, "Label"))
        table_id = norm(h.get(row, "Table")).split(" (")[0].strip()
        if not label or not table_id:
            continue

        def bad(column: str, message: str) -> None:
            out.problems.append(CellProblem(name, h.cell(column, i), message))

        table = tables.get(table_id)
        if table is None:
            bad("Table", f"table {table_id!r} is not a table the desk knows")
            continue
        shown = norm(h.get(row, "Dice"))
        physical = is_physical(label)
        if physical != shown.endswith(PHYSICAL_MARK):
            bad("Dice", f"{shown!r} with label {label!r}: physical dice carry a 'physical/' label and the mark "
                        f"'{PHYSICAL_MARK.strip()}', keyed dice neither")
            continue
        if requests and not physical:
            expected = str(RollLabel.of("desk", "request", norm(h.get(row, "ID"))))
            if label != expected:
                bad("Label", f"relabelled roll: written {label!r}, the request's ID gives {expected!r}")
                continue
        if physical:
            parsed = parse_dice(shown[:-len(PHYSICAL_MARK)])
            if parsed is None or parsed[0] != table.dice.value:
                bad("Dice", f"{shown!r} is not a throw of {table.dice.value}")
                continue
            dice = parsed[1]
            out.physical.append(f"{name}!{h.cell('Dice', i)}: {label} on {table.id}, {shown}")
        else:
            if not label.startswith("desk/"):
                bad("Label", f"{label!r}: a desk roll's label begins with desk/ (or physical/ for dice entered by hand)")
                continue
            out.rolls += 1
            if key is None:
                continue
            dice = key.throw(table.dice, RollLabel.parse(label))
            if shown != dice_text(table.dice, dice):
                bad("Dice", f"shows {shown!r} but the key gives {dice_text(table.dice, dice)!r} for {label}")
                continue
        natural = table.dice.total(dice)
        if as_int(h.get(row, "Natural")) != natural:
            bad("Natural", f"shows {norm(h.get(row, 'Natural')) or 'nothing'} but the dice read {natural}")
            continue
        drm = modifiers_drm(norm(h.get(row, "Modifiers")))
        if drm is None or as_int(h.get(row, "DRM")) != drm:
            bad("DRM", f"shows {norm(h.get(row, 'DRM')) or 'nothing'} but the modifiers listed add up to "
                       f"{drm if drm is not None else '(unreadable modifiers)'}")
            continue
        column = norm(h.get(row, "Column")) or table.default_column()
        if column not in table.columns:
            bad("Column", f"{column!r} is not a column of {table.id}; valid: {', '.join(table.columns)}")
            continue
        r = resolve(dataclasses.replace(table, modifiers=()), dice, Situation.with_drm(drm), column=column)
        if as_int(h.get(row, "Final")) != r.final:
            bad("Final", f"shows {norm(h.get(row, 'Final')) or 'nothing'} but natural {natural} with DRM {drm:+d} "
                         f"gives {r.final}")
        elif requests and norm(h.get(row, "Result")) != r.result:  # a tracker's Result is its own text
            bad("Result", f"shows {norm(h.get(row, 'Result'))!r} but {table.id} gives {r.result!r} for final {r.final}")

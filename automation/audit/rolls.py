"""Each roll of a report re-derived from the campaign key and its Label:
dice, natural, DRM (the sum of the modifiers listed), final and result."""
from __future__ import annotations

import dataclasses
import re
from typing import Any

from automation.engine.dice import CampaignKey, DiceKind, RollLabel
from automation.errors import CellProblem
from automation.pbem.reports import Header, norm, roll_rows

def dice_text(kind: DiceKind, dice: tuple[int, ...]) -> str:
    shown = "+".join(str(d) for d in dice) if kind is not DiceKind.D100 else f"{dice[0] % 10}{dice[1] % 10}"
    return f"{kind.value}: {shown}"


def modifiers_drm(text: str) -> int | None:
    if text.strip().lower() in ("", "none"):
        return 0
    parts = [p for p in text.split("; ")]
    values = [re.match(r"([+-]\d+) ", p) for p in parts]
    if not all(values):
        return None
    return sum(int(m.group(1)) for m in values if m)


def check_rolls(sheet: str, rows: list[list[Any]], key: CampaignKey, system: Any, results: bool) -> list[CellProblem]:
    """Re-derive every roll of a report from the key and its Label."""
    from automation.engine.resolver import Situation, resolve
    from automation.pbem.reports import as_int

    h = Header.of(rows[0])
    out: list[CellProblem] = []
    for r in roll_rows(sheet, rows):
        at = lambda column: CellProblem(sheet, h.cell(column, r.row), "")  # noqa: E731

        def bad(column: str, message: str) -> None:
            out.append(dataclasses.replace(at(column), message=message))

        table = system.tables.get(r.table_id)
        if table is None:
            bad("Table", f"table {r.table_id!r} is not a table of the campaign's rule system")
            continue
        try:
            label = RollLabel.parse(r.label)
        except ValueError:
            bad("Label", f"{r.label!r} is not a roll label")
            continue
        if str(label) != r.label:
            bad("Label", f"{r.label!r} is not written as the refit writes labels")
            continue
        dice = key.throw(table.dice, label)
        expected = dice_text(table.dice, dice)
        if r.dice.strip() != expected:
            bad("Dice", f"shows {r.dice!r} but the key gives {expected!r} for {r.label}")
            continue
        natural = table.dice.total(dice)
        if as_int(r.natural) != natural:
            bad("Natural", f"shows {norm(r.natural) or 'nothing'} but the dice {expected!r} read {natural}")
        drm = modifiers_drm(r.modifiers)
        if drm is None or as_int(r.drm) != drm:
            bad("DRM", f"shows {norm(r.drm) or 'nothing'} but the modifiers listed add up to "
                       f"{drm if drm is not None else '(unreadable modifiers)'}")
            continue
        final = natural + drm
        if table.clamp:
            final = max(table.clamp[0], min(table.clamp[1], final))
        if as_int(r.final) != final:
            bad("Final", f"shows {norm(r.final) or 'nothing'} but natural {natural} with DRM {drm:+d} gives {final}")
        if not results or r.result is None:
            continue
        column = r.column or table.default_column()
        if column not in table.columns:
            bad("Table column", f"{column!r} is not a column of {table.id}; valid: {', '.join(table.columns)}")
            continue
        bare = dataclasses.replace(table, modifiers=())
        result = resolve(bare, dice, Situation.with_drm(drm), column=column).result
        if result != r.result:
            bad("Table result", f"shows {r.result!r} but {table.id} gives {result!r} for final {final}")
    return out

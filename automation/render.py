"""Text rendering of tables, odds and rolls (kept apart from the results)."""
from __future__ import annotations

from fractions import Fraction
from typing import Any

from automation.engine.resolver import Outcome, RollResult
from automation.engine.tables import Table, TableKind


def percent(p: Fraction) -> str:
    value = float(p) * 100
    return f"{value:.2f}%" if value not in (0, 100) else f"{value:.0f}%"


def table_text(table: Table, column: str, drm: int, outcomes: list[Outcome]) -> str:
    lines = [f"{table.title} ({table.id}, rule {table.source}), {table.dice.value}, column {column}, DRM {drm:+d}"]
    if table.kind is TableKind.OPPOSED:
        lines += [f"  {o.result:<40} {percent(o.probability):>8}" for o in outcomes]
        return "\n".join(lines)
    chance = {o.result: o.probability for o in outcomes}
    lines.append(f"  {'final':<8} {'result':<50} {'odds':>8}")
    shown: set[str] = set()
    for band in table.bands:
        result = band.results[column]
        odds = percent(chance.get(result, Fraction(0))) if result not in shown else '"'
        shown.add(result)
        lines.append(f"  {band.label:<8} {result:<50} {odds:>8}")
    for rule in table.naturals:
        if column in rule.results:
            which = "doubles" if rule.doubles else f"natural {rule.total}"
            lines.append(f"  {which:<8} {rule.results[column]:<50} {percent(chance.get(rule.results[column], Fraction(0))):>8}")
    if table.modifiers:
        lines.append("  modifiers:")
        for m in table.modifiers:
            lines.append(f"    {m.describe():<14} {m.name} ({m.source})")
    return "\n".join(lines)


def roll_text(r: RollResult) -> str:
    mods = ", ".join(str(m) for m in r.modifiers) or "none"
    return (
        f"{r.label}: {r.table_title} ({r.source}) {r.dice_kind.value} {list(r.dice)} = {r.natural}; "
        f"modifiers {mods}; final {r.final} -> {r.result} (odds {percent(r.probability)})"
    )


def roll_json(r: RollResult) -> dict[str, Any]:
    return {
        "label": r.label,
        "table": r.table_id,
        "title": r.table_title,
        "source": r.source,
        "column": r.column,
        "dice_kind": r.dice_kind.value,
        "dice": list(r.dice),
        "natural": r.natural,
        "modifiers": [{"id": m.id, "name": m.name, "value": m.value, "source": m.source} for m in r.modifiers],
        "drm": r.drm,
        "final": r.final,
        "band": r.band,
        "row": r.row,
        "result": r.result,
        "effect": dict(r.effect),
        "probability": float(r.probability),
        "fraction": str(r.probability),
    }


def outcome_json(o: Outcome) -> dict[str, Any]:
    return {"result": o.result, "probability": float(o.probability), "fraction": str(o.probability), "bands": list(o.bands)}

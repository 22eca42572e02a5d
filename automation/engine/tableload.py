"""Build and check a :class:`RuleSystem` from plain data (a parsed rules file).

Every problem names the origin (file or sheet), the table and the row, and
says what would be valid. Checks: unique readable ids, a source on every table,
chart and modifier, a result for every column of every row, and that every
final number a table can reach falls in exactly one band.
"""
from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from automation.engine.dice import DiceKind
from automation.engine.tables import (
    DEFAULT_COLUMN,
    Band,
    Chart,
    Modifier,
    NaturalRule,
    Rounding,
    RuleSystem,
    Table,
    TableKind,
)
from automation.errors import RulesError

ID_PATTERN = re.compile(r"^[a-z][a-z0-9]*(\.[a-z0-9][a-z0-9_]*)+$")
NAME_PATTERN = re.compile(r"^[a-z][a-z0-9_]*$")
SYSTEM_PATTERN = re.compile(r"^[a-z][a-z0-9-]*$")


class _Where:
    """Builds error messages naming origin, table and row."""

    def __init__(self, origin: str) -> None:
        self.origin = origin

    def fail(self, where: str, message: str) -> RulesError:
        return RulesError(self.origin, f"{where}: {message}")


def _req(where: _Where, ctx: str, data: Mapping[str, Any], key: str, kind: type | tuple[type, ...]) -> Any:
    if key not in data:
        raise where.fail(ctx, f"missing '{key}'")
    value = data[key]
    if isinstance(value, bool) and kind in (int, (int,)):
        raise where.fail(ctx, f"'{key}' must be an integer, not {value!r}")
    if not isinstance(value, kind):
        names = kind.__name__ if isinstance(kind, type) else " or ".join(k.__name__ for k in kind)
        raise where.fail(ctx, f"'{key}' must be {names}, not {value!r}")
    if isinstance(value, str) and not value.strip():
        raise where.fail(ctx, f"'{key}' is empty")
    return value


def _opt_int(where: _Where, ctx: str, data: Mapping[str, Any], key: str) -> int | None:
    if key not in data:
        return None
    return _req(where, ctx, data, key, int)


_MODIFIER_KEYS = {
    "id", "name", "source", "value", "when", "input", "per", "offset", "round",
    "minimum", "group", "columns", "note",
}


def _modifier(where: _Where, ctx: str, data: Mapping[str, Any], columns: tuple[str, ...]) -> Modifier:
    unknown = set(data) - _MODIFIER_KEYS
    if unknown:
        raise where.fail(ctx, f"unknown keys {sorted(unknown)}; valid: {sorted(_MODIFIER_KEYS)}")
    mod_id = _req(where, ctx, data, "id", str)
    if not NAME_PATTERN.match(mod_id):
        raise where.fail(ctx, f"modifier id {mod_id!r} must be lower_snake_case")
    ctx = f"{ctx} '{mod_id}'"
    when = data.get("when")
    inp = data.get("input")
    if when is not None and inp is not None:
        raise where.fail(ctx, "a modifier has either 'when' (a condition) or 'input' (a quantity), not both")
    for key, val in (("when", when), ("input", inp)):
        if val is not None and (not isinstance(val, str) or not NAME_PATTERN.match(val)):
            raise where.fail(ctx, f"'{key}' must be a lower_snake_case name, not {val!r}")
    per = _opt_int(where, ctx, data, "per") or 1
    if per <= 0:
        raise where.fail(ctx, f"'per' must be positive, not {per}")
    rounding = data.get("round", "down")
    if rounding not in ("down", "up"):
        raise where.fail(ctx, f"'round' must be 'down' (FRD) or 'up' (FRU), not {rounding!r}")
    cols = tuple(data.get("columns", ()))
    for c in cols:
        if c not in columns:
            raise where.fail(ctx, f"column {c!r} is not a column of the table; valid: {', '.join(columns)}")
    value = data.get("value", 1)
    if isinstance(value, bool) or not isinstance(value, int):
        raise where.fail(ctx, f"'value' must be an integer, not {value!r}")
    return Modifier(
        id=mod_id,
        name=_req(where, ctx, data, "name", str),
        source=_req(where, ctx, data, "source", str),
        value=value,
        when=when,
        input=inp,
        per=per,
        offset=_opt_int(where, ctx, data, "offset") or 0,
        rounding=Rounding(rounding),
        minimum=_opt_int(where, ctx, data, "minimum"),
        group=data.get("group"),
        columns=cols,
        note=str(data.get("note", "")),
    )


def _results(where: _Where, ctx: str, row: Mapping[str, Any], columns: tuple[str, ...]) -> dict[str, str]:
    if "result" in row and "results" in row:
        raise where.fail(ctx, "give either 'result' (all columns) or 'results' (per column), not both")
    if "result" in row:
        text = _req(where, ctx, row, "result", str)
        return {c: text for c in columns}
    results = _req(where, ctx, row, "results", dict)
    missing = [c for c in columns if c not in results]
    extra = [c for c in results if c not in columns]
    if missing or extra:
        raise where.fail(
            ctx, f"'results' must name exactly the columns {list(columns)}; missing {missing}, unknown {extra}"
        )
    return {c: str(results[c]) for c in columns}


def _effects(where: _Where, ctx: str, row: Mapping[str, Any], columns: tuple[str, ...]) -> dict[str, dict[str, Any]]:
    if "effect" in row:
        eff = _req(where, ctx, row, "effect", dict)
        return {c: dict(eff) for c in columns}
    if "effects" in row:
        effs = _req(where, ctx, row, "effects", dict)
        for c in effs:
            if c not in columns:
                raise where.fail(ctx, f"effects name unknown column {c!r}; valid: {', '.join(columns)}")
        return {c: dict(v) for c, v in effs.items()}
    return {}


def _reach(dice: DiceKind, modifiers: tuple[Modifier, ...], clamp: tuple[int, int] | None) -> tuple[int | None, int | None]:
    """Lowest and highest final number the table can produce (None: unbounded)."""
    if clamp:
        return clamp
    low, high = dice.low, dice.high
    bounded = True
    for m in modifiers:
        if m.input is not None:
            bounded = False
        elif m.value < 0:
            low += m.value
        else:
            high += m.value
    return (low, high) if bounded else (None, None)


def _check_bands(where: _Where, ctx: str, table: Table) -> None:
    low, high = _reach(table.dice, table.modifiers, table.clamp)
    edges = [b.low for b in table.bands if b.low is not None] + [b.high for b in table.bands if b.high is not None]
    lo_check = low if low is not None else min(edges + [table.dice.low]) - 2
    hi_check = high if high is not None else max(edges + [table.dice.high]) + 2
    if low is None and not any(b.low is None for b in table.bands):
        raise where.fail(ctx, "modifiers are unbounded, so the lowest band needs no 'min' (≤ ...)")
    if high is None and not any(b.high is None for b in table.bands):
        raise where.fail(ctx, "modifiers are unbounded, so the highest band needs no 'max' (≥ ...)")
    for final in range(lo_check, hi_check + 1):
        holding = [i for i, b in enumerate(table.bands) if b.contains(final)]
        if not holding:
            raise where.fail(ctx, f"final number {final} falls in no band")
        if len(holding) > 1:
            rows = ", ".join(f"row {i + 1} ({table.bands[i].label})" for i in holding)
            raise where.fail(ctx, f"final number {final} falls in more than one band: {rows}")


_TABLE_KEYS = {
    "id", "title", "source", "dice", "columns", "rows", "modifiers", "naturals", "kind",
    "umpire_entered", "notes", "clamp",
}


def build_table(data: Mapping[str, Any], system: str, where: _Where) -> Table:
    ctx = "table"
    table_id = _req(where, ctx, data, "id", str)
    ctx = f"table '{table_id}'"
    unknown = set(data) - _TABLE_KEYS
    if unknown:
        raise where.fail(ctx, f"unknown keys {sorted(unknown)}; valid: {sorted(_TABLE_KEYS)}")
    if not ID_PATTERN.match(table_id):
        raise where.fail(ctx, "id must look like 'system.table_name' (lower case, dots, underscores)")
    try:
        dice = DiceKind.parse(_req(where, ctx, data, "dice", str))
    except ValueError as exc:
        raise where.fail(ctx, str(exc)) from None
    columns = tuple(data.get("columns", (DEFAULT_COLUMN,)))
    if not columns or len(set(columns)) != len(columns):
        raise where.fail(ctx, f"columns must be distinct and non-empty, not {list(columns)}")
    kind = TableKind(data.get("kind", "banded"))
    umpire_entered = bool(data.get("umpire_entered", False))
    mods = tuple(
        _modifier(where, f"{ctx} modifier {i + 1}", m, columns) for i, m in enumerate(data.get("modifiers", ()))
    )
    if len({m.id for m in mods}) != len(mods):
        raise where.fail(ctx, "modifier ids must be unique within a table")
    bands = []
    for i, row in enumerate(data.get("rows", ())):
        rctx = f"{ctx} row {i + 1}"
        low, high = _opt_int(where, rctx, row, "min"), _opt_int(where, rctx, row, "max")
        if low is not None and high is not None and low > high:
            raise where.fail(rctx, f"min {low} is above max {high}")
        bands.append(
            Band(low, high, _results(where, rctx, row, columns), _effects(where, rctx, row, columns), str(row.get("note", "")))
        )
    naturals = []
    for i, row in enumerate(data.get("naturals", ())):
        rctx = f"{ctx} natural rule {i + 1}"
        total = _opt_int(where, rctx, row, "total")
        doubles = bool(row.get("doubles", False))
        if (total is None) == (not doubles):
            raise where.fail(rctx, "give exactly one of 'total' (a natural total) or 'doubles = true'")
        if total is not None and not dice.low <= total <= dice.high:
            raise where.fail(rctx, f"natural total {total} cannot be thrown on {dice.value}")
        cols = tuple(row.get("columns", columns))
        res = _results(where, rctx, {k: v for k, v in row.items() if k in ("result", "results")}, cols)
        naturals.append(NaturalRule(res, total, doubles, str(row.get("note", "")), _effects(where, rctx, row, cols)))
    clamp = data.get("clamp")
    if clamp is not None:
        clamp = (int(clamp[0]), int(clamp[1]))
    table = Table(
        id=table_id,
        system=system,
        title=_req(where, ctx, data, "title", str),
        source=_req(where, ctx, data, "source", str),
        dice=dice,
        columns=columns,
        bands=tuple(bands),
        modifiers=mods,
        naturals=tuple(naturals),
        kind=kind,
        umpire_entered=umpire_entered,
        notes=tuple(str(n) for n in data.get("notes", ())),
        clamp=clamp,
    )
    if kind is TableKind.BANDED:
        if not bands and not umpire_entered:
            raise where.fail(ctx, "has no rows; a table the seed does not print needs 'umpire_entered = true'")
        if bands:
            _check_bands(where, ctx, table)
    return table


def build_chart(data: Mapping[str, Any], system: str, where: _Where) -> Chart:
    ctx = "chart"
    chart_id = _req(where, ctx, data, "id", str)
    ctx = f"chart '{chart_id}'"
    if not ID_PATTERN.match(chart_id):
        raise where.fail(ctx, "id must look like 'system.chart_name'")
    columns = tuple(_req(where, ctx, data, "columns", list))
    rows = []
    for i, row in enumerate(data.get("rows", ())):
        extra = [k for k in row if k not in columns]
        if extra:
            raise where.fail(f"{ctx} row {i + 1}", f"unknown columns {extra}; valid: {list(columns)}")
        rows.append(dict(row))
    key = data.get("key")
    if key is not None:
        if key not in columns:
            raise where.fail(ctx, f"key {key!r} is not a column; valid: {list(columns)}")
        seen: set[str] = set()
        for i, row in enumerate(rows):
            k = str(row.get(key))
            if k in seen:
                raise where.fail(f"{ctx} row {i + 1}", f"duplicate key {k!r} in column {key!r}")
            seen.add(k)
    umpire_entered = bool(data.get("umpire_entered", False))
    if not rows and not umpire_entered:
        raise where.fail(ctx, "has no rows; a chart the seed does not print needs 'umpire_entered = true'")
    return Chart(
        id=chart_id,
        system=system,
        title=_req(where, ctx, data, "title", str),
        source=_req(where, ctx, data, "source", str),
        columns=columns,
        rows=tuple(rows),
        key=key,
        notes=tuple(str(n) for n in data.get("notes", ())),
        umpire_entered=umpire_entered,
    )


def build_system(data: Mapping[str, Any], origin: str) -> RuleSystem:
    where = _Where(origin)
    head = data.get("system")
    if not isinstance(head, dict):
        raise where.fail("[system]", "missing the [system] header with id, title and seed")
    system_id = _req(where, "[system]", head, "id", str)
    if not SYSTEM_PATTERN.match(system_id):
        raise where.fail("[system]", f"id {system_id!r} must be lower case letters, digits and '-'")
    tables: dict[str, Table] = {}
    for raw in data.get("table", ()):
        table = build_table(raw, system_id, where)
        if table.id in tables:
            raise where.fail(f"table '{table.id}'", "duplicate table id")
        tables[table.id] = table
    charts: dict[str, Chart] = {}
    for raw in data.get("chart", ()):
        chart = build_chart(raw, system_id, where)
        if chart.id in charts or chart.id in tables:
            raise where.fail(f"chart '{chart.id}'", "duplicate id")
        charts[chart.id] = chart
    settings: dict[str, Any] = {}
    for i, raw in enumerate(data.get("setting", ())):
        ctx = f"setting {i + 1}"
        sid = _req(where, ctx, raw, "id", str)
        _req(where, f"setting '{sid}'", raw, "source", str)
        _req(where, f"setting '{sid}'", raw, "title", str)
        if "value" not in raw:
            raise where.fail(f"setting '{sid}'", "missing 'value'")
        settings[sid] = dict(raw)
    return RuleSystem(
        id=system_id,
        title=_req(where, "[system]", head, "title", str),
        seed=str(head.get("seed", "")),
        origin=origin,
        tables=tables,
        charts=charts,
        settings=settings,
    )

"""The one generic resolver: dice + modifiers -> band -> result, and exact odds.

Steps never hard-code a table's numbers: they describe the situation (named
conditions that hold, quantities such as CVP or hexes, and any extra DRM from
campaign data) and the resolver picks the table's own modifiers, applies them,
finds the band and keeps the whole trail in a :class:`RollResult`.
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from automation.engine.dice import CampaignKey, DiceKind, RollLabel
from automation.engine.tables import Table, TableKind
from automation.errors import UsageError


@dataclass(frozen=True)
class AppliedModifier:
    """One modifier as it was applied to one roll."""

    name: str
    value: int
    source: str
    id: str = ""

    def __str__(self) -> str:
        return f"{self.value:+d} {self.name} ({self.source})"


@dataclass(frozen=True)
class Situation:
    """What holds for a roll: named conditions, quantities and extra DRMs."""

    conditions: frozenset[str] = frozenset()
    quantities: Mapping[str, int | float] = field(default_factory=dict)
    extra: tuple[AppliedModifier, ...] = ()

    @classmethod
    def of(
        cls,
        *conditions: str,
        extra: Iterable[AppliedModifier] = (),
        **quantities: int | float,
    ) -> Situation:
        return cls(frozenset(conditions), dict(quantities), tuple(extra))

    @classmethod
    def with_drm(cls, drm: int, name: str = "Die-roll modifier", source: str = "given") -> Situation:
        return cls(extra=(AppliedModifier(name, drm, source, "drm"),) if drm else ())


def applied_modifiers(table: Table, column: str, situation: Situation) -> tuple[AppliedModifier, ...]:
    """The table's modifiers that apply in ``situation``, plus its extra DRMs."""
    known_conditions = {m.when for m in table.modifiers if m.when}
    known_inputs = {m.input for m in table.modifiers if m.input}
    unknown = sorted(situation.conditions - known_conditions)
    if unknown:
        raise UsageError(
            f"table {table.id}: unknown condition(s) {', '.join(unknown)}; "
            f"valid: {', '.join(sorted(known_conditions)) or 'none'}"
        )
    unknown = sorted(set(situation.quantities) - known_inputs)
    if unknown:
        raise UsageError(
            f"table {table.id}: unknown quantit(ies) {', '.join(unknown)}; "
            f"valid: {', '.join(sorted(known_inputs)) or 'none'}"
        )
    out: list[AppliedModifier] = []
    groups: dict[str, str] = {}
    for m in table.modifiers:
        if not m.applies_to(column):
            continue
        if m.when is not None:
            if m.when not in situation.conditions:
                continue
            value = m.value
        elif m.input is not None:
            if m.input not in situation.quantities:
                continue
            value = m.amount(situation.quantities[m.input])
        else:
            value = m.value
        if m.group:
            if m.group in groups:
                raise UsageError(
                    f"table {table.id}: modifiers {groups[m.group]!r} and {m.id!r} "
                    f"exclude each other (group {m.group!r}); give only one"
                )
            groups[m.group] = m.id
        if value:
            out.append(AppliedModifier(m.name, value, m.source, m.id))
    out.extend(situation.extra)
    return tuple(out)


@dataclass(frozen=True)
class Outcome:
    """One possible result of a table and its exact probability."""

    result: str
    probability: Fraction
    bands: tuple[str, ...] = ()


@dataclass(frozen=True)
class RollResult:
    """A roll with its whole trail: what, dice, modifiers, final, row, result."""

    label: str
    table_id: str
    table_title: str
    source: str
    column: str
    dice_kind: DiceKind
    dice: tuple[int, ...]
    natural: int
    modifiers: tuple[AppliedModifier, ...]
    final: int
    band: str
    row: int
    result: str
    effect: Mapping[str, Any]
    probability: Fraction
    by_natural: bool = False

    @property
    def drm(self) -> int:
        return sum(m.value for m in self.modifiers)


def _require_rows(table: Table) -> None:
    if table.kind is TableKind.BANDED and table.is_empty:
        raise UsageError(
            f"table {table.id} ({table.title}, {table.source}) is not printed by the rules; "
            "enter its rows in the workbook's tables before using it"
        )


def _outcome_for(table: Table, column: str, dice: tuple[int, ...], drm: int) -> tuple[str, str, int, Mapping[str, Any], int, bool]:
    natural = table.dice.total(dice)
    final = natural + drm
    if table.clamp:
        final = max(table.clamp[0], min(table.clamp[1], final))
    for rule in table.naturals:
        if column in rule.results and rule.matches(dice, natural):
            label = "doubles" if rule.doubles else f"natural {rule.total}"
            return rule.results[column], label, 0, rule.effects.get(column, {}), final, True
    index = _band_index(table, final)
    band = table.bands[index]
    return band.results[column], band.label, index + 1, band.effects.get(column, {}), final, False


def _band_index(table: Table, final: int) -> int:
    """The band holding ``final``; past the printed ends of a bounded table,
    the lowest or highest band (a DRM given by hand can push it there)."""
    for index, band in enumerate(table.bands):
        if band.contains(final):
            return index
    lows = [(b.low, i) for i, b in enumerate(table.bands) if b.low is not None]
    highs = [(b.high, i) for i, b in enumerate(table.bands) if b.high is not None]
    if lows and final < min(lows)[0]:
        return min(lows)[1]
    if highs and final > max(highs)[0]:
        return max(highs)[1]
    raise UsageError(f"table {table.id}: no band holds final number {final}")


def odds(table: Table, column: str | None = None, drm: int = 0) -> list[Outcome]:
    """Exact probability of each result, enumerating every throw (for an
    opposed roll: of each side throwing higher, ties thrown again)."""
    column = _column(table, column)
    if table.kind is TableKind.OPPOSED:
        half = Fraction(1, 2)
        return [Outcome(f"{c} higher", half) for c in table.columns]
    return _band_odds(table, column, drm)


_ODDS: dict[tuple[int, str, int], tuple[Table, tuple[Outcome, ...]]] = {}
ODDS_KEPT = 4096  # (table, column, DRM) odds kept in a process; past that the store starts afresh


def _band_odds(table: Table, column: str, drm: int) -> list[Outcome]:
    """The odds of ``table``'s column at ``drm``: enumerated the first time a
    process asks for them (every throw of a d100 table), then kept with the
    table they were worked out for (a table is immutable)."""
    held = _ODDS.get((id(table), column, drm))
    if held is not None and held[0] is table:
        return list(held[1])
    found = _enumerated_odds(table, column, drm)
    if len(_ODDS) >= ODDS_KEPT:
        _ODDS.clear()
    _ODDS[(id(table), column, drm)] = (table, tuple(found))
    return found


def _enumerated_odds(table: Table, column: str, drm: int) -> list[Outcome]:
    _require_rows(table)
    totals: dict[str, Fraction] = {}
    bands: dict[str, list[str]] = {}
    for dice, p in table.dice.outcomes():
        result, band, _, _, _, _ = _outcome_for(table, column, dice, drm)
        totals[result] = totals.get(result, Fraction(0)) + p
        if band not in bands.setdefault(result, []):
            bands[result].append(band)
    order = [b.results[column] for b in table.bands]
    order += [r.results[column] for r in table.naturals if column in r.results]
    ranked = sorted(totals, key=lambda r: order.index(r) if r in order else len(order))
    return [Outcome(r, totals[r], tuple(bands[r])) for r in ranked]


def _column(table: Table, column: str | None) -> str:
    if column is None:
        return table.default_column()
    try:
        return table.check_column(column)
    except KeyError as exc:
        raise UsageError(str(exc.args[0])) from None


def resolve(
    table: Table,
    dice: tuple[int, ...],
    situation: Situation = Situation(),
    *,
    column: str | None = None,
    label: str = "",
) -> RollResult:
    """Resolve thrown ``dice`` on ``table`` in ``situation``."""
    column = _column(table, column)
    _require_rows(table)
    if len(dice) != len(table.dice.faces) or any(not 1 <= d <= f for d, f in zip(dice, table.dice.faces)):
        raise UsageError(f"table {table.id}: dice {dice} are not a throw of {table.dice.value}")
    mods = applied_modifiers(table, column, situation)
    drm = sum(m.value for m in mods)
    result, band, row, effect, final, by_natural = _outcome_for(table, column, dice, drm)
    probability = sum(
        (o.probability for o in _band_odds(table, column, drm) if o.result == result), Fraction(0)
    )
    return RollResult(
        label=label,
        table_id=table.id,
        table_title=table.title,
        source=table.source,
        column=column,
        dice_kind=table.dice,
        dice=tuple(dice),
        natural=table.dice.total(dice),
        modifiers=mods,
        final=final,
        band=band,
        row=row,
        result=result,
        effect=dict(effect),
        probability=probability,
        by_natural=by_natural,
    )


def roll(
    table: Table,
    key: CampaignKey,
    label: RollLabel,
    situation: Situation = Situation(),
    *,
    column: str | None = None,
) -> RollResult:
    """Throw the table's dice for ``label`` with ``key`` and resolve them."""
    return resolve(table, key.throw(table.dice, label), situation, column=column, label=str(label))


@dataclass(frozen=True)
class OpposedResult:
    """Each side throws; the high throw wins; ties are thrown again."""

    label: str
    table_id: str
    source: str
    sides: tuple[str, str]
    throws: tuple[tuple[int, int], ...]
    winner: str


def roll_opposed(table: Table, key: CampaignKey, label: RollLabel, sides: tuple[str, str]) -> OpposedResult:
    if table.kind is not TableKind.OPPOSED:
        raise UsageError(f"table {table.id} is not an opposed roll")
    throws: list[tuple[int, int]] = []
    for attempt in range(1, 1000):
        a = table.dice.total(key.throw(table.dice, label.child(sides[0], f"throw{attempt}")))
        b = table.dice.total(key.throw(table.dice, label.child(sides[1], f"throw{attempt}")))
        throws.append((a, b))
        if a != b:
            return OpposedResult(str(label), table.id, table.source, sides, tuple(throws), sides[0] if a > b else sides[1])
    raise AssertionError("a thousand ties in a row")  # pragma: no cover - probability 10**-1000

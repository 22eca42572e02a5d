"""Scripted dice: a stand-in for automation.campaign.model.Dice that throws
the natural dice a test gives, in order, and resolves them through the real
resolver and the real rules tables (so every modifier and band is the one the
rules file holds).

    dice = ScriptedDice(7, 3)                           # any labels
    dice = ScriptedDice(at("cpp/German", 7), at("cpp/Russian", 3))  # labels checked

A label is checked without the date that the real Dice puts first; write it
as "step/side/subject" or as a tuple of parts (handy when a part holds "/").
Asking for a roll that was not scripted fails the test, and
:meth:`ScriptedDice.assert_used_up` fails it if a scripted throw was never
asked for.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from automation.engine.dice import DiceKind, RollLabel
from automation.engine.resolver import RollResult, Situation, resolve
from automation.engine.tables import RuleSystem
from automation.rulebook import load_rulebook


def bf_system() -> RuleSystem:
    """The Battlefront campaign rules (seed 001) as the rules file holds them."""
    return load_rulebook().system("bf-campaign")


@dataclass(frozen=True)
class Throw:
    """One scripted natural number, and the label it must be thrown for (if given)."""

    natural: int
    label: tuple[str, ...] | None = None


def at(label: str | Sequence[object], natural: int) -> Throw:
    """The natural number thrown for the roll labelled ``label`` (date left out)."""
    parts = tuple(label.split("/")) if isinstance(label, str) else tuple(str(p) for p in label)
    return Throw(natural, parts)


def faces_for(kind: DiceKind, natural: int) -> tuple[int, ...]:
    """The physical dice that read as ``natural`` (d100: tens die, ones die; 00 = 100)."""
    if kind is DiceKind.D100:
        if not 1 <= natural <= 100:
            raise AssertionError(f"a percentile roll reads 1-100, not {natural}")
        return (natural // 10 or 10, natural % 10 or 10)
    if kind is DiceKind.TWO_D6:
        raise AssertionError("give 2d6 throws as Throw of each die; not needed for Battlefront")
    faces = kind.faces[0]
    if not 1 <= natural <= faces:
        raise AssertionError(f"a {kind.value} shows 1-{faces}, not {natural}")
    return (natural,)


@dataclass(frozen=True)
class Asked:
    """One roll a step asked for: table, label parts (without the date), situation, column."""

    table_id: str
    label: tuple[str, ...]
    situation: Situation
    column: str | None
    result: RollResult | None = None

    @property
    def path(self) -> str:
        return "/".join(self.label)


class ScriptedDice:
    """Same interface as automation.campaign.model.Dice; throws come from the script."""

    def __init__(self, *throws: int | Throw, system: RuleSystem | None = None, date: str = "Dec 24") -> None:
        self.system = system or bf_system()
        self.date = date
        self.script = [t if isinstance(t, Throw) else Throw(t) for t in throws]
        self.next = 0
        self.asked: list[Asked] = []

    # -- the Dice interface -------------------------------------------------
    def label(self, *parts: object) -> RollLabel:
        return RollLabel.of(self.date, *parts)

    def roll(self, table_id: str, label: Sequence[object], situation: Situation = Situation(),
             column: str | None = None) -> RollResult:
        table = self.system.table(table_id)
        parts = tuple(str(p) for p in label)
        natural = self._take(table_id, parts)
        result = resolve(table, faces_for(table.dice, natural), situation, column=column,
                         label=str(self.label(*parts)))
        self.asked.append(Asked(table_id, parts, situation, column, result))
        return result

    # -- checks ---------------------------------------------------------------
    def _take(self, table_id: str, parts: tuple[str, ...]) -> int:
        if self.next >= len(self.script):
            raise AssertionError(f"no scripted throw left for {table_id} {'/'.join(parts)} "
                                 f"(scripted {len(self.script)}, asked so far: {[a.path for a in self.asked]})")
        throw = self.script[self.next]
        self.next += 1
        if throw.label is not None and throw.label != parts:
            raise AssertionError(f"throw {self.next} was scripted for {'/'.join(throw.label)} "
                                 f"but {table_id} asked for {'/'.join(parts)}")
        return throw.natural

    def assert_used_up(self) -> None:
        left = self.script[self.next:]
        assert not left, f"{len(left)} scripted throw(s) never asked for: {[t.natural for t in left]}"

    @property
    def results(self) -> list[RollResult]:
        return [a.result for a in self.asked if a.result is not None]

    @property
    def labels(self) -> list[str]:
        return [a.path for a in self.asked]


__all__ = ["Asked", "ScriptedDice", "Throw", "at", "bf_system", "faces_for"]

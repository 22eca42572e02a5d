"""Shared refit machinery for every rule system (pure: no I/O).

A refit is a sequence of steps in the rules' own order. Each step takes the
state so far, the inputs and the dice, and returns the new state with report
entries recording every roll. A step that needs a decision nobody has made yet
returns :class:`Waiting`, and the refit stops there, saying who must decide
what; running it again with the decision entered continues from there, and
because every roll derives from the campaign key and a stable label, the steps
already done give the same results again.
"""
from __future__ import annotations

import datetime as dt
import enum
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Generic, TypeVar

from automation.engine.dice import CampaignKey, RollLabel
from automation.engine.resolver import RollResult, Situation, roll
from automation.engine.tables import RuleSystem

UMPIRE = "Umpire"
ALL = "All"


class Part(enum.Enum):
    FULL_DAY = "Full day"
    MORNING = "Morning"
    AFTERNOON = "Afternoon"
    NIGHT = "Night"

    @property
    def starts_day(self) -> bool:
        return self in (Part.FULL_DAY, Part.MORNING)


@dataclass(frozen=True)
class CampaignDate:
    """One scenario slot of the campaign, e.g. 'Dec 24' (full day) or '18PM'."""

    label: str
    day: dt.date
    part: Part
    index: int

    @property
    def is_first(self) -> bool:
        return self.index == 0

    @property
    def starts_day(self) -> bool:
        return self.part.starts_day

    @property
    def is_night(self) -> bool:
        return self.part is Part.NIGHT


@dataclass(frozen=True)
class Entry:
    """One line of a refit report: a step's event or roll, and who may see it."""

    step: str
    rule: str
    text: str
    side: str | None = None
    subject: str = ""
    roll: RollResult | None = None
    visible_to: str = ALL
    stage: int = 0


@dataclass(frozen=True)
class Waiting:
    """The refit stops here until ``who`` decides ``what`` on ``sheet``."""

    who: str
    what: str
    sheet: str
    step: str = ""

    def __str__(self) -> str:
        return f"waiting for {self.sheet}: {self.what}"


class Dice:
    """Rolls of one refit: labels begin with the date, then step and subject."""

    def __init__(self, key: CampaignKey, system: RuleSystem, date: str) -> None:
        self.key = key
        self.system = system
        self.date = date

    def label(self, *parts: object) -> RollLabel:
        return RollLabel.of(self.date, *parts)

    def roll(self, table_id: str, label: Sequence[object], situation: Situation = Situation(), column: str | None = None) -> RollResult:
        return roll(self.system.table(table_id), self.key, self.label(*label), situation, column=column)


S = TypeVar("S")
I = TypeVar("I")


@dataclass(frozen=True)
class StepResult(Generic[S]):
    state: S
    entries: tuple[Entry, ...] = ()
    waiting: Waiting | None = None


@dataclass(frozen=True)
class Step(Generic[S, I]):
    """A refit step: its name, rule number, stage and function."""

    name: str
    rule: str
    stage: int
    run: Callable[[S, I, Dice], StepResult[S]]


@dataclass
class RefitRun(Generic[S]):
    """What running the steps gave: final state, entries, where it stopped."""

    state: S
    entries: list[Entry] = field(default_factory=list)
    waiting: Waiting | None = None
    completed: list[str] = field(default_factory=list)
    stages_done: set[int] = field(default_factory=set)


def run_steps(steps: Sequence[Step[S, I]], state: S, inputs: I, dice: Dice) -> RefitRun[S]:
    """Run every step in order; stop at the first that waits for a decision."""
    run: RefitRun[S] = RefitRun(state)
    stages = sorted({s.stage for s in steps})
    for step in steps:
        result = step.run(run.state, inputs, dice)
        run.entries.extend(
            Entry(e.step or step.name, e.rule or step.rule, e.text, e.side, e.subject, e.roll, e.visible_to, step.stage)
            for e in result.entries
        )
        if result.waiting is not None:
            run.waiting = result.waiting
            break
        run.state = result.state
        run.completed.append(step.name)
    for stage in stages:
        names = [s.name for s in steps if s.stage == stage]
        if all(n in run.completed for n in names):
            run.stages_done.add(stage)
    return run

"""What a campaign report holds, before it becomes tables, charts and HTML:
plain frozen records read from one workbook (the master, or a side's export)."""
from __future__ import annotations

import enum
import re
from dataclasses import dataclass, field
from typing import Any


class Category(enum.Enum):
    """What a line of a date's story tells (the issue's list, both systems)."""

    POSTURE = "Posture and initiative"
    SCENARIO = "Scenario"
    BOUGHT = "Bought or received"
    LOST = "Lost"
    REPAIRED = "Repaired"
    WITHDREW = "Withdrew, escaped or shifted"
    BLOCKS = "Block control"
    CVP = "CVP"


@dataclass(frozen=True)
class Event:
    """One line of a date's story, with the report cell it comes from."""

    date: str
    side: str  # '' when it concerns both sides
    category: Category
    rule: str
    subject: str
    text: str
    where: str  # Sheet!Cell

    @property
    def line(self) -> str:
        """The line as the story shows it: its subject first, unless the text
        already names it ("Block A: Controlled by ...", not "A: Block A: ...")."""
        named = self.subject and re.search(rf"(?<![\w-]){re.escape(self.subject)}(?![\w-])", self.text)
        subject = f"{self.subject}: " if self.subject and self.subject != self.side and not named else ""
        return f"{subject}{self.text}"


@dataclass(frozen=True)
class Measure:
    """One number of the campaign at a date: strength, economy, losses, CVP."""

    date: str
    side: str
    group: str  # 'strength', 'CPP', 'FPP', 'losses', 'CVP', 'RGs'
    item: str  # e.g. 'stands ready', 'earned', 'spent', 'saved'
    value: float
    where: str  # Sheet!Cell


@dataclass(frozen=True)
class Roll:
    """One roll of a report, as the report shows it."""

    date: str
    sheet: str
    row: int
    step: str
    rule: str
    side: str
    visible_to: str
    subject: str
    table: str
    column: str
    dice: str
    natural: Any
    modifiers: str
    drm: Any
    final: Any
    result: str
    odds: str
    label: str
    physical: bool
    source: Any = field(default=None, compare=False, repr=False)  # the pbem.reports.RollRow


@dataclass(frozen=True)
class Audit:
    """The tamper evidence as far as the report can tell."""

    chain_ok: bool | None  # None: no sealed report yet
    chain_text: str
    commitment: str
    key_revealed: str | None  # the key in hex once the umpire reveals it
    command: str


@dataclass
class CampaignData:
    system_id: str
    campaign: str
    viewer: str | None  # None: the umpire's full report; else the side it is for
    sides: tuple[str, ...]
    dates: list[str]  # dates with a report, in campaign order
    source_name: str
    events: list[Event] = field(default_factory=list)
    measures: list[Measure] = field(default_factory=list)
    rolls: list[Roll] = field(default_factory=list)
    system: Any = None  # the campaign's rule system (odds of each table)
    audit: Audit | None = None
    desk_physical: list[str] = field(default_factory=list)  # physical dice of the dice desk's logs (umpire only)

    @property
    def for_whom(self) -> str:
        return "the umpire (everything)" if self.viewer is None else f"the {self.viewer} player"

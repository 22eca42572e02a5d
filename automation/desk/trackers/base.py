"""What every tracker shares: where an entry came from, the lines a tracker
logs, the context it runs in, and rolling with errors at the entry's cell.

A tracker is pure: its ``parse`` turns the validated rows of its input sheet
into entries (dataclasses that remember their Sheet!Cell), and its ``track``
turns entries, settings and dice into a :class:`TrackerOutput`. Rolls use
labels built only from what the entry says (subject, turn, event), so bringing
a tracker up to date again gives the same dice."""
from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from automation.desk.dice import Roller
from automation.desk.settings import Settings
from automation.engine.resolver import RollResult, Situation
from automation.errors import CellProblem, UsageError, WorkbookError
from automation.workbook.reader import SheetRow
from automation.workbook.schema import SheetKind

ALL = "All"
UMPIRE = "Umpire"


@dataclass(frozen=True)
class Where:
    """The cell an entry (or one of its values) came from."""

    sheet: str = ""
    cell: str = ""

    def problem(self, message: str) -> CellProblem:
        return CellProblem(self.sheet or "(workbook)", self.cell or "A1", message)

    def __str__(self) -> str:
        return f"{self.sheet}!{self.cell}" if self.sheet else ""


def where(row: SheetRow, column: str) -> Where:
    return Where(row.sheet, row.cell(column))


@dataclass(frozen=True)
class Line:
    """One line of a tracker's log: an event, a roll, or (``entry='Status'``) a state."""

    entry: str
    rule: str
    text: str
    subject: str = ""
    turn: int | None = None
    roll: RollResult | None = None
    visible_to: str = ALL
    source: Where = Where()


@dataclass(frozen=True)
class TrackerOutput:
    lines: tuple[Line, ...] = ()
    status: tuple[Line, ...] = ()

    @property
    def rolls(self) -> list[RollResult]:
        return [ln.roll for ln in self.lines if ln.roll is not None]


@dataclass(frozen=True)
class Context:
    settings: Settings
    dice: Roller


@dataclass(frozen=True)
class Tracker:
    """A tracker: its id, its input sheet, the rules it follows, and its functions."""

    id: str
    kind: SheetKind
    rule: str
    title: str
    run: Callable[[list[SheetRow], Context], TrackerOutput]
    tables: tuple[str, ...] = ()
    settings: tuple[str, ...] = ()
    example_rows: tuple[tuple[Any, ...], ...] = field(default=())


class Problems:
    """Collects problems and raises them together."""

    def __init__(self) -> None:
        self.items: list[CellProblem] = []

    def add(self, at: Where, message: str) -> None:
        self.items.append(at.problem(message))

    def raise_if_any(self) -> None:
        if self.items:
            raise WorkbookError(self.items)


def roll_at(dice: Roller, at: Where, table_id: str, label: Sequence[object], situation: Situation = Situation(),
            column: str | None = None) -> RollResult:
    """Roll, reporting any problem with the table or modifiers at ``at``."""
    try:
        return dice.roll(table_id, label, situation, column)
    except UsageError as exc:
        raise WorkbookError(at.problem(str(exc))) from None


def hex_number(value: Any) -> str:
    """A BFTA hex as its four digits: a spreadsheet turns 0913 typed in a cell into 913."""
    if value is None:
        return ""
    text = str(value).strip()
    return text.zfill(4) if text.isdigit() else text


def yes(value: Any) -> bool:
    return str(value or "").strip().lower() == "yes"

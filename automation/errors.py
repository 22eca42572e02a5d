"""The one exception root of Musterroll and its family.

Every error a person may see carries enough context to act on: the file, table
and row of a broken rules file, or the sheet and cell of a bad workbook value,
together with what would have been valid.
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

MAX_LISTED = 50  # problems listed one by one; the rest are counted by sheet
STOP_AFTER = 1000  # a sheet's check stops collecting problems past this many


class MusterrollError(Exception):
    """Root of every error Musterroll raises on purpose.

    ``exit_code`` is what the command line returns for it: 2 for bad input,
    1 for a failed verification.
    """

    exit_code: int = 2


class RulesError(MusterrollError):
    """A rules file (or a table copied into a workbook) is malformed."""

    def __init__(self, origin: str, message: str) -> None:
        self.origin = origin
        self.detail = message
        super().__init__(f"{origin}: {message}")


class UsageError(MusterrollError):
    """A command was called with an unknown table, column, modifier or value."""


@dataclass(frozen=True)
class CellProblem:
    """One bad value in a workbook: where it is, what is there, what is valid."""

    sheet: str
    cell: str
    message: str

    def __str__(self) -> str:
        return f"{self.sheet}!{self.cell}: {self.message}"


def listed(problems: Sequence[Any], show: Callable[[Any], str] = str, stopped: Mapping[str, int] | None = None,
           limit: int = MAX_LISTED) -> list[str]:
    """The lines that report ``problems``: the first ``limit`` one by one, then
    one line counting the rest by sheet. ``stopped`` names the sheets whose
    check stopped early (sheet -> the last row checked): more may follow there."""
    lines = [show(p) for p in problems[:limit]]
    rest = problems[limit:]
    if rest or stopped:
        counts = Counter(getattr(p, "sheet", None) or "other" for p in rest)
        parts = [f"{n} in {sheet}" for sheet, n in counts.most_common()]
        line = f"... and {len(rest)} more" + (f" ({', '.join(parts)})" if parts else "")
        if stopped:
            line += "; the check stopped early in " + ", ".join(
                f"{sheet} (at row {row})" for sheet, row in stopped.items()) + ": correct these first"
        lines.append(line)
    return lines


class WorkbookError(MusterrollError):
    """One or more problems in a workbook, each naming Sheet!Cell; at most
    :data:`MAX_LISTED` are listed, the rest counted by sheet.

    The workbook is never modified when this is raised.
    """

    def __init__(self, problems: list[CellProblem] | CellProblem, path: str | None = None,
                 stopped: Mapping[str, int] | None = None) -> None:
        if isinstance(problems, CellProblem):
            problems = [problems]
        self.problems = list(problems)
        self.path = path
        self.stopped = dict(stopped or {})
        super().__init__("\n".join(listed(self.problems, stopped=self.stopped)))


class WorkbookFileError(MusterrollError):
    """The file itself cannot be used: missing, not a workbook, locked, changed."""


class WaitingForDecision(MusterrollError):
    """Not an error for the umpire: the refit stopped where a decision is owed."""

    exit_code = 0


class VerificationError(MusterrollError):
    """The tamper-evident chain or a re-derived roll does not match."""

    exit_code = 1

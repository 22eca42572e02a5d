"""The one exception root of Musterroll and its family.

Every error a person may see carries enough context to act on: the file, table
and row of a broken rules file, or the sheet and cell of a bad workbook value,
together with what would have been valid.
"""
from __future__ import annotations

from dataclasses import dataclass


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


class WorkbookError(MusterrollError):
    """One or more problems in a workbook, each naming Sheet!Cell.

    The workbook is never modified when this is raised.
    """

    def __init__(self, problems: list[CellProblem] | CellProblem, path: str | None = None) -> None:
        if isinstance(problems, CellProblem):
            problems = [problems]
        self.problems = list(problems)
        self.path = path
        super().__init__("\n".join(str(p) for p in self.problems))


class WorkbookFileError(MusterrollError):
    """The file itself cannot be used: missing, not a workbook, locked, changed."""


class WaitingForDecision(MusterrollError):
    """Not an error for the umpire: the refit stopped where a decision is owed."""

    exit_code = 0


class VerificationError(MusterrollError):
    """The tamper-evident chain or a re-derived roll does not match."""

    exit_code = 1

"""Whether a form has been answered: its status cell.

Every form carries, near its top, the question ``Ready to use?`` (A2) and a
dropdown (B2) offering ``Not yet`` and ``Ready``; the refit writes its forms
set to ``Not yet``. Until the person who fills it sets B2 to ``Ready``, the
form is not an answer: every refit, export and import reads the workbook
through :class:`Answered`, which says such a sheet is not there. A sheet
without the question (made by hand, or by an earlier version) is an answer
as it is. A player's returned export is an answer once it is imported
(sending it back is the answer): the importer lays it over the master
marked :func:`ready`.
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from enum import Enum
from typing import Any

from automation.campaign.names import norm
from automation.errors import CellProblem, WorkbookError

STATUS_LABEL = "Ready to use?"
STATUS_ROW, LABEL_COL, STATUS_COL = 1, 0, 1  # 0-based: A2 holds the question, B2 the answer
STATUS_CELL = "B2"


class Status(Enum):
    NOT_YET = "Not yet"
    READY = "Ready"

    @classmethod
    def choices(cls) -> list[str]:
        return [s.value for s in cls]


def _cell(raw: Sequence[Sequence[Any]], row: int, col: int) -> Any:
    return raw[row][col] if row < len(raw) and col < len(raw[row]) else None


def status_of(raw: Sequence[Sequence[Any]]) -> Status | None:
    """The form's status (None: no status cell, a sheet that is an answer as it is)."""
    label = _cell(raw, STATUS_ROW, LABEL_COL)
    if not isinstance(label, str) or norm(label) != norm(STATUS_LABEL):
        return None
    value = _cell(raw, STATUS_ROW, STATUS_COL)
    return Status.READY if isinstance(value, str) and norm(value) == norm(Status.READY.value) else Status.NOT_YET


def unanswered(raw: Sequence[Sequence[Any]]) -> bool:
    return status_of(raw) is Status.NOT_YET


def ready(raw: Sequence[Sequence[Any]]) -> list[list[Any]]:
    """A copy of a form's rows with its status set to Ready (a sheet without one: as it is)."""
    rows = [list(r) for r in raw]
    if status_of(rows) is Status.NOT_YET:
        row = rows[STATUS_ROW]
        row += [None] * (STATUS_COL + 1 - len(row))
        row[STATUS_COL] = Status.READY.value
    return rows


def instruction(sheet: str) -> str:
    """What the person does to make ``sheet`` an answer."""
    return f"fill {sheet} and set {sheet}!{STATUS_CELL} ({STATUS_LABEL}) to {Status.READY.value}"


class Answered:
    """``book`` (any BookSource) with its unanswered forms left out: ``has``
    says no, and reading one is reading a missing sheet. ``may_be_form(name)``
    says which sheets can be forms at all (the others are never parsed for
    it), and the list of sheet names leaves them out too."""

    answers_only = True

    def __init__(self, book: Any, may_be_form: Callable[[str], bool]) -> None:
        self._book = book
        self._may_be_form = may_be_form
        self._unanswered: dict[str, bool] = {}
        self._listed: tuple[tuple[int, int] | None, list[str]] = (None, [])  # the names listed, and of what list

    def __getattr__(self, name: str) -> Any:
        return getattr(self._book, name)

    def is_unanswered(self, name: str) -> bool:
        if name not in self._unanswered:
            self._unanswered[name] = bool(self._book.has(name) and self._may_be_form(name)
                                          and unanswered(self._book.raw(name)))
        return self._unanswered[name]

    @property
    def sheet_names(self) -> list[str]:
        names = self._book.sheet_names
        if self._listed[0] != (id(names), len(names)):  # (worked out once while the book's list stays as it is)
            self._listed = ((id(names), len(names)), [n for n in names if not self.is_unanswered(n)])
        return list(self._listed[1])

    def has(self, name: str) -> bool:
        return self._book.has(name) and not self.is_unanswered(name)

    def _missing(self, name: str) -> WorkbookError:
        return WorkbookError(CellProblem(name, STATUS_CELL, f"the form is not answered yet: {instruction(name)}"),
                             str(self._book.path))

    def raw(self, name: str) -> list[list[Any]]:
        if self.is_unanswered(name):
            raise self._missing(name)
        return self._book.raw(name)

    def read(self, kind: Any, name: str | None = None, lists: Any = None) -> list[Any]:
        if self.is_unanswered(name or kind.title):
            raise self._missing(name or kind.title)
        return self._book.read(kind, name, lists)

    def read_lists(self, name: str = "Lists") -> dict[str, list[str]]:
        return self._book.read_lists(name)


def answered(book: Any, may_be_form: Callable[[str], bool]) -> Any:
    """``book`` seen through :class:`Answered` (once: a view already answered is returned as it is)."""
    return book if isinstance(book, Answered) else Answered(book, may_be_form)

"""Sheets entered whole in place of the forms the refit wrote for them (as a
person entering a whole decision sheet at once, instead of filling the
form): the file side of :mod:`automation.workbook.forms.status`."""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from automation.workbook.forms.status import unanswered


def unanswered_sheets(path: Any, names: Sequence[str]) -> list[str]:
    """Those of ``names`` that the workbook at ``path`` holds as forms not yet
    answered: what a batch answering them replaces (``append_sheets(replace=...)``)."""
    from automation.workbook.reader import Workbook

    book = Workbook(path)
    return [n for n in names if book.has(n) and unanswered(book.raw(n))]


def enter(path: Any, sheets: Sequence[Any], batch: str, expected_digest: str | None = None) -> None:
    """Append ``sheets`` as one batch, each taking the place of the form of
    its name that the workbook holds not yet answered (as a person entering
    a whole decision sheet at once, instead of filling the form)."""
    from automation.workbook.package import append_sheets

    append_sheets(path, sheets, batch=batch, expected_digest=expected_digest,
                  replace=unanswered_sheets(path, [s.name for s in sheets]))

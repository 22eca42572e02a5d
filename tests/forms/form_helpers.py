"""Helpers of the umpire and forces form tests: a form drawn into a file of its
own (as the export and the master draw it), filled in as a person would, and its
rows laid into the master as the sheet the refit reads."""
from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import openpyxl

from automation.keys import key_path_for, read_key
from automation.pbem.planning import Planned, plan, settings_of
from automation.pbem.xlsx import OutSheet, write
from automation.workbook.forms.model import HEADER_ROW, Choice, Form, Whole
from automation.workbook.forms.enter import enter as append_sheets  # in place of the refit's forms
from automation.workbook.forms.status import STATUS_CELL, Status
from automation.workbook.package import NewSheet
from automation.workbook.reader import Workbook


def planned(book: Path) -> tuple[Workbook, Planned, Any]:
    wb = Workbook(book)
    key = read_key(key_path_for(book), str(settings_of(wb)["Key commitment"]))
    return wb, plan(wb, key), key


def drawn(form: Form, folder: Path) -> Path:
    out = folder / f"{form.name}.xlsx"
    folder.mkdir(parents=True, exist_ok=True)
    write(out, [OutSheet(form.name, [form.columns], tab="orders", form=form)])
    return out


def fill(path: Path, form: Form, pick: Callable[[int, dict[str, Any]], dict[str, Any]]) -> list[list[Any]]:
    """Each offered row's cells set to ``pick(index, row values)`` (column -> value);
    the sheet's raw rows, title lines included, as the reader sees the saved file."""
    wb = openpyxl.load_workbook(path)
    ws = wb[form.name]
    for i, row in enumerate(form.rows):
        for column, value in pick(i, row.values).items():
            ws.cell(HEADER_ROW + 2 + i, form.columns.index(column) + 1).value = value  # None clears the cell
    ws[STATUS_CELL] = Status.READY.value  # filled: the person says it is ready
    wb.save(path)
    return [list(r) for r in Workbook(path).raw(form.name)]


def lay_in(book: Path, name: str, rows: list[list[Any]], tab: str) -> None:
    """The filled form's rows in the master, set to Ready (automation.workbook.forms.status)."""
    from automation.workbook.forms.status import ready

    append_sheets(book, [NewSheet(name, ready(rows), kind=tab)], batch=f"entered {name}")


def every_value(form: Form, variant: int) -> Callable[[int, dict[str, Any]], dict[str, Any]]:
    """A filling that gives each validated cell its ``variant``-th offered value
    (cycling), or for a whole number its low bound on even variants and its high on odd."""
    def pick(i: int, values: dict[str, Any]) -> dict[str, Any]:
        out = {}
        for column, rule in form.rows[i].rules.items():
            if isinstance(rule, Choice):
                out[column] = rule.values[(variant + i) % len(rule.values)]
            else:
                assert isinstance(rule, Whole)
                out[column] = rule.low if variant % 2 == 0 else rule.high
        return out
    return pick


def variants(form: Form) -> int:
    """How many fillings :func:`every_value` needs to offer every value of every dropdown."""
    return max([len(r.values) for row in form.rows for r in row.rules.values() if isinstance(r, Choice)] + [2])

"""Filling a form as a person does in Excel: a value on the row that offers
it, anything else in a free row, only values the cell's dropdown or
validation accepts, then the status cell set to Ready.

The demos play their samples through the forms with it (a player filling an
export with :func:`fill`, the umpire typing into the master's form with
:func:`fill_in_place`), and the tests do too.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from automation.errors import UsageError
from automation.workbook.forms.model import HEADER_ROW
from automation.workbook.forms.status import STATUS_CELL, Status



def _accepts(rules: list[Any], cell: str, value: Any) -> str | None:
    """Why ``cell``'s validation refuses ``value`` (None: accepted, or no validation)."""
    for dv in rules:
        if cell not in dv.sqref:
            continue
        if dv.type == "list" and dv.formula1 and dv.formula1.startswith('"'):
            offered = [v.replace('""', '"') for v in dv.formula1.strip('"').split(",")]
            if str(value) not in offered:
                return f"{value!r} is not offered by the dropdown ({', '.join(offered)})"
        elif dv.type == "whole":
            low, high = int(dv.formula1), int(dv.formula2)
            if not (isinstance(value, int) and low <= value <= high):
                return f"{value!r} is not a whole number from {low} to {high}"
    return None


def plan(ws: Any, sheet: str, lines: Sequence[Mapping[str, Any]], ready: bool = True,
         keys: Sequence[str] = ()) -> dict[str, Any]:
    """The cells (reference -> value) a person types to fill the form ``sheet``
    (an openpyxl worksheet ``ws``) with ``lines`` (column name -> value).

    A line goes on the offered row it fits: every cell of the line that the
    row already shows holds the line's value, and one at least does (a Spend
    form's row shows its Order and Subject and takes the Value; an Umpire
    form's row for a unit shows its Subject and takes the Entry). A line no
    row fits goes in the first free row. With ``keys`` (an End form's Side and
    Unit), a line goes on the row whose ``keys`` columns hold its values, and
    its other values are typed over what the row shows, an empty one emptying
    the cell (the form lists each unit as it stood; the umpire changes what
    the scenario changed). Every value must be one its cell's validation
    accepts (UsageError naming the cell otherwise). Formulas count as empty:
    they are the form's own (costs, totals)."""
    top = HEADER_ROW + 1
    header = {str(c.value).strip(): c.column for c in ws[top] if c.value not in (None, "")}
    if lines and not header:
        raise UsageError(f"{sheet}: the form has no header in row {top}: fill its rows by hand")
    missing = [k for k in keys if k not in header]
    if missing:
        raise UsageError(f"{sheet}: no column {missing[0]!r} in row {top} to find a line's row by")
    rules = list(ws.data_validations.dataValidation)

    def shown(r: int, column: str) -> str:
        v = ws.cell(r, header[column]).value
        return "" if v is None or (isinstance(v, str) and v.startswith("=")) else str(v)

    def fits(r: int, line: Mapping[str, Any]) -> bool:
        if keys:
            return all(shown(r, k) == str(line.get(k) or "") for k in keys)
        given = [(c, str(v)) for c, v in line.items() if c in header and v not in (None, "")]
        return all(shown(r, c) in ("", v) for c, v in given) and any(shown(r, c) == v for c, v in given)

    def free(r: int) -> bool:
        return all(shown(r, c) == "" for c in header)

    last = ws.max_row
    used: set[int] = set()
    typed: dict[str, Any] = {}
    for line in lines:
        row = next((r for r in range(top + 1, last + 1) if r not in used and not free(r) and fits(r, line)), None)
        if row is None:  # not offered: the first free row
            row = next(r for r in range(top + 1, last + 2) if r not in used and free(r))
        used.add(row)
        for column, value in line.items():
            if column not in header:
                continue
            cell = ws.cell(row, header[column])
            if value is None or value == "":
                if keys and cell.value not in (None, ""):  # typed over: the line empties the cell
                    typed[cell.coordinate] = None
                continue
            if cell.value not in (None, "") and cell.value == value:
                continue
            why = _accepts(rules, cell.coordinate, value)
            if why:
                raise UsageError(f"{sheet}!{cell.coordinate}: {why}")
            typed[cell.coordinate] = value
    if ready:
        typed[STATUS_CELL] = Status.READY.value
    return typed


def fill(path: Path, sheet: str, lines: Sequence[Mapping[str, Any]], out: Path | None = None,
         ready: bool = True) -> Path:
    """Fill the form ``sheet`` of the workbook at ``path`` with ``lines`` (as
    :func:`plan` places them), set it Ready, and save it as ``out`` (default: in
    place) with openpyxl: for a player's export, which holds no chart."""
    import openpyxl

    wb = openpyxl.load_workbook(path)
    ws = wb[sheet]
    for ref, value in plan(ws, sheet, lines, ready).items():
        ws[ref] = value
    wb.save(out or path)
    return out or path


def fill_in_place(path: Path, sheet: str, lines: Sequence[Mapping[str, Any]], ready: bool = True,
                  keys: Sequence[str] = ()) -> Path:
    """Fill the form ``sheet`` of the workbook at ``path`` as :func:`fill` does,
    but typing into the cells in place: every other part of the workbook (the
    master's chart, its other sheets, the form's formulas, dropdowns and styles)
    stays byte for byte. For the master, where the umpire answers a form."""
    import openpyxl

    from automation.workbook.typein import type_in

    wb = openpyxl.load_workbook(path)  # read only for the form's cells and validations; never saved
    typed = plan(wb[sheet], sheet, lines, ready, keys)
    wb.close()
    type_in(path, sheet, typed)
    return path

"""Filling a form as a person does in Excel (openpyxl): a value on the row
that offers it, anything else in a free row, only values the cell's
dropdown or validation accepts, then the status cell set to Ready.

The demos play their samples through the forms with it (a player filling
an export, the umpire filling the master's form), and the tests do too.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from automation.errors import UsageError
from automation.workbook.forms.model import HEADER_ROW
from automation.workbook.forms.status import STATUS_CELL, Status

KEYS = ("Order", "Purchase", "Entry")  # the first column: what kind of line it is


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


def fill(path: Path, sheet: str, lines: Sequence[Mapping[str, Any]], out: Path | None = None,
         ready: bool = True) -> Path:
    """Write ``lines`` (column name -> value) into the form ``sheet`` of the
    workbook at ``path`` and save it as ``out`` (default: in place). A line
    that an offered row fits (its kind is the line's, and every cell it
    already holds) fills that row's empty cells; any other goes in the first
    free row. Every value must be one its cell's validation accepts
    (UsageError naming the cell otherwise)."""
    import openpyxl

    wb = openpyxl.load_workbook(path)
    ws = wb[sheet]
    top = HEADER_ROW + 1
    header = {str(c.value).strip(): c.column for c in ws[top] if c.value not in (None, "")}
    key = next((k for k in KEYS if k in header), None)
    if lines and key is None:
        raise UsageError(f"{sheet}: no column says what a line is ({', '.join(KEYS)}): fill its rows by hand")
    rules = list(ws.data_validations.dataValidation)

    def fits(r: int, line: Mapping[str, Any]) -> bool:
        """Row ``r`` offers ``line``: its kind, and every cell it already holds, are the line's."""
        if str(ws.cell(r, header[key]).value or "") != str(line.get(key) or ""):
            return False
        return all(ws.cell(r, header[c]).value in (None, "") or str(ws.cell(r, header[c]).value) == str(v)
                   for c, v in line.items() if c in header and v is not None)

    last = ws.max_row
    used: set[int] = set()
    for line in lines:
        row = next((r for r in range(top + 1, last + 1) if r not in used and ws.cell(r, header[key]).value
                    and fits(r, line)), None)
        if row is None:  # not offered: the first free row
            row = next(r for r in range(top + 1, last + 2) if r not in used and not ws.cell(r, header[key]).value)
        used.add(row)
        for column, value in line.items():
            if value is None or column not in header:
                continue
            cell = ws.cell(row, header[column])
            if cell.value not in (None, "") and cell.value == value:
                continue
            why = _accepts(rules, cell.coordinate, value)
            if why:
                raise UsageError(f"{sheet}!{cell.coordinate}: {why}")
            cell.value = value
    if ready:
        ws[STATUS_CELL] = Status.READY.value
    wb.save(out or path)
    return out or path

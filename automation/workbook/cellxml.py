"""Cells written as sheet XML directly: the inner loop of every sheet Musterroll
writes (a refit's sheets, a player's export).

XlsxWriter draws each sheet (columns, page setup, frozen header, dropdowns,
tab colour) with no cells; the cells are written here as the rows of its
``<sheetData>`` and spliced into the part it wrote (:func:`splice`). Text is
always an inline string (``t="inlineStr"``): never a formula, a number or
markup, whatever it looks like, escaped as Excel reads it back (``_xHHHH_``
for control characters and for text shaped like such an escape).
"""
from __future__ import annotations

import re

from automation.errors import WorkbookFileError
from automation.workbook.gate import column_letter, column_number
from automation.workbook.xmlparts import escape_text

SHORT_TEXT = 16_000  # ASCII text this long always fits a cell
_DIMENSION = re.compile(r'<dimension ref="[A-Z0-9:]*"/>')
_EXTENT = re.compile(r"A1(:([A-Z]{1,3})([1-9][0-9]*))?")
_ESCAPED = re.compile("(_x[0-9a-fA-F]{4}_)")
_CONTROL = re.compile(r"([\x00-\x08\x0b-\x1f])")


def text_xml(text: str) -> str:
    """An inline string's XML (``<is>...</is>``)."""
    if "_x" in text:
        text = _ESCAPED.sub(r"_x005F\1", text)
    if not text.isprintable():  # control characters, and the two non-characters
        text = _CONTROL.sub(lambda m: f"_x{ord(m.group(1)):04X}_", text).replace("\ufffe", "_xFFFE_") \
            .replace("\uffff", "_xFFFF_")
    space = ' xml:space="preserve"' if text[:1].isspace() or text[-1:].isspace() else ""
    if "&" in text or "<" in text or ">" in text:
        text = escape_text(text)
    return f"<is><t{space}>{text}</t></is>"


def column_letters(count: int) -> list[str]:
    """The letters of the first ``count`` columns: A, B, ... Z, AA ..."""
    return [column_letter(c) for c in range(1, count + 1)]


def extent(last_row: int, last_col: int) -> str:
    """The ``<dimension>`` of cells up to (last_row, last_col), 0-based; -1: none."""
    if last_row < 0 or (last_row, last_col) == (0, 0):
        return "A1"
    return f"A1:{column_letters(last_col + 1)[-1]}{last_row + 1}"


def bounds(dimension: str) -> tuple[int, int]:
    """The last row and column (1-based) of a ``<dimension>`` :func:`extent` wrote."""
    found = _EXTENT.fullmatch(dimension)
    if found is None:
        raise ValueError(f"not an extent: {dimension!r}")
    return int(found.group(3) or 1), column_number(found.group(2) or "A")


def around(part: str, dimension: str, where: str) -> tuple[str, str]:
    """Sheet part ``part`` (written with no cells) cut where its rows go: the
    text before them (its extent set to ``dimension``) and the text after."""
    if "<sheetData/>" not in part:
        raise WorkbookFileError(f"{where}: internal error: the sheet was written with cells")
    before, _, after = _DIMENSION.sub(f'<dimension ref="{dimension}"/>', part, count=1).partition("<sheetData/>")
    return before + "<sheetData>", "</sheetData>" + after


def splice(part: str, rows: str, dimension: str, where: str) -> str:
    """Sheet part ``part`` (written with no cells) holding ``rows``."""
    if not rows:
        return part
    before, after = around(part, dimension, where)
    return before + rows + after

"""How every sheet Musterroll writes prints, and which columns hold codes.

Printing: fit to one page wide (as many pages down as needed), landscape when
the columns are wider than a portrait page holds at a readable size, the header
row repeated on every page, the sheet's name and the page number in the footer,
gridlines printed. Numbers in wide columns are aligned left, next to their
label, where the eye looks (a total at the far end of a 90-character column
is lost on paper).

Codes: a column whose header names codes that look like dates or numbers (ASL
factors 6-5-8, leader ratings 8-1, IDs, date labels) is formatted as Text
(``@``), so what is typed there later stays as typed.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

TAB_COLOURS: Mapping[str, str] = {  # a sheet's tab, by the kind of sheet it is
    "report": "#4472C4", "roster": "#548235", "orders": "#ED7D31", "ledger": "#BF8F00",
    "log": "#7F7F7F", "tables": "#7030A0", "settings": "#C00000", "results": "#FFC000",
}


PORTRAIT_CHARS = 95  # the column widths (in characters) a portrait page holds at a readable size
WIDE_COLUMN = 24  # numbers in a column at least this wide sit at the left


def is_landscape(widths: Sequence[float]) -> bool:
    return sum(widths) > PORTRAIT_CHARS


def page_setup(ws: Any, widths: Sequence[float], header_rows: int = 1) -> None:
    """Set an XlsxWriter worksheet up to print sensibly."""
    if is_landscape(widths):
        ws.set_landscape()
    ws.fit_to_pages(1, 0)
    if header_rows:
        ws.repeat_rows(0, header_rows - 1)
    ws.set_margins(left=0.4, right=0.4, top=0.5, bottom=0.6)
    ws.set_footer("&L&A&RPage &P of &N")
    ws.hide_gridlines(0)  # printed too


def code_columns(header: Sequence[Any]) -> list[int]:
    """The indexes of the header's columns that hold codes (Text-formatted)."""
    from automation.workbook.schema import is_code_column  # (the sheet kinds: not loaded by undo)

    return [i for i, h in enumerate(header) if isinstance(h, str) and is_code_column(h)]


def header_width(header: Any) -> float:
    """The width a header cell needs to be read whole in bold (0 for no header);
    capped, so a long header wraps rather than widening the page."""
    if not isinstance(header, str) or not header:
        return 0.0
    return min(len(header) * 1.1 + 2, 40.0)

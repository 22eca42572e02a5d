"""The cells of the sheets an append wrote, kept as the parser reads them back.

A refit appends the campaign's new roster and the reports of its stages:
6,700 rows at 5,000 stands by date 100. The command that follows it in play,
the export for a side, parsed them again (80-110 ms at 5,000 stands, a
fifth of the export, growing with the roster). Yet the cells of a plain
sheet are written by :func:`automation.workbook.sheetgraft._rows_xml` from
values whose reading back is known: text as it is, a number as the 16
significant digits written, Yes/No cells as True/False, no value as "".

So an append keeps what the parser will read in each plain sheet it wrote
(:func:`keep`), in the user's cache folder, under the stamp the sheet's part
has in the file written (:mod:`automation.workbook.rowcache`): the next
command reading the sheet from that file takes the cells as if it had parsed
them, and validates them as ever. A sheet holding a value whose reading back
is not certain is not kept and is parsed as before: a date (read as a date
by its style), text shaped like the escape of a character (``_x0041_``) or
holding one of the two non-characters, a value of another type. A form
(drawn by XlsxWriter) is never kept. ``verify`` reads every sheet from the
file, never from what is kept.

``tests/workbook/test_readback.py`` holds this to the parser: every sheet of
the bundled campaigns' refits, and texts and numbers of every awkward kind,
read back by the parser exactly as kept.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, NamedTuple

from automation.workbook import rowcache
from automation.workbook.text import cell_text
from automation.workbook.zipraw import LOCAL_HEADER

SHARED = "xl/sharedstrings.xml"
STYLES = "xl/styles.xml"


class _Entry(NamedTuple):
    """A part's CRC-32 and size, as a zip entry gives them."""

    CRC: int
    file_size: int


_PLAIN = frozenset({str, type(None)})  # a row of text and blanks: read as it is, a blank as ""
_KNOWN = frozenset({str, type(None), int, float, bool})
_EXACT = 10 ** 15  # a whole number of fewer digits is written, and read back, as it is


def cells_of(rows: Sequence[Sequence[object]]) -> list[list[Any]] | None:
    """The cells the parser reads from a plain sheet written with ``rows``,
    from A1 to its last cell, row by row, each row as wide as the widest (a
    cell with no value: ""); None when a value's reading back is not certain."""
    read: list[list[Any]] = []
    last_row = width = 0
    for r, row in enumerate(rows, start=1):
        kinds = set(map(type, row))
        if kinds <= _PLAIN:
            read.append([value or "" for value in row])
        elif kinds <= _KNOWN:  # a number as the 16 digits written, read as a double
            read.append([value if type(value) is str or type(value) is bool else "" if value is None
                         else float(value) if type(value) is int and -_EXACT < value < _EXACT
                         else float(f"{value:.16G}") for value in row])
        else:
            return None  # a date, or a value of a type of its own
        used = len(row)
        while used and row[used - 1] is None:
            used -= 1
        if used:
            last_row, width = r, max(width, used)
    texts = "\0".join([value for back in read for value in back if type(value) is str])
    if "_x" in texts or "\ufffe" in texts or "\uffff" in texts:
        return None  # (written escaped; the parser reads some escapes back otherwise)
    if not texts.isascii():  # as the writer writes it (a lone surrogate: U+FFFD)
        for back in read:
            back[:] = [cell_text(value, "") if type(value) is str and not value.isascii() else value
                       for value in back]
    del read[last_row:]
    for back in read:
        if len(back) > width:
            del back[width:]
        elif len(back) < width:
            back += [""] * (width - len(back))
    return read


def keep(sheets: Sequence[Any], parts: Sequence[str], new: Mapping[str, tuple[int, bytes, bytes]],
         shared: Any, styles: Any = None) -> None:
    """Keep the cells of each plain sheet of ``sheets`` (NewSheets) written
    as part ``parts[i]``, whose local header ``new`` holds (by lower-cased
    name, as :class:`automation.workbook.zipraw.Written` lists the parts
    written), in a file whose shared strings part is ``shared`` and whose
    styles part was ``styles`` (their zip entries in the file appended to,
    None: none; the styles as ``new`` holds them, when written anew).
    Nothing is kept when the shared strings were written anew, or where
    keeping is off."""
    if SHARED in new or not rowcache.keeping():
        return
    strings = rowcache.strings_stamp(shared)
    if STYLES in new:  # (the styles the append merged: its own formats added)
        crc, _, size = LOCAL_HEADER.unpack_from(new[STYLES][1])[6:9]
        styles = _Entry(crc, size)
    looks = rowcache.styles_stamp(styles)
    for sheet, part in zip(sheets, parts):
        written = new.get(part.lower())
        if sheet.form is not None or written is None:
            continue
        cells = cells_of(sheet.rows)
        if cells is None:
            continue
        crc, stored, size = LOCAL_HEADER.unpack_from(written[1])[6:9]
        stamp = rowcache.stamp_of([(crc, size, stored)], strings)
        rowcache.keep_cells(rowcache.raw_key_of(f"{stamp}{looks}"), cells)


__all__ = ["cells_of", "keep"]

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
from typing import Any

from automation.workbook import rowcache
from automation.workbook.cellxml import SHORT_TEXT
from automation.workbook.text import cell_text
from automation.workbook.zipraw import LOCAL_HEADER

SHARED = "xl/sharedstrings.xml"


def cells_of(rows: Sequence[Sequence[object]]) -> list[list[Any]] | None:
    """The cells the parser reads from a plain sheet written with ``rows``,
    from A1 to its last cell, row by row, each row as wide as the widest (a
    cell with no value: ""); None when a value's reading back is not certain."""
    read: list[list[Any]] = []
    last_row = width = 0
    for r, row in enumerate(rows, start=1):
        back: list[Any] = []
        add = back.append
        used = 0
        for c, value in enumerate(row, start=1):
            kind = type(value)
            if value is None:
                add("")
                continue
            if kind is str:
                if "_x" in value or "\ufffe" in value or "\uffff" in value:
                    return None  # (written escaped; the parser reads some escapes back otherwise)
                add(value if value.isascii() and len(value) <= SHORT_TEXT else cell_text(value, ""))
            elif kind is int or kind is float:
                add(float(f"{value:.16G}"))  # the digits written, read as a double
            elif kind is bool:
                add(value)
            else:
                return None  # a date, or a value of a type of its own
            used = c
        read.append(back)
        if used:
            last_row, width = r, max(width, used)
    del read[last_row:]
    for back in read:
        if len(back) > width:
            del back[width:]
        elif len(back) < width:
            back += [""] * (width - len(back))
    return read


def keep(sheets: Sequence[Any], parts: Sequence[str], new: Mapping[str, tuple[int, bytes, bytes]],
         shared: Any) -> None:
    """Keep the cells of each plain sheet of ``sheets`` (NewSheets) written
    as part ``parts[i]``, whose local header ``new`` holds (by lower-cased
    name, as :class:`automation.workbook.zipraw.Written` lists the parts
    written), in a file whose shared strings part is ``shared`` (its zip
    entry, None: none). Nothing is kept when the shared strings were written
    anew, or where keeping is off."""
    if SHARED in new or not rowcache.keeping():
        return
    strings = f"+{shared.CRC:08x}.{shared.file_size}" if shared is not None else ""
    parser = rowcache.parser_stamp()
    for sheet, part in zip(sheets, parts):
        written = new.get(part.lower())
        if sheet.form is not None or written is None:
            continue
        cells = cells_of(sheet.rows)
        if cells is None:
            continue
        crc, stored, size = LOCAL_HEADER.unpack_from(written[1])[6:9]
        stamp = rowcache.stamp_of([(crc, size, stored)], strings)
        rowcache.keep_cells(rowcache.raw_key_of(stamp, parser), cells)


__all__ = ["cells_of", "keep"]

"""What the reader made of a sheet, kept from run to run.

Every command of a long campaign reads its latest roster, some twice: at
5,000 stands, checking the part, parsing it and converting every cell took
150-200 ms, a third of a command, and grows with the roster as play goes
on. A sheet a command read is sealed: the next command reads the same
bytes. So what the reader made of it is kept in the user's cache folder
(``rows``): its cells as parsed (:meth:`automation.workbook.reader.Workbook.raw`),
named by the sheet's part stamp (the CRC-32 and sizes of its part and of
the shared strings, :meth:`~automation.workbook.reader.Workbook.part_stamp`)
and the styles part's (:func:`styles_stamp`),
the installed parser and Musterroll's own code; and its rows as read for a
kind of sheet (:meth:`~automation.workbook.reader.Workbook.read`: every value
checked and converted), named by the same and the kind's columns and the
lists its values were checked against. The next read of that sheet takes
them (5-25 ms at 5,000 stands) instead of checking, parsing and converting
it again: what was checked when the sheet was read is not checked again.

Only what read without a problem is kept, of a master workbook read from
its file (never a player's returned file, nor one read from an encrypted
file, nor by verify: see :attr:`~automation.workbook.reader.Workbook.keep_reads`),
and only values :mod:`marshal` writes (text, numbers, Yes/No, empty: a
sheet holding a date cell is parsed each time). A file is what
:mod:`marshal` wrote, then its SHA-256: a file cut short or changed is not
taken. The :data:`KEPT` files of each kind last written or read are kept;
``MUSTERROLL_CACHE=off`` keeps nothing.
"""
from __future__ import annotations

import functools
import hashlib
import marshal
import os
import sys
from collections.abc import Mapping, Sequence
from typing import Any

from automation.cachesetting import cache_folder, code_stamp, read_kept, used, write_kept

FORMAT = f"1 marshal {marshal.version} python {sys.version_info[0]}.{sys.version_info[1]}"
KEPT = 256  # files of each kind kept, the last written or read (a refit reads about twenty sheets; several
# campaigns or copies used in turn read and write hundreds: tests/workbook/test_cache_room.py)
SUFFIX = ".rows"
CELLS = ".cells"

Rows = tuple[Mapping[str, str], tuple[tuple[int, tuple[Any, ...]], ...]]  # (each column's letter, (row, values))


@functools.cache
def parser_stamp() -> str:
    """The installed parser (its module's file, size and time), found without
    importing it: cells kept from run to run are parsed again by another."""
    import importlib.util

    try:
        origin = getattr(importlib.util.find_spec("python_calamine"), "origin", None) or ""
        st = os.stat(origin)
        return f"{origin}:{st.st_size}:{st.st_mtime_ns}"
    except (OSError, ImportError, ValueError):
        return "python_calamine"


def strings_stamp(strings: Any) -> str:
    """The shared strings' part of every sheet's stamp (:func:`stamp_of`):
    "+CRC.size" of their zip entry ``strings``, "" for none."""
    return f"+{strings.CRC:08x}.{strings.file_size}" if strings is not None else ""


def styles_stamp(styles: Any) -> str:
    """What the cells' styles add to a sheet's stamp when its cells are kept
    (:meth:`automation.workbook.reader.Workbook._kept_stamp`): "~CRC.size"
    of the styles part's zip entry ``styles``, "" for none. A cell's style
    says whether the number it holds reads as a date: a styles part changed
    by hand, the sheet's part as it was, reads the sheet again."""
    return f"~{styles.CRC:08x}.{styles.file_size}" if styles is not None else ""


def stamp_of(parts: Sequence[tuple[int, int, int]], shared: str) -> str | None:
    """A sheet's part stamp: the CRC-32, size and stored size of each part it
    is read from, and ``shared``, the stamp of the shared strings its cells
    may point into (:func:`strings_stamp`). None: no part."""
    if len(parts) == 1:
        crc, size, stored = parts[0]
        return f"{crc:08x}.{size}.{stored}{shared}"
    return "+".join(f"{crc:08x}.{size}.{stored}" for crc, size, stored in parts) + shared if parts else None


def raw_key_of(stamp: str) -> str:
    """What a sheet's cells as the parser reads them are kept under: its part
    stamp, the installed parser (:func:`parser_stamp`) and Musterroll's code."""
    text = f"{FORMAT}\0cells\0{code_stamp()}\0{parser_stamp()}\0{stamp}"
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:40]


def find_cells(key: str) -> list[list[Any]] | None:
    """The cells kept under ``key``, row by row; None when none are kept whole."""
    found = _read(key, CELLS)
    if found is None or len(found) != 3 or not isinstance(found[2], list):
        return None
    return found[2]


def keep_cells(key: str, rows: list[list[Any]]) -> None:
    """Keep a sheet's cells under ``key``, unless one is a value marshal does
    not write (a date cell: such a sheet is parsed each time)."""
    _write(key, CELLS, (FORMAT, key, rows))


def keeping() -> bool:
    """Whether rows are kept (a cache folder can be named and keeping is not off)."""
    return cache_folder("rows") is not None


def key_of(stamp: str, kind: Any, lists: Sequence[tuple[str, tuple[str, ...]]]) -> str:
    """What a sheet's rows are kept under: its part stamp, the kind it is read
    as (its columns), the lists checked against and Musterroll's code."""
    text = f"{FORMAT}\0{code_stamp()}\0{kind!r}\0{lists!r}\0{stamp}"
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:40]


def find(key: str) -> Rows | None:
    """The rows kept under ``key``: each column's letter, and each row's number
    and values (in the kind's column order); None when none are kept whole."""
    found = _read(key, SUFFIX)
    if found is None or len(found) != 4 or not isinstance(found[2], dict) or not isinstance(found[3], tuple):
        return None
    return found[2], found[3]


def keep(key: str, letters: Mapping[str, str], rows: Sequence[tuple[int, tuple[Any, ...]]]) -> None:
    """Keep ``rows`` under ``key`` (best effort: rows that cannot be kept are read again next time)."""
    _write(key, SUFFIX, (FORMAT, key, dict(letters), tuple(rows)))


def _read(key: str, suffix: str) -> tuple | None:
    """What is kept under ``key``, when a whole file of this format holds it."""
    folder = cache_folder("rows")
    raw = read_kept(folder, f"{key}{suffix}")
    body = raw[:-32] if raw is not None else b""
    if raw is None or len(raw) < 32 or hashlib.sha256(body).digest() != raw[-32:]:
        return None
    try:
        found = marshal.loads(body)
    except (ValueError, EOFError, TypeError):
        return None
    if not isinstance(found, tuple) or len(found) < 2 or found[0] != FORMAT or found[1] != key:
        return None
    used(folder / f"{key}{suffix}")  # type: ignore[operator]
    return found


def _write(key: str, suffix: str, value: tuple) -> None:
    """Keep ``value`` under ``key`` (best effort), the last :data:`KEPT` of its kind."""
    folder = cache_folder("rows")
    if folder is None:
        return
    try:
        body = marshal.dumps(value)
    except ValueError:  # a value marshal does not write (a date, a time ...)
        return
    write_kept(folder, f"{key}{suffix}", body + hashlib.sha256(body).digest(), suffix, KEPT)


__all__ = ["KEPT", "find", "find_cells", "keep", "keep_cells", "keeping", "key_of", "parser_stamp", "raw_key_of",
           "stamp_of", "strings_stamp", "styles_stamp"]

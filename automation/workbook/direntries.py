"""A long campaign's zip directory read once: its entries kept between runs.

Every command opens its workbook through a snapshot
(:mod:`automation.workbook.snapshot`), which reads the zip directory into an
entry a part (:func:`automation.workbook.zipentries.plain_records`) and
finds the sheet parts it copies when first read. At a hundred dates that is
some 1,440 records, about 4 ms a file opened, on every command, and the
import opens two files; and it is the same directory, record for record,
that every command after the append that wrote it reads.

So the entries and the sheet parts found are kept, in the cache folder's
``directories`` (:mod:`automation.cachesetting`), under the SHA-256 of the
directory's bytes, how many records it holds and where it starts: equal
keys, equal entries (the records hold every value an entry has, and the
start of the directory is where the last part ends). A kept file ends with
the SHA-256 of what it holds; a file that does not read back whole, or holds
other than that key's entries, is not used, and the directory is read again.
A directory of fewer than :data:`SMALLEST` records is read each time (faster
than a kept file is read and checked), and nothing is kept with keeping off.
The :data:`KEPT` files last kept or used are kept.
"""
from __future__ import annotations

import hashlib
import marshal
from collections.abc import Callable, Sequence
from pathlib import Path

from automation.cachesetting import cache_folder, read_kept, sealed, unsealed, used, write_kept
from automation.workbook.zipentries import Entry, plain_records

FORMAT = "directory entries 1"
SUFFIX = ".entries"
KEPT = 64  # a campaign's last few states (an append a step of play), for the copies and sides of a campaign
SMALLEST = 256  # records: below, the directory is read each time (a short campaign's, a returned file's early on)
Lazy = list[tuple[int, int]]  # the sheet parts a snapshot copies when first read: where each starts and ends


def folder() -> Path | None:
    """Where entries are kept (None: keeping is off, or no cache folder can be named)."""
    try:
        return cache_folder("directories")
    except (ImportError, OSError, RuntimeError):  # (the user's cache folder, found by platformdirs)
        return None


def key_of(directory: bytes, count: int, cd_off: int) -> str:
    """The name the entries of ``directory`` (``count`` records, starting at byte ``cd_off``) are kept under."""
    return hashlib.sha256(f"{FORMAT}\0{count}\0{cd_off}\0".encode("ascii") + directory).hexdigest()[:40]


def entries(directory: bytes, count: int, cd_off: int, keep: bool, lazy_of: Callable[[Sequence[Entry]], Lazy]
            ) -> tuple[list[Entry], Lazy] | None:
    """The entries of the plain zip directory ``directory`` (as
    :func:`plain_records` reads them) and the sheet parts ``lazy_of`` finds
    among them: with ``keep``, as kept for the same directory, else read and
    kept; without, read. None when the directory is not plain."""
    where = folder() if keep and count >= SMALLEST else None
    if where is None:
        found = plain_records(directory, count, cd_off)
        return (found, lazy_of(found)) if found is not None else None
    key = key_of(directory, count, cd_off)
    name = f"{key}{SUFFIX}"
    kept = _from_bytes(read_kept(where, name), key, count)
    if kept is not None:
        used(where / name)
        return kept
    found = plain_records(directory, count, cd_off)
    if found is None:
        return None
    lazy = lazy_of(found)
    write_kept(where, name, _to_bytes(key, found, lazy), SUFFIX, KEPT)
    return found, lazy


def _to_bytes(key: str, found: Sequence[Entry], lazy: Lazy) -> bytes:
    """The file kept: the key, the entries as plain tuples and the sheet parts, as marshal writes them, then
    the SHA-256 of that."""
    return sealed(marshal.dumps((FORMAT, key, [tuple(e) for e in found], lazy)))


def _from_bytes(raw: bytes | None, key: str, count: int) -> tuple[list[Entry], Lazy] | None:
    """What ``raw`` holds when it is a whole file kept under ``key`` of ``count`` entries (see
    :func:`_to_bytes`); else None."""
    body = unsealed(raw)
    if body is None:
        return None
    try:
        fmt, kept_key, rows, lazy = marshal.loads(body)
    except (ValueError, EOFError, TypeError):
        return None
    if fmt != FORMAT or kept_key != key or not isinstance(rows, list) or len(rows) != count or \
            not isinstance(lazy, list) or not set(map(len, rows)) <= {len(Entry._fields)}:
        return None
    new = tuple.__new__  # (each made in one step, as plain_records makes them)
    return [new(Entry, r) for r in rows], lazy


__all__ = ["KEPT", "SMALLEST", "entries", "folder", "key_of"]

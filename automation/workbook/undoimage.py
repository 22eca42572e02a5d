"""What undo needs to take back the last append, kept when the append is made.

An append (:func:`automation.workbook.package.append_sheets`) adds parts and
edits the parts that list every sheet: the workbook part, its relationships,
the content types and ``docProps/app.xml``. Undo of that append is those
lists as they were before it, without the parts it added. So the append keeps
them, as the file stored them, with the names of the parts and sheets it
added, in a file of :func:`folder` named by the SHA-256 of the zip directory
it wrote: the directory pins every part's name, size, CRC-32 and place
(the argument :func:`automation.workbook.journal.rewrite_end` rests on too).

Undo looks for the image of the workbook's own directory. Found, the
workbook is exactly as that append left it (no program has saved it since:
a save writes a new directory), and undo puts the lists back and drops the
added parts, parsing no part: it costs the same whatever the length of the
campaign. Not found (the workbook was changed since, the image was never
kept, or keeping is off: ``MUSTERROLL_CACHE=off``), undo works the change
out from the workbook's lists (:mod:`automation.workbook.undo`), which gives
the same parts (``tests/workbook/test_undo_image.py``).

Only the umpire's own machine keeps images, in the user's cache folder
beside the carried folders (:mod:`automation.cachesetting`), readable by
the user alone; the :data:`KEPT` last kept or used are kept. An image that does not
read back whole (cut short, changed) is not used.
"""
from __future__ import annotations

import hashlib
import json
import struct
from dataclasses import dataclass
from pathlib import Path
from typing import Mapping, Sequence

from automation.cachesetting import cache_folder, keep_file, prune, sealed, unsealed, used
from automation.workbook.zipraw import ANEW_LEVEL, Deflated, RawZip, Written, directory_of

MAGIC = b"MRUNDO1\n"
KEPT = 256  # the images last kept or used that are kept: undo needs the one of each workbook's last append (of
# several campaigns or copies used in turn: tests/workbook/test_cache_room.py)
_HEAD = struct.Struct("<I")


@dataclass(frozen=True)
class UndoImage:
    """The last append of a workbook, to take back: the lists it edited, as
    the file stored them before it (part name -> its deflated bytes, CRC-32
    and size: written back as they are, neither inflated nor deflated again),
    the parts it added (lower-cased names) and the sheets it added, by name."""

    lists: Mapping[str, Deflated]
    added: frozenset[str]
    sheets: tuple[str, ...]

    def applies_to(self, source: RawZip) -> bool:
        """Whether every list it puts back and every part it drops is in ``source``."""
        return all(source.get(name) is not None for name in (*self.lists, *self.added))


def folder() -> Path | None:
    """Where the images are kept (None: keeping is off, or no cache folder can be named)."""
    try:
        return cache_folder("undo")
    except (ImportError, OSError, RuntimeError):  # (the user's cache folder, found by platformdirs)
        return None


def _name(digest: str) -> str:
    """The image's file, by the SHA-256 (hex) of the zip directory it is of."""
    return digest[:40] + ".undo"


def keep(written: Written, before: RawZip, lists: Sequence[str], added: Sequence[str], sheets: Sequence[str]) -> None:
    """Keep the image of the append that wrote ``written`` over ``before``:
    the parts ``lists`` as ``before`` stores them, the parts ``added`` and the
    sheets ``sheets`` it added. Best effort: an image that cannot be written
    only leaves undo to work the change out."""
    where = folder()
    if where is None or any(before.get(name) is None for name in lists):
        return
    stored: list[tuple[str, Deflated]] = []
    for name in lists:
        found = before.deflated(name)
        stored.append((name, found if found is not None else Deflated.of(before.read(name), ANEW_LEVEL)))
    digest = hashlib.sha256(written.directory).hexdigest()
    head = json.dumps({"size": written.size, "directory": digest,
                       "lists": [[name, d.crc, d.size, len(d.body)] for name, d in stored],
                       "added": sorted({a.lower() for a in added}), "sheets": list(sheets)},
                      ensure_ascii=False).encode("utf-8")
    body = MAGIC + _HEAD.pack(len(head)) + head + b"".join(d.body for _, d in stored)
    try:
        where.mkdir(parents=True, exist_ok=True, mode=0o700)
        keep_file(where / _name(digest), lambda fh: fh.write(sealed(body)))
        prune(where, ".undo", KEPT)
    except OSError:
        return


def find(data: bytes) -> UndoImage | None:
    """The image of the append that wrote the workbook ``data`` as it is, if
    one was kept and reads back whole."""
    where = folder()
    directory = directory_of(data) if where is not None else None
    if where is None or directory is None:
        return None
    digest = hashlib.sha256(directory).hexdigest()
    try:
        raw = (where / _name(digest)).read_bytes()
    except OSError:
        return None
    used(where / _name(digest))  # (kept while it is read again: a copy undone more than once)
    body = unsealed(raw)
    if body is None or len(body) < len(MAGIC) + _HEAD.size or not body.startswith(MAGIC):
        return None
    try:
        (length,) = _HEAD.unpack_from(body, len(MAGIC))
        at = len(MAGIC) + _HEAD.size
        head = json.loads(body[at:at + length].decode("utf-8"))
        if head["size"] != len(data) or head["directory"] != digest:
            return None
        at += length
        lists: dict[str, Deflated] = {}
        for name, crc, size, stored in head["lists"]:  # (the body's SHA-256 above holds each as it was kept)
            if not (isinstance(name, str) and all(isinstance(n, int) and n >= 0 for n in (crc, size, stored))):
                return None
            lists[name] = Deflated(body[at:at + stored], crc, size)
            at += stored
        if at != len(body):
            return None
        return UndoImage(lists, frozenset(head["added"]), tuple(head["sheets"]))
    except (ValueError, KeyError, TypeError, struct.error):
        return None


__all__ = ["UndoImage", "find", "folder", "keep"]

"""What the gate found in a master's lists, kept for the next command on the same file.

Every command opens the campaign through the gate
(:mod:`automation.workbook.gate`), which streams the parts that list every
sheet (the workbook part, its relationships, the content types, the styles,
``docProps/app.xml``) and parses the workbook part and its relationships for
the sheets, their parts and the defined names. A long campaign lists a
thousand sheets, so that is the one cost of opening it that grows with its
history. What the gate found depends on those parts' bytes alone, so it is
kept (:class:`Found`: the parts that passed their scan, each one's count of
``<``, the attributes of every sheet and relationship listed, the defined
names) in a file of :func:`folder` named by the SHA-256 of the zip directory
and the limits the file was checked with. The directory pins every part's
name, size, CRC-32 and place (the argument :mod:`automation.workbook.undoimage`
and the carried part stamps rest on too): a file with that directory holds
the parts that passed. The next gate of a file with that directory takes what
was found instead of scanning and parsing the lists again.

An append (:func:`automation.workbook.package.append_sheets`) carries what
was found forward to the file it writes (:func:`appended`): it knows the
sheets, relationships and defined names it added to the ends of the lists,
and the lists it wrote are those that passed with its own lines inserted,
which hold no DTD; each is counted again for ``<`` (elements) and ``xmlns``
(namespace declarations) against the limits, so a list grown past them is
left to the next gate to scan. So the command after a refit or an import
opens the campaign without parsing its lists either.

Only a master's findings are kept: a file a player sends back is always
checked whole. Only the umpire's own machine keeps them, in the user's cache
folder beside the carried folders (:mod:`automation.cachesetting`), readable
by the user alone; the newest :data:`KEPT` are kept. A file that does not
read back whole (cut short, changed, of another format) is not used.
"""
from __future__ import annotations

import contextlib
import hashlib
import json
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from automation.cachesetting import cache_folder, keep_file
from automation.workbook.zipraw import directory_of

FORMAT = 1
KEPT = 32  # the newest findings kept: a command needs those of the file it opens
Attributes = Mapping[str, str]


@dataclass(frozen=True)
class Found:
    """What the gate found in a file's lists: the parts that passed their scan
    (``checked``), each whole-scanned part's count of ``<`` (``marks``), the
    attributes of each element of the lists the gate reads, by (part, local
    name), in document order (``lists``), and the workbook's defined names,
    (name, text) in order (None: the package's main part is not
    ``xl/workbook.xml``)."""

    checked: frozenset[str]
    marks: Mapping[str, int]
    lists: Mapping[tuple[str, str], tuple[Attributes, ...]]
    names: tuple[tuple[str, str], ...] | None

    def to_bytes(self, key: str) -> bytes:
        """The file kept: JSON, then the SHA-256 of it."""
        body = json.dumps({"format": FORMAT, "key": key, "checked": sorted(self.checked), "marks": dict(self.marks),
                           "lists": [[part, local, [dict(a) for a in every]]
                                     for (part, local), every in self.lists.items()],
                           "names": None if self.names is None else [list(n) for n in self.names]},
                          ensure_ascii=False, separators=(",", ":")).encode("utf-8")
        return body + hashlib.sha256(body).digest()

    @classmethod
    def from_bytes(cls, raw: bytes, key: str) -> Found | None:
        """The findings of ``raw`` when it is a whole file of this format kept
        under ``key`` (its SHA-256 tells a file cut short or changed; the
        attributes are then taken as they read)."""
        body = raw[:-32]
        if len(raw) < 32 or hashlib.sha256(body).digest() != raw[-32:]:
            return None
        try:
            head = json.loads(body.decode("utf-8"))
            if head["format"] != FORMAT or head["key"] != key:
                return None
            lists = {(part, local): tuple(every) for part, local, every in head["lists"]}
            names = head["names"]
            if not all(isinstance(p, str) and isinstance(a, dict) for (p, _), every in lists.items() for a in every):
                return None
            return cls(frozenset(head["checked"]), {str(k): int(v) for k, v in head["marks"].items()}, lists,
                       None if names is None else tuple((n, t) for n, t in names))
        except (ValueError, KeyError, TypeError, AttributeError, UnicodeDecodeError):
            return None


def folder() -> Path | None:
    """Where findings are kept (None: keeping is off, or no cache folder can be named)."""
    try:
        return cache_folder("checked")
    except (ImportError, OSError, RuntimeError):  # (the user's cache folder, found by platformdirs)
        return None


def key_of(directory: bytes, limits: object) -> str:
    """The key of a file whose zip directory is ``directory``, checked with ``limits``."""
    return hashlib.sha256(repr(limits).encode("utf-8") + b"\0" + directory).hexdigest()


def key_for(data: Any, limits: object) -> str | None:
    """The key of the file ``data`` (None: keeping is off, or the file does not end with its directory)."""
    if folder() is None:
        return None
    directory = directory_of(data)
    return key_of(directory, limits) if directory is not None else None


def find(key: str) -> Found | None:
    """The findings kept under ``key``, if any read back whole."""
    where = folder()
    if where is None:
        return None
    try:
        raw = (where / f"{key[:40]}.json").read_bytes()
    except OSError:
        return None
    return Found.from_bytes(raw, key)


def keep(key: str, found: Found) -> None:
    """Keep ``found`` under ``key`` (best effort: findings that cannot be kept
    are only found again by the next gate)."""
    where = folder()
    if where is None:
        return
    body = found.to_bytes(key)
    try:
        where.mkdir(parents=True, exist_ok=True, mode=0o700)
        keep_file(where / f"{key[:40]}.json", lambda fh: fh.write(body))
        _forget_old(where)
    except OSError:
        return


def _forget_old(where: Path) -> None:
    """Remove all but the newest :data:`KEPT` findings."""
    with os.scandir(where) as entries:
        kept = [(entry.stat().st_mtime_ns, entry.path) for entry in entries if entry.name.endswith(".json")]
    for _, path in sorted(kept, reverse=True)[KEPT:]:
        with contextlib.suppress(OSError):
            os.unlink(path)


def appended(found: Found, written: Mapping[str, bytes], *, elements: int, namespaces: int,
             added: Mapping[tuple[str, str], Sequence[Attributes]], names: Sequence[tuple[str, str]],
             changed: Mapping[tuple[str, str], Mapping[int, Attributes]] | None = None) -> Found | None:
    """The findings of a file made from the one of ``found`` by writing the
    list parts ``written`` (name -> bytes: each one that passed, with lines
    inserted into it and attributes set), whose lists gained the elements
    ``added`` (by part and local name, at their ends) and the defined names
    ``names`` (at the end), and whose elements ``changed`` (by part and local
    name, then place in the list) now have the attributes given.
    None when they cannot be told without a scan: a part written that had not
    passed whole, one that now holds a DTD or entity, more ``<`` than
    ``elements`` or more ``xmlns`` than ``namespaces``, a list not found
    before, or no defined names found (the main part is elsewhere)."""
    if found.names is None:
        return None
    marks = dict(found.marks)
    for name, data in written.items():
        if name not in found.checked or name not in found.marks:
            return None
        if b"<!DOCTYPE" in data or b"<!ENTITY" in data:
            return None
        marks[name] = data.count(b"<")
        if marks[name] > elements or data.count(b"xmlns") > namespaces:
            return None
    lists = dict(found.lists)
    for where, now in (changed or {}).items():
        if where not in lists or where[0] not in written or not all(0 <= i < len(lists[where]) for i in now):
            return None
        lists[where] = tuple(now.get(i, attributes) for i, attributes in enumerate(lists[where]))
    for where, more in added.items():
        if where not in lists or where[0] not in written:
            return None
        lists[where] = (*lists[where], *more)
    return Found(found.checked, marks, lists, (*found.names, *names))


__all__ = ["Found", "appended", "find", "folder", "keep", "key_for", "key_of"]

"""A side's export parts carried from one export to the next.

An export shows every sealed campaign sheet a side may see, date after date;
the sheet part written for one of them (its cells as XML, its columns, its
page setup) is the same on every export as long as the master sheet it comes
from is unchanged, the names scrubbed from it are the same, and Musterroll's
own code is. Each such part is kept compressed, as it went into the export,
in a zip beside the workbook (``.BOOK.xlsx.carried/parts-SIDE.zip``, see
:mod:`automation.pbem.carry`), named by a digest of all it depends on. The
next export copies it into the new file as stored, without building, scrubbing
or compressing it again.

The store is only work already done: it is replaced whole (a temporary file,
then a rename) by each export, holding exactly the parts that export used, and
anything unreadable in it is built again.
"""
from __future__ import annotations

import hashlib
from pathlib import Path

from automation.errors import MusterrollError
from automation.pbem.carry import keep_file
from automation.workbook.zipraw import EMPTY, Deflated, parse_zip, write_zip

MAX_STORE = 512 * 1024 * 1024  # a store larger than this is not read (built again)


def part_key(*what: object) -> str:
    return hashlib.sha256(repr(what).encode("utf-8")).hexdigest()[:40]


class PartStore:
    """The parts an export of one side carried (see the module). :meth:`get`
    finds a part by its key; :meth:`keep` records a part this export used;
    :meth:`save` replaces the store with what was kept."""

    def __init__(self, path: Path | None) -> None:
        self.path = path
        self._old: dict[str, Deflated] | None = None
        self._kept: dict[str, Deflated] = {}

    @classmethod
    def of(cls, folder: Path | None, side: str) -> PartStore:
        if folder is None:
            return cls(None)
        return cls(Path(folder) / f"parts-{hashlib.sha256(side.encode('utf-8')).hexdigest()[:16]}.zip")

    def _load(self) -> dict[str, Deflated]:
        if self._old is None:
            self._old = {}
            if self.path is not None:
                try:
                    if self.path.stat().st_size <= MAX_STORE:
                        store = parse_zip(self.path.read_bytes(), str(self.path))
                        for member in store.members:
                            found = store.deflated(member.name)
                            if found is not None:
                                self._old[member.name] = found
                except (OSError, MusterrollError, ValueError):
                    self._old = {}  # absent or unreadable: every part is built again
        return self._old

    def get(self, key: str) -> Deflated | None:
        if self.path is None:
            return None
        found = self._load().get(key)
        if found is not None:
            self._kept[key] = found
        return found

    def keep(self, key: str, stored: Deflated) -> None:
        if self.path is not None:
            self._kept[key] = stored

    def save(self) -> None:
        """Write the parts kept (best effort: a store that cannot be written
        only means the parts are built again next time)."""
        if self.path is None or (self._old is None and not self._kept) \
                or (self._old is not None and set(self._old) == set(self._kept)):
            return
        try:
            self.path.parent.mkdir(exist_ok=True)
            keep_file(self.path, lambda fh: write_zip(fh, EMPTY, {}, set(), sorted(self._kept.items())))
        except (OSError, MusterrollError):
            return

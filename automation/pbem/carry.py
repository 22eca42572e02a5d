"""What export and import derive from sheets that no longer change, worked out
once and carried from run to run.

A sheet a refit or an import appended is sealed: its bytes stay as they were.
What the play-by-email commands derive from such a sheet (whether it is a
campaign sheet and of which kind, the rows a side may see of it, the stand
names a roster lists, a ledger's purchase lines) is the same on every run, so
it is computed the first time and kept in a folder beside the workbook
(``.BOOK.xlsx.carried/``, one small file per derivation). An entry is used only
while the sheet's stamp (:meth:`automation.workbook.reader.Workbook.part_stamp`:
the CRC-32 and sizes of its part and of the shared strings, read from the zip
directory without parsing anything) is the one it was computed from, and while
the campaign's dates and Musterroll's own code are unchanged (the folder's
context). A sheet edited since, a sheet renamed, an undo, another version: the
entry is computed again. The folder is only a store of work already done:
removing it costs time, never a different result. It holds nothing the
workbook does not, and nothing is carried for a workbook read from an
encrypted file.

An export also keeps there the finished part of each sealed sheet it wrote
(:mod:`automation.pbem.partstore`), and copies it into the next export.

So ``export`` and ``import`` parse only the sheets added since their last run
(and the few whose latest state they need). What a side's secrets are (every
stand name the other side has had, removed stands included) is carried as one
set with the stamps of the rosters it came from (:meth:`Carried.fold`): the
next run reads only the rosters added since. An export carries, per sealed
sheet, whether the side sees it, its rows and their words (the runs of
letters, digits and hyphens a secret name is looked up in), each file read
only when something asks for it: a sheet whose part and rolls were carried
is written without its rows being read.
"""
from __future__ import annotations

import datetime as dt
import functools
import hashlib
import json
import os
import tempfile
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any, BinaryIO

FORMAT = 1
SUFFIX = ".carried"
FOLD = ""  # the entry of a fold (Carried.fold): no sheet has an empty name
_TYPES = {"datetime": dt.datetime, "date": dt.date, "time": dt.time}


def folder_for(book_path: Path) -> Path:
    """``.BOOK.xlsx.carried`` beside ``BOOK.xlsx``."""
    book_path = Path(book_path)
    return book_path.with_name(f".{book_path.name}{SUFFIX}")


def keep_file(path: Path, write: Callable[[BinaryIO], object]) -> None:
    """Write a carried file whole or not at all: ``write`` fills a temporary
    file beside ``path``, which then takes its place (a reader sees the old
    file or the new one, never half of one)."""
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".carry-", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as fh:
            write(fh)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


@functools.cache
def _code_stamp() -> str:
    """Musterroll's own modules (names, sizes, times): a new version derives anew
    (worked out once a process: the modules it runs are those it loaded)."""
    root = Path(__file__).resolve().parent.parent
    h = hashlib.sha256(f"{FORMAT}".encode())
    for path in sorted(root.rglob("*.py")):
        st = path.stat()
        h.update(f"{path.relative_to(root)}:{st.st_size}:{st.st_mtime_ns}\n".encode())
    return h.hexdigest()[:32]


def _encode(value: Any) -> Any:
    if isinstance(value, dt.timedelta):
        return {"$": "timedelta", "v": value.total_seconds()}
    for name, cls in _TYPES.items():
        if isinstance(value, cls):
            return {"$": name, "v": value.isoformat()}
    raise TypeError(f"cannot carry a {type(value).__name__}")


def _decode(obj: dict[str, Any]) -> Any:
    kind = obj.get("$")
    if kind == "timedelta":
        return dt.timedelta(seconds=obj["v"])
    if kind in _TYPES:
        return _TYPES[kind].fromisoformat(obj["v"])
    return obj


def _merged(found: Iterable[dict[str, list[str]]]) -> dict[str, set[str]]:
    """The union, key by key, of the lists of names in ``found``."""
    merged: dict[str, set[str]] = {}
    for each in found:
        for key, names in each.items():
            merged.setdefault(key, set()).update(names)
    return merged


class Carried:
    """The carried derivations of one workbook (see the module). :meth:`get`
    gives a sheet's derivation, computing it when not carried; :meth:`save`
    writes what was computed (entries of sheets no longer in the workbook go)."""

    def __init__(self, book: Any, folder: Path | None, context: str) -> None:
        self.book, self.folder, self.context = book, folder, context
        self._stamps: dict[str, str | None] = {}
        self._loaded: dict[str, dict[str, Any]] = {}
        self._changed: set[str] = set()

    @classmethod
    def of(cls, book: Any, *context: Any) -> Carried:
        """The carried derivations of ``book`` (a :class:`Workbook`); ``context``:
        whatever else every derivation depends on (the campaign's dates ...)."""
        stamp = getattr(book, "part_stamp", None)
        if stamp is None or getattr(book, "decrypted", False):
            return cls(book, None, "")
        digest = hashlib.sha256(json.dumps([_code_stamp(), *context], default=str, sort_keys=True).encode())
        return cls(book, folder_for(Path(book.path)), digest.hexdigest()[:32])

    def stamp(self, sheet: str) -> str | None:
        if sheet not in self._stamps:
            self._stamps[sheet] = self.book.part_stamp(sheet) if self.folder is not None else None
        return self._stamps[sheet]

    def _file(self, what: str) -> Path:
        assert self.folder is not None
        return self.folder / (hashlib.sha256(what.encode("utf-8")).hexdigest()[:24] + ".json")

    def _entries(self, what: str) -> dict[str, Any]:
        if what not in self._loaded:
            entries: dict[str, Any] = {}
            try:
                data = json.loads(self._file(what).read_text(encoding="utf-8"), object_hook=_decode)
                if isinstance(data, dict) and data.get("context") == self.context and data.get("what") == what:
                    entries = data.get("sheets") or {}
            except (OSError, ValueError, TypeError, KeyError):
                entries = {}  # absent or unreadable: computed anew
            self._loaded[what] = entries
        return self._loaded[what]

    def get(self, what: str, sheet: str, compute: Callable[[], Any]) -> Any:
        """``what`` of ``sheet``: carried if the sheet is unchanged since, else ``compute()``."""
        stamp = self.stamp(sheet)
        if stamp is None:
            return compute()
        entries = self._entries(what)
        found = entries.get(sheet)
        if isinstance(found, list) and len(found) == 2 and found[0] == stamp:
            return found[1]
        value = compute()
        entries[sheet] = [stamp, value]
        self._changed.add(what)
        return value

    def get_keyed(self, what: str, sheet: str, key: str, compute: Callable[[], Any]) -> Any:
        """As :meth:`get`, for a derivation that also depends on ``key`` (what
        else went into it): carried only if computed with the same ``key``."""
        stamp = self.stamp(sheet)
        if stamp is None:
            return compute()
        entries = self._entries(what)
        found = entries.get(sheet)
        if isinstance(found, list) and len(found) == 3 and found[0] == stamp and found[1] == key:
            return found[2]
        value = compute()
        entries[sheet] = [stamp, key, value]
        self._changed.add(what)
        return value

    @staticmethod
    def union(carried: Carried | None, what: str, sheets: Sequence[str],
              read: Callable[[str], dict[str, list[str]]]) -> dict[str, set[str]]:
        """:meth:`fold` through ``carried``, or with nothing carried the union
        of ``read(sheet)`` over every sheet."""
        if carried is not None:
            return carried.fold(what, sheets, read)
        return _merged(read(name) for name in sheets)

    def fold(self, what: str, sheets: Sequence[str], read: Callable[[str], dict[str, list[str]]]) -> dict[str, set[str]]:
        """The union, key by key, of ``read(sheet)`` over ``sheets`` (side ->
        names), carried as one value with the stamps of the sheets it was
        taken from: while those sheets are unchanged, only sheets added after
        them are read (each date adds a roster: one is read, not a hundred).
        Any other change reads them all again, each through :meth:`get`."""
        stamps = [self.stamp(name) for name in sheets]
        if self.folder is None or None in stamps:
            return Carried.union(None, what, sheets, read)
        entries = self._entries(what)
        held = entries.get(FOLD)
        if isinstance(held, list) and len(held) == 2 and isinstance(held[0], list) and isinstance(held[1], dict) \
                and held[0] == stamps[:len(held[0])]:
            merged = _merged([held[1], *(read(name) for name in sheets[len(held[0]):])])
            if len(held[0]) == len(stamps):
                return merged
        else:
            merged = _merged(self.get(what + " of each", name, lambda name=name: read(name)) for name in sheets)
        entries[FOLD] = [stamps, {key: sorted(names) for key, names in merged.items()}]
        self._changed.add(what)
        return merged

    def save(self) -> None:
        """Write what was computed (best effort: a folder that cannot be written
        only means the work is done again next time)."""
        if self.folder is None or not self._changed:
            return
        present = set(self.book.sheet_names)
        try:
            self.folder.mkdir(exist_ok=True)
            for what in sorted(self._changed):
                sheets = {k: v for k, v in self._loaded[what].items() if k in present or k == FOLD}
                text = json.dumps({"what": what, "context": self.context, "sheets": sheets}, default=_encode,
                                  ensure_ascii=False, separators=(",", ":"))
                keep_file(self._file(what), lambda fh, data=text.encode("utf-8"): fh.write(data))
        except (OSError, TypeError, ValueError):
            return
        self._changed.clear()

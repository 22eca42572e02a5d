"""What export and import derive from sheets that no longer change, worked out
once and carried from run to run.

A sheet a refit or an import appended is sealed: its bytes stay as they were.
What the play-by-email commands derive from such a sheet (whether it is a
campaign sheet and of which kind, the rows a side may see of it, the stand
names a roster lists, a ledger's purchase lines) is the same on every run, so
it is computed the first time and kept in the campaign's carried folder (each
derivation in a small file, or spread over :data:`SHARDS` by sheet name:
:func:`spread`). An entry is used only while the sheet's stamp
(:meth:`automation.workbook.reader.Workbook.part_stamp`: the CRC-32 and sizes
of its part and of the shared strings, read from the zip directory without
parsing anything) is the one it was computed from, and while the campaign's
dates and Musterroll's own code are unchanged (the folder's context). A sheet
edited since, a sheet renamed, an undo, another version: the entry is
computed again. The folder is only a store of work already done: removing it
costs time, never a different result. It holds nothing the workbook does not,
and nothing is carried for a workbook read from an encrypted file.

The carried folder belongs to the campaign, not to one file (:func:`folder_for`):
it is found by the stamp of the campaign's Campaign sheet (its settings and
key commitment, which no command changes), in the user's cache folder
(``MUSTERROLL_CACHE``, see :func:`cache_root`). A copy of the workbook saved
elsewhere, an attachment saved from the mail, a backup: each finds the work
already done for the campaign. Copies at different points of the campaign
share it without undoing each other's work: an entry is kept by sheet name
and stamp (the same sealed sheet has the same stamp in every copy; two
copies that went different ways each have their own), and the entries a run
did not use are kept for the copies that use them (up to :data:`KEEP_ABSENT`).

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
is written without its rows being read. Which sheets a side sees, the
secret names each holds and the side's purchase record are also carried as
one value each for the whole campaign while every sheet is the one it was
(:meth:`Carried.walk`): a campaign exported again is not looked up sheet by
sheet; after a refit, each is carried on from the side's last export, and
only the refit's sheets are read (:meth:`Carried.fresh`).
"""
from __future__ import annotations

import datetime as dt
import functools
import hashlib
import itertools
import json
import os
import re
import zlib
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any

from automation.cachesetting import cache_folder, code_stamp, keep_file, prune, used

FORMAT = 4
FOLD = ""  # the entries of the folds (Carried.fold) begin so: no sheet has an empty name
FOLDS = 6  # folds kept, the newest first
_TYPES = {"datetime": dt.datetime, "date": dt.date, "time": dt.time}


IDENTITY_SHEET = "Campaign"  # its settings and key commitment: the same in every copy of one campaign
KEEP_ABSENT = 5000  # entries a run did not use kept for the campaign's other copies, at least (kept_absent)
WALK = ".walk.json"  # a derivation of every sheet at once, a file each (Carried.walk)
WALKS = 64  # walks kept, the last written or read: each is of one side's view of a copy of the campaign (an export
# after a refit writes four: its sheets, the names each holds (and the last of those), its purchase record)
CARRIED_ON = 6  # the walks of one kind that a walk may be carried on from (Carried.walk): copies at other dates
CARRIED_ON_INDEX = ".carried-on.json"  # a file listing them, by their number of sheets
MORE = 256 * 1024  # entries added to a file are appended beside it up to this size (or half the file's), then
# the file is written anew with them (Carried.save)
SHARDS = 32  # the files a large derivation's entries are spread over, by sheet name (shard_of)
_Shard = tuple[str, int]  # a derivation and the number of one of its files (-1: its one file)
UNUSED_DAYS = 180  # a campaign's carried folder no run wrote to for this long goes (forget_unused)
_FOLDER_NAME = re.compile("[0-9a-f]{24}")  # a campaign's carried folder (folder_for): nothing else is removed


def cache_root() -> Path | None:
    """The folder the campaigns' carried folders are in: ``carried`` in
    ``MUSTERROLL_CACHE`` when set (``off``: nothing is carried), else in the
    user's cache folder (:func:`automation.cachesetting.cache_folder`)."""
    return cache_folder("carried")


def folder_for(book: Any) -> Path | None:
    """The carried folder of the campaign ``book`` (a :class:`Workbook`, or
    the path of one) is a copy of: named by the stamp of its Campaign sheet.
    None when nothing is carried for it (no Campaign sheet, a workbook read
    from an encrypted file or held in memory, carrying turned off)."""
    if isinstance(book, (str, Path)):
        from automation.workbook.reader import Workbook

        book = Workbook(Path(book))
    stamp = getattr(book, "part_stamp", None)
    has = getattr(book, "has", None)
    if stamp is None or has is None or getattr(book, "decrypted", False) or not has(IDENTITY_SHEET):
        return None
    identity = stamp(IDENTITY_SHEET)
    root = cache_root()
    if identity is None or root is None:
        return None
    return root / hashlib.sha256(f"{IDENTITY_SHEET}|{identity}".encode("utf-8")).hexdigest()[:24]


def spread(what: str) -> bool:
    """Whether derivation ``what`` is spread over :data:`SHARDS` files: those a
    run reads for a few sheets only (the rows a side sees of a sheet, the
    rolls it is shown, the names of each roster), which grow with the
    campaign's history. The others (a sheet's kind, whether a side sees it,
    its words ...) are read for every sheet on every run: one file each."""
    return what.startswith(("rows:", "shown:")) or what.endswith(" of each")


def shard_of(what: str, entry: str) -> _Shard:
    """The file of derivation ``what`` that keeps ``entry``: for a derivation
    :func:`spread` over files, one of :data:`SHARDS` by the sheet's name (the
    entry's first field), so a sheet's entries are in one file and a run that
    derives the few sheets a refit added reads and writes a few small files,
    not every entry of a long campaign (the rows a side sees of six hundred
    sheets); else the derivation's one file (-1)."""
    if not spread(what):
        return what, -1
    return what, zlib.crc32(entry.partition("\x00")[0].encode("utf-8")) % SHARDS


def _append(path: Path, line: bytes) -> None:
    """Add ``line`` at the end of the file at ``path`` in one write (a line
    cut short, or two runs' lines mixed, read as nothing: worked out again)."""
    fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT | getattr(os, "O_CLOEXEC", 0), 0o600)
    try:
        os.write(fd, line)
    finally:
        os.close(fd)


def make_folder(folder: Path) -> None:
    """Create a carried folder (and the folders above it), readable by its user
    alone. A campaign's folder made anew first removes the folders of other
    campaigns no run has written to for :data:`UNUSED_DAYS` days."""
    if folder.is_dir():
        return
    folder.mkdir(parents=True, exist_ok=True, mode=0o700)
    forget_unused(folder.parent, keep=folder)


def forget_unused(root: Path, keep: Path | None = None, days: float | None = None) -> list[Path]:
    """Remove the carried folders in ``root`` whose newest file is older than
    ``days`` (default :data:`UNUSED_DAYS`): campaigns over or moved to another
    machine. Best effort: a folder that cannot be removed stays."""
    import shutil
    import time

    limit = time.time() - 86400 * (UNUSED_DAYS if days is None else days)
    gone = []
    try:
        folders = [p for p in root.iterdir() if p.is_dir() and p != keep and _FOLDER_NAME.fullmatch(p.name)]
    except OSError:
        return gone
    for folder in folders:
        try:
            newest = max((f.stat().st_mtime for f in folder.iterdir()), default=folder.stat().st_mtime)
            if newest < limit:
                shutil.rmtree(folder)
                gone.append(folder)
        except OSError:
            continue
    return gone


def kept_absent(entries: dict[str, Any], used: set[str], most: int = KEEP_ABSENT) -> dict[str, Any]:
    """``entries`` (oldest first) with those this run did not use kept for the
    campaign's other copies, the newest first, up to ``most`` or as many as
    were used (whichever is more)."""
    unused = [k for k in entries if k not in used]
    dropped = set(unused[:max(0, len(unused) - max(most, len(used)))])
    return {k: v for k, v in entries.items() if k not in dropped} if dropped else entries


@functools.cache
def _code_stamp() -> str:
    """Musterroll's own modules (:func:`automation.cachesetting.code_stamp`) and this format."""
    return hashlib.sha256(f"{FORMAT}|{code_stamp()}".encode()).hexdigest()[:32]


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
    writes what was computed (see :func:`kept_absent` for what else stays)."""

    def __init__(self, book: Any, folder: Path | None, context: str) -> None:
        self.book, self.folder, self.context = book, folder, context
        # the reader's own (a view of a workbook hands it on: asked for each sheet, several times a run)
        self._part_stamp: Callable[[str], str | None] | None = getattr(book, "part_stamp", None) if folder else None
        # (and the stamps of many sheets at once, for a walk, where the reader finds them so)
        self._part_stamps: Callable[[Sequence[str]], list[str | None]] | None = \
            getattr(book, "part_stamps", None) if self._part_stamp is not None else None
        self._shards: dict[tuple[str, str], _Shard] = {}  # (derivation, sheet) -> the file that keeps it
        self._loaded: dict[_Shard, dict[str, Any]] = {}
        self._sizes: dict[_Shard, tuple[int, int]] = {}  # each file read: its size, and that of what was added
        self._added: dict[_Shard, dict[str, Any]] = {}  # the entries this run worked out, by file
        self._walks: list[tuple[Path, str]] = []  # the walks this run worked out: their files and text
        self._indexes: list[tuple[Path, list[int]]] = []  # the walks carried on from, listed anew (Carried.walk)
        self._changed: set[_Shard] = set()
        self._used: dict[_Shard, set[str]] = {}  # the entries of each file this run looked up
        self._digests: dict[str, str] = {}  # each key of get_keyed, hashed
        self._fresh: set[str] = set()  # the sheets derived fresh this run (see fresh)

    @classmethod
    def of(cls, book: Any, *context: Any) -> Carried:
        """The carried derivations of ``book`` (a :class:`Workbook`); ``context``:
        whatever else every derivation depends on (the campaign's dates ...)."""
        folder = folder_for(book)
        if folder is None:
            return cls(book, None, "")
        digest = hashlib.sha256(json.dumps([_code_stamp(), *context], default=str, sort_keys=True).encode())
        return cls(book, folder, digest.hexdigest()[:32])

    def stamp(self, sheet: str) -> str | None:
        """The sheet's part stamp (the reader keeps them), None when nothing is carried."""
        return self._part_stamp(sheet) if self._part_stamp is not None else None

    def stamps(self, sheets: Sequence[str]) -> list[str | None]:
        """:meth:`stamp` of each of ``sheets``, found in one pass where the reader can (``part_stamps``)."""
        if self._part_stamp is None:
            return [None] * len(sheets)
        return self._part_stamps(sheets) if self._part_stamps is not None else list(map(self._part_stamp, sheets))

    def _file(self, shard: _Shard) -> Path:
        assert self.folder is not None
        what, number = shard
        name = hashlib.sha256(what.encode("utf-8")).hexdigest()[:24]
        return self.folder / (f"{name}-{number:02d}.json" if number >= 0 else f"{name}.json")

    def _more(self, shard: _Shard) -> Path:
        """Where the entries added to a file since it was written are: a line for each run that added some."""
        return self._file(shard).with_suffix(".more")

    def _valid(self, data: Any, shard: _Shard) -> bool:
        return isinstance(data, dict) and data.get("context") == self.context and data.get("what") == shard[0] \
            and isinstance(data.get("sheets"), dict)

    def _entries(self, shard: _Shard) -> dict[str, Any]:
        """The entries of one file of a derivation (:func:`shard_of`), and those
        added since it was written, read when first asked for."""
        if shard not in self._loaded:
            entries: dict[str, Any] = {}
            size = more = 0
            try:
                text = self._file(shard).read_text(encoding="utf-8")
                data = json.loads(text, object_hook=_decode)
                if self._valid(data, shard):
                    entries, size = data["sheets"], len(text)
            except (OSError, ValueError, TypeError, KeyError):
                entries = {}  # absent or unreadable: computed anew
            if size:  # (lines beside a file of another context, or none, were added to another file)
                try:
                    with self._more(shard).open(encoding="utf-8") as fh:
                        for line in fh:
                            more += len(line)
                            try:
                                added = json.loads(line, object_hook=_decode)
                            except ValueError:  # a line cut short: its entries are computed anew
                                continue
                            if self._valid(added, shard):
                                entries.update(added["sheets"])
                except OSError:
                    pass
            entries.update(self._added.get(shard, {}))  # (derived fresh before the file was read: see fresh)
            self._loaded[shard], self._sizes[shard] = entries, (size, more)
        return self._loaded[shard]

    def _unread_size(self, shard: _Shard) -> tuple[int, int]:
        """The size of a file not read, and of the lines beside it (0: absent,
        or not of this context, told by its first bytes: json.dumps writes
        the context second, see :meth:`save`)."""
        head = json.dumps({"what": shard[0], "context": self.context}, ensure_ascii=False,
                          separators=(",", ":"))[:-1].encode("utf-8")
        try:
            with self._file(shard).open("rb") as fh:
                if fh.read(len(head)) != head:
                    return 0, 0
                size = os.fstat(fh.fileno()).st_size
        except OSError:
            return 0, 0
        try:
            return size, self._more(shard).stat().st_size
        except OSError:
            return size, 0

    def get(self, what: str, sheet: str, compute: Callable[[], Any]) -> Any:
        """``what`` of ``sheet``: carried if the sheet is unchanged since, else ``compute()``."""
        stamp = self._part_stamp(sheet) if self._part_stamp is not None else None
        if stamp is None:
            return compute()
        return self._held(what, f"{sheet}\x00{stamp}", compute, sheet)

    def get_keyed(self, what: str, sheet: str, key: str, compute: Callable[[], Any]) -> Any:
        """As :meth:`get`, for a derivation that also depends on ``key`` (what
        else went into it): carried only if computed with the same ``key``."""
        stamp = self._part_stamp(sheet) if self._part_stamp is not None else None
        if stamp is None:
            return compute()
        digest = self._digests.get(key)
        if digest is None:  # (a sheet's key is asked for by more than one derivation: hashed once)
            digest = self._digests[key] = hashlib.sha256(key.encode("utf-8")).hexdigest()[:24]
        return self._held(what, f"{sheet}\x00{stamp}\x00{digest}", compute, sheet)

    def _held(self, what: str, entry: str, compute: Callable[[], Any], sheet: str | None = None,
              fresh: bool = False) -> Any:
        """The entry ``entry`` (a sheet's name and stamp, and what else the
        derivation depends on) of ``what``, computed and kept when absent: a
        sheet of one name in copies that differ (two campaigns from one
        sample, two branches of one) has an entry for each. ``sheet``: the
        sheet's name, the entry's first field (its file is found once).
        ``fresh``: its file is not read to look for it (see :meth:`fresh`)."""
        if sheet is None:
            shard = shard_of(what, entry)
        else:
            if (shard := self._shards.get((what, sheet))) is None:
                shard = self._shards[(what, sheet)] = shard_of(what, entry)
            fresh = fresh or sheet in self._fresh
        used = self._used.get(shard)
        if used is None:
            used = self._used[shard] = set()
        used.add(entry)
        entries = self._loaded.get(shard)
        if entries is None:
            added = self._added.get(shard)
            if added is not None and entry in added:  # derived fresh this run: its file not read for it
                return added[entry]
            if not fresh:
                entries = self._entries(shard)
        if entries is not None and entry in entries:
            return entries[entry]
        value = self._added.setdefault(shard, {})[entry] = compute()
        if entries is not None:
            entries[entry] = value
        self._changed.add(shard)
        return value

    def fresh(self, what: str, sheet: str, compute: Callable[[], Any]) -> Any:
        """As :meth:`get`, for a sheet no earlier run is likely to have derived
        (a refit's, found by a walk carried on): computed without its file
        being read to look for it, and kept as :meth:`get` keeps it (a run
        that derives a refit's sheets and reads nothing else of their files
        adds their entries beside each file, unread: :meth:`save`). The
        sheet's other derivations this run are worked out so too (the rolls
        an export shows of a refit's sheet: no earlier run derived those
        either)."""
        stamp = self.stamp(sheet)
        if stamp is None:
            return compute()
        self._fresh.add(sheet)
        return self._held(what, f"{sheet}\x00{stamp}", compute, sheet, fresh=True)

    def walk(self, what: str, sheets: Sequence[str], settings: str, compute: Callable[[], Any],
             extend: Callable[[Any, int], Any] | None = None, carry_on: str | None = None) -> Any:
        """``what`` of the workbook's ``sheets`` all at once (a walk of every
        sheet, which ``compute()`` works out sheet by sheet through
        :meth:`get`), carried as one value while every sheet of ``sheets`` is
        the one it was (their names, order and stamps) and ``settings`` (what
        else it depends on) are: a long campaign exported again asks the
        carried folder once, not once for each sheet. Each walk is a file of
        its own (read whole, never added to); the :data:`WALKS` last written
        or read are kept, for the campaign's copies and sides.

        ``extend(value, n)``: the walk carried on from the value of the first
        ``n`` sheets, which an earlier walk of ``what`` with these settings
        was of (a refit adds sheets after every other: the next export walks
        only those). The walks carried on from are the :data:`CARRIED_ON`
        last made of ``what`` (:meth:`_carried_on_from`): copies of the
        campaign at different dates, exported in turn, each carry on from
        their own. ``carry_on``: what those walks are kept under, when not
        their ``settings`` (a walk whose settings change from run to run,
        carried on by an ``extend`` that works out what the change does)."""
        if self._part_stamp is None or self.folder is None:
            return compute()
        each = self.stamps(sheets)
        if None in each:  # a sheet with no part: nothing carried pins it
            return compute()
        stamps = [f"\x00{name}\x01{stamp}".encode("utf-8") for name, stamp in zip(sheets, each)]
        walked = b"".join(stamps)
        head = hashlib.sha256(f"{self.context}\x00{what}\x00{settings}".encode("utf-8"))
        h = head.copy()
        h.update(walked)
        path = self.folder / f"{h.hexdigest()[:40]}{WALK}"
        found = self._walk_file(path, what)
        if found is not None:
            used(path)
            return found["value"]
        listed: tuple[Path, list[int]] | None = None  # the walks of this kind, this one first (see below)
        if extend is None:
            value = compute()
        else:
            if carry_on is not None:  # (else the walks carried on from are the walks themselves)
                head = hashlib.sha256(f"{self.context}\x00{what}\x00carried on\x00{carry_on}".encode("utf-8"))
            index = self.folder / f"{head.hexdigest()[:40]}{CARRIED_ON_INDEX}"
            suffix = f".last{WALK}" if carry_on is not None else WALK
            before, lengths = self._carried_on_from(what, head, stamps, walked, index, suffix)
            value = extend(before[1], before[0]) if before is not None else compute()
            listed = (index, [len(stamps), *(n for n in lengths if n != len(stamps))][:CARRIED_ON])
        try:
            text = json.dumps({"what": what, "context": self.context, "value": value}, default=_encode,
                              ensure_ascii=False, separators=(",", ":"))
        except (TypeError, ValueError):  # a value a file cannot hold (a cell of another type): worked out again
            return value
        if listed is not None:  # (listed only once there is a walk to carry on from)
            self._indexes.append(listed)
        self._walks.append((path, text))
        if extend is not None and carry_on is not None:
            last = head.copy()
            last.update(walked)
            self._walks.append((self.folder / f"{last.hexdigest()[:40]}.last{WALK}", text))
        return value

    def _carried_on_from(self, what: str, head: Any, stamps: Sequence[bytes], walked: bytes, index: Path,
                         suffix: str) -> tuple[tuple[int, Any] | None, list[int]]:
        """The longest of the walks of ``what`` listed in ``index`` (by their
        number of sheets, the newest first) that was of the first sheets of
        ``stamps`` (each sheet's name and stamp, encoded; ``walked``: them
        joined): its number of sheets and value, or None; and the numbers
        listed. A walk is kept
        under the digest of ``head`` and its sheets' stamps, so one of the
        first ``n`` sheets is found by theirs."""
        try:
            listed = json.loads(index.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None, []
        lengths = [n for n in listed if isinstance(n, int) and not isinstance(n, bool)] if isinstance(listed, list) \
            else []
        ends = list(itertools.accumulate(map(len, stamps)))
        for n in sorted({n for n in lengths if 0 < n <= len(stamps)}, reverse=True):
            digest = head.copy()
            digest.update(walked[:ends[n - 1]])
            path = self.folder / f"{digest.hexdigest()[:40]}{suffix}"  # type: ignore[operator]
            found = self._walk_file(path, what)
            if found is not None:
                used(path)
                return (n, found["value"]), lengths
        return None, lengths

    def _walk_file(self, path: Path, what: str) -> dict[str, Any] | None:
        try:
            data = json.loads(path.read_text(encoding="utf-8"), object_hook=_decode)
        except (OSError, ValueError, TypeError):
            return None  # absent or unreadable: walked anew
        ok = isinstance(data, dict) and data.get("context") == self.context and data.get("what") == what
        return data if ok and "value" in data else None

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
        Any other change reads them all again, each through :meth:`get`. The
        last :data:`FOLDS` folds are kept (the longest that still holds is
        taken): copies of the campaign at different dates each find theirs."""
        stamps = self.stamps(sheets)
        if self.folder is None or None in stamps:
            return Carried.union(None, what, sheets, read)
        entry = f"{FOLD}\x00{stamps[0] if stamps else ''}"  # the folds of the copies whose first sheet this is
        shard = shard_of(what, entry)
        entries = self._entries(shard)
        self._used.setdefault(shard, set()).add(entry)
        held = entries.get(entry)
        folds = [f for f in held if isinstance(f, list) and len(f) == 2 and isinstance(f[0], list)
                 and isinstance(f[1], dict)] if isinstance(held, list) else []
        best = max((f for f in folds if f[0] == stamps[:len(f[0])]), key=lambda f: len(f[0]), default=None)
        if best is not None:
            merged = _merged([best[1], *(read(name) for name in sheets[len(best[0]):])])
            if len(best[0]) == len(stamps):
                return merged
        else:
            merged = _merged(self.get(what + " of each", name, lambda name=name: read(name)) for name in sheets)
        entries[entry] = self._added.setdefault(shard, {})[entry] = \
            [[stamps, {key: sorted(names) for key, names in merged.items()}]] + folds[:FOLDS - 1]
        self._changed.add(shard)
        return merged

    def save(self) -> None:
        """Write what was computed (best effort: a folder that cannot be written
        only means the work is done again next time). The entries a run added
        to a file are appended beside it as one line (:meth:`_more`): a long
        campaign's refit adds a few sheets, and each export after it then
        writes their entries, not the file of every sheet's again. Once those
        lines outgrow :data:`MORE` and half the file, the file is written anew
        with them (keeping the entries no run used for a while: :func:`kept_absent`)."""
        if self.folder is None or not (self._changed or self._walks):
            return
        try:
            make_folder(self.folder)
            for path, text in self._walks:
                keep_file(path, lambda fh, data=text.encode("utf-8"): fh.write(data))
            for path, lengths in self._indexes:
                keep_file(path, lambda fh, data=json.dumps(lengths).encode("utf-8"): fh.write(data))
            self._indexes.clear()
            if self._walks:
                self._walks.clear()
                prune(self.folder, WALK, WALKS)
            for shard in sorted(self._changed):
                added = self._added.get(shard, {})
                if shard not in self._loaded:  # only derived fresh: the file's size, and whether it is of this context
                    self._sizes[shard] = self._unread_size(shard)
                    if not self._sizes[shard][0]:
                        self._entries(shard)  # (absent, or of another context: written anew below)
                size, more = self._sizes.get(shard, (0, 0))
                if size and added:  # a file read whole: what this run added, a line beside it, while there is room
                    line = json.dumps({"what": shard[0], "context": self.context, "sheets": added}, default=_encode,
                                      ensure_ascii=False, separators=(",", ":")).encode("utf-8") + b"\n"
                    if more + len(line) <= max(MORE, size // 2):
                        _append(self._more(shard), line)
                        continue
                most = KEEP_ABSENT // SHARDS if shard[1] >= 0 else KEEP_ABSENT
                sheets = kept_absent(self._entries(shard), self._used.get(shard, set()), most)
                text = json.dumps({"what": shard[0], "context": self.context, "sheets": sheets}, default=_encode,
                                  ensure_ascii=False, separators=(",", ":"))
                keep_file(self._file(shard), lambda fh, data=text.encode("utf-8"): fh.write(data))
                self._more(shard).unlink(missing_ok=True)
            for what in {what for what, number in self._changed if number >= 0}:  # its one file of before
                self._file((what, -1)).unlink(missing_ok=True)
        except (OSError, TypeError, ValueError):
            return
        self._changed.clear()
        self._added.clear()

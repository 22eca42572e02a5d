"""A side's export parts carried from one export to the next.

An export shows every sealed campaign sheet a side may see, date after date;
the sheet part written for one of them (its cells as XML, its columns, its
page setup) is the same on every export as long as the master sheet it comes
from is unchanged, the names scrubbed from it are the same, and Musterroll's
own code is. Each such part is kept compressed, as it went into the export,
in a zip in the campaign's carried folder (``parts-SIDE-CONTEXT.zip``, see
:mod:`automation.pbem.carry`), named by a digest of all it depends on. The
next export copies it into the new file as stored, without building, scrubbing
or compressing it again.

The store is only work already done, and anything unreadable in it is built
again. An export that made new parts (the sheets a refit added) writes them
in a file of their own beside the store (``parts-….zip.001`` ...: a long
campaign's store is 9 MB at 5,000 stands and 100 dates, and each export
after a refit adds a few sheets). Once there are :data:`SEGMENTS` such
files, or they hold as much as the store, the store is replaced whole (a
temporary file, then a rename) by the next export that made new parts,
holding the parts that export used and, for the campaign's copies at other
dates, the others it held (up to :data:`automation.pbem.carry.KEEP_ABSENT`,
or as many as the export used), and the files beside it go.

Beside the store, ``parts-….zip.run`` holds the run of the export's leading
sealed sheets as it wrote them, which the next export copies in one piece as
far as its own are the same (:mod:`automation.pbem.xlsxrun`; :meth:`PartStore.run`,
:meth:`PartStore.keep_run`). The parts it copies so are not looked up, and
count as used.
"""
from __future__ import annotations

import hashlib
import mmap
import os
import zipfile
from collections.abc import Callable, Sequence
from pathlib import Path

from automation.errors import MusterrollError
from automation.pbem import xlsxrun
from automation.pbem.carry import KEEP_ABSENT, keep_file, make_folder
from automation.workbook.zipdir import Entry, data_start, plain_entries
from automation.workbook.zipraw import EMPTY, Deflated, write_zip

MAX_STORE = 512 * 1024 * 1024  # a store larger than this is not read (built again)
JOINED = "joined-"  # the key of a part that joins others (a sheet's runs of rows): each export may make one anew
JOINED_OTHERS = 2  # such parts kept for the campaign's other copies (the newest first), beside those used
MAPPED = os.name != "nt"  # a file mapped may be replaced while it is: a store is mapped (_read)
SEGMENTS = 8  # files of parts added beside the store before it is written anew with them


def part_key(*what: object) -> str:
    return hashlib.sha256(repr(what).encode("utf-8")).hexdigest()[:40]


def part_keys(*common: object) -> Callable[..., str]:
    """The keys of parts that share ``common`` (a layout), each named by what
    else it depends on: ``common`` is hashed once (an export keys a part for
    each of a long campaign's thousand sheets)."""
    head = hashlib.sha256(repr(common).encode("utf-8"))

    def key(*what: object) -> str:
        digest = head.copy()
        digest.update(b"\x00" + repr(what).encode("utf-8"))
        return digest.hexdigest()[:40]
    return key


def _read(path: Path) -> bytes | mmap.mmap:
    """The bytes of a file of parts, mapped where a file may be replaced
    while it is mapped (not on Windows), else read whole. An export copies
    most of a long campaign's store into its own file (7 MB at 5,000 stands
    and 100 dates): read whole, a new process first has the system lay out
    that much memory for it (3-4 ms); mapped, it reads the pages it copies.
    A store is never written in place (:func:`automation.cachesetting.keep_file`
    replaces it whole), so what is mapped stays as it was."""
    if not MAPPED:
        return path.read_bytes()
    with path.open("rb") as fh:
        if os.fstat(fh.fileno()).st_size == 0:
            return b""
        try:
            return mmap.mmap(fh.fileno(), 0, access=mmap.ACCESS_READ)
        except (OSError, ValueError):  # (a file system that cannot map it)
            return fh.read()


class PartStore:
    """The parts an export of one side carried (see the module). :meth:`get`
    finds a part by its key; :meth:`keep` records a part this export used;
    :meth:`save` replaces the store with what was kept."""

    def __init__(self, path: Path | None) -> None:
        self.path = path
        self._old: list[bytes | mmap.mmap] | None = None  # the store and the files beside it, as read (oldest first)
        # each part's name -> the file it is in (the newest) and where
        self._index: dict[str, tuple[bytes | mmap.mmap, Entry]] = {}
        self._views: dict[int, memoryview] = {}  # each file read, by the identity of its bytes: a view of them
        self._sizes = (0, 0)  # the store's size, and that of the files beside it
        self._kept: dict[str, Deflated] = {}
        self._replaced: list[str] = []  # joined parts a part kept now holds all of, newest first
        self._run: xlsxrun.Kept | None | bool = False  # the run of leading sheets kept (False: not read yet)
        self._new_run: xlsxrun.Kept | None = None  # the run this export wrote, to keep in its place
        self._in_run: set[str] = set()  # the keys of the parts this export copied in the run: used, not looked up

    @classmethod
    def of(cls, folder: Path | None, side: str, context: str = "") -> PartStore:
        """The store of ``side``'s parts in ``folder`` made in ``context`` (the
        carried folder's: Musterroll's code and the campaign's dates), one
        file for each: a store of another context holds no part this one uses,
        and is removed when this one is saved."""
        if folder is None:
            return cls(None)
        side_tag = hashlib.sha256(side.encode("utf-8")).hexdigest()[:16]
        context_tag = hashlib.sha256(context.encode("utf-8")).hexdigest()[:12]
        return cls(Path(folder) / f"parts-{side_tag}-{context_tag}.zip")

    def _beside(self) -> list[tuple[int, Path]]:
        """The files of parts added beside the store, by number."""
        assert self.path is not None
        found = []
        for path in self.path.parent.glob(f"{self.path.name}.*"):
            number = path.name[len(self.path.name) + 1:]
            if number.isdigit():
                found.append((int(number), path))
        return sorted(found)

    def _load(self) -> dict[str, tuple[bytes | mmap.mmap, Entry]]:
        """Each part's name -> the file it is in and its entry there (the
        files' directories read, a tuple a part: a part's bytes are found
        when it is asked for; anything unreadable is built again)."""
        if self._old is None:
            self._old = []
            if self.path is not None:
                try:
                    if self.path.stat().st_size <= MAX_STORE:
                        self._old.append(_read(self.path))
                        self._sizes = (len(self._old[0]), 0)
                except OSError:
                    self._old = []  # absent or unreadable: every part is built again
                for _, path in self._beside() if self._old else ():
                    try:
                        self._old.append(_read(path))
                        self._sizes = (self._sizes[0], self._sizes[1] + len(self._old[-1]))
                    except OSError:
                        continue  # unreadable: its parts are built again
            self._index = {e.filename: (data, e) for data in self._old for e in plain_entries(data) or ()}
            self._views = {id(data): memoryview(data) for data in self._old}
        return self._index

    def _stored(self, key: str) -> Deflated | None:
        """Part ``key`` as its file stores it (None: not there, or not as the
        directory says), its bytes a view of the file as read (an export
        copies six hundred of them into its own file: none is copied here)."""
        held = self._load().get(key)
        if held is None:
            return None
        data, e = held
        if e.compress_type != 8:
            return None
        try:
            start = data_start(lambda at, size: data[at:at + size], e)
        except (zipfile.BadZipFile, NotImplementedError, RuntimeError, UnicodeDecodeError):
            return None
        return Deflated(self._views[id(data)][start:start + e.compress_size], e.CRC, e.file_size)

    def get(self, key: str) -> Deflated | None:
        if self.path is None:
            return None
        found = self._stored(key)
        if found is not None:
            self._kept[key] = found
        return found

    def run(self, layout: str, sheets: Sequence[xlsxrun.Sheet]) -> xlsxrun.Copy | None:
        """What an export whose leading sheets are ``sheets`` (in ``layout``)
        copies of the run an earlier export kept (:mod:`automation.pbem.xlsxrun`;
        None: nothing)."""
        if self.path is None or not sheets:
            return None
        if self._run is False:
            self._run = xlsxrun.read(self._run_path())
        kept = self._run if isinstance(self._run, xlsxrun.Kept) else None
        spans = kept.agreeing(layout, sheets) if kept is not None else []
        if kept is None or not spans:
            return None
        found = xlsxrun.Copy(kept, tuple(spans))
        self._in_run.update(kept.keys[i] for i in found.indexes())
        return found

    def keep_run(self, run: xlsxrun.Kept | None) -> None:
        """Keep ``run``, the one this export wrote, in place of the one kept (by :meth:`save`)."""
        self._new_run = run

    def _run_path(self) -> Path:
        assert self.path is not None
        return self.path.with_name(self.path.name + ".run")

    def keep(self, key: str, stored: Deflated) -> None:
        if self.path is not None:
            self._kept[key] = stored

    def replaced(self, key: str) -> None:
        """The joined part ``key`` (named :data:`JOINED` ...) is held whole by
        one kept now (the runs of rows an earlier export joined, joined with
        those added since): kept no longer as used, only as the newest of the
        :data:`JOINED_OTHERS` joined parts kept for the campaign's other
        copies (a copy of the campaign before the new date, exported again),
        so the store holds a few of them, not one for each export."""
        self._kept.pop(key, None)
        self._replaced.insert(0, key)

    def save(self) -> None:
        """Write the parts kept (best effort: a store that cannot be written
        only means the parts are built again next time): those new beside the
        store, or the store anew (see the module)."""
        if self.path is None:
            return
        run = self._new_run
        if run is not None and run is not self._run:  # (the run read, unchanged: xlsxrun.kept_after gives it back)
            try:
                make_folder(self.path.parent)
                keep_file(self._run_path(), run.write)
            except (OSError, MusterrollError):
                pass
        if self._old is None and not self._kept:
            return
        index = self._load()
        new = sorted((name, part) for name, part in self._kept.items() if name not in index)
        if not new:
            return  # nothing new to keep
        beside = self._beside()
        size, added = self._sizes
        if self._old and len(beside) < SEGMENTS and added + sum(len(p.body) for _, p in new) <= size:
            number = beside[-1][0] + 1 if beside else 1
            try:
                keep_file(self.path.with_name(f"{self.path.name}.{number:03d}"),
                          lambda fh: write_zip(fh, EMPTY, {}, set(), new))
            except (OSError, MusterrollError):
                pass
            return
        # the parts this export copied in its run are used too (the run may not agree next time: a name then
        # secret in an earlier sheet)
        names = list(dict.fromkeys([*self._replaced, *sorted(self._in_run), *index]))
        others, joined, used = [], 0, []
        for name in names:
            if name in self._kept or name not in index or (found := self._stored(name)) is None:
                continue
            if name in self._in_run:
                used.append((name, found))
                continue
            if name.startswith(JOINED):
                joined += 1
                if joined > JOINED_OTHERS:
                    continue
            others.append((name, found))
        kept = sorted(self._kept.items()) + sorted(used) + others[:max(KEEP_ABSENT, len(self._kept) + len(used))]
        try:
            make_folder(self.path.parent)
            keep_file(self.path, lambda fh: write_zip(fh, EMPTY, {}, set(), kept))
            for _, path in beside:
                path.unlink(missing_ok=True)
            side_tag = self.path.name.split("-")[1]
            for other in self.path.parent.glob(f"parts-{side_tag}-*"):  # the side's stores of other contexts
                if other != self.path and not other.name.startswith(self.path.name + "."):
                    other.unlink(missing_ok=True)
        except (OSError, MusterrollError):
            return

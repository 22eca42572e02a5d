"""Step 1 of the gate (:mod:`automation.workbook.gate`): the limits of a
workbook's role, and the checks of its zip directory against them (no part
is unpacked)."""
from __future__ import annotations

import re
import zipfile
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from automation.errors import WorkbookFileError
from automation.workbook.snapshot import Snapshot
from automation.workbook.zipdir import ZipDirectory, read_directory

OLE_MAGIC = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"
PLAIN_PATH = re.compile(r"[A-Za-z0-9_-]+(?:\.[A-Za-z0-9_-]+)*(?:/[A-Za-z0-9_-]+(?:\.[A-Za-z0-9_-]+)*)*")
"""A relative target with nothing to decode or normalise: names of letters, digits, ``_``, ``-`` and
inner dots (no ``.`` or ``..`` segment, no ``%``, ``\\``, ``//`` or leading ``/``)."""


@dataclass(frozen=True)
class Limits:
    """What a workbook of one role may hold."""

    file_bytes: int  # the file as stored
    part_bytes: int  # one part, unpacked
    total_bytes: int  # all parts, unpacked
    members: int  # parts in the zip
    ratio: int  # unpacked : packed, for parts over 1 MB
    rows: int  # the last row a sheet's values may reach
    columns: int  # the last column
    cells: int  # rows x columns a sheet's values span (the parser lays a sheet out densely)
    elements: int  # elements of one part parsed whole
    namespaces: int  # namespace declarations of one part
    player: bool = False  # a file a player sends back (it may be encrypted with the password the export had)

    def admits(self, rows: int, columns: int) -> bool:
        """Whether a sheet whose values reach row ``rows`` and column ``columns``
        is read (what :meth:`automation.workbook.gate.Gate.check_sheet` asks)."""
        return rows <= self.rows and columns <= self.columns and rows * columns <= self.cells


# A master only grows (a date adds its sheets): its file and its parts in all may grow large over
# a thousand dates; no part is ever unpacked whole unless it is parsed, and each part is bounded.
MASTER = Limits(file_bytes=2 * 2**30 - 1, part_bytes=200 * 2**20, total_bytes=16 * 2**30, members=60_000,
                ratio=400, rows=1_048_576, columns=500, cells=4_000_000, elements=400_000, namespaces=200)
PLAYER = Limits(file_bytes=20 * 2**20, part_bytes=40 * 2**20, total_bytes=80 * 2**20, members=2_000,
                ratio=200, rows=20_000, columns=200, cells=200_000, elements=50_000, namespaces=200, player=True)


def returned_limits(master: Any, master_bytes: int) -> Limits:
    """The limits for a file a player sends back for ``master`` (its
    :class:`~automation.workbook.gate.Gate`; its file
    ``master_bytes`` long). A returned export holds at most what an export of
    this master holds: some of its sheets (a side's whole history, which grows
    with the campaign), a few sheets of its own and the Dice audit of every
    roll the side was shown, as a spreadsheet program saves it (a part or two
    more per sheet, text stored once or per cell). So the bounds of PLAYER
    grow with the master: three times its parts and twice its file, its
    unpacked total and (for one part: the Dice audit gathers every date) its
    unpacked total, never beyond a master's own limits. A long campaign's
    returned orders are read; a file far larger than the campaign is not."""
    infos = master.archive.infolist()
    unpacked = master.unpacked

    def grown(floor: int, wanted: int, ceiling: int) -> int:
        return min(max(floor, wanted), ceiling)
    return replace(
        PLAYER,
        file_bytes=grown(PLAYER.file_bytes, 2 * master_bytes, MASTER.file_bytes),
        part_bytes=grown(PLAYER.part_bytes, unpacked, MASTER.part_bytes),
        total_bytes=grown(PLAYER.total_bytes, 2 * unpacked, MASTER.total_bytes),
        members=grown(PLAYER.members, 3 * len(infos) + 100, MASTER.members))


def open_zip(where: str, data: bytes | Snapshot, lim: Limits, unpacked: int | None = None
             ) -> tuple[ZipDirectory | zipfile.ZipFile, int]:
    """Step 1 of the gate: the zip directory of ``data``, checked against
    ``lim``, and its parts' unpacked bytes in all. ``unpacked``: those bytes,
    when a zip directory of exactly these bytes passed the checks of each
    part with these limits before (what was found in a master is kept under
    both: :mod:`automation.workbook.gatememo`); its parts are then not
    checked one by one again (the file itself still is)."""
    if data[:len(OLE_MAGIC)] == OLE_MAGIC:
        raise WorkbookFileError(
            f"{where}: the workbook is password-protected (encrypted) or in the old .xls format; Musterroll reads "
            "unencrypted .xlsx workbooks only: remove the password (File > Info > Protect Workbook) or save it "
            "as an Excel Workbook (.xlsx)")
    if data[:2] != b"PK":
        what = "an empty file" if not data else "not a zip package"
        raise WorkbookFileError(f"{where}: not an .xlsx workbook (it is {what}); give an Excel workbook saved as .xlsx")
    if len(data) > lim.file_bytes:
        raise WorkbookFileError(f"{where}: {len(data) // 2**20} MB; at most {lim.file_bytes // 2**20} MB is "
                                "accepted here")
    try:
        archive = read_directory(data)
    except (zipfile.BadZipFile, zipfile.LargeZipFile, ValueError, OSError, EOFError, NotImplementedError) as exc:
        raise WorkbookFileError(f"{where}: not a complete .xlsx workbook: the file is damaged or cut short ({exc}); "
                                "use the last good copy of the workbook") from None
    if unpacked is not None:
        return archive, unpacked
    infos = archive.infolist()
    if len(infos) > lim.members:
        raise WorkbookFileError(f"{where}: holds {len(infos)} parts; at most {lim.members} are accepted")
    seen: dict[str, str] = {}
    total = 0
    for info in infos:
        lower = info.filename.lower()
        if lower in seen:
            if seen[lower] == info.filename:
                raise WorkbookFileError(f"{where}: refused: part {info.filename} is listed twice in the zip directory; "
                                        "a workbook holds each part once")
            raise WorkbookFileError(f"{where}: refused: parts {seen[lower]} and {info.filename} have the same name "
                                    "but for case; a workbook never has both")
        seen[lower] = info.filename
        if info.flag_bits & 0x1:
            raise WorkbookFileError(f"{where}: part {info.filename} is encrypted; save the workbook without a password")
        total += info.file_size
        check_part(where, info.filename, info.file_size, info.compress_size, total, lim)
    return archive, total


def check_part(where: str, name: str, size: int, packed: int, total: int, lim: Limits) -> None:
    """A part's sizes against ``lim``: ``size`` unpacked, ``packed`` as
    stored, ``total`` the unpacked bytes of the parts up to it and it."""
    if size > lim.part_bytes:
        raise WorkbookFileError(f"{where}: refused: part {name} would unpack to {size // 2**20} MB; at most "
                                f"{lim.part_bytes // 2**20} MB per part is accepted")
    if total > lim.total_bytes:
        raise WorkbookFileError(f"{where}: refused: would unpack to more than {lim.total_bytes // 2**20} MB; "
                                "that is not a campaign workbook")
    if size > 2**20 and size > lim.ratio * max(packed, 1):
        raise WorkbookFileError(f"{where}: refused: part {name} is compressed {size // max(packed, 1)}:1, a zip "
                                f"bomb (at most {lim.ratio}:1 is accepted)")


def unpacked_after(unpacked: int, lim: Limits, before: Mapping[str, Any], new: Mapping[str, tuple[int, bytes, bytes]],
                   replaced: Mapping[str, bytes], added: Sequence[tuple[str, bytes]]) -> int | None:
    """The parts' unpacked bytes in all of a zip that a change made from one
    whose directory passed step 1 with ``lim`` (``unpacked`` bytes in all;
    ``before``: its parts by lower-case name, each with its unpacked
    ``size``), when the new directory passes too: ``replaced`` (name ->
    bytes) are parts of the zip before written anew, ``added`` (name, bytes)
    new parts, each named as no part of the zip before nor another part
    written; ``new``: each part as written (lower-case name -> offset, local
    header, stored data: :class:`automation.workbook.zipraw.Written`). None
    when it does not pass (the next gate checks every part)."""
    if len(before) + len(added) > lim.members:
        return None
    total, names = unpacked, set()
    try:
        for name, data, anew in [*((n, d, False) for n, d in replaced.items()), *((n, d, True) for n, d in added)]:
            lower = name.lower()
            wrote = new.get(lower)
            if wrote is None or lower in names or (lower in before) == anew:
                return None
            names.add(lower)
            total += len(data) - (0 if anew else before[lower].size)
            check_part("", name, len(data), len(wrote[2]), total, lim)  # (the checks of step 1, as the total grows)
    except WorkbookFileError:
        return None
    return total


class Targets(Mapping[str, tuple[str, ...]]):
    """Sheet name -> the parts it may be read from, each resolved when first
    asked for (a command reads a few of a long campaign's sheets)."""

    def __init__(self, gate: Any, targets: dict[str, list[str]], rids: dict[str, list[str]]) -> None:
        self._gate, self._targets, self._rids = gate, targets, rids
        self._done: dict[str, tuple[str, ...]] = {}

    def __getitem__(self, name: str) -> tuple[str, ...]:
        done = self._done.get(name)
        if done is None:
            done = self._done[name] = self._resolved(self._rids[name])
        return done

    def entry_each(self, names: Sequence[str]) -> list[Any]:
        """For each of ``names``, its one part's entry when :meth:`entries_of`
        would give that entry alone through its one plain target (every sheet
        Excel, LibreOffice or Musterroll writes), found in one pass; else None
        (ask :meth:`entries_of`)."""
        rids_of, targets, plain, entries = self._rids, self._targets, PLAIN_PATH.fullmatch, self._gate._plain_entries
        out: list[Any] = []
        for name in names:
            rids = rids_of.get(name)
            one = targets.get(rids[0], ()) if rids is not None and len(rids) == 1 else ()
            found = entries(one[0]) if len(one) == 1 and plain(one[0]) else ()
            out.append(found[0] if len(found) == 1 else None)
        return out

    def entries_of(self, name: str) -> tuple[Any, ...]:
        """Sheet ``name``'s parts as the zip directory lists them (their entries,
        as :meth:`~automation.workbook.gate.Gate.info` gives them; none for a
        sheet the workbook does not list). A sheet with one plain target (every
        sheet Excel, LibreOffice or Musterroll writes) takes the entries
        :meth:`~automation.workbook.gate.Gate.resolve` finds its parts by, without
        resolving it; any other is resolved as it resolves it."""
        rids = self._rids.get(name)
        if rids is None:
            return ()
        one = self._targets.get(rids[0], ()) if len(rids) == 1 else ()
        if len(one) == 1 and PLAIN_PATH.fullmatch(one[0]):
            return self._gate._plain_entries(one[0])
        info = self._gate.info
        return tuple(i for p in self[name] if (i := info(p)) is not None)

    def _resolved(self, rids: list[str]) -> tuple[str, ...]:
        """The parts the relationships ``rids`` of a sheet name."""
        targets = self._targets.get(rids[0], ()) if len(rids) == 1 else ()
        if len(targets) == 1:  # most sheets: one relationship, one target
            return self._gate.resolve(targets[0])
        found: list[str] = []
        for rid in rids:
            for target in self._targets.get(rid, ()):
                found += [p for p in self._gate.resolve(target) if p not in found]
        return tuple(found)

    def __iter__(self) -> Iterator[str]:
        return iter(self._rids)

    def __len__(self) -> int:
        return len(self._rids)


__all__ = ["Limits", "MASTER", "OLE_MAGIC", "PLAIN_PATH", "PLAYER", "Targets", "check_part", "open_zip",
           "returned_limits", "unpacked_after"]

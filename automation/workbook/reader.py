"""Fast, validated reads of the sheets a step needs (python-calamine).

Only the sheets asked for are parsed. Every value is checked against the
sheet's :class:`SheetKind`; all problems of a sheet are collected and raised
together as one :class:`WorkbookError`, each naming Sheet!Cell, what is there
and what would be valid. Reading never writes.
"""
from __future__ import annotations

import io
import os
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from automation.errors import STOP_AFTER, CellProblem, WorkbookError, WorkbookFileError
from automation.campaign.names import NO_WORDS, YES_WORDS, match_name, norm, same, yes_no  # noqa: F401 - re-exported
from automation.workbook.gate import MASTER, Gate, Limits
from automation.workbook.gate import column_letter as gate_column_letter
from automation.workbook.cellvalues import UNKEPT, convert, describe, memo_key
from automation.workbook.columnwise import checked_columns
from automation.workbook import rowcache
from automation.workbook.journal import read_settled
from automation.workbook.schema import SheetKind
from automation.workbook.snapshot import Snapshot, anonymous_file, fd_path, take
from automation.workbook.text import MONTHS  # noqa: F401 - re-exported

MAX_ROWS, MAX_COLUMNS = MASTER.rows, MASTER.columns
MAX_CELLS = MASTER.cells  # the parser lays a sheet out densely: about 32 bytes a cell
CACHE_CELLS = 500_000  # parsed cells kept for a second read


def column_letter(index: int) -> str:
    """0 -> A, 25 -> Z, 26 -> AA (the gate's letters, counted from 0)."""
    return gate_column_letter(index + 1)


def cell_ref(col: int, row: int) -> str:
    return f"{column_letter(col)}{row}"


@dataclass(frozen=True)
class SheetRow:
    """One data row of a sheet, values keyed by column name; ``letters``: each
    column's letter (one mapping shared by every row of the sheet)."""

    sheet: str
    row: int
    values: Mapping[str, Any]
    letters: Mapping[str, str]

    def __getitem__(self, column: str) -> Any:
        return self.values.get(column)

    def get(self, column: str, default: Any = None) -> Any:
        value = self.values.get(column)
        return default if value is None else value

    def cell(self, column: str) -> str:
        """The cell of ``column`` in this row (A of the row for a column the sheet does not have)."""
        return f"{self.letters.get(column) or 'A'}{self.row}"

    def problem(self, column: str, message: str) -> CellProblem:
        return CellProblem(self.sheet, self.cell(column), message)


def missing_sheet(name: str, kind: SheetKind, present: Sequence[str]) -> CellProblem:
    """The sheet is not there: say what it is for, what its header holds, and
    which sheet the user may have meant."""
    import difflib

    near = [n for n in present if n.strip().lower() == name.strip().lower()]
    near = near or difflib.get_close_matches(name, list(present), n=1, cutoff=0.75)
    hint = f" (is {near[0]!r} meant to be it? rename it {name!r})" if near else ""
    header = f"; its first row holds: {', '.join(kind.header)}" if kind.columns else ""
    return CellProblem(name, "A1", f"the sheet is missing{hint}. Add a sheet named {name!r}{header}. "
                                   f"It holds: {kind.description}")


class Problems:
    """Every problem of a run, gathered across sheets: each read is attempted,
    a sheet that fails adds its problems and gives ``default``, and
    :meth:`raise_all` raises them together (so the umpire fixes a first fill
    in one pass, not one sheet per run)."""

    def __init__(self, path: Any = None) -> None:
        self.path = None if path is None else str(path)
        self.problems: list[CellProblem] = []
        self.stopped: dict[str, int] = {}  # sheets whose check stopped early, and where

    def attempt(self, read: Callable[..., Any], *args: Any, default: Any = None, **kwargs: Any) -> Any:
        try:
            return read(*args, **kwargs)
        except WorkbookError as exc:
            self.problems.extend(exc.problems)
            self.stopped.update(getattr(exc, "stopped", {}))
            return default

    def add(self, *problems: CellProblem) -> None:
        self.problems.extend(problems)

    def raise_all(self) -> None:
        if self.problems:
            raise WorkbookError(list(dict.fromkeys(self.problems)), self.path, stopped=self.stopped)


def _panicked(exc: BaseException) -> bool:
    """Whether ``exc`` is the parser failing inside its own code on a value it
    cannot convert (a date cell holding -1E+308): PyO3 raises that as a
    ``PanicException``, which is a BaseException, not an Exception."""
    return type(exc).__name__ == "PanicException"


def _calamine(data: bytes | Snapshot) -> Any:
    """calamine over exactly ``data``, the bytes the gate checked. A
    :class:`~automation.workbook.snapshot.Snapshot` is opened by its path.
    Other bytes, where the system has anonymous in-memory files (Linux), are
    put in one, opened by its path the same way: calamine then reads the parts
    it is asked for, when asked. A file-like object it would first read whole
    into memory of its own, growing it as it goes (0.1 s and twice the file's
    size for a 37 MB campaign). Elsewhere, or if that fails, the file-like
    object."""
    from python_calamine import CalamineWorkbook

    if isinstance(data, Snapshot):
        return CalamineWorkbook.from_path(data.path)
    fd = anonymous_file()
    if fd is not None:
        try:
            view, written = memoryview(data), 0
            while written < len(data):
                written += os.write(fd, view[written:])
            return CalamineWorkbook.from_path(fd_path(fd))  # its own descriptor: it reads on
        except OSError:
            pass
        finally:
            os.close(fd)
    return CalamineWorkbook.from_filelike(io.BytesIO(data))


class Workbook:
    """A campaign workbook opened for reading. Keeps the digest of the bytes it
    read, so a later write can refuse if the file changed on disk meanwhile.

    The file is read once: the digest, the package checks and the parser all
    use the same bytes. A sheet is parsed only when asked for, once."""

    def __init__(self, path: Path, data: bytes | Snapshot | None = None, limits: Limits | None = None) -> None:
        """Read ``path`` (or take its ``data``, already read) through the gate
        (:mod:`automation.workbook.gate`) with ``limits`` (default: a master's)."""
        self.path = Path(path)
        limits = limits or MASTER
        if data is None:
            data = read_file(self.path, limits.file_bytes, keep=not limits.player)
        self._gate = Gate.of(self.path, data, limits)
        self._data = data
        # a master read before names its sheets as its workbook part does: the parser opens it (reading its
        # lists, a thousand sheets and names in a long campaign) only when a sheet is parsed; most commands
        # take every sheet they read as an earlier one read it (automation.workbook.rowcache)
        self._book: Any = None
        known = self._gate.parsed_names()
        if known is None:
            self._book = self._parser()
            known = list(self._book.sheet_names)
            self._gate.parsed_as(known)
        self.sheet_names: list[str] = known
        self._names = set(self.sheet_names)
        self._raw: dict[str, list[list[Any]]] = {}
        self._stamps: dict[str, str | None] = {}  # by sheet name (part_stamp), each worked out when first asked for
        self._shared_stamp: str | None = None  # the shared strings' part of every stamp
        self._styles_stamp: str | None = None  # the styles part's, added to the stamp of what is kept
        self._cached = 0
        # validated rows of a kept sheet, by name: (the kind, the lists, the rows) of each read
        self._read: dict[str, list[tuple[SheetKind, Any, list[SheetRow]]]] = {}
        # whether a sheet is read as an earlier command read it (automation.workbook.rowcache); verify reads every
        # sheet from the file, as it holds it now
        self.keep_reads = True

    def _parser(self) -> Any:
        """calamine over the bytes the gate checked."""
        try:
            return _calamine(self._data)
        except BaseException as exc:  # CalamineError, XmlError, ZipError, PasswordError..., or the parser's panic
            if not (isinstance(exc, Exception) or _panicked(exc)):
                raise
            raise WorkbookFileError(f"{self.path}: not a readable .xlsx workbook ({exc})") from None

    @property
    def digest(self) -> str:
        """The SHA-256 (hex) of the bytes read, worked out when a writer first asks for it."""
        digest = self._gate.digest
        assert digest is not None
        return digest

    @property
    def gate(self) -> Gate:
        """The checked package: its parts as stored (see :mod:`automation.audit.parts`)."""
        return self._gate

    def has(self, name: str) -> bool:
        if len(self._names) != len(self.sheet_names):  # the names as a set (kept in step if the list is changed)
            self._names = set(self.sheet_names)
        return name in self._names

    def part_stamp(self, name: str) -> str | None:
        """The CRC-32 and sizes, from the zip directory, of the part(s) sheet
        ``name`` is read from and of the shared strings its cells may point
        into (nothing is parsed): equal stamps, equal values. None when the
        sheet has no part. Worked out for each sheet when first asked for: a
        command that asks for a few of a long campaign's thousand sheets (the
        rosters of an import) looks up those alone, and one that walks them
        (the export, verify) each once."""
        stamps = self._stamps
        if name not in stamps:
            entries = self._gate.sheet_targets().entries_of(name)
            stamps[name] = rowcache.stamp_of([(i.CRC, i.file_size, i.compress_size) for i in entries],
                                             self._strings_stamp())
        return stamps[name]

    def part_stamps(self, names: Sequence[str]) -> list[str | None]:
        """:meth:`part_stamp` of each of ``names``, those not yet worked out
        found in one pass over them (a walk of a long campaign's sheets asks
        for a thousand)."""
        stamps = self._stamps
        wanted = [name for name in dict.fromkeys(names) if name not in stamps]
        if wanted:
            shared = self._strings_stamp()
            for name, entry in zip(wanted, self._gate.sheet_targets().entry_each(wanted)):
                if entry is None:
                    self.part_stamp(name)
                else:
                    stamps[name] = rowcache.stamp_of([(entry.CRC, entry.file_size, entry.compress_size)], shared)
        return [stamps.get(name) for name in names]

    def _strings_stamp(self) -> str:
        """The shared strings' part of every sheet's stamp (:func:`rowcache.strings_stamp`), found once."""
        if self._shared_stamp is None:
            self._shared_stamp = rowcache.strings_stamp(self._gate.info("xl/sharedStrings.xml"))
        return self._shared_stamp

    def raw(self, name: str) -> list[list[Any]]:
        """The sheet's cells as values, row by row, from A1. Kept for the next
        read (see :meth:`_keep`): callers must not change the lists returned."""
        if name in self._raw:
            return self._raw[name]
        if name not in self.sheet_names:
            raise WorkbookError(CellProblem(name, "A1", f"the sheet {name!r} is missing; {self._present()}"), str(self.path))
        key = self._cells_key(name)
        kept = rowcache.find_cells(key) if key is not None else None
        if kept is not None:  # parsed so by an earlier command, after the checks below
            self._keep(name, kept)
            return kept
        self._gate.check_sheet(name)  # no DTD, and no value too far away to lay out
        if isinstance(self._data, Snapshot) and self._data.pending:  # the parts calamine reads for it, copied
            for part in self._gate.sheet_targets().get(name, ()):
                info = self._gate.info(part)
                if info is not None:
                    self._data.fill_part(info.header_offset)
        if self._book is None:
            self._book = self._parser()
            if list(self._book.sheet_names) != self.sheet_names:  # (never seen: what was kept is then forgotten)
                self._gate.parsed_as(list(self._book.sheet_names))
                raise WorkbookFileError(f"{self.path}: the workbook's sheets read otherwise than when it was last "
                                        "read; nothing was changed: run the command again")
        try:
            sheet = self._book.get_sheet_by_name(name)
            rows = [list(r) for r in sheet.to_python(skip_empty_area=False)]
        except BaseException as exc:  # a damaged sheet part, or the parser's panic on a value
            if not (isinstance(exc, Exception) or _panicked(exc)):
                raise
            hint = ": a date or time cell may hold a number no date has, such as -1E+308" if _panicked(exc) else ""
            raise WorkbookError(CellProblem(name, "A1", f"the sheet cannot be read ({exc}){hint}"),
                                str(self.path)) from None
        self._keep(name, rows)
        if key is not None:
            rowcache.keep_cells(key, rows)
        return rows

    def _keep(self, name: str, rows: list[list[Any]]) -> None:
        """Keep parsed sheets for the next read, up to CACHE_CELLS cells in all
        (the oldest go first): a refit reads a few sheets twice, while reading
        a whole long campaign must not hold it all in memory."""
        cells = sum(len(r) for r in rows)
        if cells > CACHE_CELLS:
            return
        self._raw[name] = rows
        self._cached += cells
        while self._cached > CACHE_CELLS:
            oldest = next(iter(self._raw))
            self._cached -= sum(len(r) for r in self._raw.pop(oldest))
            self._read.pop(oldest, None)

    def _present(self, limit: int = 12) -> str:
        return present_sheets(self.sheet_names, limit)

    def read(
        self,
        kind: SheetKind,
        name: str | None = None,
        lists: Mapping[str, Sequence[str]] | None = None,
    ) -> list[SheetRow]:
        """The validated rows of sheet ``name`` (default: the kind's title)."""
        name = name or kind.title
        if name not in self.sheet_names:
            raise WorkbookError(missing_sheet(name, kind, self.sheet_names), str(self.path))
        given = tuple((k, tuple(v)) for k, v in sorted((lists or {}).items()))
        for seen_kind, seen_lists, rows in self._read.get(name, ()):
            if seen_kind is kind and seen_lists == given:  # read before, the same way: the same rows
                return rows
        key = self._rows_key(name, kind, given)
        kept = rowcache.find(key) if key is not None else None
        if kept is not None:  # read so by an earlier command (automation.workbook.rowcache)
            letters, found = kept
            columns = [c.name for c in kind.columns]
            rows = [SheetRow(name, r, dict(zip(columns, values)), letters) for r, values in found]
            self._read.setdefault(name, []).append((kind, given, rows))
            return rows
        rows = validate_rows(name, kind, self.raw(name), lists or {}, str(self.path))
        if name in self._raw:  # kept while its cells are
            self._read.setdefault(name, []).append((kind, given, rows))
        if key is not None:
            rowcache.keep(key, rows[0].letters if rows else {},  # (each row's values in the kind's column order)
                          [(r.row, tuple(r.values.values())) for r in rows])
        return rows

    def _kept_stamp(self, name: str) -> str | None:
        """The part stamp of sheet ``name`` and of the styles its cells may
        take (:func:`automation.workbook.rowcache.styles_stamp`), when what is
        read of it is kept from run to run (:mod:`automation.workbook.rowcache`):
        None for a player's file, one read from an encrypted file, a sheet
        without a part, or with keeping off."""
        if not self.keep_reads or getattr(self, "decrypted", False) or self._gate.limits.player or \
                not rowcache.keeping():
            return None
        stamp = self.part_stamp(name)
        if stamp is None:
            return None
        if self._styles_stamp is None:
            self._styles_stamp = rowcache.styles_stamp(self._gate.info("xl/styles.xml"))
        return stamp + self._styles_stamp

    def _rows_key(self, name: str, kind: SheetKind, lists: tuple[tuple[str, tuple[str, ...]], ...]) -> str | None:
        """What the rows of sheet ``name`` read as ``kind`` with ``lists`` are kept under (None: not kept)."""
        stamp = self._kept_stamp(name)
        return rowcache.key_of(stamp, kind, lists) if stamp is not None else None

    def _cells_key(self, name: str) -> str | None:
        """What the cells of sheet ``name`` as parsed are kept under (None: not kept)."""
        stamp = self._kept_stamp(name)
        return rowcache.raw_key_of(stamp) if stamp is not None else None

    def read_lists(self, name: str = "Lists") -> dict[str, list[str]]:
        """A wide sheet: one column per list, the header is the list's name."""
        if name not in self.sheet_names:
            from automation.workbook.schema import LISTS

            raise WorkbookError(missing_sheet(name, LISTS, self.sheet_names), str(self.path))
        return lists_from_rows(name, self.raw(name), str(self.path))


def read_file(path: Path, most: int, keep: bool = True) -> bytes | Snapshot:
    """The bytes of the workbook at ``path``, refused past ``most`` bytes before they are read (never
    halfway through a write of it: :func:`automation.workbook.journal.read_settled`), held once
    (:func:`automation.workbook.snapshot.take`; ``keep``: a master's long zip directory read as kept,
    :mod:`automation.workbook.direntries`)."""
    def read() -> bytes | Snapshot:
        try:
            size = path.stat().st_size
            if path.is_dir():
                raise WorkbookFileError(f"{path}: is a folder, not a workbook")
            if not path.is_file():  # a pipe or a device: no size to bound it by
                raise WorkbookFileError(f"{path}: not a file")
            if size > most:
                raise WorkbookFileError(f"{path}: {size // 2**20} MB; at most {most // 2**20} MB is accepted here")
            return take(path, keep)
        except FileNotFoundError:
            raise WorkbookFileError(f"{path}: no such file") from None
        except OSError as exc:
            raise WorkbookFileError(f"{path}: cannot be read ({exc.strerror or exc})") from None
    return read_settled(path, read)


TITLE_ROWS = 2  # a form may open with a line saying what to do and a line of totals above its header


def header_row(raw: Sequence[Sequence[Any]], kind: SheetKind) -> int:
    """Index of the header row: the first row, of the first ``TITLE_ROWS`` + 1,
    holding every required column of ``kind`` (0 when none does: the header
    row then gets the missing-column message)."""
    need = {c.name for c in kind.columns if c.required} or {c.name for c in kind.columns[:1]}
    if not need:
        return 0
    for i, row in enumerate(raw[:TITLE_ROWS + 1]):
        if need <= {str(v).strip() for v in row if v not in (None, "")}:
            return i
    return 0


def header_positions(sheet: str, kind: SheetKind, first_row: Sequence[Any],
                     row: int = 1) -> tuple[dict[str, int], list[CellProblem]]:
    """Where each of the kind's columns is, matched ignoring case and spaces;
    a missing column is reported at the header cell that most looks like it
    ("did you mean"), else at the first free header cell."""
    import difflib

    header = [str(h).strip() if h is not None else "" for h in first_row]
    problems: list[CellProblem] = []
    found: dict[str, int] = {}
    for i, h in enumerate(header):
        if h and norm(h) in found:
            problems.append(CellProblem(sheet, cell_ref(i, row), f"column {h!r} appears twice in the header"))
        found.setdefault(norm(h), i)
    positions = {c.name: found[norm(c.name)] for c in kind.columns if norm(c.name) in found}
    known = {norm(c.name) for c in kind.columns}
    strangers = {norm(h): i for i, h in enumerate(header) if h and norm(h) not in known}
    free = len([h for h in header if h])
    for c in kind.columns:
        if c.name in positions:
            continue
        near = difflib.get_close_matches(norm(c.name), list(strangers), n=1, cutoff=0.7)
        if near:
            i = strangers.pop(near[0])
            problems.append(CellProblem(sheet, cell_ref(i, row), f"header {header[i]!r}: did you mean {c.name!r}? "
                                        f"Rename it {c.name!r}; the header row must hold: {', '.join(kind.header)}"))
        elif c.required:  # an optional column may be left out: its cells read as blank
            problems.append(CellProblem(sheet, cell_ref(free, row), f"missing column {c.name!r}; the header row must "
                                        f"hold: {', '.join(kind.header)}"))
    return positions, problems


def validate_rows(
    sheet: str,
    kind: SheetKind,
    raw: list[list[Any]],
    lists: Mapping[str, Sequence[str]],
    path: str | None = None,
    extra_check: Callable[[SheetRow], list[CellProblem]] | None = None,
) -> list[SheetRow]:
    """The sheet's rows, every value checked; all problems raised together."""
    rows, problems = validate_each(sheet, kind, raw, lists, path, extra_check)
    if problems:
        raise WorkbookError(problems, path)
    return rows


def _filled(row: Sequence[Any]) -> bool:
    """Whether ``row`` holds a value: a cell that is neither empty nor blank text."""
    first = row[0] if row else None
    if first is not None and first != "" and not (isinstance(first, str) and first.isspace()):
        return True  # (nearly every row: its first cell)
    return any(v is not None and not (isinstance(v, str) and not v.strip()) for v in row)


def validate_each(
    sheet: str,
    kind: SheetKind,
    raw: list[list[Any]],
    lists: Mapping[str, Sequence[str]],
    path: str | None = None,
    extra_check: Callable[[SheetRow], list[CellProblem]] | None = None,
) -> tuple[list[SheetRow], list[CellProblem]]:
    """The sheet's good rows and the problems of the others, row by row (a
    sheet of independent lines: one bad line does not hold up the rest).
    A header that does not fit the kind is raised: no row can be read then.
    A sheet without a problem is checked column by column, giving the same
    rows (:mod:`automation.workbook.columnwise`); one with a problem is
    checked row by row, so its problems come in the order a person reads."""
    if not raw:
        raise WorkbookError(CellProblem(sheet, "A1", f"the sheet is empty; the header row must be: {', '.join(kind.header)}"), path)
    top = header_row(raw, kind)  # a form's title lines sit above its header
    positions, header_problems = header_positions(sheet, kind, raw[top], top + 1)
    if header_problems:
        raise WorkbookError(header_problems, path)
    letters = {c.name: column_letter(positions[c.name]) for c in kind.columns if c.name in positions}
    if extra_check is None and kind.columns:  # a sheet without a problem (nearly every one): column by column
        numbers = [r for r, raw_row in enumerate(raw[top + 1:], start=top + 2) if _filled(raw_row)]
        columns = checked_columns(kind.columns, positions, lists, [raw[r - 1] for r in numbers])
        if columns is not None:
            names = [c.name for c in kind.columns]
            blank = [None] * len(numbers)
            return [SheetRow(sheet, r, dict(zip(names, values)), letters)
                    for r, values in zip(numbers, zip(*(blank if c is None else c for c in columns)))], []
    problems: list[CellProblem] = []
    rows: list[SheetRow] = []
    seen: dict[tuple[str, Any], str] = {}
    plan = [(c, positions.get(c.name), column_letter(positions[c.name]) if c.name in positions else "",
             None if c.unique else {}, c.name) for c in kind.columns]  # each column's place and letter, worked out once
    # each column keeps what convert() made of each value it met, under memo_key(): a long roster says "German",
    # "Line" and "Yes" thousands of times. A unique column's values never repeat.
    for r, raw_row in enumerate(raw[top + 1:], start=top + 2):
        if not _filled(raw_row):
            continue
        values: dict[str, Any] = {}
        found: list[CellProblem] = []
        width = len(raw_row)
        for c, col, letter, made, name in plan:
            if col is None:  # an optional column left out: blank
                values[name] = None
                continue
            value = raw_row[col] if col < width else None
            met = memo_key(value) if made is not None else UNKEPT
            if met is UNKEPT:
                converted, message = convert(c, value, lists)
            else:
                try:
                    converted, message = made[met]
                except KeyError:
                    converted, message = made[met] = convert(c, value, lists)
                except TypeError:  # (no cell value is unhashable; should one be, it is converted every time)
                    converted, message = convert(c, value, lists)
            if message:
                found.append(CellProblem(sheet, f"{letter}{r}", f"{name}: {message}"))
                continue
            values[name] = converted
            if made is None and converted is not None:  # (a unique column)
                key = (name, norm(converted))
                if key in seen:
                    found.append(CellProblem(sheet, f"{letter}{r}", f"{name}: {converted!r} is already used at "
                                                                   f"{seen[key]}; it must be unique"))
                else:
                    seen[key] = f"{letter}{r}"
        row = SheetRow(sheet, r, values, letters)
        if extra_check:
            found.extend(extra_check(row))
        problems.extend(found)
        if not found:
            rows.append(row)
        if len(problems) >= STOP_AFTER and r < len(raw):  # far past what is listed: stop reading the sheet
            raise WorkbookError(problems, path, stopped={sheet: r})
    return rows, problems


def read_each(book: Any, kind: SheetKind, name: str | None = None,
              lists: Mapping[str, Sequence[str]] | None = None) -> tuple[list[SheetRow], list[CellProblem]]:
    """:func:`validate_each` on sheet ``name`` of ``book`` (the file's Workbook or the live adapter)."""
    name = name or kind.title
    if not book.has(name):
        raise WorkbookError(missing_sheet(name, kind, list(getattr(book, "sheet_names", ()))), str(book.path))
    return validate_each(name, kind, book.raw(name), lists or {}, str(book.path))


def lists_from_rows(name: str, rows: list[list[Any]], path: str | None = None) -> dict[str, list[str]]:
    """The lists of a wide sheet (one column per list, the header is the list's
    name), from its rows: every problem of the sheet reported together."""
    if not rows:
        return {}
    out: dict[str, list[str]] = {}
    problems: list[CellProblem] = []
    for col, head in enumerate(rows[0]):
        if head in (None, ""):
            continue
        values: list[str] = []
        for r, row in enumerate(rows[1:], start=2):
            v = row[col] if col < len(row) else ""
            if v in (None, ""):
                continue
            if not isinstance(v, str):
                problems.append(CellProblem(name, cell_ref(col, r), f"{describe(v)} where a list value (text) is expected"))
                continue
            if v.strip() in values:
                problems.append(CellProblem(name, cell_ref(col, r), f"{v!r} appears twice in list {head!r}"))
            values.append(v.strip())
        out[str(head).strip()] = values
    if problems:
        raise WorkbookError(problems, path)
    return out


def present_sheets(names: Sequence[str], limit: int = 12) -> str:
    """The sheets a workbook has, as a missing sheet's message lists them."""
    shown = ", ".join(repr(n) for n in names[:limit])
    more = f" and {len(names) - limit} more" if len(names) > limit else ""
    return f"the workbook has {shown}{more}" if names else "the workbook has no sheets"

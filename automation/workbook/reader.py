"""Fast, validated reads of the sheets a step needs (python-calamine).

Only the sheets asked for are parsed. Every value is checked against the
sheet's :class:`SheetKind`; all problems of a sheet are collected and raised
together as one :class:`WorkbookError`, each naming Sheet!Cell, what is there
and what would be valid. Reading never writes.
"""
from __future__ import annotations

import datetime as dt
import io
import os
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from automation.errors import STOP_AFTER, CellProblem, WorkbookError, WorkbookFileError
from automation.campaign.names import NO_WORDS, YES_WORDS, match_name, norm, same, yes_no  # noqa: F401 - re-exported
from automation.workbook.gate import MASTER, Gate, Limits
from automation.workbook.gate import column_letter as gate_column_letter
from automation.workbook.journal import read_settled
from automation.workbook.schema import Column, Kind, ListRef, SheetKind, is_code_column
from automation.workbook.text import MONTHS  # noqa: F401 - re-exported
from automation.workbook.text import date_label, utf16_len

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


def describe(value: Any) -> str:
    if value is None or value == "":
        return "an empty cell"
    if isinstance(value, str):
        return f"text {value!r}"
    if isinstance(value, bool):
        return f"{'TRUE' if value else 'FALSE'}"
    if isinstance(value, float) and value.is_integer():
        return f"the number {int(value)}"
    if isinstance(value, dt.datetime):
        if value.time() == dt.time(0):
            return f"the date {value.date().isoformat()}"
        return f"the date and time {value.isoformat(sep=' ')}"
    if isinstance(value, dt.date):
        return f"the date {value.isoformat()}"
    if isinstance(value, dt.time):
        return f"the time {value.isoformat()}"
    if isinstance(value, dt.timedelta):
        return f"the duration {value}"
    return f"the number {value}"


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


def _calamine(data: bytes) -> Any:
    """calamine over exactly ``data``, the bytes the gate checked. Where the
    system has anonymous in-memory files (Linux), they are put in one and
    calamine opens it by its path: it then reads the parts it is asked for,
    when asked. A file-like object it would first read whole into memory of
    its own, growing it as it goes (0.1 s and twice the file's size for a
    37 MB campaign). Elsewhere, or if that fails, the file-like object."""
    from python_calamine import CalamineWorkbook

    memfd = getattr(os, "memfd_create", None)
    if memfd is not None and os.path.isdir("/proc/self/fd"):
        fd = -1
        try:
            fd = memfd("musterroll-workbook", getattr(os, "MFD_CLOEXEC", 0))
            view, written = memoryview(data), 0
            while written < len(data):
                written += os.write(fd, view[written:])
            return CalamineWorkbook.from_path(f"/proc/self/fd/{fd}")  # its own descriptor: it reads on
        except OSError:
            pass
        finally:
            if fd >= 0:
                os.close(fd)
    return CalamineWorkbook.from_filelike(io.BytesIO(data))


class Workbook:
    """A campaign workbook opened for reading. Keeps the digest of the bytes it
    read, so a later write can refuse if the file changed on disk meanwhile.

    The file is read once: the digest, the package checks and the parser all
    use the same bytes. A sheet is parsed only when asked for, once."""

    def __init__(self, path: Path, data: bytes | None = None, limits: Limits | None = None) -> None:
        """Read ``path`` (or take its ``data``, already read) through the gate
        (:mod:`automation.workbook.gate`) with ``limits`` (default: a master's)."""
        self.path = Path(path)
        if data is None:
            data = read_file(self.path, (limits or MASTER).file_bytes)
        self._gate = Gate.of(self.path, data, limits or MASTER)
        try:
            self._book = _calamine(data)
        except Exception as exc:  # noqa: BLE001 - CalamineError, XmlError, ZipError, PasswordError...
            raise WorkbookFileError(f"{self.path}: not a readable .xlsx workbook ({exc})") from None
        self.sheet_names: list[str] = list(self._book.sheet_names)
        self._names = set(self.sheet_names)
        self._raw: dict[str, list[list[Any]]] = {}
        self._stamps: dict[str, str | None] | None = None  # by sheet name (part_stamp), all at once
        self._cached = 0
        # validated rows of a kept sheet, by name: (the kind, the lists, the rows) of each read
        self._read: dict[str, list[tuple[SheetKind, Any, list[SheetRow]]]] = {}

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
        sheet has no part. Worked out for every sheet at the first ask, in
        one pass: the zip directory read never changes, and the commands that
        ask ask for most sheets."""
        if self._stamps is None:
            self._stamps = self._all_stamps()
        return self._stamps.get(name)

    def _all_stamps(self) -> dict[str, str | None]:
        targets, info = self._gate.sheet_targets(), self._gate.info
        strings = info("xl/sharedStrings.xml")
        shared = f"+{strings.CRC:08x}.{strings.file_size}" if strings is not None else ""
        out: dict[str, str | None] = {}
        for name in targets:
            found = [f"{i.CRC:08x}.{i.file_size}.{i.compress_size}" for p in targets[name] if (i := info(p)) is not None]
            out[name] = "+".join(found) + shared if found else None
        return out

    def raw(self, name: str) -> list[list[Any]]:
        """The sheet's cells as values, row by row, from A1. Kept for the next
        read (see :meth:`_keep`): callers must not change the lists returned."""
        if name in self._raw:
            return self._raw[name]
        if name not in self.sheet_names:
            raise WorkbookError(CellProblem(name, "A1", f"the sheet {name!r} is missing; {self._present()}"), str(self.path))
        self._gate.check_sheet(name)  # no DTD, and no value too far away to lay out
        try:
            sheet = self._book.get_sheet_by_name(name)
            rows = [list(r) for r in sheet.to_python(skip_empty_area=False)]
        except Exception as exc:  # noqa: BLE001 - a damaged sheet part
            raise WorkbookError(CellProblem(name, "A1", f"the sheet cannot be read ({exc})"), str(self.path)) from None
        self._keep(name, rows)
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
        raw = self.raw(name)
        given = tuple((k, tuple(v)) for k, v in sorted((lists or {}).items()))
        for seen_kind, seen_lists, rows in self._read.get(name, ()):
            if seen_kind is kind and seen_lists == given:  # read before, the same way: the same rows
                return rows
        rows = validate_rows(name, kind, raw, lists or {}, str(self.path))
        if name in self._raw:  # kept while its cells are
            self._read.setdefault(name, []).append((kind, given, rows))
        return rows

    def read_lists(self, name: str = "Lists") -> dict[str, list[str]]:
        """A wide sheet: one column per list, the header is the list's name."""
        if name not in self.sheet_names:
            from automation.workbook.schema import LISTS

            raise WorkbookError(missing_sheet(name, LISTS, self.sheet_names), str(self.path))
        return lists_from_rows(name, self.raw(name), str(self.path))


def read_file(path: Path, most: int) -> bytes:
    """The bytes of the workbook at ``path``, refused past ``most`` bytes before they are read (never
    halfway through a write of it: :func:`automation.workbook.journal.read_settled`)."""
    def read() -> bytes:
        try:
            size = path.stat().st_size
            if path.is_dir():
                raise WorkbookFileError(f"{path}: is a folder, not a workbook")
            if not path.is_file():  # a pipe or a device: no size to bound it by
                raise WorkbookFileError(f"{path}: not a file")
            if size > most:
                raise WorkbookFileError(f"{path}: {size // 2**20} MB; at most {most // 2**20} MB is accepted here")
            return path.read_bytes()
        except FileNotFoundError:
            raise WorkbookFileError(f"{path}: no such file") from None
        except OSError as exc:
            raise WorkbookFileError(f"{path}: cannot be read ({exc.strerror or exc})") from None
    return read_settled(path, read)


def _as_text(value: Any) -> str | None:
    if isinstance(value, str):
        return value.strip()
    return None


DATE_LABEL_COLUMNS = frozenset({"Date", "CG Date"})


def _date_text(value: Any) -> str | None:
    """Excel turns 'Dec 24' typed in a cell into a date (of the current year):
    read it back as typed, whatever the machine's locale."""
    if isinstance(value, (dt.datetime, dt.date)):
        return date_label(value)
    return None


def typed_guess(value: dt.date) -> str:
    """What was probably typed for Excel to make this date: 6-5-8 gives
    2008-06-05, 8-1 gives the 1st of August of the year it was typed."""
    if 2000 <= value.year <= 2012:
        return f"{value.month}-{value.day}-{value.year - 2000}"
    return f"{value.month}-{value.day}"


def excel_turned(value: Any) -> str | None:
    """The message for a code Excel has already turned into a date or a number."""
    if isinstance(value, (dt.datetime, dt.date)):
        guess = typed_guess(value)
        return (f"Excel turned {guess} into a date (it holds the date {value:%Y-%m-%d}); type '{guess} "
                "(with the apostrophe first) or format the column as Text and type it again")
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        shown = int(value) if float(value).is_integer() else value
        return (f"Excel turned this into the number {shown}; type '{shown} (with the apostrophe first, and any "
                "leading zeros) or format the column as Text and type it again")
    return None


def _calendar_date(value: Any) -> str | None:
    """A calendar date as YYYY-MM-DD, from a date cell or text written so."""
    if isinstance(value, dt.datetime):
        return value.date().isoformat()
    if isinstance(value, dt.date):
        return value.isoformat()
    if isinstance(value, str):
        try:
            return dt.date.fromisoformat(value.strip()[:10]).isoformat() if len(value.strip()) == 10 else None
        except ValueError:
            return None
    return None


def convert(column: Column, value: Any, lists: Mapping[str, Sequence[str]]) -> tuple[Any, str | None]:
    """(converted value, None) or (None, message saying what is wrong)."""
    empty = value is None or (isinstance(value, str) and not value.strip())
    if empty:
        return None, (None if not column.required else f"is empty; {expected(column, lists)} is required")
    kind = column.kind
    if kind is Kind.DATE:
        day = _calendar_date(value)
        if day is None:
            return None, f"{describe(value)} where {expected(column, lists)} is expected"
        if day < "1900-01-01":
            return None, f"{describe(value)} is before 1900-01-01, the first date a workbook holds; write a later date"
        return day, None
    if kind is Kind.TEXT:
        if column.name not in DATE_LABEL_COLUMNS and is_code_column(column.name) and \
                isinstance(value, (dt.date, dt.datetime)):
            return None, excel_turned(value)
        text = _as_text(value) or _date_text(value)
        if text is None:
            hint = ""
            if isinstance(value, (int, float)) and not isinstance(value, bool):
                shown = int(value) if float(value).is_integer() else value
                hint = f" (to keep a number as text, type it with an apostrophe first: '{shown})"
            return None, f"{describe(value)} where text is expected{hint}"
        problem = _name_part_problem(text, column.name_part) if column.name_part else None
        return (None, problem) if problem else (text, None)
    if kind in (Kind.INT, Kind.NUMBER, Kind.INT_OR_TEXT):
        if isinstance(value, bool):
            return None, f"{describe(value)} where {expected(column, lists)} is expected"
        if isinstance(value, (int, float)):
            if kind is Kind.NUMBER:
                return float(value), None
            if float(value).is_integer():
                return int(value), None
            return None, f"{describe(value)} where a whole number is expected"
        if isinstance(value, str):
            text = value.strip()
            try:
                return (int(text) if kind is not Kind.NUMBER else float(text)), None
            except ValueError:
                if kind is Kind.INT_OR_TEXT:
                    return text, None
                return None, f"{describe(value)} where {expected(column, lists)} is expected"
        date = _date_text(value)
        if date is not None and kind is Kind.INT_OR_TEXT:
            return date, None
        return None, f"{describe(value)} where {expected(column, lists)} is expected"
    if kind in (Kind.CHOICE, Kind.BOOL):
        if isinstance(column.choices, ListRef) and column.choices.name not in lists and isinstance(value, str):
            return value.strip(), None  # the list itself could not be read: that is reported where it is
        allowed = allowed_values(column, lists)
        text = _as_text(value) or _date_text(value)
        if text is None and isinstance(value, bool):
            text = "Yes" if value else "No"
        if text is None and isinstance(value, (int, float)) and float(value).is_integer():
            text = str(int(value))
        found = match_name(text, allowed)
        if found is None and {"yes", "no"} <= {norm(a) for a in allowed}:
            found = match_name(yes_no(value), allowed)
        if found is not None:
            return found, None
        return None, f"{describe(value)} is not allowed; valid: {', '.join(allowed) or '(the list is empty)'}"
    raise AssertionError(kind)  # pragma: no cover


def _name_part_problem(text: str, most: int) -> str | None:
    """A value that becomes part of sheet names (a side's name)."""
    from automation.workbook.schema import FORBIDDEN_SHEET_CHARS

    bad = FORBIDDEN_SHEET_CHARS.search(text)
    if re.search("[\ud800-\udfff]", text):
        return f"{text!r} holds a lone surrogate, which is not a character and cannot be part of a sheet name"
    if utf16_len(text) > most:
        return f"{text!r} has {utf16_len(text)} characters; at most {most}, as it is part of sheet names"
    if bad:
        return f"{text!r} holds {bad.group()!r}, which a sheet name cannot; use none of [ ] : * ? / \\"
    if text.startswith("'") or text.endswith("'"):
        return f"{text!r} begins or ends with an apostrophe, which a sheet name cannot"
    return None


def allowed_values(column: Column, lists: Mapping[str, Sequence[str]]) -> tuple[str, ...]:
    if isinstance(column.choices, ListRef):
        return tuple(lists.get(column.choices.name, ()))
    if column.kind is Kind.BOOL:
        return ("Yes", "No")
    return tuple(column.choices or ())


def expected(column: Column, lists: Mapping[str, Sequence[str]]) -> str:
    if column.kind is Kind.INT:
        return "a whole number"
    if column.kind is Kind.NUMBER:
        return "a number"
    if column.kind is Kind.INT_OR_TEXT:
        return "a value"
    if column.kind is Kind.DATE:
        return "a date (a date cell, or text written YYYY-MM-DD)"
    if column.kind in (Kind.CHOICE, Kind.BOOL):
        return "one of " + ", ".join(allowed_values(column, lists))
    return "text"


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
    A header that does not fit the kind is raised: no row can be read then."""
    if not raw:
        raise WorkbookError(CellProblem(sheet, "A1", f"the sheet is empty; the header row must be: {', '.join(kind.header)}"), path)
    top = header_row(raw, kind)  # a form's title lines sit above its header
    positions, header_problems = header_positions(sheet, kind, raw[top], top + 1)
    if header_problems:
        raise WorkbookError(header_problems, path)
    problems: list[CellProblem] = []
    rows: list[SheetRow] = []
    seen: dict[tuple[str, Any], str] = {}
    plan = [(c, positions.get(c.name), column_letter(positions[c.name]) if c.name in positions else "")
            for c in kind.columns]  # each column's position and letter, worked out once for the sheet
    letters = {c.name: letter for c, _, letter in plan if letter}
    for r, raw_row in enumerate(raw[top + 1:], start=top + 2):
        cells_present = [v for v in raw_row if not (v is None or (isinstance(v, str) and not v.strip()))]
        if not cells_present:
            continue
        values: dict[str, Any] = {}
        found: list[CellProblem] = []
        for c, col, letter in plan:
            if col is None:  # an optional column left out: blank
                values[c.name] = None
                continue
            ref = f"{letter}{r}"
            value = raw_row[col] if col < len(raw_row) else None
            converted, message = convert(c, value, lists)
            if message:
                found.append(CellProblem(sheet, ref, f"{c.name}: {message}"))
                continue
            values[c.name] = converted
            if c.unique and converted is not None:
                key = (c.name, norm(converted))
                if key in seen:
                    found.append(CellProblem(sheet, ref, f"{c.name}: {converted!r} is already used at {seen[key]}; it must be unique"))
                else:
                    seen[key] = ref
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

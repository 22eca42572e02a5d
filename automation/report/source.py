"""Where a report's data comes from: the umpire's master workbook, or, for one
side, that side's export built in a private temporary folder through
:func:`automation.pbem.export.export` (the allow-list every export uses), so
a side's report can hold nothing its export would not.

Sheets are found by the sheet contract (:mod:`automation.pbem.reports`): a
report is a dated sheet of a kind with the ``report`` tab; its date is the
``{date}`` part of its name; rolls are its rows with a Label and a Table.
"""
from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from automation.pbem.reports import (
    ALL, CHAIN_STEP, STATS_STEP, Header, chain_start, is_report, is_report_kind, kind_of, name_parts, roll_rows,
)
from automation.report.model import Roll
from automation.workbook.reader import cell_ref

EXPORT_INFO = "Export"
PHYSICAL_COLUMNS = ("Physical", "Dice source")


@dataclass(frozen=True)
class DatedSheet:
    name: str
    kind_id: str
    date: str
    part: str  # the {side} part of the name: a side, or a report's stage


class Source:
    """One opened workbook and what the report reads of it."""

    def __init__(self, book: Any, viewer: str | None, settings: dict[str, Any], system: Any) -> None:
        self.book = book
        self.viewer = viewer
        self.settings = settings
        self.system = system
        self.system_id = str(settings.get("Rule system") or "")
        self.campaign = str(settings.get("Campaign name") or Path(book.path).stem)
        self.commitment = str(settings.get("Key commitment") or "")
        self.sides = self._sides()
        self.dated = self._dated()
        self._reports: list[DatedSheet] | None = None
        self._reports_rows: dict[str, list[list[Any]]] = {}
        self.name = Path(book.path).name

    # ---------------------------------------------------------------- sheets
    def _sides(self) -> tuple[str, ...]:
        if not self.book.has("Sides"):  # a system whose sides the rules name (A Bridge Too Far) has no Sides sheet
            from automation.pbem.views import VIEWS

            view = VIEWS.get(self.system_id)
            named = tuple(view().sides(self.book, None)) if view is not None else ()
            return named or ((self.viewer,) if self.viewer else ())
        rows = self.book.raw("Sides")
        h = Header.of(rows[0]) if rows else Header({})
        return tuple(str(h.get(r, "Side")) for r in rows[1:] if h.get(r, "Side"))

    def _dated(self) -> list[DatedSheet]:
        out = []
        for name in self.book.sheet_names:
            kind = kind_of(name)
            if kind is None or not kind.dated:
                continue
            parts = name_parts(kind, name, self.sides)
            out.append(DatedSheet(name, kind.id, parts.get("date", ""), parts.get("side", "")))
        return out

    def rows(self, name: str) -> list[list[Any]]:
        """A sheet's cells; reports are kept, as every part of the report reads them."""
        kept = self._reports_rows.get(name)
        return kept if kept is not None else self.book.raw(name)

    def of_kind(self, kind_id: str) -> list[DatedSheet]:
        return [s for s in self.dated if s.kind_id == kind_id]

    def reports(self) -> list[DatedSheet]:
        if self._reports is None:
            self._reports = []
            for s in self.dated:
                if is_report_kind(kind_of(s.name)):
                    rows = self.book.raw(s.name)
                    if rows and is_report(s.name, rows[0]):
                        self._reports.append(s)
                        self._reports_rows[s.name] = rows
        return self._reports

    def date_order(self, sheet: str, column: str) -> list[str]:
        """The campaign's dates in order, from its dates sheet."""
        if not self.book.has(sheet):
            return []
        rows = self.rows(sheet)
        h = Header.of(rows[0]) if rows else Header({})
        return [str(h.get(r, column)) for r in rows[1:] if h.get(r, column) not in (None, "")]


def report_lines(source: Source, sheet: DatedSheet) -> Iterator[tuple[Header, int, list[Any]]]:
    """(header, 1-based row, row) of each line of a report above its tamper
    evidence, leaving out the dice statistics section."""
    rows = source.rows(sheet.name)
    h = Header.of(rows[0])
    for i, row in enumerate(rows[1:chain_start(h, rows)], start=2):
        if h.get(row, "Step") in (STATS_STEP, CHAIN_STEP):
            continue
        yield h, i, row


def visible(h: Header, row: list[Any], viewer: str | None) -> bool:
    """Whether a line is for the report's reader (the master holds every line;
    an export already holds only the side's)."""
    return viewer is None or str(h.get(row, "Visible to") or "") in (ALL, viewer)


def is_physical(h: Header, row: list[Any]) -> bool:
    """A roll made with physical dice and entered by hand, not derived from the key."""
    for column in PHYSICAL_COLUMNS:
        value = str(h.get(row, column) or "").strip().lower()
        if value and value not in ("no", "false", "0", "keyed"):
            return True
    from automation.desk.dice import is_physical as physical_label

    return physical_label(str(h.get(row, "Label") or "")) or "physical" in str(h.get(row, "Dice") or "").lower()


def rolls_of(source: Source, sheet: DatedSheet) -> list[Roll]:
    rows = source.rows(sheet.name)
    h = Header.of(rows[0])
    out = []
    for rr in roll_rows(sheet.name, rows):
        row = rows[rr.row - 1]
        if not visible(h, row, source.viewer):
            continue
        out.append(Roll(
            sheet.date, sheet.name, rr.row, str(h.get(row, "Step") or ""), str(h.get(row, "Rule") or ""),
            rr.side, rr.visible_to, str(h.get(row, "Subject") or ""), rr.table_id, rr.column or "", rr.dice, rr.natural,
            rr.modifiers, rr.drm, rr.final, rr.result_text, str(h.get(row, "Odds") or ""), rr.label,
            is_physical(h, row), rr))
    return out


def where(sheet: str, h: Header, column: str, row: int) -> str:
    return f"{sheet}!{h.cell(column, row)}"


def cell(sheet: str, col: int, row: int) -> str:
    return f"{sheet}!{cell_ref(col, row)}"


# ------------------------------------------------------------------ opening

def open_master(book_path: Path) -> Any:
    """The umpire's own workbook, read as a refit reads it (the package checks
    of :class:`Workbook`; players' files go through the stricter guard)."""
    from automation.workbook.reader import Workbook

    return Workbook(Path(book_path))


def open_umpire(master: Any) -> Source:
    from automation.audit import workbook_system

    settings, system = workbook_system(master)
    return Source(master, None, dict(settings), system)


# The roster kinds whose every dated sheet a side's report reads (its own rows
# only, these columns only): its strength by kind at every date it was shown.
HISTORY_COLUMNS = {"bf.roster": ("Side", "ME", "Kind", "Status"), "abtf.units": ("Side", "Class", "Status")}


class SheetsBook:
    """A side's export held in memory (:func:`automation.pbem.export.side_export`):
    each sheet's cells as the workbook reader would give them back from the
    written file (a rectangle from A1, empty cells as ``""``, numbers as
    floats, Yes/No for truths, dates as the writer writes them), so a side's
    report reads the same values with or without the file."""

    def __init__(self, path: Path, sheets: Iterable[Any], read: dict[str, list[list[Any]]] | None = None) -> None:
        """``sheets``: OutSheets; ``read``: more sheets, already as read."""
        self.path = Path(path)
        self._sheets = {s.name: s for s in sheets if s.form is None}  # a form (the orders to fill) is no record
        self._rows: dict[str, list[list[Any]]] = {n: rows for n, rows in (read or {}).items() if n not in self._sheets}
        self.sheet_names = list(self._sheets) + [n for n in self._rows]

    def has(self, name: str) -> bool:
        return name in self._sheets or name in self._rows

    def raw(self, name: str) -> list[list[Any]]:
        if not self.has(name):
            from automation.errors import CellProblem, WorkbookError

            raise WorkbookError(CellProblem(name, "A1", f"the sheet {name!r} is not in the export"), str(self.path))
        if name not in self._rows:
            sheet = self._sheets[name]
            rows = [list(r) for r in sheet.rows] or [[]]
            for col, note in sheet.notes:  # written in the header row, after the columns
                rows[0] += [None] * (col + 1 - len(rows[0]))
                rows[0][col] = note
            self._rows[name] = as_read(rows, name)
        return self._rows[name]


def as_read(rows: Sequence[Sequence[Any]], sheet: str) -> list[list[Any]]:
    """``rows`` as written to an export (:mod:`automation.pbem.xlsx`) and read back."""
    from automation.workbook.layout import code_columns

    codes = set(code_columns(rows[0])) if rows else set()
    width = max((len(r) for r in rows), default=0)
    out = []
    for r, row in enumerate(rows):
        values = [read_back(v, r and c in codes, f"{sheet}!{cell_ref(c, r + 1)}") for c, v in enumerate(row)]
        out.append(values + [""] * (width - len(values)))
    while out and len(out) > 1 and not any(v != "" for v in out[-1]):
        out.pop()
    return out


def read_back(value: Any, code: bool, where: str) -> Any:
    from automation.workbook.text import cell_text, date_label

    if value is None or value == "":
        return ""
    if isinstance(value, bool):
        return "Yes" if value else "No"
    if isinstance(value, (int, float)):
        return float(value)
    if isinstance(value, dt.date) and code:
        return date_label(value)
    if isinstance(value, dt.datetime):
        return value.date().isoformat() if value.time() == dt.time() else value.isoformat()
    if isinstance(value, dt.date):
        return value.isoformat()
    return cell_text(str(value), where)


def open_side(master: Any, side: str, key_file: Path | None, history: Any = None) -> Source:
    """``side``'s export of the master, built in memory by the export's own
    allow-list (:func:`automation.pbem.export.side_export`) and never written,
    with the side's own rows of every dated roster (``history()``, see
    :func:`own_history`; read here when not given). The rule system's tables
    (odds, not secrets) come from the master."""
    from automation.audit import workbook_system
    from automation.pbem.export import side_export

    book_path = Path(master.path)
    settings, system = workbook_system(master)
    built = side_export(book_path, side, key_file)
    rosters = history() if history is not None else own_history(master, str(settings.get("Rule system") or ""), side)
    book = SheetsBook(book_path, built.sheets, scrubbed(rosters, built.scrub, {s.name for s in built.sheets}))
    info = {}
    if book.has(EXPORT_INFO):
        rows = book.raw(EXPORT_INFO)
        h = Header.of(rows[0])
        info = {str(h.get(r, "Setting")): h.get(r, "Value") for r in rows[1:] if h.get(r, "Setting")}
    found = Source(book, str(info.get("Side") or built.side), info, system)
    found.name = f"the {found.viewer} export of {Path(book_path).name}"
    return found


def read_history(path: str, side: str) -> dict[str, list[list[Any]]]:
    """:func:`own_history` of the master at ``path`` (for a second process)."""
    from automation.pbem.planning import settings_of

    master = open_master(Path(path))
    return own_history(master, str(settings_of(master).get("Rule system") or ""), side)


def own_history(master: Any, system_id: str, side: str) -> dict[str, list[list[Any]]]:
    """The side's own rows of every dated roster, as each date's export
    showed them: the same test of a campaign sheet and the same documented
    columns in the same places (:func:`automation.pbem.sidesheets.campaign_kind`
    and ``project``), only the side's rows, only the columns of
    :data:`HISTORY_COLUMNS` (the rest blank). Its texts are not yet scrubbed
    (:func:`scrubbed` does that, and leaves out the rosters the export holds)."""
    from automation.pbem.sidesheets import campaign_dates, campaign_kind
    from automation.workbook.reader import header_row, norm
    from automation.workbook.schema import system_kinds

    kinds = [k for k in system_kinds(system_id).values() if k.id in HISTORY_COLUMNS]
    if not kinds:
        return {}
    dates = campaign_dates(master)
    out: dict[str, list[list[Any]]] = {}
    for name in master.sheet_names:
        if kind_of(name, kinds) is None:
            continue
        kind = campaign_kind(master, name, kinds, dates)
        if kind is None:
            continue
        rows = master.raw(name)
        top = header_row(rows, kind)
        h = Header.of(rows[top])
        header = [c.name for c in kind.columns if c.name in h.positions]
        keep = [(header.index(c), h.positions[c]) for c in HISTORY_COLUMNS[kind.id] if c in header]
        width = max((at for at, _ in keep), default=-1) + 1  # the blank columns after the last kept one: left off
        side_at = h.positions.get("Side")
        mine = norm(side)
        table = [header]
        for r in rows[top + 1:]:
            if side_at is None or side_at >= len(r) or norm(str(r[side_at] or "")) != mine:
                continue
            row: list[Any] = [""] * width
            for at, src in keep:
                if src < len(r):
                    row[at] = r[src]
            table.append(row)
        out[name] = table
    return out


def scrubbed(history: dict[str, list[list[Any]]], scrub: Any, exported: set[str]) -> dict[str, list[list[Any]]]:
    """``history`` without the rosters the export holds, each text through the
    export's scrubber (the other side's names become their aliases)."""
    texts: dict[str, Any] = {}

    def text(value: Any) -> Any:
        if not isinstance(value, str) or scrub is None:
            return value
        if value not in texts:
            texts[value] = scrub(value)
        return texts[value]

    return {name: [rows[0]] + [[text(v) for v in r] for r in rows[1:]]
            for name, rows in history.items() if name not in exported}

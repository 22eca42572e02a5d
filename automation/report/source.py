"""Where a report's data comes from: the umpire's master workbook, or, for one
side, that side's export built in a private temporary folder through
:func:`automation.pbem.export.export` (the allow-list every export uses), so
a side's report can hold nothing its export would not.

Sheets are found by the sheet contract (:mod:`automation.pbem.reports`): a
report is a dated sheet of a kind with the ``report`` tab; its date is the
``{date}`` part of its name; rolls are its rows with a Label and a Table.
"""
from __future__ import annotations

import tempfile
from collections.abc import Iterator
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


def open_side(master: Any, side: str, key_file: Path | None, folder: Path) -> Source:
    """``side``'s export of the master, written into ``folder`` and opened.
    The rule system's tables (odds, not secrets) come from the master."""
    from automation.audit import workbook_system
    from automation.pbem.export import export
    from automation.workbook.reader import Workbook

    book_path = Path(master.path)
    _, system = workbook_system(master)
    out = Path(folder) / "side-export.xlsx"
    export(book_path, side, out, None, key_file)
    book = Workbook(out)
    info = {}
    if book.has(EXPORT_INFO):
        rows = book.raw(EXPORT_INFO)
        h = Header.of(rows[0])
        info = {str(h.get(r, "Setting")): h.get(r, "Value") for r in rows[1:] if h.get(r, "Setting")}
    found = Source(book, str(info.get("Side") or side), info, system)
    found.name = f"the {found.viewer} export of {Path(book_path).name}"
    return found


def temporary_folder() -> tempfile.TemporaryDirectory:
    return tempfile.TemporaryDirectory(prefix="musterroll-report-")

"""Whole new workbooks (templates, samples, exports) written with XlsxWriter
from the sheet contract: bold frozen headers, sized columns, tab colours by
kind, header notes, and dropdowns for every list column.

Templates in xlsx_templates/ are generated here from rules/:
``python -m automation.workbook.template`` rebuilds them; a test fails when a
committed template differs from what this module makes.
"""
from __future__ import annotations

import datetime as dt
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from automation.engine.tables import RuleSystem
from automation.workbook.content import SheetContent  # noqa: F401  (re-exported: whole sheets as data)
from automation.workbook.effects import effect_text
from automation.workbook.layout import TAB_COLOURS, code_columns, page_setup
from automation.workbook.text import write_text
from automation.workbook.schema import (
    CHARTS, LISTS, MODIFIERS, SETTINGS, SIDES_SHEET, TABLES, Kind, ListRef, SheetKind,
)

FIXED_DATE = dt.datetime(2026, 1, 1)
CAMPAIGN_PLACEHOLDER = "(campaign name: set by musterroll new)"
COMMITMENT_PLACEHOLDER = "(key commitment: set by musterroll new)"
VALIDATION_ROWS = 2000
TEMPLATES_DIR = Path(__file__).resolve().parents[2] / "xlsx_templates"


def table_rows(system: RuleSystem) -> list[list[Any]]:
    rows: list[list[Any]] = []
    for t in system.tables.values():
        head = [t.id, t.title, t.source, t.dice.value]
        if not t.bands and not t.naturals:
            rows.append(head + [None, None, t.columns[0], None, None, None])
        for b in t.bands:
            for c in t.columns:
                rows.append(head + [b.low, b.high, c, None, b.results[c], effect_text(b.effects.get(c, {})) or None])
        for n in t.naturals:
            for c, text in n.results.items():
                rows.append(head + [None, None, c, "doubles" if n.doubles else n.total, text,
                                    effect_text(n.effects.get(c, {})) or None])
    return rows


def modifier_rows(system: RuleSystem) -> list[list[Any]]:
    rows = []
    for t in system.tables.values():
        for m in t.modifiers:
            rows.append([t.id, m.id, m.name, m.value, m.when, m.input, m.per if m.per != 1 else None,
                         m.offset or None, m.rounding.value if m.input else None, m.minimum, m.group,
                         ", ".join(m.columns) or None, m.source])
    return rows


def chart_rows(system: RuleSystem, skip: Sequence[str] = ()) -> list[list[Any]]:
    """The rows of the Charts sheet: every chart of ``system`` but those in ``skip``."""
    rows = []
    for c in system.charts.values():
        if c.id in skip:
            continue
        for i, r in enumerate(c.rows, start=1):
            for col in c.columns:
                if col in r:
                    rows.append([c.id, i, col, r[col], c.source])
    return rows


def settings_rows(system: RuleSystem, campaign: str, commitment: str) -> list[list[Any]]:
    rows: list[list[Any]] = [
        ["Campaign name", campaign, None, None],
        ["Rule system", system.id, None, system.title],
        ["Key commitment", commitment, None, "SHA-256 commitment of the campaign key kept in the .key file beside the workbook"],
    ]
    for s in system.settings.values():
        value = s["value"]
        if isinstance(value, bool):
            value = "Yes" if value else "No"
        rows.append([s["title"], value, s["source"], s.get("note")])
    return rows


def write_workbook(path: Path, sheets: Sequence[SheetContent], lists: Mapping[str, Sequence[str]]) -> None:
    """Write a whole new workbook: ``lists`` fills the Lists sheet and the
    dropdowns that refer to it."""
    import xlsxwriter

    wb = xlsxwriter.Workbook(str(path), {"strings_to_formulas": False, "strings_to_urls": False,
                                         "strings_to_numbers": False})
    wb.set_properties({"created": FIXED_DATE, "author": "Musterroll", "title": "Campaign workbook"})
    bold = wb.add_format({"bold": True, "bg_color": "#D9E1F2", "border": 1, "text_wrap": True, "valign": "top"})
    text, run = wb.add_format({"num_format": "@"}), wb.add_format({})
    names = {}
    for sheet in sheets:
        if sheet.kind.id == "lists":
            for i, name in enumerate(lists):
                names[name] = i
    for sheet in sheets:
        ws = wb.add_worksheet(sheet.name)
        ws.set_tab_color(TAB_COLOURS.get(sheet.kind.tab, "#7F7F7F"))
        if sheet.kind.id == "lists":
            header = list(lists)
            body = [[(lists[h][r] if r < len(lists[h]) else None) for h in header]
                    for r in range(max((len(v) for v in lists.values()), default=0))]
            widths = [18] * len(header)
        else:
            header = list(sheet.header or sheet.kind.header)
            body = [list(r) for r in sheet.rows]
            widths = list(sheet.widths or [c.width for c in sheet.kind.columns] or [14] * len(header))
        numeric = {col for col, c in enumerate(sheet.kind.columns) if c.kind in (Kind.INT, Kind.NUMBER)}
        codes = set(code_columns(header)) - numeric
        for col, h in enumerate(header):
            write_text(ws, 0, col, h, f"{sheet.name}!{_ref(0, col)}", bold, run)
            ws.set_column(col, col, widths[col] if col < len(widths) else 14, text if col in codes else None)
        notes = {col: c.note for col, c in enumerate(sheet.kind.columns) if c.note}
        if sheet.instructions:
            notes[0] = sheet.instructions + (f"\n\n{notes[0]}" if 0 in notes else "")
        for col, note in notes.items():
            ws.write_comment(0, col, note, {"x_scale": 2, "y_scale": 1.2})
        for r, row in enumerate(body, start=1):
            for col, value in enumerate(row):
                _write(ws, r, col, value, f"{sheet.name}!{_ref(r, col)}", text if col in codes else None, run)
        ws.freeze_panes(1, 0)
        page_setup(ws, [widths[c] if c < len(widths) else 14 for c in range(len(header))])
        if header:
            ws.autofilter(0, 0, max(len(body), 1), len(header) - 1)
        for col, c in enumerate(sheet.kind.columns):
            source = _validation_source(c, names, sheet.list_sources)
            if source:
                ws.data_validation(1, col, VALIDATION_ROWS, col, {
                    "validate": "list", "source": source, "ignore_blank": True,
                    "error_title": c.name, "error_message": f"Choose a value from the list for {c.name}.",
                })
            elif c.kind is Kind.INT:
                ws.data_validation(1, col, VALIDATION_ROWS, col, {
                    "validate": "integer", "criteria": "between", "minimum": -10**6, "maximum": 10**6,
                    "ignore_blank": True, "error_message": f"{c.name} takes a whole number."})
    for name, index in names.items():
        letter = chr(65 + index)
        wb.define_name(_list_name(name), f"=OFFSET(Lists!${letter}$2,0,0,MAX(1,COUNTA(Lists!${letter}:${letter})-1),1)")
    wb.close()


def _list_name(name: str) -> str:
    return "list_" + "".join(ch if ch.isalnum() else "_" for ch in name.lower())


def _validation_source(column, names: Mapping[str, int], overrides: Mapping[str, str]) -> Any:
    if column.name in overrides:
        return overrides[column.name]
    if isinstance(column.choices, ListRef):
        if column.choices.name == "sides":
            return "=Sides!$A$2:$A$3"
        if column.choices.name in names:
            return "=" + _list_name(column.choices.name)
        return None
    if column.kind is Kind.BOOL:
        return ["Yes", "No"]
    if column.choices:
        return list(column.choices)
    return None


def _ref(row: int, col: int) -> str:
    from xlsxwriter.utility import xl_rowcol_to_cell

    return xl_rowcol_to_cell(row, col)


def _write(ws: Any, row: int, col: int, value: Any, where: str, fmt: Any, run: Any) -> None:
    if value is None:
        return
    if isinstance(value, bool):
        write_text(ws, row, col, "Yes" if value else "No", where, fmt, run)
    elif isinstance(value, (int, float)):
        ws.write_number(row, col, value)
    else:
        write_text(ws, row, col, str(value), where, fmt, run)  # never a formula, whatever it starts with


def system_sheets(system: RuleSystem, campaign: str, commitment: str) -> list[SheetContent]:
    """The sheets every campaign of ``system`` starts with (its own kinds come
    from the system's sheet module)."""
    from automation.workbook import campaign_sheets

    own = campaign_sheets.starting_sheets(system)
    sides = [SheetContent(SIDES_SHEET, SIDES_SHEET.title, campaign_sheets.default_sides(system))] \
        if campaign_sheets.uses_sides_sheet(system.id) else []
    return (
        [SheetContent(SETTINGS, SETTINGS.title, settings_rows(system, campaign, commitment))]
        + sides
        + [SheetContent(LISTS, LISTS.title)]
        + own
        + [SheetContent(TABLES, TABLES.title, table_rows(system)),
           SheetContent(MODIFIERS, MODIFIERS.title, modifier_rows(system)),
           SheetContent(CHARTS, CHARTS.title, chart_rows(system, skip=campaign_sheets.sample_charts(system.id)))]
    )


def template_path(system_id: str) -> Path:
    return TEMPLATES_DIR / f"{system_id}.xlsx"


def build_template(system: RuleSystem, path: Path) -> None:
    from automation.workbook import campaign_sheets

    write_workbook(path, system_sheets(system, CAMPAIGN_PLACEHOLDER, COMMITMENT_PLACEHOLDER),
                   campaign_sheets.default_lists(system))


def build_all_templates(folder: Path = TEMPLATES_DIR) -> list[Path]:
    from automation.rulebook import load_rulebook
    from automation.workbook import campaign_sheets

    folder.mkdir(parents=True, exist_ok=True)
    out = []
    for system in load_rulebook().systems.values():
        if campaign_sheets.is_campaign_system(system.id):
            path = folder / f"{system.id}.xlsx"
            build_template(system, path)
            out.append(path)
    return out


if __name__ == "__main__":  # pragma: no cover
    for p in build_all_templates():
        print(p)

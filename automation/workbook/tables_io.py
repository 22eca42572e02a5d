"""The rule system as the workbook holds it: the Tables and Modifiers sheets
(which the umpire may edit) read back over the rules file's structure."""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from automation.engine.tableload import build_table
from automation.engine.tables import RuleSystem, Table
from automation.errors import CellProblem, RulesError, WorkbookError
from automation.workbook.reader import SheetRow, Workbook
from automation.workbook.schema import MODIFIERS, TABLES
from automation.workbook.effects import parse_effect


class _SheetWhere:
    def __init__(self, origin: str) -> None:
        self.origin = origin

    def fail(self, where: str, message: str) -> RulesError:
        return RulesError(self.origin, f"{where}: {message}")


def _tables_from_rows(rows: list[SheetRow]) -> tuple[dict[str, dict[str, Any]], dict[str, SheetRow], list[CellProblem]]:
    data: dict[str, dict[str, Any]] = {}
    first: dict[str, SheetRow] = {}
    problems: list[CellProblem] = []
    band_index: dict[str, dict[tuple[Any, Any], dict[str, Any]]] = {}
    naturals: dict[str, dict[str, dict[str, Any]]] = {}
    for row in rows:
        tid = row["Table"]
        if tid not in data:
            first[tid] = row
            data[tid] = {"id": tid, "title": row["Title"], "source": row["Rule"], "dice": row["Dice"],
                         "columns": [], "rows": [], "naturals": []}
            band_index[tid] = {}
            naturals[tid] = {}
        t = data[tid]
        column = row["Column"]
        if column not in t["columns"]:
            t["columns"].append(column)
        if row["Result"] is None:
            if row["Min"] is not None or row["Max"] is not None or row["Natural"] is not None:
                problems.append(row.problem("Result", "is empty; every band needs a result"))
            continue
        try:
            effect = parse_effect(row["Effect"] or "")
        except ValueError as exc:
            problems.append(row.problem("Effect", f"{exc}; write effects as name=value; name=value"))
            continue
        if row["Natural"] is not None:
            nat = str(row["Natural"]).strip().lower()
            key = nat
            if key not in naturals[tid]:
                entry: dict[str, Any] = {"results": {}, "effects": {}}
                if nat == "doubles":
                    entry["doubles"] = True
                else:
                    try:
                        entry["total"] = int(nat)
                    except ValueError:
                        problems.append(row.problem("Natural", f"text {row['Natural']!r} is neither a natural total nor 'doubles'"))
                        continue
                naturals[tid][key] = entry
                t["naturals"].append(entry)
            naturals[tid][key]["results"][column] = row["Result"]
            if effect:
                naturals[tid][key]["effects"][column] = effect
            continue
        band_key = (row["Min"], row["Max"])
        band = band_index[tid].get(band_key)
        if band is None:
            band = {"results": {}, "effects": {}}
            if row["Min"] is not None:
                band["min"] = row["Min"]
            if row["Max"] is not None:
                band["max"] = row["Max"]
            band_index[tid][band_key] = band
            t["rows"].append(band)
        band["results"][column] = row["Result"]
        if effect:
            band["effects"][column] = effect
    for t in data.values():
        for n in t["naturals"]:
            n["columns"] = list(n["results"])
            if not n["effects"]:
                del n["effects"]
        for b in t["rows"]:
            if not b["effects"]:
                del b["effects"]
    return data, first, problems


def _modifiers_from_rows(rows: list[SheetRow]) -> dict[str, list[dict[str, Any]]]:
    out: dict[str, list[dict[str, Any]]] = {}
    for row in rows:
        m: dict[str, Any] = {"id": row["Modifier"], "name": row["Name"], "value": row["Value"], "source": row["Rule"]}
        for key, col in (("when", "When"), ("input", "Input"), ("per", "Per"), ("offset", "Offset"),
                         ("round", "Round"), ("minimum", "Minimum"), ("group", "Group")):
            if row[col] is not None:
                m[key] = row[col]
        if row["Columns"]:
            m["columns"] = [c.strip() for c in str(row["Columns"]).split(",") if c.strip()]
        out.setdefault(row["Table"], []).append(m)
    return out


def _keep_what_the_sheet_does_not_show(raw: dict[str, Any], table: Table) -> None:
    """The Tables sheet shows a table without printed bands (a roll-off, or one
    the umpire fills in) as one row of its first column, and has no place for
    notes: keep the rules file's columns for such a table, and its notes where
    the sheet's band, natural or modifier is still the rules file's."""
    if not raw["rows"] and not raw["naturals"]:
        raw["columns"] = list(table.columns) + [c for c in raw["columns"] if c not in table.columns]
    notes = {(b.low, b.high): b.note for b in table.bands if b.note}
    for band in raw["rows"]:
        note = notes.get((band.get("min"), band.get("max")))
        if note:
            band["note"] = note
    natural_notes = {("doubles" if n.doubles else n.total): n.note for n in table.naturals if n.note}
    for natural in raw["naturals"]:
        note = natural_notes.get("doubles" if natural.get("doubles") else natural.get("total"))
        if note:
            natural["note"] = note
    mod_notes = {m.id: m.note for m in table.modifiers if m.note}
    for m in raw.get("modifiers", ()):
        if m["id"] in mod_notes:
            m.setdefault("note", mod_notes[m["id"]])


def system_from_workbook(book: Workbook, base: RuleSystem) -> RuleSystem:
    """``base`` (the rules file) with bands, results and modifiers as the
    workbook's Tables and Modifiers sheets hold them."""
    table_rows = book.read(TABLES)
    mod_rows = book.read(MODIFIERS)
    data, first, problems = _tables_from_rows(table_rows)
    mods = _modifiers_from_rows(mod_rows)
    for tid, row in first.items():
        if tid not in base.tables:
            problems.append(row.problem("Table", f"unknown table {tid!r}; valid: {', '.join(base.tables)}"))
    for row in mod_rows:
        if row["Table"] not in base.tables:
            problems.append(row.problem("Table", f"unknown table {row['Table']!r}; valid: {', '.join(base.tables)}"))
    if problems:
        raise WorkbookError(problems, str(book.path))
    tables: dict[str, Table] = {}
    for tid, table in base.tables.items():
        if tid not in data:
            tables[tid] = table
            continue
        raw = dict(data[tid])
        raw["kind"] = table.kind.value
        raw["notes"] = list(table.notes)
        if table.clamp:
            raw["clamp"] = list(table.clamp)
        raw["umpire_entered"] = table.umpire_entered
        raw["modifiers"] = mods.get(tid, [])
        _keep_what_the_sheet_does_not_show(raw, table)
        try:
            tables[tid] = build_table(raw, base.id, _SheetWhere(TABLES.title))  # type: ignore[arg-type]
        except RulesError as exc:
            problems.append(CellProblem(TABLES.title, first[tid].cell("Table"), exc.detail))
    if problems:
        raise WorkbookError(problems, str(book.path))
    return RuleSystem(base.id, base.title, base.seed, f"{book.path.name} (Tables, Modifiers)", tables, base.charts, base.settings)


def settings_from_workbook(book: Workbook) -> Mapping[str, SheetRow]:
    from automation.workbook.schema import SETTINGS

    return {row["Setting"]: row for row in book.read(SETTINGS)}


def campaign_settings(book: Workbook) -> dict[str, Any]:
    """The Campaign sheet's settings, name -> value."""
    return {k: v["Value"] for k, v in settings_from_workbook(book).items()}


def system_of(book: Workbook, settings: dict[str, Any]) -> RuleSystem:
    """The rule system the settings name (Campaign!B3), as the rulebook defines it."""
    from automation.rulebook import load_rulebook

    system_id = settings.get("Rule system")
    systems = load_rulebook().systems
    if system_id not in systems:
        raise WorkbookError(CellProblem("Campaign", "B3", f"rule system {system_id!r} is unknown; valid: "
                                        f"{', '.join(systems)}"), str(book.path))
    return systems[system_id]

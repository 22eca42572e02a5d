"""Settings of the optional rules the trackers use, looked up by their id in
the rules files (e.g. ``bfta.variant_greif_secondary_targets``).

A value is read from the workbook's Desk settings sheet, else from its
Campaign sheet (both by the setting's title, as the rules file gives it), else
the rules file's default. Each value remembers the cell it came from, so a bad
value is reported at its Sheet!Cell."""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from automation.errors import CellProblem, WorkbookError
from automation.rulebook import load_rulebook
from automation.workbook.desk_sheets import DESK_SETTINGS
from automation.workbook.schema import SETTINGS

TRUE = ("yes", "true", "on", "1")
FALSE = ("no", "false", "off", "0", "")


@dataclass(frozen=True)
class Settings:
    """Setting id -> (value, where it came from)."""

    values: Mapping[str, tuple[Any, str]] = field(default_factory=dict)

    @classmethod
    def defaults(cls, **overrides: Any) -> Settings:
        """The rules files' defaults; ``overrides`` by id with dots as '__'
        (``bfta__variant_burnt_tubes=True``), for tests and scripts."""
        values = {sid: (s["value"], f"rules ({s['source']})") for sid, s in _all_settings().items()}
        for key, value in overrides.items():
            sid = key.replace("__", ".")
            if sid not in values:
                raise KeyError(f"unknown setting {sid!r}")
            values[sid] = (value, "given")
        return cls(values)

    def raw(self, sid: str) -> tuple[Any, str]:
        try:
            return self.values[sid]
        except KeyError:
            raise KeyError(f"unknown setting {sid!r}") from None

    def _fail(self, sid: str, message: str) -> WorkbookError:
        value, where = self.raw(sid)
        sheet, _, cell = where.partition("!")
        return WorkbookError(CellProblem(sheet, cell or "B1", f"{_all_settings()[sid]['title']}: {message}"))

    def flag(self, sid: str) -> bool:
        value, _ = self.raw(sid)
        if isinstance(value, bool):
            return value
        text = str(value if value is not None else "").strip().lower()
        if text in TRUE:
            return True
        if text in FALSE:
            return False
        raise self._fail(sid, f"{value!r} is not Yes or No")

    def number(self, sid: str) -> int:
        value, _ = self.raw(sid)
        if isinstance(value, bool) or not isinstance(value, (int, float)) or float(value) != int(value):
            try:
                return int(str(value).strip())
            except ValueError:
                raise self._fail(sid, f"{value!r} is not a whole number") from None
        return int(value)

    def text(self, sid: str) -> str:
        value, _ = self.raw(sid)
        return str(value if value is not None else "").strip()


def _all_settings() -> dict[str, dict[str, Any]]:
    out: dict[str, dict[str, Any]] = {}
    for system in load_rulebook().systems.values():
        out.update(system.settings)
    return out


def from_book(book: Any) -> Settings:
    """The settings as ``book`` gives them (Desk settings, then Campaign)."""
    catalogue = _all_settings()
    by_title = {s["title"]: sid for sid, s in catalogue.items()}
    values = {sid: (s["value"], f"rules ({s['source']})") for sid, s in catalogue.items()}
    for sheet in (SETTINGS.title, DESK_SETTINGS.title):  # the desk's own sheet wins
        if book is None or not book.has(sheet):
            continue
        for row in book.read(SETTINGS, sheet):
            sid = by_title.get(row["Setting"])
            if sid is not None:
                values[sid] = (row["Value"], f"{sheet}!{row.cell('Value')}")
    return Settings(values)


def rows(ids: list[str] | None = None) -> list[list[Any]]:
    """Rows of a Desk settings sheet: every setting (or those in ``ids``) at its default."""
    out = []
    for sid, s in _all_settings().items():
        if ids is not None and sid not in ids:
            continue
        value = s["value"]
        if isinstance(value, bool):
            value = "Yes" if value else "No"
        out.append([s["title"], value, s["source"], s.get("note")])
    return out

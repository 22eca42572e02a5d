"""One sheet of a whole new workbook, as data: its kind, name, rows, widths,
the lists its dropdowns take their values from, and what the umpire enters on
it. :mod:`automation.workbook.template` writes such sheets; the rule systems'
starting sheets and reports are made of them."""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from automation.workbook.columns import SheetKind


@dataclass(frozen=True)
class SheetContent:
    kind: SheetKind
    name: str
    rows: Sequence[Sequence[Any]] = ()
    header: Sequence[str] | None = None  # default: the kind's columns
    widths: Sequence[float] | None = None
    list_sources: Mapping[str, str] = field(default_factory=dict)
    instructions: str = ""  # what the umpire enters on this sheet: a note on its first header cell

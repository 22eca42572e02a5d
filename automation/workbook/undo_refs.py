"""Before undo removes sheets: does anything the umpire keeps still point into them?

Undo refuses, naming each one, when a defined name (other than the names local
to a removed sheet, which go with it, and Excel's built-in ``_xlnm.`` names such
as print titles, which are settings of a sheet) or a formula in a sheet that stays
refers to a sheet undo would remove; Excel would otherwise repair the file
("Removed Records: Named range") or show #REF! where the umpire expects a
value. The umpire changes or deletes them, then runs undo again.

Only sheets that no batch added (the umpire's own and the template's) are
searched for formulas, so the cost does not grow with the campaign: a batch's
sheets are written whole by Musterroll and only ever point into sheets that
were there before them. A part is searched with one byte search per removed
sheet name first; formulas are read only in a part that holds such a name.
"""
from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from html import unescape

from automation.errors import CellProblem

_CELL = re.compile(rb'<(?:\w+:)?c\b([^>]*?)(?:/>|>(.*?)</(?:\w+:)?c>)', re.S)
_REF = re.compile(rb'\br="([A-Z]{1,3}\d+)"')
_FORMULA = re.compile(rb"<(?:\w+:)?f\b[^>]*>(.*?)</(?:\w+:)?f>", re.S)


def reference_pattern(names: Iterable[str]) -> re.Pattern[str] | None:
    """A pattern that finds a reference to any of ``names`` in formula text:
    ``Name!``, ``'Name'!`` (quotes doubled inside) or a 3-D range ``A:Name!``."""
    alts = []
    for name in names:
        quoted = "'" + re.escape(name.replace("'", "''")) + "'"
        alts.append(quoted)
        alts.append(r"(?<![\w.'])" + re.escape(name))
    if not alts:
        return None
    return re.compile(r"(?:" + "|".join(alts) + r")(?::[^!]*)?!", re.I)


def in_names(names: Sequence[tuple[str, str]], removed: Sequence[str]) -> list[CellProblem]:
    """Defined names (name, formula) that refer to a removed sheet."""
    pattern = reference_pattern(removed)
    if pattern is None:
        return []
    return [CellProblem("Defined names", name, f"the name {name!r} refers to {formula!r}, in a sheet undo would "
                        "remove: change or delete the name (Formulas > Name Manager), then undo again")
            for name, formula in names if pattern.search(formula)]


def in_sheet(sheet: str, data: bytes, removed: Sequence[str]) -> list[CellProblem]:
    """Formulas of one kept sheet (its part's bytes) that refer to a removed sheet."""
    escaped = [n.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").encode("utf-8") for n in removed]
    lowered = data.lower()
    if b"<f" not in data or not any(e.lower() in lowered for e in escaped):
        return []
    pattern = reference_pattern(removed)
    assert pattern is not None
    found = []
    for attrs, body in _CELL.findall(data):
        if not body or b"<f" not in body:
            continue
        formula = _FORMULA.search(body)
        text = unescape(formula.group(1).decode("utf-8", "replace")) if formula else ""
        if text and pattern.search(text):
            ref = _REF.search(attrs)
            where = ref.group(1).decode() if ref else "A1"
            found.append(CellProblem(sheet, where, f"the formula ={text} refers to a sheet undo would remove: "
                                                   "change or clear it, then undo again"))
    return found

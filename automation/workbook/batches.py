"""The batch records: what each ``append_sheets`` call added, as the workbook
keeps it (one hidden defined name a call, ``_mr_batch_0001`` ...; see
:mod:`automation.workbook.package`), read without the package writer.

A reader that has the workbook's defined names from its gate (a command that
only checks, such as ``verify``) lists the batches from them; the writer
parses the same records with each one's place, to undo a batch.
"""
from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from automation.errors import WorkbookFileError
from automation.workbook.gate import Gate

RECORD = re.compile(r"_mr_batch_(\d+)", re.I)
ENTRY = re.compile(r"(form |replaced )?(\d+)\|(.*)", re.S)  # a batch record's sheet entry
_ITEM = r'"[^"]*(?:""[^"]*)*"'  # a quoted text, its quotes doubled (unrolled: no step per character)
_LIST = re.compile(r"\{\s*" + _ITEM + r"(?:\s*[,;]\s*" + _ITEM + r")*\s*\}", re.S)
_ITEMS = re.compile(_ITEM)


@dataclass(frozen=True)
class Batch:
    """One recorded ``append_sheets`` call: its name, the sheets it added,
    those of them written as forms for a person to fill (``forms``: inputs,
    not results) and the sheets it replaced (``replaced``: kept hidden, put
    back by undo)."""

    name: str
    sheets: tuple[str, ...]
    forms: tuple[str, ...] = ()
    replaced: tuple[str, ...] = ()


def records(where: str, names: Iterable[tuple[str, str, Any]]) -> list[Any]:
    """The batch records among a workbook's defined names ((name, text, node)
    each), oldest first, each as (number, node, batch, entries)."""
    out = []
    for name, text, node in names:
        m = RECORD.fullmatch(name)
        if not m:
            continue
        texts = _texts(text.strip())
        if texts is None:
            raise WorkbookFileError(f"{where}: batch record {name} is damaged: {text.strip()[:80]}")
        entries: list[tuple[int | None, str]] = []
        forms, replaced = [], []
        for t in texts[1:]:
            number, bar, sheet = t.partition("|")
            if bar and number.isascii() and number.isdigit():  # "12|Roster Dec 24": what ENTRY finds, found without it
                entries.append((int(number), sheet))
                continue
            hit = ENTRY.fullmatch(t)
            if hit is not None and hit.group(1) == "replaced ":
                replaced.append(hit.group(3))
                continue
            if hit is not None and hit.group(1) == "form ":
                forms.append(hit.group(3))
            entries.append((int(hit.group(2)), hit.group(3)) if hit else (None, t))
        batch = Batch(texts[0], tuple(n for _, n in entries), tuple(forms), tuple(replaced))
        out.append((int(m.group(1)), node, batch, entries))
    return sorted(out, key=lambda r: r[0])


def _texts(value: str) -> list[str] | None:
    """The texts of a batch record's list (``{"a","b"}``, each quote doubled
    within a text), None if it is not such a list (:data:`_LIST`). A list as
    the writer makes it, without a doubled quote, is split at its commas
    without a pattern (a long campaign's verify reads seven hundred records)."""
    if value.startswith('{"') and value.endswith('"}') and len(value) > 3:
        texts = value[2:-2].split('","')
        if not any('"' in t for t in texts):  # each text was quoted whole: the list the pattern takes
            return texts
    if not _LIST.fullmatch(value):
        return None
    return [t[1:-1].replace('""', '"') for t in _ITEMS.findall(value)]


def from_gate(path: Path | str, data: Any) -> list[Batch] | None:
    """The recorded batches, oldest first, from the defined names the gate a
    reader passed for exactly ``data`` already parsed; None when no such gate
    is in use, or the workbook part is not where it always is (then
    :func:`automation.workbook.package.list_batches` reads them)."""
    where = str(Path(path))  # as the reader names its gate (a Path): "./book.xlsx" is "book.xlsx"
    gate = Gate.passed_for(where, data)
    names = gate.defined_names(RECORD.fullmatch) if gate is not None else None
    if names is None:
        return None
    return [r[2] for r in records(where, ((name, text, None) for name, text in names))]


__all__ = ["Batch", "ENTRY", "RECORD", "from_gate", "records"]

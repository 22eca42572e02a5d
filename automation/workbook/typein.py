"""Typing values into cells of one sheet of a workbook, in place, as a person
does in Excel: only the cells typed into change (each keeps its style); every
other part of the package (charts, other sheets, validations, formulas) is
copied byte for byte. Written the way every change is (lock files refused,
temporary file, fsync, rename; a workbook changed meanwhile is left as it was).
"""
from __future__ import annotations

import re
from collections.abc import Mapping
from pathlib import Path

from automation.errors import UsageError, WorkbookFileError
from automation.workbook.gate import column_letter, column_number
from automation.workbook.package import _finish, _open_for_change
from automation.workbook.xmlparts import XNode, XmlDoc, escape_attr, escape_text

Value = str | int | float | None
_CELL = re.compile(r"^([A-Z]{1,3})([1-9][0-9]{0,6})$")


def _split(ref: str, sheet: str) -> tuple[int, int]:
    m = _CELL.match(ref)
    if m is None:
        raise UsageError(f"{sheet}!{ref}: not a cell reference (like B5)")
    return int(m.group(2)), column_number(m.group(1))


def _cell_xml(tag: str, ref: str, style: str | None, value: Value) -> str:
    s = f' s="{escape_attr(style)}"' if style else ""
    if value is None or value == "":
        return f'<{tag} r="{ref}"{s}/>'
    if isinstance(value, bool):
        return f'<{tag} r="{ref}"{s} t="b"><{_sub(tag, "v")}>{int(value)}</{_sub(tag, "v")}></{tag}>'
    if isinstance(value, (int, float)):
        return f'<{tag} r="{ref}"{s}><{_sub(tag, "v")}>{value!r}</{_sub(tag, "v")}></{tag}>'
    text = str(value)
    space = ' xml:space="preserve"' if text != text.strip() or "\n" in text else ""
    is_, t = _sub(tag, "is"), _sub(tag, "t")
    return f'<{tag} r="{ref}"{s} t="inlineStr"><{is_}><{t}{space}>{escape_text(text)}</{t}></{is_}></{tag}>'


def _sub(tag: str, local: str) -> str:
    """``local`` with the prefix ``tag`` has (the sheet's main namespace may be prefixed)."""
    prefix = tag.rpartition(":")[0]
    return f"{prefix}:{local}" if prefix else local


def _row_xml(doc: XmlDoc, row: XNode | None, number: int, tag: str, values: Mapping[int, Value],
             sheet: str) -> str:
    """Row ``number`` with ``values`` (by column) typed in: the row's other cells kept as written."""
    text = doc.text
    cells: list[tuple[int, str]] = []
    if row is not None:
        for c in row.findall("c", row.ns):
            ref = c.get("r")
            if not ref:
                raise WorkbookFileError(f"{sheet}: row {number} has a cell without a reference; "
                                        "save the workbook in Excel or LibreOffice first")
            col = _split(ref, sheet)[1]
            if col in values:
                cells.append((col, _cell_xml(c.qname, ref, c.get("s") or None, values[col])))
            else:
                cells.append((col, text[c.start:c.end]))
    have = {col for col, _ in cells}
    cells += [(col, _cell_xml(_sub(tag, "c"), f"{column_letter(col)}{number}", None, v))
              for col, v in values.items() if col not in have]
    cells.sort(key=lambda pair: pair[0])
    inner = "".join(x for _, x in cells)
    if row is None:
        return f'<{_sub(tag, "row")} r="{number}">{inner}</{_sub(tag, "row")}>'
    head = text[row.start:row.inner_start] if row.inner_start != row.end else text[row.start:row.end - 2].rstrip() + ">"
    head = re.sub(r'\sspans="[^"]*"', "", head)  # a hint that may no longer hold
    return f"{head}{inner}</{row.qname}>"


def type_in(path: Path, sheet: str, values: Mapping[str, Value], *, expected_digest: str | None = None) -> None:
    """Type ``values`` (cell reference -> value; None empties the cell) into
    ``sheet`` of the workbook at ``path``, in place."""
    path = Path(path)
    real, before, pkg = _open_for_change(path, expected_digest)
    found = next((s for s in pkg.sheets() if s.name == sheet), None)
    if found is None or not found.part or not found.rel_type.endswith("/worksheet"):
        raise UsageError(f"{path}: no worksheet named {sheet!r}")
    doc = pkg.doc(found.part)
    data = doc.root.find("sheetData", doc.root.ns)
    if data is None:
        raise WorkbookFileError(f"{sheet}: the sheet has no cell data part to type into")
    by_row: dict[int, dict[int, Value]] = {}
    for ref, value in values.items():
        r, c = _split(ref.upper(), sheet)
        by_row.setdefault(r, {})[c] = value
    rows = data.findall("row", data.ns)
    numbers = []
    for row in rows:
        if not row.get("r").isdigit():
            raise WorkbookFileError(f"{sheet}: a row without its number; save the workbook in Excel or "
                                    "LibreOffice first")
        numbers.append(int(row.get("r")))
    existing = dict(zip(numbers, rows))
    tag = data.qname
    out: list[str] = []
    for number in sorted(set(numbers) | set(by_row)):
        row = existing.get(number)
        if number in by_row:
            out.append(_row_xml(doc, row, number, tag, by_row[number], sheet))
        else:
            out.append(doc.text[row.start:row.end])  # type: ignore[union-attr]
    text = doc.text
    if data.inner_start == data.end:  # <sheetData/>
        new_data = text[data.start:data.end - 2].rstrip() + ">" + "".join(out) + f"</{data.qname}>"
    else:
        new_data = text[data.start:data.inner_start] + "".join(out) + text[data.inner_end:data.end]
    new_text = text[:data.start] + new_data + text[data.end:]
    new_text = _widen_dimension(doc, new_text, by_row)
    _finish(path, real, before, pkg, {found.part: doc.encode(new_text)}, set(), [])


def _widen_dimension(doc: XmlDoc, text: str, by_row: Mapping[int, Mapping[int, Value]]) -> str:
    """The sheet's <dimension> grown to hold every cell typed in (some readers size the sheet by it)."""
    dim = doc.root.find("dimension", doc.root.ns)
    if dim is None or not by_row:
        return text
    ref = dim.get("ref")
    first, _, last = ref.partition(":")
    last = last or first
    m1, m2 = _CELL.match(first), _CELL.match(last)
    if not (m1 and m2):
        return text
    r1, c1, r2, c2 = int(m1.group(2)), column_number(m1.group(1)), int(m2.group(2)), column_number(m2.group(1))
    rows = list(by_row)
    cols = [c for v in by_row.values() for c in v]
    r1, c1, r2, c2 = min(r1, *rows), min(c1, *cols), max(r2, *rows), max(c2, *cols)
    wider = f"{column_letter(c1)}{r1}:{column_letter(c2)}{r2}"
    if wider == ref:
        return text
    old = text[dim.start:dim.end]  # before <sheetData>: at the same place in the edited text
    return text[:dim.start] + old.replace(f'"{escape_attr(ref)}"', f'"{wider}"', 1) + text[dim.end:]

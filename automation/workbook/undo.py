"""Undo: remove exactly the sheets the last batch added, with everything only
they use, and put back the sheets it replaced (see the design notes of
:mod:`automation.workbook.package`).

A workbook exactly as its last append left it is undone from what that
append kept (:mod:`automation.workbook.undoimage`): its lists as they were
before it are put back, the bytes the file stored then written as they are,
and the parts it added dropped; no part is parsed, inflated or deflated.
Any other is undone by working the change out, as follows.

The batch, its sheets and the defined names it touches are found in the
lists of the workbook part as the gate parsed them; only the elements undo
removes or changes are located in the part's text (a long campaign's
workbook lists a thousand sheets: undo's own are the last few). The
relationships and content type overrides are located alike: those of the
parts that go.
"""
from __future__ import annotations

import re
from pathlib import Path
from typing import Iterable, Sequence

from automation.errors import WorkbookError, WorkbookFileError
from automation.workbook import pkgfile, undo_refs, undoimage
from automation.workbook.apptitles import app_titles
from automation.workbook.batches import RECORD
from automation.workbook.lock import writing
from automation.workbook.package import REL_NS, _Name, _Package, _Record, _Sheet, _finish, hidden_name
from automation.workbook.sheetgraft import Edit, XmlDoc, XNode, apply_edits, rels_name, set_attr
from automation.workbook.zipraw import parse_zip

_RELATIONSHIP, _OVERRIDE = frozenset({"Relationship"}), frozenset({"Override"})


def remove_last_batch(path: Path, *, expected_digest: str | None = None) -> list[str]:
    """Undo the last ``append_sheets``: remove exactly its sheets; return their (current) names."""
    with writing(path):
        return _remove_last_batch(Path(path), expected_digest)


def _read_formula(name: str) -> bool:
    """Whether undo reads a defined name's text: a batch record, or a name a formula may use."""
    return RECORD.fullmatch(name) is not None or not name.lower().startswith("_xlnm.")


def _remove_last_batch(path: Path, expected_digest: str | None) -> list[str]:
    real, before, digest = pkgfile.read_for_change(path, expected_digest)
    image = undoimage.find(before)
    if image is not None:  # the workbook as its last append left it: the lists put back as they were
        source = parse_zip(before, str(path))
        if image.applies_to(source):
            pkgfile.replace(path, real, before, source, image.lists, image.added, [])
            return list(image.sheets)
    pkg = _Package(str(path), before, digest)
    lists = pkg.listing(_read_formula)
    records = pkg.records(lists)
    if not records:
        raise WorkbookFileError(f"{path}: nothing to undo: no Musterroll batch is recorded in this workbook")
    number, record, batch, entries = records[-1]
    sheets = lists.sheets
    by_name = {s.name: s for s in sheets}
    stable = all(by_name[n].sheet_id == i for r in records for i, n in r[3] if n in by_name)
    chosen: list[_Sheet] = []
    for sheet_id, name in entries:
        hit = by_name.get(name) or (next((s for s in sheets if s.sheet_id == sheet_id), None) if stable else None)
        if hit is not None and hit not in chosen:
            chosen.append(hit)
    gone_idx = {s.index for s in chosen}
    kept = [s for s in sheets if s.index not in gone_idx]
    new_index = {s.index: i for i, s in enumerate(kept)}
    drop, renumber = [], []
    for item in lists.names:
        local = int(item.local) if item.local.isdigit() else None
        if item is record or local in gone_idx:
            drop.append(item)
        elif local is not None and new_index.get(local, local) != local:
            renumber.append(item)
    _refuse_dangling(pkg, lists.names, drop, chosen, kept, records)
    restored = [(hit, name) for k, name in enumerate(batch.replaced, start=1)
                if (hit := next((s for s in kept if s.name == hidden_name(number, k)), None)) is not None]
    whole_list = len(drop) == lists.children  # every defined name goes, and their list with them
    wb, nodes, name_nodes = pkg.located(lists, chosen + [s for s, _ in restored],
                                        [] if whole_list else drop + renumber)
    edits = [Edit(n.start, n.end, "") for n in nodes[:len(chosen)]] + _fix_views(wb, kept, new_index)
    edits += _restore(wb, nodes[len(chosen):], [name for _, name in restored])
    if whole_list:
        box = wb.root.find("definedNames")
        assert box is not None
        edits.append(Edit(box.start, box.end, ""))
    else:
        edits += [Edit(n.start, n.end, "") for n in name_nodes[:len(drop)]]
        edits += [set_attr(wb, node, "localSheetId", str(new_index[int(item.local)]))
                  for item, node in zip(renumber, name_nodes[len(drop):])]
    sheet_parts = {s.part for s in chosen if s.part and pkg.zip.get(s.part)}
    drop_rids = {s.rid for s in chosen}
    gone = _reach(pkg, sheet_parts, set()) - _reach(pkg, [r.target for r in pkg.rels("") if r.target], sheet_parts)
    chain = pkg.part_of("calcChain")
    if chain and {int(i) for i in re.findall(rb'\bi="(\d+)"', pkg.zip.read(chain))} & {s.sheet_id for s in chosen}:
        gone.add(chain)  # it lists cells of a removed sheet: Excel rebuilds it
        drop_rids |= {r.id for r in pkg.rels(pkg.wb_part) if r.target == chain}
    gone |= {m.name for p in list(gone) if (m := pkg.zip.get(rels_name(p)))}
    lowered = {g.lower() for g in gone}
    replaced = {pkg.wb_part: wb.encode(apply_edits(wb.text, edits))}
    rels_member = pkg.zip.get(pkg.wb_rels)
    if rels_member is not None:  # (only the relationships that go are located)
        rels_doc = pkg.doc(rels_member.name, _RELATIONSHIP, lambda _, attrs: attrs.get("Id") in drop_rids)
        cut = [Edit(n.start, n.end, "") for n in rels_doc.root.children if n.get("Id") in drop_rids]
        replaced[rels_doc.part] = rels_doc.encode(apply_edits(rels_doc.text, cut))
    types = pkg.doc(pkg.types_part, _OVERRIDE,
                    lambda _, attrs: attrs.get("PartName", "").lstrip("/").lower() in lowered)
    cut = [Edit(n.start, n.end, "") for n in types.root.children
           if n.local == "Override" and n.get("PartName").lstrip("/").lower() in lowered]
    replaced[types.part] = types.encode(apply_edits(types.text, cut))
    replaced.update(app_titles(pkg, [s.name for s in sheets if s.rel_type == f"{REL_NS}/worksheet"],
                               remove=[s.name for s in chosen]))
    _finish(path, real, before, pkg, replaced, lowered, [])
    return [s.name for s in chosen]


def _refuse_dangling(pkg: _Package, names: Sequence[_Name], dropped: Sequence[_Name], chosen: list[_Sheet],
                     kept: list[_Sheet], records: list[_Record]) -> None:
    """Undo refuses, naming them, defined names and formulas that stay and point
    into a sheet it would remove (see :mod:`automation.workbook.undo_refs`)."""
    removed = [s.name for s in chosen]
    if not removed:
        return
    gone = {n.index for n in dropped}
    staying = [(n.name, n.text) for n in names if n.index not in gone and not RECORD.fullmatch(n.name)
               and not n.name.lower().startswith("_xlnm.")]  # print titles, filters: settings of a sheet
    problems = undo_refs.in_names(staying, removed)
    added = {name for r in records for _, name in r[3]}
    for sheet in kept:
        if sheet.name not in added and sheet.part and sheet.rel_type == f"{REL_NS}/worksheet" and \
                pkg.zip.get(sheet.part):
            problems += undo_refs.in_sheet(sheet.name, pkg.zip.read(sheet.part), removed)
    if problems:
        raise WorkbookError(problems, pkg.where)


def _reach(pkg: _Package, starts: Iterable[str], blocked: set[str]) -> set[str]:
    """Every part reachable from ``starts`` through relationships, not entering ``blocked``."""
    seen: set[str] = set()
    stack = list(starts)
    while stack:
        part = stack.pop()
        if part not in seen and part not in blocked and pkg.zip.get(part) is not None:
            seen.add(part)
            stack += [r.target for r in pkg.rels(part) if r.target]
    return seen


def _restore(wb: XmlDoc, hidden: Sequence[XNode], names: Sequence[str]) -> list[Edit]:
    """Edits putting back the sheets the batch replaced: each very hidden
    sheet (``hidden``, found under :func:`hidden_name`) gets its name back and
    loses the state the batch gave it."""
    edits = []
    for node, name in zip(hidden, names):
        edits.append(set_attr(wb, node, "name", name))
        tag = wb.text[node.start:node.inner_start]
        state = re.search(r"""\s+state\s*=\s*(?:"[^"]*"|'[^']*')""", tag)
        if state is not None:
            edits.append(Edit(node.start + state.start(), node.start + state.end(), ""))
    return edits


def _fix_views(wb: XmlDoc, kept: list[_Sheet], new_index: dict[int, int]) -> list[Edit]:
    """Renumber activeTab/firstSheet; a removed active tab becomes the nearest visible sheet before it."""
    def nearest(old: int) -> int:
        if old in new_index:
            return new_index[old]
        before = [s for s in kept if s.visible and s.index < old]
        after = [s for s in kept if s.visible and s.index > old]
        return new_index[before[-1].index] if before else new_index[after[0].index] if after else 0

    views = wb.root.find("bookViews")
    edits: list[Edit] = []
    for view in views.findall("workbookView") if views is not None else []:
        active_raw, first_raw = view.attr("activeTab"), view.attr("firstSheet")
        active = nearest(int(active_raw)) if active_raw and active_raw.isdigit() else 0
        first = nearest(int(first_raw)) if first_raw and first_raw.isdigit() else 0
        if first_raw and first_raw.isdigit() and int(first_raw) not in new_index:
            first = min(first, active)  # the first tab shown went: show the active one
        for attr, raw, new in (("activeTab", active_raw, active), ("firstSheet", first_raw, first)):
            if (raw is not None and raw != str(new)) or (raw is None and new != 0):
                edits.append(set_attr(wb, view, attr, str(new)))
    return edits


__all__ = ["remove_last_batch"]

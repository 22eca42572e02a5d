"""Add sheets to an existing .xlsx at package (zip) level, and take them away again.

Design notes (the workbook contract: the umpire's own sheets, charts, pictures, notes,
formats and names survive byte for byte; undo removes exactly what a refit added):

* Raw copy. The zip is read with a small parser of its own, not ``zipfile``: every
  member that is not edited is re-emitted as its original local record (header, name,
  extra field, compressed data and any data descriptor) byte for byte, never
  decompressed or recompressed, and its original central directory record is reused
  with only the local-header offset changed. Stored, deflated or any other method is
  copied alike; members are kept in their order, except that the parts the writer
  edits (below) are written last, after the new sheets; the archive comment is kept.
  Refused with WorkbookFileError: ZIP64 archives or members, encrypted members,
  multi-disk or prefixed archives, overlapping or truncated members, duplicate
  names, a member declaring more than 200 MB or members declaring more than 16 GB
  in all (zip bomb), a file of 2 GB or more; and whatever the gate
  (``automation.workbook.gate``) refuses, which sees the bytes first.
* Edited parts, and only these: the workbook part (``xl/workbook.xml``), its
  relationships, ``[Content_Types].xml``, ``docProps/app.xml`` (titles and sheet count,
  only if they are there) and, when appending, ``xl/styles.xml``. They are edited as
  text by inserting or deleting whole elements and changing single attribute values
  (``automation.workbook.sheetgraft``), so every namespace, prefix, ``mc:Ignorable``,
  ``extLst``, defined name and byte of formatting stays. Sheets are always added at
  the end of ``<sheets>``, so ``localSheetId`` indexes stay valid. Edited parts are
  deflated anew. Because the edits are exact insertions, undoing a batch gives back
  the same text of workbook.xml, its rels, content types and app.xml as before it
  (but an empty ``<definedNames/>`` that some writers leave is dropped with the record).
* New sheets are rendered by XlsxWriter and grafted (see ``sheetgraft``): inline
  strings only (``sharedStrings.xml`` is never touched), new part names numbered past
  the existing ones, new ``r:id``s and ``sheetId``s past the existing ones.
* Batch record: each ``append_sheets`` adds one hidden workbook-level defined name to
  workbook.xml, ``_mr_batch_0001``, ``_mr_batch_0002``..., whose value is an array
  constant of texts: the batch name, then ``"<sheetId>|<sheet name>"`` per sheet, e.g.
  ``{"Refit 24DEC","7|Report 24DEC","8|Roster 24DEC"}``. Excel and LibreOffice keep
  such names on save and the Name Manager does not list hidden names. The highest
  number is the last batch. Undo finds each sheet by its name, or, if it was renamed,
  by its sheetId (only while the recorded sheetIds still match the sheets found by
  name: LibreOffice renumbers them on save); a sheet already deleted is skipped.
* Undo removes the batch's ``<sheet>`` elements, their relationships, every part
  reachable only through them (sheet, drawing, chart, their rels...), their content
  type overrides, their app.xml titles and the record. Defined names local to a
  removed sheet go too, later ``localSheetId``s and the bookViews' ``activeTab`` and
  ``firstSheet`` are renumbered (an active removed tab becomes the nearest visible
  sheet before it). If ``xl/calcChain.xml`` refers to a removed sheet (formulas were
  typed into it) it is dropped and Excel rebuilds it. Styles a batch appended stay:
  styles.xml only grows, and identical formats are reused by later batches.
* Safety: the new file is written to a temporary file in the same folder, fsynced
  and moved over the old one with ``os.replace``, after checking the file did not
  change meanwhile (and against ``expected_digest`` when given). A change that
  keeps the first half of the file (the edited parts lie last, so most do) is
  written in place from its first changed part, under a journal
  (``automation.workbook.journal``): the same checks, and a write cut short is
  rolled back before the workbook is read again. A workbook open in
  Excel (``~$NAME``) or LibreOffice (``.~lock.NAME#``), or that cannot be opened for
  writing, is refused. The new file is read back: its directory and every part written anew
  hold the bytes written, and each edited part inflates to its text.
"""
from __future__ import annotations

import hashlib
import itertools
import os
import posixpath
import re
from pathlib import Path
from typing import Any, Iterable, Mapping, NamedTuple, Sequence
from urllib.parse import unquote

from automation.errors import UsageError, WorkbookError, WorkbookFileError
from automation.workbook import pkgfile, undo_refs
from automation.workbook.batches import RECORD, Batch, from_gate
from automation.workbook.batches import records as _records
from automation.workbook.gate import PLAIN_PATH, Gate
from automation.workbook.lock import writing
from automation.workbook.zipraw import RawZip, parse_zip
from automation.workbook.sheetgraft import (
    MAIN_NS, PKG_REL_NS, TAB_COLOURS, Edit, LineChartSpec, ListValidation, NewSheet, XmlDoc, XNode,
    app_titles_edits, apply_edits, check_sheet_name, escape_attr, escape_text, graft, in_scope, insert_child,
    parse_xml, prefix_for, qualified, rels_name, draw, set_attr, utf16_len,
)

__all__ = ["Batch", "LineChartSpec", "ListValidation", "NewSheet", "TAB_COLOURS", "append_sheets",
           "file_digest", "list_batches", "remove_last_batch", "sheet_names"]

REL_NS = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
CT_NS = "http://schemas.openxmlformats.org/package/2006/content-types"
STRICT_NS = "http://purl.oclc.org/ooxml/spreadsheetml/main"
RELS_TYPE = "application/vnd.openxmlformats-package.relationships+xml"
STYLES_TYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"
LISTED = frozenset({"sheet", "definedName"})  # the long lists of workbook.xml, which an append reads from the gate
_ET_SHEETS, _ET_NAMES = f"{{{MAIN_NS}}}sheets", f"{{{MAIN_NS}}}definedNames"
_ET_SHEET, _ET_RID = f"{{{MAIN_NS}}}sheet", f"{{{REL_NS}}}id"

# --------------------------------------------------------------------------- package

class _Rel(NamedTuple):  # named tuples: a long campaign's workbook has a thousand of each, made in one step
    id: str
    type: str
    target: str | None  # the part (zip name) it points to; None if external


class _Sheet(NamedTuple):
    index: int
    name: str
    sheet_id: int
    rid: str
    visible: bool
    node: XNode | None  # None from listed()
    part: str | None
    rel_type: str


_Record = tuple[int, XNode, Batch, list[tuple[int | None, str]]]


def hidden_name(number: int, k: int) -> str:
    """The name the ``k``-th sheet replaced by batch ``number`` is kept under (very hidden) until undo."""
    return f"_mr_{number:04d}_{k}"


class _Package:
    """A parsed workbook package: zip members plus the XML parts the writer edits."""

    def __init__(self, path: str, data: bytes, digest: str | None = None) -> None:
        self.where = path
        # the same gate as every reader (the reader's own, when it read these very bytes): nothing hostile
        # reaches the parsers below
        known = Gate.passed_for(path, data) if digest is None else None  # e.g. verify's reader's
        self.gate = known or (Gate(path, data) if digest is None else Gate.of(path, data, digest=digest))
        self.zip: RawZip = parse_zip(data, path)
        self._docs: dict[tuple[str, frozenset[str]], XmlDoc] = {}
        self._rels: dict[str, list[_Rel]] = {}  # by part: the parsed documents are never changed in place
        self._sheets: list[_Sheet] | None = None
        self._sources: set[str] | None = None  # the parts with relationships, lower case
        types = self.zip.get("[Content_Types].xml")
        main = next((r.target for r in self.rels("") if r.type.endswith("/officeDocument") and r.target), None)
        member = self.zip.get(main or "xl/workbook.xml")
        if types is None or member is None:
            missing = "[Content_Types].xml" if types is None else "xl/workbook.xml"
            raise WorkbookFileError(f"{path}: not an Excel workbook (.xlsx): {missing} is missing")
        self.wb_part, self.wb_rels = member.name, rels_name(member.name)
        shell, self.types_part = self.shell, types.name
        if shell.root.ns == STRICT_NS:
            raise WorkbookFileError(f"{path}: Strict Open XML workbooks are not supported; save as 'Excel Workbook'")
        if (shell.root.ns, shell.root.local) != (MAIN_NS, "workbook") or shell.root.find("sheets") is None:
            raise WorkbookFileError(f"{path}: {self.wb_part} is not an Excel workbook part")

    @property
    def wb(self) -> XmlDoc:
        """The workbook part, every element located."""
        return self.doc(self.wb_part)

    @property
    def shell(self) -> XmlDoc:
        """The workbook part with its sheets and defined names not located one
        by one (``LISTED``): enough to append to their lists."""
        return self.doc(self.wb_part, LISTED)

    @property
    def types(self) -> XmlDoc:
        """[Content_Types].xml, parsed when first needed (a reader of the batches never does)."""
        return self.doc(self.types_part)

    def doc(self, part: str, skip: frozenset[str] = frozenset()) -> XmlDoc:
        """Part ``part`` parsed, its elements named in ``skip`` left unlocated
        (see :func:`parse_xml`); a part parsed whole serves every ask."""
        found = self._docs.get((part, frozenset())) or self._docs.get((part, skip))
        if found is None:
            self.gate.check_part(part)
            found = self._docs[(part, skip)] = parse_xml(self.zip.read(part), part, skip)
        return found

    def rels(self, part: str) -> list[_Rel]:
        if part not in self._rels:
            self._rels[part] = self._read_rels(part) if self.has_rels(part) else []
        return self._rels[part]

    def has_rels(self, part: str) -> bool:
        """Whether ``part`` has a relationships part (found from the zip's
        names once, not by looking each part's up: most sheets have none)."""
        if self._sources is None:
            self._sources = set()
            for m in self.zip.members:
                folder, _, base = m.name.lower().rpartition("/")
                if base.endswith(".rels") and (folder == "_rels" or folder.endswith("/_rels")):
                    self._sources.add(posixpath.join(folder[:-len("_rels")], base[:-len(".rels")]))
        return part.lower() in self._sources

    def _read_rels(self, part: str) -> list[_Rel]:
        member = self.zip.get(rels_name(part))
        out = []
        base = posixpath.dirname(part)
        plain_base = not base or PLAIN_PATH.fullmatch(base) is not None
        for node in self._rel_attrs(member.name) if member else ():
            target: str | None = None
            if node.get("TargetMode") != "External":
                raw = (node.get("Target") or "").split("#")[0]
                if plain_base and PLAIN_PATH.fullmatch(raw):  # nothing to normalise or decode (most targets)
                    path = f"{base}/{raw}" if base else raw
                    found = self.zip.get(path)
                else:
                    path = raw[1:] if raw.startswith("/") else \
                        posixpath.normpath(posixpath.join(base, raw))
                    found = self.zip.get(path) or self.zip.get(unquote(path))
                target = found.name if found else path
            out.append(_Rel(node.get("Id") or "", node.get("Type") or "", target))
        return out

    def _rel_attrs(self, member: str) -> list[Mapping[str, str]]:
        """The attributes of each relationship of part ``member`` (every child of
        its root): the workbook's, as the gate parsed them, else parsed here."""
        listed = self.gate.list_part(member) if member.lower() == "xl/_rels/workbook.xml.rels" else None
        if listed is not None and self.gate.info(member).filename == member:
            return [child.attrib for child in listed]
        return [node.attrs for node in self.doc(member).root.children]

    def sheets(self) -> list[_Sheet]:
        if self._sheets is None:
            self._sheets = self._read_sheets()
        return list(self._sheets)

    def _read_sheets(self) -> list[_Sheet]:
        return self._sheet_list((n.get("name"), n.get("sheetId"), n.attr("id", REL_NS) or "", n.get("state"), n)
                                for n in self.wb.root.find("sheets").findall("sheet"))  # type: ignore[union-attr]

    def _sheet_list(self, found: Iterable[tuple[str, str, str, str, XNode | None]]) -> list[_Sheet]:
        """The sheets from (name, sheetId, r:id, state, element) of each, in order."""
        rels = {r.id: r for r in self.rels(self.wb_part)}
        out = []
        for i, (name, sheet_id, rid, state, node) in enumerate(found):
            rel = rels.get(rid)
            if not sheet_id.isdigit():
                raise WorkbookFileError(f"{self.where}: sheet {name!r} has a bad sheetId")
            out.append(_Sheet(i, name, int(sheet_id), rid, state in ("", "visible"), node,
                              rel.target if rel else None, rel.type if rel else ""))
        return out

    def defined(self) -> list[tuple[str, str]]:
        """(name, localSheetId) of each defined name, from the workbook part parsed whole."""
        names = self.wb.root.find("definedNames")
        return [(n.get("name"), n.get("localSheetId")) for n in (names.children if names is not None else ())]

    def listed(self) -> tuple[list[_Sheet], list[tuple[str, str]]]:
        """The sheets as :meth:`sheets` gives them but without their elements
        (``node`` None), and :meth:`defined`: from the gate's parse of the
        workbook part, so that an append locates neither list one element at
        a time (from the part parsed whole when it is not ``xl/workbook.xml``,
        or was already parsed whole)."""
        tree = self.gate.list_part(self.wb_part) if self.wb_part.lower() == "xl/workbook.xml" else None
        if tree is None or self.gate.info(self.wb_part).filename != self.wb_part or \
                (self.wb_part, frozenset()) in self._docs:
            return self.sheets(), self.defined()
        holder = next((child for child in tree if child.tag == _ET_SHEETS), None)
        sheets = self._sheet_list((n.get("name") or "", n.get("sheetId") or "", n.get(_ET_RID) or "",
                                   n.get("state") or "", None)
                                  for n in (holder if holder is not None else ()) if n.tag == _ET_SHEET)
        names = next((child for child in tree if child.tag == _ET_NAMES), None)
        return sheets, [(n.get("name") or "", n.get("localSheetId") or "")
                        for n in (names if names is not None else ())]

    def part_of(self, rel_type: str, source: str | None = None) -> str | None:
        rels = self.rels(self.wb_part if source is None else source)
        found = next((r.target for r in rels if r.type.endswith("/" + rel_type) and r.target), None)
        return found if found and self.zip.get(found) else None

    def records(self) -> list[_Record]:
        names = self.wb.root.find("definedNames")
        return _records(self.where, ((name, self.wb.inner_text(node), node)  # the text of a record only
                                     for node in (names.findall("definedName") if names is not None else [])
                                     if RECORD.fullmatch(name := node.get("name"))))

    def worksheet_names(self) -> list[str]:
        return [s.name for s in self.sheets() if s.rel_type == f"{REL_NS}/worksheet"]


# --------------------------------------------------------------------------- files

def file_digest(path: Path) -> str:
    """SHA-256 (hex) of the file's bytes, to pass back as ``expected_digest``."""
    return hashlib.sha256(pkgfile.read(Path(path))).hexdigest()


def _open_for_change(path: Path, expected_digest: str | None, read: Gate | None = None
                     ) -> tuple[Path, bytes, _Package]:
    real, data, digest = pkgfile.read_for_change(path, expected_digest, read)
    return real, data, _Package(str(path), data, digest)


def _finish(path: Path, real: Path, before: bytes, pkg: _Package, replaced: dict[str, bytes],
            removed: set[str], added: Sequence[tuple[str, bytes]]) -> None:
    """The workbook replaced by ``pkg`` changed (see :func:`automation.workbook.pkgfile.replace`)."""
    pkgfile.replace(path, real, before, pkg.zip, replaced, removed, added)


# --------------------------------------------------------------------------- API

def sheet_names(path: Path) -> list[str]:
    """The workbook's sheet names, in workbook (tab) order."""
    return [s.name for s in _Package(str(path), pkgfile.read(Path(path))).sheets()]


def list_batches(path: Path, data: bytes | None = None) -> list[Batch]:
    """The recorded batches, oldest first (``data``: the file's bytes, when a
    reader already read them: not read again, nor checked again if that
    reader's gate passed them, and then read from the defined names that gate
    already parsed, when the workbook part is where it always is)."""
    data = pkgfile.read(Path(path)) if data is None else data
    found = from_gate(path, data)
    return found if found is not None else [r[2] for r in _Package(str(path), data).records()]


def append_sheets(path: Path, sheets: Sequence[NewSheet], batch: str, *, expected_digest: str | None = None,
                  read: Gate | None = None, replace: Sequence[str] = ()) -> None:
    """Append ``sheets`` at the end of the workbook as one undoable batch named ``batch``
    (holding the workbook's write lock, see :mod:`automation.workbook.lock`).

    ``read``: the gate of the bytes the command's reader read (``Workbook.gate``):
    the batch is appended to them, and refused if the workbook no longer holds
    them. ``expected_digest``: their SHA-256, from a reader that is gone.

    ``replace``: names of sheets already in the workbook that a sheet of the
    same name in ``sheets`` takes the place of (a form answered elsewhere).
    Each is kept, untouched, as a very hidden sheet named by :func:`hidden_name`
    and recorded in the batch, so undo puts it back exactly as it was."""
    with writing(path):
        _append_sheets(path, sheets, batch, expected_digest, replace, read)


def _append_sheets(path: Path, sheets: Sequence[NewSheet], batch: str, expected_digest: str | None,
                   replace: Sequence[str] = (), read: Gate | None = None) -> None:
    if not isinstance(batch, str) or not batch.strip() or utf16_len(batch) > 255 or re.search(r"[\x00-\x1f]", batch):
        raise UsageError(f"batch name {batch!r} must be a text of 1 to 255 characters without control characters")
    if not sheets:
        raise UsageError(f"batch {batch!r} has no sheets")
    path = Path(path)
    real, before, pkg = _open_for_change(path, expected_digest, read)
    # a sheet replaced is changed in place, so the workbook part is then located whole; an append alone only
    # adds to the ends of its lists, and of those of the relationships and content types
    current, defined = (pkg.sheets(), pkg.defined()) if replace else pkg.listed()
    seen = {s.name.lower(): s.name for s in current}
    new_names = {s.name.lower() for s in sheets}
    replaced: list[_Sheet] = []
    for name in replace:
        old = next((s for s in current if s.name.lower() == name.lower()), None)
        if old is None or old.rel_type != f"{REL_NS}/worksheet" or not old.visible or name.lower() not in new_names:
            raise UsageError(f"{path}: {name!r} cannot be replaced: it must be a visible worksheet of the workbook "
                             "and a sheet of the batch must bear its name")
        replaced.append(old)
        del seen[name.lower()]
    for sheet in sheets:
        check_sheet_name(sheet.name)
        if sheet.name.lower() in seen:
            raise UsageError(f"{path}: a sheet named {seen[sheet.name.lower()]!r} already exists; "
                             f"sheet {sheet.name!r} cannot be added")
        seen[sheet.name.lower()] = sheet.name
    styles_part = pkg.part_of("styles")
    existing = {m.name.lower() for m in pkg.zip.members}
    result = graft(*draw(sheets), sheets, existing, pkg.zip.read(styles_part) if styles_part else None)
    added: list[tuple[str, bytes, str | None]] = list(result.parts)
    rels_member = pkg.zip.get(pkg.wb_rels)
    wb = pkg.wb if replace else pkg.shell
    rels_doc = pkg.doc(rels_member.name if rels_member else pkg.wb_rels, frozenset({"Relationship"}))
    types = pkg.doc(pkg.types_part, frozenset({"Override"}))
    rel_ids = {r.id for r in pkg.rels(pkg.wb_part)}
    first = max([int(m.group(1)) for i in rel_ids if (m := re.fullmatch(r"rId(\d+)", i))] + [0]) + 1
    fresh = (f"rId{n}" for n in itertools.count(first) if f"rId{n}" not in rel_ids)
    new_rels: list[tuple[str, str, str]] = []
    if styles_part is None:  # a workbook without styles gets the new sheets' own styles part
        styles_part = "xl/styles.xml" if "xl/styles.xml" not in existing else "xl/musterroll-styles.xml"
        added.append((styles_part, result.styles, STYLES_TYPE))
        new_rels.append(("styles", styles_part, next(fresh)))
    sheets_node = wb.root.find("sheets")
    assert sheets_node is not None
    r_prefix, r_decl = prefix_for(sheets_node, REL_NS)
    sheet_xml, entries, sheet_id = [], [batch], max([s.sheet_id for s in current] + [0]) + 1
    for grafted, sheet in zip(result.sheets, sheets):
        rid = next(fresh)
        new_rels.append(("worksheet", grafted.part, rid))
        state = ' state="hidden"' if grafted.hidden else ""
        sheet_xml.append(f'<{qualified(sheets_node, "sheet")} name="{escape_attr(grafted.name)}" sheetId="{sheet_id}"'
                         f'{state} {r_prefix}:id="{rid}"{r_decl}/>')
        entries.append(("form " if sheet.form is not None else "") + f"{sheet_id}|{grafted.name}")
        sheet_id += 1
    entries += [f"replaced {old.sheet_id}|{old.name}" for old in replaced]
    formula = "{" + ",".join('"' + e.replace('"', '""') + '"' for e in entries) + "}"
    if len(formula) > 8000:
        raise UsageError(f"batch {batch!r}: too many sheets for one batch record")
    names_node = wb.root.find("definedNames")
    owner = names_node if names_node is not None else wb.root
    number = max([int(m.group(1)) for name, _ in defined if (m := RECORD.fullmatch(name))] + [0]) + 1
    tag = qualified(owner, "definedName")
    record = f'<{tag} name="_mr_batch_{number:04d}" hidden="1">{escape_text(formula)}</{tag}>'
    taken_titles = {local for name, local in defined if name.lower() == "_xlnm.print_titles"}
    for i, (grafted, sheet) in enumerate(zip(result.sheets, sheets), start=len(current)):
        if str(i) not in taken_titles:  # each new sheet prints its header (a form: its top rows) on every page
            quoted = "'" + grafted.name.replace("'", "''") + "'"
            record += (f'<{tag} name="_xlnm.Print_Titles" localSheetId="{i}">{escape_text(quoted)}'
                       f'!$1:${sheet.title_rows}</{tag}>')
    wb_edits = [insert_child(wb, sheets_node, "".join(sheet_xml))]
    for k, old in enumerate(replaced, start=1):  # kept very hidden under a reserved name until undo
        wb_edits += [set_attr(wb, old.node, "name", hidden_name(number, k)),
                     set_attr(wb, old.node, "state", "veryHidden")]
    wb_edits += _show_instead(wb, replaced, len(current) + [s.name.lower() for s in sheets].index(
        replaced[0].name.lower())) if replaced else []
    if names_node is not None:
        wb_edits.append(insert_child(wb, names_node, record))
    else:  # definedNames follows sheets, functionGroups and externalReferences
        after = [c for c in wb.root.children
                 if c.ns == MAIN_NS and c.local in ("sheets", "functionGroups", "externalReferences")]
        box = qualified(wb.root, "definedNames")
        wb_edits.append(Edit(after[-1].end, after[-1].end, f"<{box}>{record}</{box}>"))
    wb_dir = posixpath.dirname(pkg.wb_part)
    rel_xml = "".join(in_scope(f'<Relationship Id="{rid}" Type="{REL_NS}/{kind}" '
                               f'Target="{escape_attr(posixpath.relpath(part, wb_dir))}"/>', rels_doc.root, PKG_REL_NS)
                      for kind, part, rid in new_rels)
    defaults = {n.get("Extension").lower(): n.attr("ContentType") for n in types.root.children if n.local == "Default"}
    overrides = "".join(in_scope(f'<Override PartName="/{escape_attr(name)}" ContentType="{escape_attr(ctype)}"/>',
                                 types.root, CT_NS)
                        for name, ctype in ((n, c or RELS_TYPE) for n, _, c in added)
                        if defaults.get(name.rpartition(".")[2].lower()) != ctype)
    replaced = {
        pkg.wb_part: wb.encode(apply_edits(wb.text, wb_edits)),
        rels_doc.part: rels_doc.encode(apply_edits(rels_doc.text, [insert_child(rels_doc, rels_doc.root, rel_xml)])),
        types.part: types.encode(apply_edits(types.text, [insert_child(types, types.root, overrides)])),
    }
    if pkg.zip.get(styles_part):
        replaced[styles_part] = result.styles
    app = pkg.part_of("extended-properties", source="")
    worksheets = [s.name for s in current if s.rel_type == f"{REL_NS}/worksheet"]
    if app and (edits := app_titles_edits(pkg.doc(app), worksheets, add=[g.name for g in result.sheets])):
        replaced[app] = pkg.doc(app).encode(apply_edits(pkg.doc(app).text, edits))
    _finish(path, real, before, pkg, replaced, set(), [(n, d) for n, d, _ in added])


def remove_last_batch(path: Path, *, expected_digest: str | None = None) -> list[str]:
    """Undo the last ``append_sheets``: remove exactly its sheets; return their (current) names."""
    with writing(path):
        return _remove_last_batch(Path(path), expected_digest)


def _remove_last_batch(path: Path, expected_digest: str | None) -> list[str]:
    path = Path(path)
    real, before, pkg = _open_for_change(path, expected_digest)
    records = pkg.records()
    if not records:
        raise WorkbookFileError(f"{path}: nothing to undo: no Musterroll batch is recorded in this workbook")
    sheets, record = pkg.sheets(), records[-1][1]
    by_name = {s.name: s for s in sheets}
    stable = all(by_name[n].sheet_id == i for r in records for i, n in r[3] if n in by_name)
    chosen: list[_Sheet] = []
    for sheet_id, name in records[-1][3]:
        hit = by_name.get(name) or (next((s for s in sheets if s.sheet_id == sheet_id), None) if stable else None)
        if hit is not None and hit not in chosen:
            chosen.append(hit)
    gone_idx = {s.index for s in chosen}
    kept = [s for s in sheets if s.index not in gone_idx]
    new_index = {s.index: i for i, s in enumerate(kept)}
    wb = pkg.wb
    edits = [Edit(s.node.start, s.node.end, "") for s in chosen] + _fix_views(wb, kept, new_index)
    edits += _restore(wb, records[-1][0], records[-1][2].replaced, kept)
    names_node = wb.root.find("definedNames")
    if names_node is not None:
        drop, renumber = [], []
        for node in names_node.children:
            local = node.get("localSheetId")
            if node is record or (local.isdigit() and int(local) in gone_idx):
                drop.append(node)
            elif local.isdigit() and new_index.get(int(local), int(local)) != int(local):
                renumber.append(set_attr(wb, node, "localSheetId", str(new_index[int(local)])))
        if len(drop) == len(names_node.children):
            edits.append(Edit(names_node.start, names_node.end, ""))
        else:
            edits += [Edit(n.start, n.end, "") for n in drop] + renumber
    _refuse_dangling(pkg, names_node, drop if names_node is not None else [], chosen, kept, records)
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
    rels_member, types = pkg.zip.get(pkg.wb_rels), pkg.types
    if rels_member is not None:
        rels_doc = pkg.doc(rels_member.name)
        cut = [Edit(n.start, n.end, "") for n in rels_doc.root.children if n.get("Id") in drop_rids]
        replaced[rels_doc.part] = rels_doc.encode(apply_edits(rels_doc.text, cut))
    cut = [Edit(n.start, n.end, "") for n in types.root.children
           if n.local == "Override" and n.get("PartName").lstrip("/").lower() in lowered]
    replaced[types.part] = types.encode(apply_edits(types.text, cut))
    app = pkg.part_of("extended-properties", source="")
    if app and (app_edits := app_titles_edits(pkg.doc(app), pkg.worksheet_names(), remove=[s.name for s in chosen])):
        replaced[app] = pkg.doc(app).encode(apply_edits(pkg.doc(app).text, app_edits))
    _finish(path, real, before, pkg, replaced, lowered, [])
    return [s.name for s in chosen]


def _refuse_dangling(pkg: _Package, names_node: XNode | None, dropped: list[XNode], chosen: list[_Sheet],
                     kept: list[_Sheet], records: list[_Record]) -> None:
    """Undo refuses, naming them, defined names and formulas that stay and point
    into a sheet it would remove (see :mod:`automation.workbook.undo_refs`)."""
    removed = [s.name for s in chosen]
    if not removed:
        return
    names = [(n.get("name"), pkg.wb.inner_text(n)) for n in (names_node.children if names_node is not None else ())
             if n not in dropped and not RECORD.fullmatch(n.get("name"))
             and not n.get("name").lower().startswith("_xlnm.")]  # print titles, filters: settings of a sheet
    problems = undo_refs.in_names(names, removed)
    added = {name for r in records for _, name in r[3]}
    for sheet in kept:
        if sheet.name not in added and sheet.part and sheet.rel_type == f"{REL_NS}/worksheet" and pkg.zip.get(sheet.part):
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


def _show_instead(wb: XmlDoc, replaced: list[_Sheet], new_index: int) -> list[Edit]:
    """A workbook shown on a sheet being replaced opens on its replacement (a hidden sheet is never active)."""
    views = wb.root.find("bookViews")
    gone = {str(s.index) for s in replaced}
    return [set_attr(wb, view, "activeTab", str(new_index))
            for view in (views.findall("workbookView") if views is not None else []) if view.attr("activeTab") in gone]


def _restore(wb: XmlDoc, number: int, names: Sequence[str], kept: list[_Sheet]) -> list[Edit]:
    """Edits putting back the sheets batch ``number`` replaced: each very hidden
    sheet gets its name back and loses the state the batch gave it."""
    edits = []
    for k, name in enumerate(names, start=1):
        hit = next((s for s in kept if s.name == hidden_name(number, k)), None)
        if hit is None:
            continue  # deleted by hand meanwhile: nothing to put back
        edits.append(set_attr(wb, hit.node, "name", name))
        tag = wb.text[hit.node.start:hit.node.inner_start]
        state = re.search(r"""\s+state\s*=\s*(?:"[^"]*"|'[^']*')""", tag)
        if state is not None:
            edits.append(Edit(hit.node.start + state.start(), hit.node.start + state.end(), ""))
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

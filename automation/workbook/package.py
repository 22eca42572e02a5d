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
import sys
from pathlib import Path
from typing import Any, Callable, Iterable, Mapping, NamedTuple, Sequence
from urllib.parse import unquote

from automation.errors import UsageError, WorkbookFileError
from automation.workbook import gatememo, pkgfile, readback, undoimage
from automation.workbook.apptitles import app_titles_kept
from automation.workbook.batches import RECORD, Batch, from_gate, records as _records
from automation.workbook.cellxml import bounds
from automation.workbook.gate import PLAIN_PATH, Gate
from automation.workbook.gatememo import Workbook
from automation.workbook.gatezip import unpacked_after
from automation.workbook.listfacts import doc_from, facts_of, keep_doc, sheet_items, skip_key
from automation.workbook.lock import writing
from automation.workbook.xmlparts import inserted_well_formed
from automation.workbook.zipraw import RawZip, Written, parse_zip
from automation.workbook.sheetgraft import (
    MAIN_NS, PKG_REL_NS, TAB_COLOURS, Edit, LineChartSpec, ListValidation, NewSheet, XmlDoc, XNode, apply_edits,
    check_sheet_name, escape_attr, escape_text, graft, in_scope, insert_child, parse_xml, prefix_for, qualified,
    rels_name, draw, set_attr, utf16_len)

__all__ = ["Batch", "LineChartSpec", "ListValidation", "NewSheet", "TAB_COLOURS", "append_sheets",
           "file_digest", "list_batches", "sheet_names"]

REL_NS = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
CT_NS = "http://schemas.openxmlformats.org/package/2006/content-types"
STRICT_NS = "http://purl.oclc.org/ooxml/spreadsheetml/main"
RELS_TYPE = "application/vnd.openxmlformats-package.relationships+xml"
STYLES_TYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"
LISTED = frozenset({"sheet", "definedName"})  # the long lists of workbook.xml, which an append reads from the gate
RELATIONSHIP, OVERRIDE = frozenset({"Relationship"}), frozenset({"Override"})  # those of the rels and content types
_ET_RID = f"{{{REL_NS}}}id"  # a sheet's r:id among the attributes ElementTree gives it

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
    node: XNode | None  # None when listed from the gate's parse (see _Package.listing)
    part: str | None
    rel_type: str


class _Name(NamedTuple):
    """One defined name of the workbook part: its place among the defined
    names, its name, localSheetId (the empty text for none) and text (when
    asked for), and its element when it was located."""

    index: int
    name: str
    local: str
    text: str
    node: XNode | None


class _Lists(NamedTuple):
    """The workbook part's long lists (see :meth:`_Package.listing`); ``children``:
    how many elements its ``definedNames`` holds (None without one)."""

    sheets: list[_Sheet]
    names: list[_Name]
    children: int | None


_Record = tuple[int, _Name, Batch, list[tuple[int | None, str]]]
_made = tuple.__new__  # a named tuple made in one step, without its own constructor (thousands of each a run)


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
        self.parsed: dict[tuple[str, str], tuple] = {}  # where parses with a skip placed the elements (listfacts)
        types = self.zip.get("[Content_Types].xml")
        main = next((r.target for r in self.rels("") if r.type.endswith("/officeDocument") and r.target), None)
        member = self.zip.get(main or "xl/workbook.xml")
        if types is None or member is None:
            missing = "[Content_Types].xml" if types is None else "xl/workbook.xml"
            raise WorkbookFileError(f"{path}: not an Excel workbook (.xlsx): {missing} is missing")
        self.wb_part, self.wb_rels = member.name, rels_name(member.name)
        self.types_part = types.name
        listed = self._listed()
        if listed is not None:  # (the gate's lists of the same bytes: the part is not parsed again for its root)
            root, holder = listed.root, listed.sheets
        else:
            shell = self.shell
            root, holder = f"{{{shell.root.ns}}}{shell.root.local}", shell.root.find("sheets")
        if root == f"{{{STRICT_NS}}}workbook":
            raise WorkbookFileError(f"{path}: Strict Open XML workbooks are not supported; save as 'Excel Workbook'")
        if root != f"{{{MAIN_NS}}}workbook" or holder is None:
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

    def doc(self, part: str, skip: frozenset[str] = frozenset(),
            keep: Callable[[str, Mapping[str, str]], object] | None = None) -> XmlDoc:
        """Part ``part`` parsed, its elements named in ``skip`` left unlocated
        but those ``keep`` accepts (see :func:`parse_xml`); a part parsed whole
        serves every ask (a part parsed with ``keep`` is not kept for the next)."""
        found = self._docs.get((part, frozenset())) or (self._docs.get((part, skip)) if keep is None else None)
        if found is None:
            self.gate.check_part(part)
            facts = self.gate.docs.get((part, skip_key(skip))) if skip and keep is None else None
            data = self.zip.read(part)
            found = doc_from(part, data, facts) if facts is not None else None
            if found is None:
                found = parse_xml(data, part, skip, keep)
                if skip and keep is None:  # kept with the gate's findings by an append (listfacts)
                    self.parsed[(part, skip_key(skip))] = facts_of(found.root)
            if keep is None:
                self._docs[(part, skip)] = found
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
        plain = PLAIN_PATH.fullmatch
        for node in self._rel_attrs(member.name) if member else ():
            target: str | None = None
            if node.get("TargetMode") != "External":
                raw = (node.get("Target") or "").partition("#")[0]
                if plain_base and plain(raw):  # nothing to normalise or decode (most targets)
                    path = f"{base}/{raw}" if base else raw
                    found = self.zip.get(path)
                else:
                    path = raw[1:] if raw.startswith("/") else \
                        posixpath.normpath(posixpath.join(base, raw))
                    found = self.zip.get(path) or self.zip.get(unquote(path))
                target = found.name if found else path
            out.append(_made(_Rel, (node.get("Id") or "", node.get("Type") or "", target)))
        return out

    def _rel_attrs(self, member: str) -> list[Mapping[str, str]]:
        """The attributes of each relationship of part ``member`` (every child of
        its root): the workbook's, as the gate found them, else parsed here."""
        info = self.gate.info(member) if member.lower() == "xl/_rels/workbook.xml.rels" else None
        listed = self.gate.workbook_lists() if info is not None and info.filename == member else None
        if listed is not None and listed.rels is not None:
            return list(listed.rels)
        return [node.attrs for node in self.doc(member).root.children]

    def sheets(self) -> list[_Sheet]:
        if self._sheets is None:
            every = self.wb.root.find("sheets").findall("sheet")  # type: ignore[union-attr]
            self._sheets = self._sheet_list((n.get("name"), n.get("sheetId"), n.attr("id", REL_NS) or "",
                                             n.get("state"), n) for n in every)
        return list(self._sheets)

    def _sheet_list(self, found: Iterable[tuple[str, str, str, str, XNode | None]]) -> list[_Sheet]:
        """The sheets from (name, sheetId, r:id, state, element) of each, in order."""
        rels = {r.id: r for r in self.rels(self.wb_part)}
        out = []
        for i, (name, sheet_id, rid, state, node) in enumerate(found):
            rel = rels.get(rid)
            if not sheet_id.isdigit():
                raise WorkbookFileError(f"{self.where}: sheet {name!r} has a bad sheetId")
            out.append(_made(_Sheet, (i, name, int(sheet_id), rid, state in ("", "visible"), node,
                                    rel.target if rel else None, rel.type if rel else "")))
        return out

    def _listed(self) -> Workbook | None:
        """The gate's lists of the workbook part (as found before for a file
        with this directory, or from its parse) when that is the part it read
        (``xl/workbook.xml``), and it was not parsed whole here."""
        if self.wb_part.lower() != "xl/workbook.xml" or (self.wb_part, frozenset()) in self._docs or \
                self.gate.info(self.wb_part).filename != self.wb_part:
            return None
        return self.gate.workbook_lists()

    def listing(self, texts: Callable[[str], object] | None = None) -> _Lists:
        """The sheets and the defined names (the text of those whose name
        ``texts`` accepts): from the gate's parse of the workbook part, without
        their elements (an append or undo locates only those it changes:
        :meth:`located`), or from the part parsed whole, with them."""
        listed = self._listed()
        if listed is None:
            holder = self.wb.root.find("definedNames")
            elements = holder.findall("definedName") if holder is not None else []
            names = [_Name(i, n.get("name"), n.get("localSheetId"), self.wb.inner_text(n) if texts is not None
                           and texts(n.get("name")) else "", n) for i, n in enumerate(elements)]
            return _Lists(self.sheets(), names, len(holder.children) if holder is not None else None)
        sheets = self._sheet_list((a.get("name") or "", a.get("sheetId") or "", a.get(_ET_RID) or "",
                                   a.get("state") or "", None) for a in listed.sheets or ())
        names = [_made(_Name, (i, name, local, text if texts is not None and texts(name) else "", None))
                 for i, (name, local, text) in enumerate(listed.names)]
        return _Lists(sheets, names, listed.children)

    def located(self, lists: _Lists, sheets: Sequence[_Sheet] = (), names: Sequence[_Name] = ()
                ) -> tuple[XmlDoc, list[XNode], list[XNode]]:
        """The workbook part with the elements of ``sheets`` and ``names`` (items
        of ``lists``, from :meth:`listing`) located, and those elements in the
        same order. Of its long lists only the elements that bear the name (a
        defined name: and localSheetId) of one of them are located, and each
        is paired with its item by their order among the items of that name;
        should the counts differ, the part is located whole."""
        if self._listed() is not None:  # (else the part is, or must be, parsed whole)
            if not sheets and not names:
                return self.shell, [], []
            if not names:  # the sheets among the shell's (placed as an append kept it, or parsed, then kept)
                holder = self.shell.root.find("sheets")
                items = sheet_items(self.shell, holder, "sheet", [s.index for s in sheets], len(lists.sheets)) \
                    if holder else None
                if items is not None and [n.get("name") for n in items] == [s.name for s in sheets]:
                    return self.shell, items, []
            want_sheets, want_names = {s.name for s in sheets}, {(n.name, n.local) for n in names}
            doc = self.doc(self.wb_part, LISTED, lambda local, attrs: (
                attrs.get("name") in want_sheets if local == "sheet" else
                (attrs.get("name"), attrs.get("localSheetId", "")) in want_names))
            holder, box = doc.root.find("sheets"), doc.root.find("definedNames")
            found_sheets = _paired(sheets, lists.sheets, holder.findall("sheet") if holder is not None else [],
                                   lambda n: n.get("name"), lambda s: s.name)
            found_names = _paired(names, lists.names, box.findall("definedName") if box is not None else [],
                                  lambda n: (n.get("name"), n.get("localSheetId")), lambda n: (n.name, n.local))
            if found_sheets is not None and found_names is not None:
                return doc, found_sheets, found_names
        whole = self.wb.root
        every_sheet = whole.find("sheets").findall("sheet")  # type: ignore[union-attr]
        box = whole.find("definedNames")
        every_name = box.findall("definedName") if box is not None else []
        return self.wb, [every_sheet[s.index] for s in sheets], [every_name[n.index] for n in names]

    def part_of(self, rel_type: str, source: str | None = None) -> str | None:
        rels = self.rels(self.wb_part if source is None else source)
        found = next((r.target for r in rels if r.type.endswith("/" + rel_type) and r.target), None)
        return found if found and self.zip.get(found) else None

    def records(self, lists: _Lists | None = None) -> list[_Record]:
        """The batch records among the defined names of ``lists`` (by default
        listed with the text of the records alone), each with its item."""
        names = (self.listing(RECORD.fullmatch) if lists is None else lists).names
        return _records(self.where, ((n.name, n.text, n) for n in names if RECORD.fullmatch(n.name)))


def _paired(wanted: Sequence[Any], every: Sequence[Any], nodes: Sequence[XNode], node_key: Callable[[XNode], Any],
            item_key: Callable[[Any], Any]) -> list[XNode] | None:
    """The element of each item ``wanted`` (of ``every``, each with its
    ``index``) among ``nodes`` (every element bearing the key of one of them,
    in document order): the k-th item of a key is the k-th element of that
    key. None if a key has not as many elements as items."""
    hits: dict[Any, list[XNode]] = {}
    for node in nodes:
        hits.setdefault(node_key(node), []).append(node)
    places: dict[Any, list[int]] = {}
    for item in every:
        places.setdefault(item_key(item), []).append(item.index)
    out = []
    for item in wanted:
        key = item_key(item)
        if len(hits.get(key, ())) != len(places.get(key, ())):
            return None
        out.append(hits[key][places[key].index(item.index)])
    return out


# --------------------------------------------------------------------------- files

def file_digest(path: Path) -> str:
    """SHA-256 (hex) of the file's bytes, to pass back as ``expected_digest``."""
    return hashlib.sha256(pkgfile.read(Path(path))).hexdigest()


def _open_for_change(path: Path, expected_digest: str | None, read: Gate | None = None
                     ) -> tuple[Path, bytes, _Package]:
    real, data, digest = pkgfile.read_for_change(path, expected_digest, read)
    return real, data, _Package(str(path), data, digest)


def _finish(path: Path, real: Path, before: bytes, pkg: _Package, replaced: dict[str, bytes],
            removed: set[str], added: Sequence[tuple[str, bytes]], checked: frozenset[str] = frozenset()) -> Written:
    """The workbook replaced by ``pkg`` changed (see :func:`automation.workbook.pkgfile.replace`)."""
    return pkgfile.replace(path, real, before, pkg.zip, replaced, removed, added, checked)


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
    # an append adds to the ends of the workbook's lists, and of those of the relationships and content
    # types, and locates none of their items but the sheets it replaces
    lists = pkg.listing()
    current, defined = lists.sheets, lists.names
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
    styles_made = styles_part is None  # (a styles part made anew stays after undo: no image, undo works it out)
    existing = {m.name.lower() for m in pkg.zip.members}
    result = graft(*draw(sheets), sheets, existing, pkg.zip.read(styles_part) if styles_part else None)
    added: list[tuple[str, bytes, str | None]] = list(result.parts)
    rels_member = pkg.zip.get(pkg.wb_rels)
    wb, replaced_nodes, _ = pkg.located(lists, replaced)
    rels_doc = pkg.doc(rels_member.name if rels_member else pkg.wb_rels, RELATIONSHIP)
    types = pkg.doc(pkg.types_part, OVERRIDE)
    rel_ids = {r.id for r in pkg.rels(pkg.wb_part)}
    first = max((int(i[3:]) for i in rel_ids if i[:3] == "rId" and i[3:].isdecimal()), default=0) + 1  # (rIdN)
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
    listed: list[dict[str, str]] = []  # each new sheet's attributes, as a parser of the workbook part finds them
    for grafted, sheet in zip(result.sheets, sheets):
        rid = next(fresh)
        new_rels.append(("worksheet", grafted.part, rid))
        state = ' state="hidden"' if grafted.hidden else ""
        listed.append({"name": grafted.name, "sheetId": str(sheet_id),
                       **({"state": "hidden"} if grafted.hidden else {}), _ET_RID: rid})
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
    number = max([int(m.group(1)) for n in defined if (m := RECORD.fullmatch(n.name))] + [0]) + 1
    tag = qualified(owner, "definedName")
    record = f'<{tag} name="_mr_batch_{number:04d}" hidden="1">{escape_text(formula)}</{tag}>'
    new_names = [(f"_mr_batch_{number:04d}", "", formula)]
    taken_titles = {n.local for n in defined if n.name.lower() == "_xlnm.print_titles"}
    for i, (grafted, sheet) in enumerate(zip(result.sheets, sheets), start=len(current)):
        if str(i) not in taken_titles:  # each new sheet prints its header (a form: its top rows) on every page
            quoted = "'" + grafted.name.replace("'", "''") + "'"
            record += (f'<{tag} name="_xlnm.Print_Titles" localSheetId="{i}">{escape_text(quoted)}'
                       f'!$1:${sheet.title_rows}</{tag}>')
            new_names.append((sys.intern("_xlnm.Print_Titles"), str(i), f"{quoted}!$1:${sheet.title_rows}"))
    wb_edits = [insert_child(wb, sheets_node, "".join(sheet_xml))]
    for k, node in enumerate(replaced_nodes, start=1):  # kept very hidden under a reserved name until undo
        wb_edits += [set_attr(wb, node, "name", hidden_name(number, k)), set_attr(wb, node, "state", "veryHidden")]
    hidden = {old.index: hidden_name(number, k) for k, old in enumerate(replaced, start=1)}
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
    rels_edits = [insert_child(rels_doc, rels_doc.root, rel_xml)]
    types_edits = [insert_child(types, types.root, overrides)]
    replaced = {
        pkg.wb_part: wb.encode(apply_edits(wb.text, wb_edits)),
        rels_doc.part: rels_doc.encode(apply_edits(rels_doc.text, rels_edits)),
        types.part: types.encode(apply_edits(types.text, types_edits)),
    }
    # lists that only gained items are checked by what they gained (the rest passed the gate as it was)
    checked = frozenset(doc.part for doc, edits in ((wb, wb_edits), (rels_doc, rels_edits), (types, types_edits))
                        if inserted_well_formed(doc, edits, doc.part))
    docs: dict[tuple[str, str], tuple] = {}  # where the next append's parse would place the lists' elements
    for doc, skip, edits in ((wb, LISTED, wb_edits), (rels_doc, RELATIONSHIP, rels_edits),
                             (types, OVERRIDE, types_edits)):
        if pkg._docs.get((doc.part, skip)) is doc:  # parsed with what the next append skips
            keep_doc(docs, doc, skip, edits)
    if pkg.zip.get(styles_part):
        replaced[styles_part] = result.styles
    worksheets = [s.name for s in current if s.rel_type == f"{REL_NS}/worksheet"]
    titles, titles_kept = app_titles_kept(pkg, worksheets, add=[g.name for g in result.sheets])
    replaced.update(titles)
    docs.update(titles_kept)  # (where the next append adds its titles: automation.workbook.apptitles)
    written = _finish(path, real, before, pkg, replaced, set(), [(n, d) for n, d, _ in added], checked)
    readback.keep(sheets, [g.part for g in result.sheets], written.new, pkg.gate.info("xl/sharedStrings.xml"),
                  pkg.gate.info("xl/styles.xml"))
    if pkg.parsed:  # the next append to a copy of the file it read takes them as this one parsed them (kept
        pkg.gate.keep_docs(pkg.parsed)  # first: the findings of the file written are kept as what they add to these)
    if not styles_made:
        undoimage.keep(written, pkg.zip, [n for n in replaced if n != styles_part], [n for n, _, _ in added],
                       [g.name for g in result.sheets])
        rels_listed = [{"Id": rid, "Type": sys.intern(f"{REL_NS}/{kind}"), "Target": posixpath.relpath(part, wb_dir)}
                       for kind, part, rid in new_rels]
        # the sheets whose cells this append wrote are checked as the gate checks a sheet before it is parsed
        within = [part for part, dimension in result.extents.items() if pkg.gate.limits.admits(*bounds(dimension))]
        unpacked = unpacked_after(pkg.gate.unpacked, pkg.gate.limits, pkg.zip.index, written.new, replaced,
                                  [(n, d) for n, d, _ in added])
        _carry_found(pkg, written, replaced, current, {(pkg.wb_part, "sheet"): listed,
                                                      (rels_doc.part, "Relationship"): rels_listed}, new_names,
                     hidden, docs, within, unpacked)


def _carry_found(pkg: _Package, written: Written, parts: Mapping[str, bytes], sheets: Sequence[_Sheet],
                 added: Mapping[tuple[str, str], Sequence[Mapping[str, str]]], names: Sequence[tuple[str, str, str]],
                 hidden: Mapping[int, str], docs: Mapping[tuple[str, str], tuple] | None = None,
                 checked: Sequence[str] = (), unpacked: int | None = None) -> None:
    """Keep what the gate of the file ``written`` would find in its lists
    (:func:`automation.workbook.gatememo.appended`): what ``pkg``'s gate found, with
    the elements ``added`` at the ends of the lists, the defined names ``names``,
    the sheets at the places of ``hidden`` kept very hidden under the names given,
    and where the lists' elements lie (``docs``: :mod:`automation.workbook.listfacts`),
    when every sheet and relationship it listed is one of the workbook's ``sheets``
    and of its part's relationships (each found at its place, the new ones after
    them all); ``checked``: the new sheet parts that pass the check of a sheet before
    it is parsed; ``unpacked``: the written file's parts' unpacked bytes in all, when
    its zip directory passes the checks of each part (:func:`gatezip.unpacked_after`)."""
    found = pkg.gate.found()
    listed = found.lists.get((pkg.wb_part, "sheet"), ()) if found is not None else ()
    if found is None or len(listed) != len(sheets) or any(listed[s.index].get("name") != s.name for s in sheets) or \
            len(found.lists.get((rels_name(pkg.wb_part), "Relationship"), ())) != len(pkg.rels(pkg.wb_part)):
        return
    limits = pkg.gate.limits
    changed = {(pkg.wb_part, "sheet"): {i: {**listed[i], "name": name, "state": "veryHidden"}
                                        for i, name in hidden.items()}}
    carried = gatememo.appended(found, parts, elements=limits.elements, namespaces=limits.namespaces, added=added,
                                names=names, changed=changed, docs=docs, checked=checked, unpacked=unpacked)
    if carried is not None:
        gatememo.keep(gatememo.key_of(written.directory, limits), carried, after=pkg.gate.kept())


def _show_instead(wb: XmlDoc, replaced: list[_Sheet], new_index: int) -> list[Edit]:
    """A workbook shown on a sheet being replaced opens on its replacement (a hidden sheet is never active)."""
    views = wb.root.find("bookViews")
    gone = {str(s.index) for s in replaced}
    return [set_attr(wb, view, "activeTab", str(new_index))
            for view in (views.findall("workbookView") if views is not None else []) if view.attr("activeTab") in gone]

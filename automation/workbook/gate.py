"""The one gate every workbook passes before any parser sees it.

Every command reads workbooks through :class:`Gate` (the reader, the package
writer, play by email), with the same :class:`Limits` for a file of the same
role: :data:`MASTER` for the umpire's workbook, :data:`PLAYER` (stricter) for a
file a player sends back. Time and memory are bounded by design:

1. From the zip directory alone (no part is unpacked;
   :mod:`automation.workbook.gatezip`): a zip at all, not
   encrypted, at most ``members`` parts, no two parts whose names differ only
   in case, each part and all parts together within their unpacked sizes, and
   no part over 1 MB compressed more than ``ratio``:1.
2. The parts every command parses whole (``[Content_Types].xml``, the package's
   and the workbook's relationships, the workbook part, its styles and
   ``docProps/app.xml``; of a player's file, which is only read, the content
   types and ``docProps/app.xml`` are parsed by nothing and bounded by the
   directory alone) are streamed through expat in 1 MB chunks: no DTD (so
   no entity of any kind), at most ``namespaces`` namespace declarations and
   ``elements`` elements, and their sizes and CRCs match the directory.
   Shared strings are streamed for their prolog (no DTD) and CRC only. Any
   other part is checked alike when it is about to be parsed
   (:meth:`Gate.check_part`: the relationships undo follows). Only a part
   that passed this scan is parsed into a tree by the gate itself (the
   workbook part and its relationships, for the list of sheets: ElementTree's
   C parser, with no DTD left for it to expand and its elements bounded).
3. A sheet is checked when it is about to be parsed (:meth:`Gate.check_sheet`),
   never before: its part is found as the reader (calamine) finds it (the
   relationship's target, case-insensitively; the %-decoded and normalised
   spellings are checked too), its prolog holds no DTD, and the rows and
   columns its values reach are found by a streamed scan
   (:func:`automation.workbook.safety.sheet_extent`), so a value in XFD1048576
   is refused naming its cell instead of making the parser allocate for
   17 billion cells.

What step 2 found in a master's lists (the parts that passed, the sheets,
relationships and defined names listed) is kept for the next gate of a file
with the same zip directory (:mod:`automation.workbook.gatememo`), which
takes it instead of scanning and parsing the lists again.
"""
from __future__ import annotations

import dataclasses
import hashlib
import posixpath
import sys
import weakref
import zipfile
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any
from urllib.parse import unquote
from xml.etree import ElementTree
from xml.parsers import expat

from automation.errors import CellProblem, WorkbookError, WorkbookFileError
from automation.workbook import gatememo
from automation.workbook.gatezip import MASTER, PLAIN_PATH, PLAYER, Limits, Targets, open_zip, returned_limits
from automation.workbook.safety import SharedText, strings_overstated
from automation.workbook.zipdir import Entry
from automation.workbook.snapshot import whole

CHUNK = 1 << 20
TREES = ("_rels/.rels", "xl/workbook.xml", "xl/_rels/workbook.xml.rels")  # the list parts the gate parses whole
KEEP_BYTES = 16 * 2**20  # a list part up to this size keeps its inflated bytes from the scan for the parse
MAIN_NS = ("http://schemas.openxmlformats.org/spreadsheetml/2006/main",
           "http://purl.oclc.org/ooxml/spreadsheetml/main")
REL_NS = ("http://schemas.openxmlformats.org/officeDocument/2006/relationships",
          "http://purl.oclc.org/ooxml/officeDocument/relationships")
_REL_ID = tuple(f"{{{ns}}}id" for ns in REL_NS)  # a sheet's r:id as ElementTree keys it
_DEFINED_NAMES = tuple(f"{{{ns}}}definedNames" for ns in MAIN_NS)  # the workbook's list of defined names


def column_letter(number: int) -> str:
    """1 -> A, 27 -> AA."""
    out = ""
    while number > 0:
        number, rem = divmod(number - 1, 26)
        out = chr(65 + rem) + out
    return out


def column_number(letters: str) -> int:
    """A -> 1, AA -> 27 (upper-case letters)."""
    number = 0
    for letter in letters:
        number = number * 26 + ord(letter) - 64
    return number


class _Refused(Exception):
    def __init__(self, why: str) -> None:
        self.why = why


_PASSED: weakref.WeakValueDictionary[tuple[str, Limits, int], Gate] = weakref.WeakValueDictionary()
"""The gates in use, by place, limits and the identity of the bytes they hold (each gate holds its bytes,
so no identity is reused while it is listed)."""


class Gate:
    """A workbook's bytes after the checks of steps 1 and 2; :meth:`check_sheet`
    does step 3 for one sheet. ``archive`` reads the parts (central directory
    only until a part is asked for)."""

    def __init__(self, where: str | Path, data: bytes, limits: Limits = MASTER) -> None:
        self.where, self.limits = str(where), limits
        self.data: bytes | None = None  # the bytes, for a gate made by Gate.of
        self._digest: str | None = None  # their SHA-256, worked out when first asked for
        key = self._key = gatememo.key_for(data, limits) if not limits.player else None
        found = gatememo.find(key) if key is not None else None
        # (a directory that passed each part's checks before is not checked part by part again)
        self.archive, self._unpacked = open_zip(self.where, data, limits, found.unpacked if found else None)
        self._by_lower = getattr(self.archive, "by_lower", None) or \
            {i.filename.lower(): i for i in self.archive.infolist()}
        self._targets: Targets | None = None
        self._checked: set[str] = set()
        self._found: dict[tuple[str, str], list[Mapping[str, str]]] = {}
        self._kept: dict[str, bytes] = {}  # a list part's bytes as its scan inflated them, until parsed as a tree
        self._trees: dict[str, Any] = {}  # parts parsed whole (the lists of sheets and relationships)
        self._marks: dict[str, int] = {}  # each part scanned whole: its count of "<"
        self._names: tuple[tuple[str, str], ...] | None | bool = False  # the defined names, when found (False: not yet)
        self._workbook: gatememo.Workbook | None | bool = False  # the workbook part's lists, when found (False: not yet)
        self.docs: Mapping[tuple[str, str], tuple] = {}  # where an append's parse places list parts' elements
        self._parsed_alike = False  # the parser names the sheets as the workbook part does (gatememo.Found)
        self._forms: gatememo.Forms | None = None  # what a reader found of the file's forms (gatememo.Found)
        self._text: SharedText | None = None  # the size of each shared string, read when a sheet is first checked
        self._stored = found  # the findings of this file as kept (what an append keeps the next file's after)
        if found is not None:  # a file with this directory passed before: what was found then holds
            self._checked, self._marks, self._names = set(found.checked), dict(found.marks), found.names
            self._workbook = found.workbook if found.workbook is not None else False
            self._found = {where: list(every) for where, every in found.lists.items()}
            self.docs = found.docs  # (see automation.workbook.listfacts)
            self._parsed_alike, self._forms = found.parsed_alike, found.forms
            self._lists_checked = found.checked
            if found.unpacked is None:  # its parts were checked one by one just now: kept with what was found
                self._keep_found()
            return
        try:
            self._check_structure()
        except _Refused as exc:
            raise WorkbookFileError(f"{self.where}: refused: {exc.why}") from None
        self._lists_checked = frozenset(self._checked)  # (the sheets checked later are not findings of the lists)
        self._keep_found()  # (a list that cannot be read: refused when asked for, as without keeping)

    def keep_docs(self, docs: Mapping[tuple[str, str], tuple]) -> None:
        """Keep, with what was found in this file, where an append's parse of
        its list parts placed their elements (``docs``, see
        :mod:`automation.workbook.listfacts`): the next append to a file with
        this directory takes them. Only a master's findings are kept."""
        self._keep_found(docs)

    def _keep_found(self, docs: Mapping[tuple[str, str], tuple] | None = None) -> None:
        """Keep what this gate found (with ``docs`` added to where the lists'
        elements lie), when it is a master's and its lists can be read."""
        found = self.found() if self._key is not None else None
        if found is not None:
            if docs is not None:
                self.docs = {**self.docs, **docs}
            after = self._stored.after if self._stored is not None else None  # (kept again: after the same)
            found = dataclasses.replace(found, docs=self.docs)
            self._stored = gatememo.keep(self._key, found, after=after)  # type: ignore[arg-type]

    def kept(self) -> tuple[str, gatememo.Found] | None:
        """The key and the findings of this file as kept, when they are (an
        append keeps those of the file it writes as what they add to them)."""
        if self._key is None or self._stored is None or not self._stored.kept_as:
            return None
        return self._key, self._stored

    def found(self) -> gatememo.Found | None:
        """What this gate found in the lists: the parts that passed, the
        sheets and relationships listed and the defined names (None when one
        of them cannot be read)."""
        lists: dict[tuple[str, str], tuple[Mapping[str, str], ...]] = {}
        try:
            for part, local in (("xl/_rels/workbook.xml.rels", "Relationship"), ("xl/workbook.xml", "sheet"),
                                ("_rels/.rels", "Relationship")):
                info = self.info(part)
                if info is not None:
                    lists[(info.filename, local)] = tuple(self._elements(info.filename, local))
            names = self.defined_names()
            workbook = self.workbook_lists()
        except (_Refused, WorkbookFileError):
            return None
        marks = {part: self._marks[part] for part in self._lists_checked if part in self._marks}
        return gatememo.Found(self._lists_checked, marks, lists, tuple(names) if names is not None else None, workbook,
                              parsed_alike=self._parsed_alike, forms=self._forms, unpacked=self._unpacked)

    @property
    def unpacked(self) -> int:
        """The unpacked bytes of every part of the file, as its zip directory says."""
        return self._unpacked

    @property
    def forms(self) -> gatememo.Forms | None:
        """What a reader of this file, or of the file an append made it from, found of its forms
        (:meth:`keep_forms`)."""
        return self._forms

    def keep_forms(self, forms: gatememo.Forms) -> None:
        """Keep ``forms`` with a master's findings, for the next command on a file with this directory."""
        if self._key is None or self._forms == forms:
            return
        self._forms = forms
        self._keep_found()

    def parsed_names(self) -> list[str] | None:
        """The sheet names the parser gives this file, when a read of it (or of the file an append made it
        from) found it names them as the workbook part's ``sheet`` elements do (:meth:`parsed_as`); else None."""
        listed = self._workbook if self._parsed_alike else None
        return listed.sheet_names() if isinstance(listed, gatememo.Workbook) else None

    def parsed_as(self, names: Sequence[str]) -> None:
        """The parser named the sheets ``names``: kept with a master's findings, with whether the workbook part does."""
        if self._key is None:
            return
        try:
            listed = self.workbook_lists()
        except WorkbookFileError:
            return
        alike = listed is not None and listed.sheet_names() == list(names)
        if self._parsed_alike == alike:
            return
        self._parsed_alike = alike
        self._keep_found()

    def workbook_lists(self) -> gatememo.Workbook | None:
        """``xl/workbook.xml``'s lists as an append reads them (see
        :class:`automation.workbook.gatememo.Workbook`): as found before for
        a file with this directory, or from the parse of the part and its
        relationships. None when the package has no such part."""
        if self._workbook is False:
            info, rels = self.info("xl/workbook.xml"), self.info("xl/_rels/workbook.xml.rels")
            try:
                self._workbook = None if info is None else gatememo.Workbook.of(
                    self._tree(info.filename), self._tree(rels.filename) if rels is not None else None)
            except _Refused as exc:
                raise WorkbookFileError(f"{self.where}: refused: {exc.why}") from None
        return self._workbook  # type: ignore[return-value]

    @property
    def digest(self) -> str | None:
        """The SHA-256 (hex) of the bytes a gate made by :meth:`of` holds, worked
        out when first asked for: only a command that writes needs it."""
        if self._digest is None and self.data is not None:
            self._digest = hashlib.sha256(whole(self.data)).hexdigest()
        return self._digest

    @classmethod
    def of(cls, where: str | Path, data: bytes, limits: Limits = MASTER, *, digest: str | None = None) -> Gate:
        """The gate of ``data`` (whose SHA-256, hex, is ``digest`` when given): a
        gate this process already passed for the same bytes, place and limits,
        while it is still in use (a refit's reader and its writer read the
        same file once each), or a new one."""
        found = _PASSED.get((str(where), limits, id(data)))
        if found is None or found.data is not data:
            found = cls.held(where, digest, limits) if digest is not None else None
        if found is None:
            found = cls(where, data, limits)
            found.data, found._digest = data, digest.lower() if digest is not None else None
            _PASSED[(str(where), limits, id(data))] = found
        return found

    @staticmethod
    def held(where: str | Path, digest: str, limits: Limits = MASTER) -> Gate | None:
        """The gate :meth:`of` passed for the bytes whose SHA-256 is ``digest``
        at ``where``, while their reader still holds it (None otherwise)."""
        for (place, lim, _), gate in list(_PASSED.items()):
            if place == str(where) and lim == limits and gate.data is not None and gate.digest == digest.lower():
                return gate
        return None

    @staticmethod
    def passed_for(where: str | Path, data: bytes, limits: Limits = MASTER) -> Gate | None:
        """A gate still in use that :meth:`of` passed for exactly ``data`` (its
        bytes compared, not hashed) at ``where`` with ``limits``."""
        for (place, lim, _), gate in list(_PASSED.items()):
            if place == str(where) and lim == limits and (gate.data is data or gate.data == data):
                return gate
        return None

    # ------------------------------------------------------------------ parts

    def info(self, name: str) -> Entry | zipfile.ZipInfo | None:
        """The part named ``name``, found case-insensitively (as the reader finds it)."""
        return self._by_lower.get(name.lstrip("/").lower())

    def resolve(self, target: str, base: str = "xl") -> tuple[str, ...]:
        """Every part a relationship ``target`` (relative to folder ``base``) may
        name: as the reader takes it (``/`` = package root, otherwise under
        ``base``, case-insensitive), and %-decoded and normalised as well."""
        if PLAIN_PATH.fullmatch(target) and base == "xl":  # nothing to decode or normalise: the two places it may name
            return tuple(info.filename for info in self._plain_entries(target))
        found: list[str] = []
        for raw in dict.fromkeys((target, unquote(target))):
            raw = raw.replace("\\", "/")
            tries = [raw[1:]] if raw.startswith("/") else [raw, posixpath.join(base, raw)]
            tries += [posixpath.normpath(t) for t in tries]
            for t in tries:
                info = self.info(t)
                if info is not None and info.filename not in found:
                    found.append(info.filename)
        return tuple(found)

    def _plain_entries(self, target: str) -> tuple[Entry | zipfile.ZipInfo, ...]:
        """The parts a plain relationship ``target`` (:data:`PLAIN_PATH`, from
        the workbook part) may name, as the directory lists them: beside the
        workbook part and from the package's root, case-insensitively."""
        lower = target.lower()
        there, under = self._by_lower.get(lower), self._by_lower.get("xl/" + lower)
        if there is None or under is None:
            return (there,) if there is not None else (under,) if under is not None else ()
        return (there, under)

    def _check_structure(self) -> None:
        if self.info("[Content_Types].xml") is None or self.info("xl/workbook.xml") is None:
            raise WorkbookFileError(f"{self.where}: a zip file but not an .xlsx workbook "
                                    "(it has no xl/workbook.xml part)")
        # (a player's file is only read: its content types and docProps/app.xml, which no reader parses, are
        # bounded by the directory alone; a master's are parsed by the next change of the workbook)
        listing = ("_rels/.rels", "xl/workbook.xml", "xl/_rels/workbook.xml.rels") if self.limits.player else \
            ("[content_types].xml", "_rels/.rels", "xl/workbook.xml", "xl/_rels/workbook.xml.rels", "docprops/app.xml")
        whole = {i.filename for i in self.archive.infolist() if i.filename.lower() in listing}
        rels = self.info("xl/_rels/workbook.xml.rels")
        prolog_only: set[str] = set()
        if rels is not None:
            for rel in self._elements(rels.filename, "Relationship"):
                kind = rel.get("Type", "").rpartition("/")[2]
                if rel.get("TargetMode") != "External" and kind in ("styles", "sharedStrings"):
                    for part in self.resolve(rel.get("Target", "")):
                        (whole if kind == "styles" else prolog_only).add(part)
        for name in sorted(whole):
            self._scan(name, whole=True, keep=name.lower() in TREES)
        prolog_only |= {i.filename for i in self.archive.infolist() if i.filename.lower() == "xl/sharedstrings.xml"}
        for name in sorted(prolog_only - whole):  # the shared strings (the reader also takes them by this name)
            self._scan(name, whole=False)

    def _tree(self, name: str) -> Any:
        """Part ``name`` parsed by ElementTree's C parser (kept for the next ask),
        once it has passed the whole scan: no DTD, so nothing for a parser to
        expand, and its elements and namespaces bounded. The bytes the scan
        inflated (and checked against the part's CRC-32) are parsed, not
        inflated again."""
        if name not in self._trees:
            self._scan(name, whole=True, keep=True)
            data = self._kept.pop(name, None)
            if data is None:  # scanned before without keeping its bytes, or too large to keep
                try:
                    data = self.archive.read(name)
                except WorkbookFileError:  # (the file changed on disk while read: said as such)
                    raise
                except Exception as exc:  # noqa: BLE001 - zipfile, zlib and CRC errors of a damaged part
                    raise _Refused(f"part {name} is damaged ({str(exc)[:120]}); use the last good copy of the "
                                   "workbook") from None
            try:
                self._trees[name] = ElementTree.fromstring(data)
            except ElementTree.ParseError as exc:
                raise _Refused(f"part {name} is not well-formed XML ({exc})") from None
        return self._trees[name]

    def list_part(self, name: str) -> Any | None:
        """One of the parts that list every sheet and relationship (``TREES``,
        named case-insensitively) as ElementTree parsed it for this gate: the
        root element, or None when the package has no such part."""
        info = self.info(name)
        if info is None or info.filename.lower() not in TREES:
            return None
        try:
            return self._tree(info.filename)
        except _Refused as exc:
            raise WorkbookFileError(f"{self.where}: refused: {exc.why}") from None

    def _elements(self, name: str, local: str) -> list[Mapping[str, str]]:
        """The attributes of every ``local`` element (any namespace) of part
        ``name``, as ElementTree holds them: a namespaced attribute is keyed
        ``"{namespace}name"``."""
        if (name, local) not in self._found:
            found = [element.attrib for element in self._tree(name).iter() if _local(element.tag) == local]
            if local == "Relationship":  # (a thousand name three types: each text one string, kept once: gatememo)
                for attributes in found:
                    if "Type" in attributes:
                        attributes["Type"] = sys.intern(attributes["Type"])
            self._found[(name, local)] = found
        return self._found[(name, local)]

    def defined_names(self, wanted: Callable[[str], object] | None = None) -> list[tuple[str, str]] | None:
        """(name, text) of each defined name of ``xl/workbook.xml`` (only those
        whose name ``wanted`` accepts, when given: the text of the others is not
        gathered), when the package's main part is that one (None otherwise).
        They are the children of the workbook's ``definedNames``, as the
        package writer reads them: the lists of sheets, print titles and
        extensions are not walked."""
        if self._names is not False:
            every = self._names
            return None if every is None else [(n, t) for n, t in every if wanted is None or wanted(n)]
        try:
            root_rels = self.info("_rels/.rels")
            main = next((r.get("Target", "") for r in (self._elements(root_rels.filename, "Relationship")
                                                       if root_rels is not None else ())
                         if r.get("Type", "").endswith("/officeDocument") and r.get("TargetMode") != "External"),
                        None)
            info = self.info("xl/workbook.xml")
            if main is None or info is None or posixpath.normpath(main.lstrip("/")).lower() != "xl/workbook.xml":
                return None
            root = self._tree(info.filename)
            names = next((child for child in root if child.tag in _DEFINED_NAMES), None)
            if names is None:
                return []
            tag = names.tag[:-1]  # {namespace}definedName
            return [(sys.intern(element.get("name", "")), "".join(element.itertext())) for element in names
                    if element.tag == tag and (wanted is None or wanted(element.get("name", "")))]
        except _Refused as exc:
            raise WorkbookFileError(f"{self.where}: refused: {exc.why}") from None

    def _stream(self, name: str):
        info = self.archive.getinfo(name)
        try:
            with self.archive.open(info) as fh:
                while chunk := fh.read(CHUNK):
                    yield chunk
        except (_Refused, WorkbookFileError):  # (the file changed on disk while read: said as such)
            raise
        except Exception as exc:  # noqa: BLE001 - zipfile, zlib and CRC errors of a damaged part
            raise _Refused(f"part {name} is damaged ({str(exc)[:120]}); use the last good copy of the workbook") from None

    def _scan(self, name: str, whole: bool, exact: bool = False, keep: bool = False) -> None:
        """Stream part ``name`` through expat: no DTD, bounded namespaces and
        (``whole``) elements; read to its end so its size and CRC are checked.
        Elements are counted one by one (``exact``) only when the part has
        more ``<`` than the limit allows elements. With ``keep`` (and
        ``whole``), the bytes of a part that passes are kept for :meth:`_tree`."""
        if name in self._checked:
            return
        chunks: list[bytes] | None = [] if keep and whole and self.archive.getinfo(name).file_size <= KEEP_BYTES \
            else None
        lim = self.limits
        counts, said = [0, 0], []
        parser = expat.ParserCreate(namespace_separator=" ")
        parser.SetParamEntityParsing(expat.XML_PARAM_ENTITY_PARSING_NEVER)

        def dtd(*_: Any) -> None:
            raise _Refused(f"part {name} declares a DTD or entities; workbooks never need them (an XML bomb?)")

        def namespace(*_: Any) -> None:
            counts[1] += 1
            if counts[1] > lim.namespaces:
                raise _Refused(f"part {name} declares more than {lim.namespaces} namespaces")

        def element(*_: Any) -> None:
            counts[0] += 1
            if counts[0] > lim.elements:
                raise _Refused(f"part {name} holds more than {lim.elements} elements")

        parser.StartDoctypeDeclHandler = dtd
        parser.EntityDeclHandler = dtd
        parser.StartNamespaceDeclHandler = namespace
        if whole and exact:
            parser.StartElementHandler = element
        elif not whole:  # past the root element no DTD can come: only the size and CRC are left to check
            def root(_: str, attrs: dict[str, str]) -> None:
                said.append(attrs.get("uniqueCount"))  # (a shared-strings part: the strings it says it holds)
                raise _PrologDone

            parser.StartElementHandler = root
        # (whole, not exact: every element starts with a "<", so a part with no more "<" bytes than the
        # limit holds no more elements; only a part with more is counted element by element)
        marks = 0
        try:
            try:
                for chunk in self._stream(name):
                    marks += chunk.count(b"<")
                    parser.Parse(chunk, False)
                    if chunks is not None:
                        chunks.append(chunk)
                parser.Parse(b"", True)
            except _PrologDone:
                if (over := strings_overstated(said[0] if said else None, self._stream(name))) is not None:
                    raise _Refused(f"part {name} says it holds {over[0]} strings and holds {over[1]}: a reader "
                                   "would set aside memory for every one (a crafted file?)") from None
        except expat.ExpatError as exc:
            raise _Refused(f"part {name} is not well-formed XML ({exc})") from None
        if whole and not exact and marks > lim.elements:
            self._scan(name, whole, exact=True)
        if chunks is not None:
            self._kept[name] = b"".join(chunks)
        if whole:
            self._marks[name] = marks
        self._checked.add(name)

    def check_part(self, name: str) -> None:
        """Step 2 for one more part about to be parsed whole (a sheet's or a
        drawing's relationships, when undo follows them)."""
        info = self.info(name)
        if info is not None and info.filename not in self._checked:
            try:
                self._scan(info.filename, whole=True)
            except _Refused as exc:
                raise WorkbookFileError(f"{self.where}: refused: {exc.why}") from None

    # ------------------------------------------------------------------ sheets

    def sheet_targets(self) -> Targets:
        """Sheet name -> every part it may be read from (usually one)."""
        if self._targets is None:
            try:
                self._targets = self._sheet_targets()
            except _Refused as exc:
                raise WorkbookFileError(f"{self.where}: refused: {exc.why}") from None
        return self._targets

    def _sheet_targets(self) -> Targets:
        rels_info = self.info("xl/_rels/workbook.xml.rels")
        targets: dict[str, list[str]] = {}
        for rel in self._elements(rels_info.filename, "Relationship") if rels_info else ():
            if rel.get("TargetMode") != "External" and rel.get("Target"):
                targets.setdefault(rel.get("Id", ""), []).append(rel["Target"])
        rids: dict[str, list[str]] = {}
        for sheet in self._elements(self.info("xl/workbook.xml").filename, "sheet"):
            rid = sheet.get(_REL_ID[0])
            if rid is None:
                rid = sheet.get(_REL_ID[1])  # Strict Open XML's relationships namespace
            name = sheet.get("name")
            if name is not None and rid is not None:
                rids.setdefault(name, []).append(rid)
        return Targets(self, targets, rids)

    def check_sheet(self, name: str) -> None:
        """Refuse, before it is parsed, a sheet whose part holds a DTD or whose
        values reach too far to lay out (a :class:`WorkbookError` naming the cell)."""
        from automation.workbook.safety import sheet_extent

        lim = self.limits
        for part in self.sheet_targets().get(name, ()):
            if part in self._checked:
                continue
            try:
                self._scan(part, whole=False)
            except _Refused as exc:
                raise WorkbookFileError(f"{self.where}: refused: {exc.why}") from None
            extent = sheet_extent(self.archive, part, self.where, limit=lim.cells)
            problems = []
            if extent.rows > lim.rows:
                problems.append(CellProblem(name, extent.lowest or f"A{extent.rows}",
                                            f"a value in row {extent.rows}; at most {lim.rows} rows are read: "
                                            "clear the cells below the table"))
            if extent.columns > lim.columns:
                problems.append(CellProblem(name, extent.rightmost or f"{column_letter(extent.columns)}1",
                                            f"a value in column {column_letter(extent.columns)}; at most "
                                            f"{lim.columns} columns are read: clear the cells right of the "
                                            "table"))
            if not problems and extent.cells > lim.cells:
                problems.append(CellProblem(name, extent.lowest, f"values reach row {extent.rows} and column "
                                            f"{column_letter(extent.columns)} ({extent.rightmost}), {extent.cells} "
                                            f"cells; at most {lim.cells} are read: clear the cells far from the "
                                            "table"))
            if not problems and (taken := self._shared_text(part)) > lim.part_bytes:
                problems.append(CellProblem(name, "A1", f"its cells take {taken // 2**20} MB of text from the "
                                            f"shared strings; at most {lim.part_bytes // 2**20} MB are read "
                                            "(a crafted file?)"))
            if problems:
                raise WorkbookError(problems, self.where)
            self._checked.add(part)

    def _shared_text(self, part: str) -> int:
        """At most how many bytes of text sheet part ``part`` takes from the
        shared strings (as the reader finds them: by their one name)."""
        strings = self.info("xl/sharedStrings.xml")
        if strings is None:
            return 0
        try:
            if self._text is None:
                self._text = SharedText(self._stream(strings.filename))
            return self._text.taken(self.archive.getinfo(part).file_size, lambda: self._stream(part),
                                    self.limits.part_bytes)
        except _Refused as exc:  # (a part damaged since the findings kept for the file were made)
            raise WorkbookFileError(f"{self.where}: refused: {exc.why}") from None


class _PrologDone(Exception):
    pass


def _local(tag: Any) -> str | None:
    """An ElementTree tag's local name (None for a comment or processing instruction)."""
    return tag.rpartition("}")[2] if isinstance(tag, str) else None


__all__ = ["Gate", "Limits", "MASTER", "PLAYER", "returned_limits"]

"""What the gate found in a master's lists, kept for the next command on the same file.

Every command opens the campaign through the gate
(:mod:`automation.workbook.gate`), which streams the parts that list every
sheet (the workbook part, its relationships, the content types, the styles,
``docProps/app.xml``) and parses the workbook part and its relationships for
the sheets, their parts and the defined names. A long campaign lists a
thousand sheets, so that is the one cost of opening it that grows with its
history. What the gate found depends on those parts' bytes alone, so it is
kept (:class:`Found`: the parts that passed their scan, each one's count of
``<``, the attributes of every sheet and relationship listed, the defined
names) in a file of :func:`folder` named by the SHA-256 of the zip directory
and the limits the file was checked with. The directory pins every part's
name, size, CRC-32 and place (the argument :mod:`automation.workbook.undoimage`
and the carried part stamps rest on too): a file with that directory holds
the parts that passed. The next gate of a file with that directory takes what
was found instead of scanning and parsing the lists again.

An append (:func:`automation.workbook.package.append_sheets`) carries what
was found forward to the file it writes (:func:`appended`): it knows the
sheets, relationships and defined names it added to the ends of the lists,
and the lists it wrote are those that passed with its own lines inserted,
which hold no DTD; each is counted again for ``<`` (elements) and ``xmlns``
(namespace declarations) against the limits, so a list grown past them is
left to the next gate to scan. So the command after a refit or an import
opens the campaign without parsing its lists either. The sheets whose cells
the append wrote itself, within the limits, are kept as checked too (it knows
how far their values reach and wrote no DTD): the first read of a refit's
roster is not scanned for them.

Only a master's findings are kept: a file a player sends back is always
checked whole. Only the umpire's own machine keeps them, in the user's cache
folder beside the carried folders (:mod:`automation.cachesetting`), readable
by the user alone; the :data:`KEPT` last kept or used are kept. A file that does not
read back whole (cut short, changed, of another format) is not used.
"""
from __future__ import annotations

import dataclasses
import hashlib
import marshal
import sys
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from automation.cachesetting import cache_folder, read_kept, sealed, unsealed, used, write_kept
from automation.workbook.zipraw import directory_of

FORMAT = f"9 marshal {marshal.version} python {sys.version_info[0]}.{sys.version_info[1]}"  # what reads a kept file
DEPTH = 8  # the findings of a file an append wrote are kept as what they add to those of the file it read, at most
# this many appends after findings kept whole (each command that opens the file reads the chain back)
SUFFIX = ".found"
KEPT = 256  # the findings last kept or used that are kept: a command needs those of the file it opens (of
# several campaigns or copies used in turn: tests/workbook/test_cache_room.py)
Attributes = Mapping[str, str]


_MAIN = "{http://schemas.openxmlformats.org/spreadsheetml/2006/main}"


@dataclass(frozen=True)
class Workbook:
    """The workbook part ``xl/workbook.xml`` and its relationships as an
    append or undo reads them (:meth:`automation.workbook.package._Package.listing`):
    the root element's tag; the attributes of each ``sheet`` of its
    ``sheets`` (None: it has none); each defined name of its
    ``definedNames`` as (name, localSheetId or "", text), and how many
    elements that holds (None: it has none); the attributes of each element
    of the relationships part (None: it has none)."""

    root: str
    sheets: tuple[Attributes, ...] | None
    names: tuple[tuple[str, str, str], ...]
    children: int | None
    rels: tuple[Attributes, ...] | None

    def sheet_names(self) -> list[str]:
        """The names of its sheets, in order."""
        return [a.get("name") or "" for a in self.sheets or ()]

    @classmethod
    def of(cls, tree: Any, rels: Any) -> Workbook:
        """From ElementTree's parse of the workbook part (``tree``) and of its relationships (``rels``, or None)."""
        holder = next((child for child in tree if child.tag == _MAIN + "sheets"), None)
        box = next((child for child in tree if child.tag == _MAIN + "definedNames"), None)
        names = () if box is None else tuple((sys.intern(n.get("name") or ""), n.get("localSheetId") or "",
                                              "".join(n.itertext())) for n in box if n.tag == _MAIN + "definedName")
        return cls(tree.tag,
                   None if holder is None else tuple(n.attrib for n in holder if n.tag == _MAIN + "sheet"),
                   names, None if box is None else len(box),
                   None if rels is None else tuple(child.attrib for child in rels))


@dataclass(frozen=True)
class Forms:
    """What a command found of a master's forms (the dated decision sheets
    and whether each is answered yet: :func:`automation.pbem.planning.answers`),
    kept with the findings of the file: ``stamp`` names what told them (its
    reader's code); ``pending`` names the forms not yet answered; ``unknown``
    the sheets that appends added since, each still to be told. A sheet named
    in neither is not a form waiting for its answer. Every sheet's part is pinned
    by the zip directory the findings are kept under, so what was told holds for
    every file with that directory."""

    stamp: str
    pending: tuple[str, ...]
    unknown: tuple[str, ...] = ()

    def appended(self, added: Sequence[str], renamed: Iterable[str]) -> Forms:
        """These forms in the file an append made, which added the sheets
        ``added`` and gave others new names (``renamed``: their names before)."""
        gone = set(renamed)
        return Forms(self.stamp, tuple(n for n in self.pending if n not in gone), (*self.unknown, *added))

    def to_plain(self) -> tuple[str, tuple[str, ...], tuple[str, ...]]:
        return self.stamp, tuple(self.pending), tuple(self.unknown)

    @classmethod
    def from_plain(cls, plain: Any) -> Forms | None:
        """From :meth:`to_plain`'s tuple (None: not one)."""
        if not (isinstance(plain, tuple) and len(plain) == 3 and isinstance(plain[0], str)
                and all(isinstance(names, tuple) and all(isinstance(n, str) for n in names) for names in plain[1:])):
            return None
        return cls(*plain)


@dataclass(frozen=True)
class Found:
    """What the gate found in a file's lists: the parts that passed their scan
    (``checked``; with them, the sheets an append wrote that pass the check
    before a sheet is parsed), each whole-scanned part's count of ``<`` (``marks``), the
    attributes of each element of the lists the gate reads, by (part, local
    name), in document order (``lists``), and the workbook's defined names,
    (name, text) in order (None: the package's main part is not
    ``xl/workbook.xml``)."""

    checked: frozenset[str]
    marks: Mapping[str, int]
    lists: Mapping[tuple[str, str], tuple[Attributes, ...]]
    names: tuple[tuple[str, str], ...] | None
    workbook: Workbook | None = None  # (None: the package has no xl/workbook.xml)
    # where an append's parse of a list part places its elements, by (part, what it skips): carried by the
    # append that wrote the part (automation.workbook.listfacts)
    docs: Mapping[tuple[str, str], tuple] = field(default_factory=dict, compare=False)
    # the parser lists the file's sheets as the workbook part's sheets are named (``workbook.sheets``), in
    # order: found when it first read the file (automation.workbook.reader.Workbook), carried by an append
    parsed_alike: bool = field(default=False, compare=False)
    forms: Forms | None = field(default=None, compare=False)  # (None: not told)
    # the parts' unpacked bytes in all, when the zip directory passed the gate's checks of each part
    # (automation.workbook.gatezip.open_zip) with the limits the findings are kept under (None: not told)
    unpacked: int | None = field(default=None, compare=False)
    # the SHA-256 ending the file these were read from or kept in (b"": not kept), and how many appends they are
    # kept after findings kept whole (what a file an append writes is kept as: after_bytes)
    kept_as: bytes = field(default=b"", compare=False)
    depth: int = field(default=0, compare=False)
    # the key and the findings of the file they are kept after, when they are kept as what they add to those
    after: tuple[str, Found] | None = field(default=None, compare=False, repr=False)

    def to_bytes(self, key: str) -> bytes:
        """The file kept: the findings as :mod:`marshal` writes them (the
        fastest form of plain values to write and read back: a campaign of a
        hundred dates lists a thousand sheets and relationships; tuples stay
        tuples), then the SHA-256 of that."""
        wb = self.workbook
        body = marshal.dumps((FORMAT, key, tuple(sorted(self.checked)), dict(self.marks),
                              tuple((part, local, tuple(every)) for (part, local), every in self.lists.items()),
                              None if self.names is None else tuple(self.names),
                              None if wb is None else (wb.root, wb.sheets, tuple(wb.names), wb.children, wb.rels),
                              tuple((part, skip, facts) for (part, skip), facts in self.docs.items()),
                              self.parsed_alike, None if self.forms is None else self.forms.to_plain(),
                              self.unpacked))
        return sealed(body)

    def after_bytes(self, key: str, parent_key: str, parent: Found) -> bytes | None:
        """The file kept for these findings as what they add to ``parent``'s
        (kept under ``parent_key``, in the file ending with ``parent.kept_as``),
        then its SHA-256; None when what they add does not give them back
        exactly (they are then kept whole)."""
        plain = _difference(parent, self)
        if not _alike(_applied(parent, plain), self):
            return None
        return sealed(marshal.dumps((FORMAT, key, parent_key, parent.kept_as, parent.depth + 1, plain)))

    @classmethod
    def from_bytes(cls, raw: bytes, key: str, parent_of: Callable[[str], Found | None] = lambda key: None
                   ) -> Found | None:
        """The findings of ``raw`` when it is a whole file of this format kept
        under ``key``: its SHA-256 tells a file cut short or changed (only the
        user's own commands write the folder, readable by the user alone, so
        what reads back whole is taken as written). A file kept as what the
        findings add to those of another file (:meth:`after_bytes`) gives
        them with those ``parent_of`` that file's key gives, when they are
        the ones it was kept after (read from the file ending with the same
        SHA-256)."""
        body = unsealed(raw)
        if body is None:
            return None
        try:
            kept = marshal.loads(body)
            if not isinstance(kept, tuple) or kept[:2] != (FORMAT, key):
                return None
            if len(kept) == 6:  # (what they add to the findings of the file an append read)
                _, _, parent_key, parent_sha, depth, plain = kept
                parent = parent_of(parent_key) if isinstance(parent_key, str) else None
                if parent is None or parent.kept_as != parent_sha or not isinstance(depth, int):
                    return None
                return dataclasses.replace(_applied(parent, plain), kept_as=raw[-32:], depth=depth,
                                           after=(parent_key, parent))
            _, _, checked, marks, lists, names, wb, docs, alike, forms, unpacked = kept
            if not (unpacked is None or isinstance(unpacked, int)):
                return None
            return cls(frozenset(checked), marks, {(part, local): found for part, local, found in lists}, names,
                       None if wb is None else Workbook(*wb), {(part, skip): facts for part, skip, facts in docs},
                       alike is True, None if forms is None else Forms.from_plain(forms), unpacked, raw[-32:])
        except (ValueError, EOFError, TypeError, IndexError, KeyError, AttributeError):
            return None


def _tail(old: tuple | None, new: tuple | None) -> tuple:
    """``new`` as what it changes of ``old`` and adds after it (its length
    within ``old``'s, the places it changes with their items, the items after
    them), or whole."""
    if old is None or new is None:
        return ("whole", new)
    n = min(len(old), len(new))
    changed = () if new[:n] == old[:n] else tuple((i, new[i]) for i in range(n) if new[i] is not old[i]
                                                    and new[i] != old[i])
    return ("tail", n, changed, tuple(new[n:]))


def _with_tail(old: tuple | None, plain: tuple) -> tuple | None:
    """The items :func:`_tail` said of ``old``."""
    if plain[0] == "whole":
        return plain[1]
    _, n, changed, after = plain
    if old is None or len(old) < n:
        raise ValueError("the findings they were kept after are shorter")
    kept = old[:n]
    if changed:
        items = list(kept)
        for i, item in changed:
            items[i] = item
        kept = tuple(items)
    return kept + after


def _difference(parent: Found, child: Found) -> tuple:
    """What ``child`` adds to ``parent``, in values marshal writes (:func:`_applied` gives ``child`` back)."""
    wb, pw = child.workbook, parent.workbook
    workbook = None if wb is None else (wb.root, _tail(pw.sheets if pw else None, wb.sheets),
                                        _tail(pw.names if pw else None, wb.names), wb.children,
                                        _tail(pw.rels if pw else None, wb.rels))
    return (tuple(sorted(child.checked - parent.checked)), tuple(sorted(parent.checked - child.checked)),
            dict(child.marks), tuple((part, local, _tail(parent.lists.get((part, local)), every))
                                     for (part, local), every in child.lists.items()),
            _tail(parent.names, child.names), workbook,
            tuple((part, skip, facts) for (part, skip), facts in child.docs.items()), child.parsed_alike,
            None if child.forms is None else child.forms.to_plain(), child.unpacked)


def _applied(parent: Found, plain: tuple) -> Found:
    """The findings that ``plain`` (:func:`_difference`) says add to ``parent``'s."""
    added, gone, marks, lists, names, wb, docs, alike, forms, unpacked = plain
    pw = parent.workbook
    workbook = None if wb is None else Workbook(wb[0], _with_tail(pw.sheets if pw else None, wb[1]),
                                                _with_tail(pw.names if pw else None, wb[2]) or (), wb[3],
                                                _with_tail(pw.rels if pw else None, wb[4]))
    return Found((parent.checked - frozenset(gone)) | frozenset(added), dict(marks),
                 {(part, local): _with_tail(parent.lists.get((part, local)), every) for part, local, every in lists},
                 _with_tail(parent.names, names), workbook, {(part, skip): facts for part, skip, facts in docs},
                 alike is True, None if forms is None else Forms.from_plain(forms), unpacked)


def _alike(one: Found, other: Found) -> bool:
    """Whether two findings hold the same, the fields equality leaves out too."""
    return one == other and one.docs == other.docs and one.parsed_alike == other.parsed_alike and \
        one.forms == other.forms and one.unpacked == other.unpacked


def folder() -> Path | None:
    """Where findings are kept (None: keeping is off, or no cache folder can be named)."""
    try:
        return cache_folder("checked")
    except (ImportError, OSError, RuntimeError):  # (the user's cache folder, found by platformdirs)
        return None


def key_of(directory: bytes, limits: object) -> str:
    """The key of a file whose zip directory is ``directory``, checked with ``limits``."""
    return hashlib.sha256(f"{FORMAT}\0{limits!r}\0".encode("utf-8") + directory).hexdigest()


def key_for(data: Any, limits: object) -> str | None:
    """The key of the file ``data`` (None: keeping is off, or the file does not end with its directory)."""
    if folder() is None:
        return None
    directory = directory_of(data)
    return key_of(directory, limits) if directory is not None else None


def find(key: str, depth: int = 0) -> Found | None:
    """The findings kept under ``key``, if any read back whole (with those of
    the files before it, for findings kept as what an append added)."""
    where = folder()
    raw = read_kept(where, f"{key[:40]}{SUFFIX}")
    found = Found.from_bytes(raw, key, lambda before: find(before, depth + 1) if depth < DEPTH else None) \
        if raw is not None else None
    if found is not None:
        used(where / f"{key[:40]}{SUFFIX}")  # type: ignore[operator]
    return found


def keep(key: str, found: Found, after: tuple[str, Found] | None = None) -> Found:
    """Keep ``found`` under ``key`` (best effort: findings that cannot be kept
    are only found again by the next gate); ``after``: the key and findings
    of the file an append read (or that the findings kept before under
    ``key`` were kept after), which they are kept as what they add to,
    while fewer than :data:`DEPTH` appends follow findings kept whole. The
    findings as kept (``kept_as``: b"" when they were not)."""
    where = folder()
    if where is None:
        return found
    raw = None
    if after is not None and after[1].kept_as and after[1].depth < DEPTH:
        raw = found.after_bytes(key, after[0], after[1])
    if raw is None:
        raw, after = found.to_bytes(key), None
    if not write_kept(where, f"{key[:40]}{SUFFIX}", raw, SUFFIX, KEPT):
        return found
    return dataclasses.replace(found, kept_as=raw[-32:], depth=after[1].depth + 1 if after else 0, after=after)


def appended(found: Found, written: Mapping[str, bytes], *, elements: int, namespaces: int,
             added: Mapping[tuple[str, str], Sequence[Attributes]], names: Sequence[tuple[str, str, str]],
             changed: Mapping[tuple[str, str], Mapping[int, Attributes]] | None = None,
             docs: Mapping[tuple[str, str], tuple] | None = None, checked: Iterable[str] = (),
             unpacked: int | None = None) -> Found | None:
    """The findings of a file made from the one of ``found`` by writing the
    list parts ``written`` (name -> bytes: each one that passed, with lines
    inserted into it and attributes set), whose lists gained the elements
    ``added`` (by part and local name, at their ends) and the defined names
    ``names`` ((name, localSheetId or "", text), at the end), and whose
    elements ``changed`` (by part and local name, then place in the list)
    now have the attributes given; ``docs``: where an append's parse places
    the elements of the parts written (see :attr:`Found.docs`); ``checked``:
    the sheet parts the append wrote whose cells it wrote itself, within the
    limits (what :meth:`automation.workbook.gate.Gate.check_sheet` asks of
    a sheet before it is parsed: the append knows how far their values
    reach, and wrote no document type); ``unpacked``: the new file's parts'
    unpacked bytes in all, when its zip directory passes the checks of each
    part (:func:`automation.workbook.gatezip.unpacked_after`). The workbook part's lists as an append
    reads them (:class:`Workbook`) change alike: its sheets as the list of
    ``xl/workbook.xml``'s ``sheet`` elements, its relationships as that of
    ``xl/_rels/workbook.xml.rels``'s ``Relationship`` elements.
    None when they cannot be told without a scan: a part written that had not
    passed whole, one that now holds a DTD or entity, more ``<`` than
    ``elements`` or more ``xmlns`` than ``namespaces``, a list not found
    before, or no defined names found (the main part is elsewhere)."""
    if found.names is None:
        return None
    marks = dict(found.marks)
    for name, data in written.items():
        if name not in found.checked or name not in found.marks:
            return None
        if b"<!DOCTYPE" in data or b"<!ENTITY" in data:
            return None
        marks[name] = data.count(b"<")
        if marks[name] > elements or data.count(b"xmlns") > namespaces:
            return None
    lists = dict(found.lists)
    for where, now in (changed or {}).items():
        if where not in lists or where[0] not in written or not all(0 <= i < len(lists[where]) for i in now):
            return None
        lists[where] = _with(lists[where], now)
    for where, more in added.items():
        if where not in lists or where[0] not in written:
            return None
        lists[where] = (*lists[where], *more)
    workbook = found.workbook
    sheets_at, rels_at = ("xl/workbook.xml", "sheet"), ("xl/_rels/workbook.xml.rels", "Relationship")
    if sheets_at not in added or rels_at not in added:  # (lists of other parts: the next gate reads these)
        workbook = None
    if workbook is not None:
        sheets = workbook.sheets
        if sheets is not None:
            sheets = (*_with(sheets, (changed or {}).get(sheets_at, {})), *added.get(sheets_at, ()))
        rels = None if workbook.rels is None else (*workbook.rels, *added.get(rels_at, ()))
        children = workbook.children if not names else (workbook.children or 0) + len(names)
        workbook = Workbook(workbook.root, sheets, (*workbook.names, *names), children, rels)
    forms = found.forms if sheets_at in added else None  # (the sheets added not told: the forms are told anew)
    if forms is not None:  # the sheets added and renamed are told again; the others are as they were
        before, now = found.lists.get(sheets_at, ()), (changed or {}).get(sheets_at, {})
        renamed = {before[i].get("name") or "": a.get("name") or "" for i, a in now.items()
                   if (before[i].get("name") or "") != (a.get("name") or "")}
        forms = forms.appended([a.get("name") or "" for a in added.get(sheets_at, ())] + list(renamed.values()),
                               renamed)
    return Found(found.checked | frozenset(checked), marks, lists, (*found.names, *((n, t) for n, _, t in names)),
                 workbook,
                 {where: facts for where, facts in (docs or {}).items() if where[0] in written},
                 found.parsed_alike and workbook is not None,  # (the sheets it added: named as it wrote them)
                 forms, unpacked)


def _with(items: tuple[Attributes, ...], now: Mapping[int, Attributes]) -> tuple[Attributes, ...]:
    """``items`` with those at the places of ``now`` replaced by its (a few of a thousand: the rest not
    walked); a place past the end, or before the start, changes nothing."""
    if not now:
        return items
    out = list(items)
    for i, attributes in now.items():
        if 0 <= i < len(out):
            out[i] = attributes
    return tuple(out)


__all__ = ["Forms", "Found", "Workbook", "appended", "find", "folder", "keep", "key_for", "key_of"]

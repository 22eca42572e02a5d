"""What ``musterroll verify`` (without the key) reads of each report, carried
from run to run.

To walk the chain, verify needs of each report only its tamper-evidence rows
(the links), where they start, its header and its length; reading them means
parsing the whole report. They are a pure function of the report's stored
bytes, so they are kept in the campaign's carried folder
(:mod:`automation.pbem.carry`), under the report part's fingerprint
(:func:`automation.audit.parts.fingerprint`: the SHA-256 of its stored bytes,
of the shared strings and styles, and the date system). A report whose stored
bytes changed has another fingerprint and is read again; a report whose own
digest must be recomputed (its part changed since it was sealed) is read in
full as before.

The fingerprints themselves are carried too, by the stamp they are a
function of (:func:`automation.audit.parts.stamp`: the names, CRC-32 and
sizes of the parts, from the zip directory): a long campaign's sealed sheets
are not hashed again on every run, only those whose stamp is new. Nothing
else is carried: every link is still compared with the one before it, every
sealed sheet's fingerprint with the one recorded.

The store is work already done, never a source of trust: it is used only
without the key. With the key every report is read and every seal checked
against the key, so no carried file can stand in for what the
key proves. (Without the key a careful forger could recompute the whole
chain anyway: the chain alone catches edits made in a spreadsheet program,
which rewrite every part and so every fingerprint.)
"""
from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from automation.audit.chain import Link
from automation.audit.inputs import INPUT_TAGS

FORMAT = 7
FILE = "verify-chain.json"
WALK_FILE = "verify-walk"  # verify-walk-DIGEST.json: the walks that begin with one report
WALKS = 6  # clean walks kept, the newest first
TAG_KINDS = ("rows", "columns")  # a sealed sheet's row and column tags: read again only to locate a change
PLACEHOLDER = "~ "  # one carried input-sheet row tag (only their number is carried)


@dataclass(frozen=True)
class ReportChain:
    """What verify reads of one report sheet, without its rows."""

    is_report: bool
    start: int
    links: tuple[Link, ...]
    header: tuple[Any, ...]
    length: int
    tags: bool = True  # the links include the row and column tags (False: carried without them)

    @classmethod
    def of(cls, name: str, rows: list[list[Any]]) -> ReportChain:
        from automation.audit.chain import chain_links
        from automation.pbem.reports import is_report

        if not rows or not is_report(name, rows[0]):
            return cls(False, 0, (), (), len(rows))
        start, links = chain_links(rows)
        return cls(True, start, tuple(links), tuple(rows[0]), len(rows))

    def to_json(self) -> list[Any]:
        """Kept without the row and column tags of the sheets sealed (the bulk of
        a report's links): they are needed only to name the cell of a change,
        and then the report is read again. Of an input sheet's row tags only
        their number is kept: it is all the walk uses of them
        (:meth:`automation.audit.inputs.Inputs.apply`)."""
        return [self.is_report, self.start, [[ln.row, ln.kind, ln.target,
                                              len(ln.value.split()) if ln.kind == INPUT_TAGS else ln.value]
                                             for ln in self.links if ln.kind not in TAG_KINDS],
                [h if isinstance(h, (str, int, float)) or h is None else str(h) for h in self.header], self.length]

    @classmethod
    def from_json(cls, data: list[Any]) -> ReportChain:
        """The carried chain rows; an input sheet's row tags come back as as many
        placeholders (``~``) as there were tags."""
        is_report, start, links, header, length = data
        return cls(bool(is_report), int(start),
                   tuple(Link(int(r), str(k), str(t), PLACEHOLDER * int(v) if k == INPUT_TAGS else str(v))
                         for r, k, t, v in links),
                   tuple(header), int(length), tags=False)


class ChainStore:
    """The carried :class:`ReportChain` of each report of one workbook, by
    fingerprint, the fingerprints by stamp, and the last clean :class:`Walk`
    (each file read only when first needed)."""

    def __init__(self, book: Any, path: Path | None, context: str) -> None:
        self.book, self.path, self.context = book, path, context
        self._entries: dict[str, list[Any]] | None = None
        self._prints: dict[str, str] = {}  # stamp -> fingerprint
        self.used: set[str] = set()
        self.stamps_used: set[str] = set()
        self.changed = False
        self._kept_walks: dict[str, list[Any]] = {}  # by the first report: the walks kept (JSON)

    def _load(self) -> None:
        """Read the file the chain rows and the fingerprints are kept in, when first needed."""
        if self._entries is not None:
            return
        self._entries = {}
        if self.path is not None:
            try:
                data = json.loads(self.path.read_text(encoding="utf-8"))
                if isinstance(data, dict) and data.get("context") == self.context:
                    self._entries = dict(data.get("reports") or {})
                    self._prints = {str(k): str(v) for k, v in (data.get("fingerprints") or {}).items()}
            except (OSError, ValueError, TypeError, AttributeError):
                self._entries, self._prints = {}, {}

    @property
    def entries(self) -> dict[str, list[Any]]:
        self._load()
        assert self._entries is not None
        return self._entries

    @property
    def prints(self) -> dict[str, str]:
        self._load()
        return self._prints

    @classmethod
    def of(cls, book: Any) -> ChainStore:
        """The store beside ``book`` (a file read through the gate), or one that keeps nothing."""
        from automation.pbem.carry import _code_stamp, folder_for

        if getattr(book, "gate", None) is None or getattr(book, "decrypted", False) or not getattr(book, "path", None):
            return cls(book, None, "")
        folder = folder_for(book)
        if folder is None:
            return cls(book, None, "")
        context = hashlib.sha256(f"{FORMAT}|{_code_stamp()}".encode()).hexdigest()[:32]
        return cls(book, folder / FILE, context)

    def fingerprint(self, name: str) -> str | None:
        """The fingerprint of sheet ``name`` (:func:`automation.audit.parts.fingerprint`),
        worked out only if its stamp is new."""
        from automation.audit.parts import fingerprint, stamp

        if self.path is None:
            return fingerprint(self.book, name)
        key = stamp(self.book, name)
        if key is not None and key in self.prints:
            self.stamps_used.add(key)
            return self.prints[key]
        found = fingerprint(self.book, name)
        if key is not None and found is not None:
            self.prints[key] = found
            self.stamps_used.add(key)
            self.changed = True
        return found

    def get(self, name: str) -> ReportChain:
        """``name``'s chain rows: carried while its stored bytes are those they were read from."""
        print_ = self.fingerprint(name) if self.path is not None else None
        if print_ is not None and print_ in self.entries:
            try:
                self.used.add(print_)
                return ReportChain.from_json(self.entries[print_])
            except (TypeError, ValueError):
                pass
        found = ReportChain.of(name, self.book.raw(name))
        if print_ is not None:
            self.entries[print_] = found.to_json()
            self.used.add(print_)
            self.changed = True
        return found

    def save(self) -> None:
        """Keep what was read (best effort: a folder that cannot be written only costs time next run)."""
        from automation.pbem.carry import kept_absent, keep_file, make_folder

        if self.path is None or self._entries is None or not self.changed:
            return
        # what this run did not look up is kept for the campaign's copies at other dates (up to a bound),
        # as it is when a walk stood in for the reports it would have looked up
        reports = kept_absent(self._entries, self.used)
        prints = kept_absent(self._prints, self.stamps_used)
        try:
            make_folder(self.path.parent)
            text = json.dumps({"context": self.context, "reports": reports, "fingerprints": prints},
                              ensure_ascii=False, separators=(",", ":"))
            keep_file(self.path, lambda fh: fh.write(text.encode("utf-8")))
        except (OSError, TypeError, ValueError):
            return

    # ------------------------------------------------------------------ the walk

    def _walk_file(self, first: str) -> Path | None:
        """The file of the walks that begin with report ``first`` (whose stamp
        it is named by): copies of one campaign that went different ways, or
        two campaigns grown from one sample, keep theirs apart."""
        stamp = self.book.part_stamp(first) if self.path is not None else None
        if stamp is None:
            return None
        digest = hashlib.sha256(f"{first}\x00{stamp}".encode("utf-8")).hexdigest()[:16]
        return self.path.parent / f"{WALK_FILE}-{digest}.json"

    def _walks(self, first: str) -> list[Any]:
        """The walks kept (as JSON) that begin with report ``first``, the newest first; read once."""
        if first not in self._kept_walks:
            found: list[Any] = []
            try:
                path = self._walk_file(first)
                data = json.loads(path.read_text(encoding="utf-8")) if path is not None else None
                if isinstance(data, dict) and data.get("context") == self.context and isinstance(data.get("walks"), list):
                    found = data["walks"][:WALKS]
            except (OSError, ValueError, TypeError, AttributeError):
                found = []
            self._kept_walks[first] = found
        return self._kept_walks[first]

    def walk(self, named: list[str], commitment: str) -> Walk | None:
        """The longest walk an earlier run kept that still holds for the first
        reports of ``named`` (see :class:`Walk`): the last :data:`WALKS` clean
        walks are kept, so copies of the campaign at different dates each find
        theirs."""
        if self.path is None or not named:
            return None
        best: Walk | None = None
        for data in self._walks(named[0]):
            try:
                walk = Walk.from_json(data)
            except (ValueError, TypeError, KeyError, AttributeError, IndexError):
                continue
            if (best is None or len(walk.reports) > len(best.reports)) and walk.holds(self.book, named, commitment):
                best = walk
        return best

    def keep_walk(self, walk: Walk) -> None:
        """Keep ``walk`` for the next run, first of the walks kept (best effort)."""
        from automation.pbem.carry import keep_file, make_folder

        if self.path is None or not walk.reports:
            return
        first = walk.reports[0][0]
        try:
            path = self._walk_file(first)
            if path is None:
                return
            new = walk.to_json()
            walks = [new] + [w for w in self._walks(first) if isinstance(w, dict) and w.get("reports") != new["reports"]]
            self._kept_walks[first] = walks[:WALKS]
            make_folder(path.parent)
            text = json.dumps({"context": self.context, "walks": self._kept_walks[first]}, ensure_ascii=False,
                              separators=(",", ":"))
            keep_file(path, lambda fh: fh.write(text.encode("utf-8")))
        except (OSError, TypeError, ValueError):
            return


@dataclass(frozen=True)
class Walk:
    """Where a walk of the chain without the key stood after its last report,
    when it found no problem on the way: the reports walked and every sheet
    they sealed, each with its stamp (:meth:`automation.workbook.reader.Workbook.part_stamp`:
    the CRC-32 and sizes of its part, from the zip directory), and what the
    walk had gathered (the last digest, who sealed what, the input sheets as
    recorded, the dates).

    While every one of those reports is still first in the workbook, in the
    same order and with the same stamp, and every sheet they sealed is there
    with the same stamp (and the shared strings, styles, date system and key
    commitment are the same), walking them again would read the same bytes
    and find the same: the next run starts after them. Any other change (an
    edit, a sheet removed, an undo) walks from the first report again."""

    commitment: str
    shared: str
    reports: tuple[tuple[str, str], ...]  # the sheets named as reports, first to last, each with its stamp
    chain: tuple[str, ...]  # those of them that are reports of the chain
    sealed: tuple[tuple[str, str], ...]  # every sheet they sealed, with its stamp
    prev: tuple[str, str]  # the last report walked and the digest the next one must link to
    sealed_by: dict[str, str]
    dates: tuple[str, ...]
    sealed_sheets: int
    inputs: dict[str, Any]

    def holds(self, book: Any, named: list[str], commitment: str) -> bool:
        from automation.audit.parts import shared_stamp

        if commitment != self.commitment or shared_stamp(book) != self.shared or len(self.reports) > len(named):
            return False
        if any(named[i] != name for i, (name, _) in enumerate(self.reports)) or \
                not all(book.has(sheet) for sheet, _ in self.sealed):
            return False
        kept = [*self.reports, *self.sealed]
        return _stamps(book, [name for name, _ in kept]) == [stamp for _, stamp in kept]

    def to_json(self) -> dict[str, Any]:
        return {"commitment": self.commitment, "shared": self.shared, "reports": [list(r) for r in self.reports],
                "chain": list(self.chain), "sealed": [list(s) for s in self.sealed], "prev": list(self.prev),
                "sealed_by": self.sealed_by, "dates": list(self.dates), "sealed_sheets": self.sealed_sheets,
                "inputs": self.inputs}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Walk:
        return cls(str(data["commitment"]), str(data["shared"]),
                   tuple((str(n), str(s)) for n, s in data["reports"]), tuple(str(n) for n in data["chain"]),
                   tuple((str(n), str(s)) for n, s in data["sealed"]),
                   (str(data["prev"][0]), str(data["prev"][1])), {str(k): str(v) for k, v in data["sealed_by"].items()},
                   tuple(str(d) for d in data["dates"]), int(data["sealed_sheets"]), dict(data["inputs"]))


def _stamps(book: Any, names: list[str]) -> list[str | None]:
    """The part stamp of each of ``names``: found in one pass where the reader
    can (:meth:`automation.workbook.reader.Workbook.part_stamps`: a long
    campaign's walk holds two hundred reports and a thousand sheets they
    sealed), else one by one."""
    every = getattr(book, "part_stamps", None)
    return list(every(names)) if every is not None else [book.part_stamp(name) for name in names]

"""What ``musterroll verify`` (without the key) reads of each report, carried
from run to run.

To walk the chain, verify needs of each report only its tamper-evidence rows
(the links), where they start, its header and its length; reading them means
parsing the whole report. They are a pure function of the report's stored
bytes, so they are kept, beside the workbook in ``.BOOK.xlsx.carried/``
(:mod:`automation.pbem.carry`), under the report part's fingerprint
(:func:`automation.audit.parts.fingerprint`: the SHA-256 of its stored bytes,
of the shared strings and styles, and the date system). A report whose stored
bytes changed has another fingerprint and is read again; a report whose own
digest must be recomputed (its part changed since it was sealed) is read in
full as before. Nothing else is carried: every link is still compared with
the one before it, every sealed sheet's fingerprint with the one recorded.

The store is work already done, never a source of trust: it is used only
without the key. With the key every report is read and every seal checked
against the key, so no file beside the workbook can stand in for what the
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

FORMAT = 2
FILE = "verify-chain.json"
TAG_KINDS = ("rows", "columns")  # a sealed sheet's row and column tags: read again only to locate a change


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
        and then the report is read again."""
        return [self.is_report, self.start, [[ln.row, ln.kind, ln.target, ln.value] for ln in self.links
                                             if ln.kind not in TAG_KINDS],
                [h if isinstance(h, (str, int, float)) or h is None else str(h) for h in self.header], self.length]

    @classmethod
    def from_json(cls, data: list[Any]) -> ReportChain:
        is_report, start, links, header, length = data
        return cls(bool(is_report), int(start), tuple(Link(int(r), str(k), str(t), str(v)) for r, k, t, v in links),
                   tuple(header), int(length), tags=False)


class ChainStore:
    """The carried :class:`ReportChain` of each report of one workbook, by fingerprint."""

    def __init__(self, book: Any, path: Path | None, context: str) -> None:
        self.book, self.path, self.context = book, path, context
        self.entries: dict[str, list[Any]] = {}
        self.used: set[str] = set()
        self.changed = False
        if path is not None:
            try:
                data = json.loads(path.read_text(encoding="utf-8"))
                if isinstance(data, dict) and data.get("context") == context:
                    self.entries = dict(data.get("reports") or {})
            except (OSError, ValueError, TypeError):
                self.entries = {}

    @classmethod
    def of(cls, book: Any) -> ChainStore:
        """The store beside ``book`` (a file read through the gate), or one that keeps nothing."""
        from automation.pbem.carry import _code_stamp, folder_for

        if getattr(book, "gate", None) is None or getattr(book, "decrypted", False) or not getattr(book, "path", None):
            return cls(book, None, "")
        context = hashlib.sha256(f"{FORMAT}|{_code_stamp()}".encode()).hexdigest()[:32]
        return cls(book, folder_for(Path(book.path)) / FILE, context)

    def get(self, name: str) -> ReportChain:
        """``name``'s chain rows: carried while its stored bytes are those they were read from."""
        from automation.audit.parts import fingerprint

        print_ = fingerprint(self.book, name) if self.path is not None else None
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
        from automation.pbem.carry import keep_file

        if self.path is None or not (self.changed or set(self.entries) - self.used):
            return
        try:
            self.path.parent.mkdir(exist_ok=True)
            text = json.dumps({"context": self.context, "reports": {k: self.entries[k] for k in sorted(self.used)}},
                              ensure_ascii=False, separators=(",", ":"))
            keep_file(self.path, lambda fh: fh.write(text.encode("utf-8")))
        except (OSError, TypeError, ValueError):
            return

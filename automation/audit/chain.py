"""Tamper evidence for campaign workbooks: the chain over the refit reports.

Sealing (called by :func:`automation.service.refit` after planning and before
appending): every report the refit writes ends with "Tamper evidence" rows,
visible to the umpire only (they never go into a player's export):

* ``previous report: NAME`` -- the digest of the report before it (for the
  first report: a digest of the campaign key's commitment), so the reports form
  a chain in workbook order;
* ``sheet: NAME`` with ``rows: NAME`` and ``columns: NAME`` -- the digest of each
  dated sheet the report seals (the sheets written with it, such as the roster
  and ledger, and every dated sheet added since the last report that it did
  not seal: orders, spending, results, the first roster), with a short tag per
  row and per column so that an edited value can be found by its row and
  column;
* ``rows: NAME`` and ``columns: NAME`` of the report itself;
* ``input: NAME``, ``input tags: NAME`` and ``input row: NAME!N`` -- every
  input sheet that is not dated (settings, dates, charts, tables, modifiers),
  as the refit read it (first report of a refit only; see
  :mod:`automation.audit.inputs`);
* ``this report: NAME`` -- the digest of everything above it (values only, so
  formatting may change freely);
* ``seal: NAME`` -- an HMAC of that digest with the campaign key: only whoever
  holds the key could have written it.

The stage report that completes a date (the one written with the roster and
ledger) also gets a "Dice statistics" section before its tamper evidence: the
totals of the last such section carried on with the rolls since
(:class:`automation.pbem.stats.Tally`). Sealing reads only the last few
reports, so it costs the same on the hundredth date as on the first.

:mod:`automation.audit.verify` walks the chain; :mod:`automation.audit.replay`
runs every refit again with the key.
"""
from __future__ import annotations

import dataclasses
import functools
import hashlib
import hmac
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import automation.audit.inputs as recorded
from automation.engine.dice import CampaignKey
from automation.keys import key_path_for, read_key
from automation.pbem.reports import (
    AUDIT_RULE, CHAIN_STEP, UMPIRE, Header, canonical, chain_digest, chain_start, column_tags, genesis, is_report,
    kind_of, roll_rows, row_tags, row_texts, sheet_digest, sheet_kinds, title_pattern,
    title_prefix,
)

if TYPE_CHECKING:
    from automation.pbem.stats import Tally

START = "(campaign start)"
SEAL_PREFIX = b"musterroll/seal/v1\x00"
TAGS_PER_CELL = recorded.TAGS_PER_CELL


def seal_of(key: CampaignKey, digest: str) -> str:
    return hmac.new(key.secret, SEAL_PREFIX + digest.encode("ascii"), hashlib.sha256).hexdigest()


def workbook_system(book: Any) -> tuple[dict[str, Any], Any]:
    """The campaign's settings and its rule system as the workbook's tables hold it."""
    from automation.workbook.tables_io import campaign_settings, system_of
    from automation.workbook.tables_io import system_from_workbook

    settings = campaign_settings(book)
    return settings, system_from_workbook(book, system_of(book, settings))


def is_dated_input(name: str, header: list[Any] | None = None) -> bool:
    """A dated sheet of the contract other than a report (orders, results, roster,
    ledger...): its name fits a dated kind's pattern and, when ``header`` is
    given, the header holds that kind's columns (an umpire's own sheet that only
    happens to have such a name is left alone). Two systems may share a title
    (Battlefront's and A Bridge Too Far's "Orders <date> <side>"): any kind
    whose name and columns fit will do."""
    from automation.audit.desk import is_desk_log

    if is_desk_log(name, header):  # the desk's and trackers' logs: sealed by the next refit like orders
        return True
    present = {str(h).strip() for h in header if h not in (None, "")} if header is not None else None
    for prefix, pattern, columns in _dated_kinds():
        if not name.startswith(prefix) or not pattern.match(name):  # (a pattern begins with its prefix)
            continue
        if present is None or all(c in present for c in columns):
            return True
    return False


@functools.lru_cache(maxsize=1)
def _dated_kinds() -> tuple[tuple[str, Any, tuple[str, ...]], ...]:
    """(the text names begin with, name pattern, column names) of every dated kind but the report (built once: a
    kind is costly to hash; verify asks about each of a long campaign's thousand sheets, most of them of one kind
    alone: the pattern is tried only on a name that begins as its title does)."""
    return tuple((title_prefix(k), title_pattern(k), tuple(c.name for c in k.columns)) for k in sheet_kinds()
                 if k.dated and k.tab != "report")


class Reads:
    """A reader that notes every sheet read through it: what a refit read is
    what its report seals."""

    def __init__(self, book: Any) -> None:
        self._book = book
        self.names: list[str] = []

    def __getattr__(self, name: str) -> Any:
        return getattr(self._book, name)

    def _note(self, name: str) -> None:
        if name not in self.names:
            self.names.append(name)

    def has(self, name: str) -> bool:
        return self._book.has(name)

    def raw(self, name: str) -> list[list[Any]]:
        self._note(name)
        return self._book.raw(name)

    def read(self, kind: Any, name: str | None = None, lists: Any = None) -> list[Any]:
        self._note(name or kind.title)
        return self._book.read(kind, name, lists)

    def read_lists(self, name: str = "Lists") -> dict[str, list[str]]:
        self._note(name)
        return self._book.read_lists(name)


# ------------------------------------------------------------------ the chain rows

@dataclass(frozen=True)
class Link:
    """One tamper-evidence row: ``kind: target`` -> value, at a sheet row."""

    row: int  # 1-based
    kind: str
    target: str
    value: str


def chain_links(rows: list[list[Any]]) -> tuple[int, list[Link]]:
    h = Header.of(rows[0])
    start = chain_start(h, rows)
    links = []
    for i, row in enumerate(rows[start:], start=start):
        subject = str(h.get(row, "Subject") or "")
        kind, _, target = subject.partition(": ")
        links.append(Link(i + 1, kind, target, str(h.get(row, "Result") or "")))
    return start, links


def _row(header: list[Any], kind: str, target: str, value: str) -> list[Any]:
    h = Header.of(header)
    out: list[Any] = [None] * len(header)
    for column, v in (("Step", CHAIN_STEP), ("Rule", AUDIT_RULE), ("Subject", f"{kind}: {target}"),
                      ("Result", value), ("Visible to", UMPIRE)):
        if column in h.positions:
            out[h.positions[column]] = v
    return out


def _tag_rows(header: list[Any], name: str, rows: list[list[str]], texts: list[str] | None = None) -> list[list[Any]]:
    out = []
    for kind, tags in (("rows", row_tags(name, rows, texts)), ("columns", column_tags(name, rows))):
        for i in range(0, max(len(tags), 1), TAGS_PER_CELL):
            out.append(_row(header, kind, name, " ".join(tags[i:i + TAGS_PER_CELL])))
    return out


def _sheet_rows(header: list[Any], name: str, rows: list[list[str]]) -> list[list[Any]]:
    texts = row_texts(rows)  # (each row encoded once for the digest and the tags)
    return [_row(header, "sheet", name, sheet_digest(name, rows, texts))] + _tag_rows(header, name, rows, texts)


# ------------------------------------------------------------------ sealing

@dataclass
class History:
    """What sealing needs from the reports already in the workbook, read from
    the last few only: the last report's name and digest (the new report's
    link), the sheets not sealed yet, and the running dice statistics."""

    prev_name: str
    prev_digest: str
    pending: list[str]
    tally: Tally
    inputs: dict[str, list[str]] = field(default_factory=dict)


def _reports_backwards(book: Any, names: list[str], before: int | None = None) -> Iterator[tuple[int, str, list[list[Any]]]]:
    """The workbook's reports (those before index ``before``), last first (a sheet is parsed only when reached)."""
    for i in range((len(names) if before is None else before) - 1, -1, -1):
        if not is_report(names[i]):
            continue
        rows = book.raw(names[i])
        if rows and is_report(names[i], rows[0]):
            yield i, names[i], rows


def _intact(name: str, rows: list[list[Any]], links: list[Link]) -> bool:
    """The report still has the content its own 'this report' digest was made of."""
    this = next((ln for ln in links if ln.kind == "this report"), None)
    return this is not None and this.value == chain_digest(name, canonical(rows[:this.row - 1]))


def history(book: Any, commitment: str, system: Any, with_stats: bool = True) -> History:
    """Read back from the end of the workbook: the last report gives the chain's
    link (its own 'this report' row; its digest is recomputed only when that row
    is missing) and, with its 'sheet' rows, what it sealed: the dated sheets
    after it that it did not seal are pending. The dice statistics are carried
    from the last intact report that has a statistics section, with the rolls of
    the reports after it added. In a campaign sealed as it went, that is one
    report or two (the date's stage 1 and the date before's stage 2) whatever
    the campaign's length; the whole history is read
    only when no report carries statistics yet (the first date). Without
    ``with_stats`` only the last report is read."""
    from automation.pbem.stats import Tally

    names = list(book.sheet_names)
    prev_name, prev_digest, after, sealed = START, genesis(commitment), 0, set()
    later: list[list[Any]] = []
    tally: Tally | None = None
    inputs: dict[str, list[str]] = {}
    earliest = len(names)
    for i, name, rows in _reports_backwards(book, names):
        _, links = chain_links(rows)
        earliest = i
        inputs = inputs or recorded.recorded_tags(links)
        if not after:  # the last report
            this = next((ln.value for ln in links if ln.kind == "this report"), None)
            prev_name, prev_digest = name, this or chain_digest(name, canonical(rows))
            after, sealed = i + 1, {ln.target for ln in links if ln.kind == "sheet"}
            if not with_stats:
                break
        found = Tally.carried(rows, system)
        if found is not None and _intact(name, rows, links):
            tally = found
            break
        later.append(roll_rows(name, rows))
    tally = tally or Tally()
    for rolls in reversed(later):
        tally.add(rolls, system)
    if not inputs:  # the last record of the inputs, further back than the reports read above
        for _, _, rows in _reports_backwards(book, names, earliest):
            inputs = recorded.recorded_tags(chain_links(rows)[1])
            if inputs:
                break
    pending = [n for n in names[after:] if n not in sealed and is_dated_input(n)
               and is_dated_input(n, (book.raw(n)[:1] or [[]])[0])]
    return History(prev_name, prev_digest, pending, tally, inputs)


PART = "part"
SEALED_BY = "sealed by"


def sealer() -> str:
    """What a report records as the program that sealed it (replay compares
    the wording of a report only with the version that wrote it)."""
    from automation import __version__

    return f"musterroll {__version__}"


def sealed_by(rows: list[list[Any]]) -> str | None:
    """The program that sealed a report (None: sealed before reports recorded it)."""
    return next((ln.value for ln in chain_links(rows)[1] if ln.kind == SEALED_BY), None) if rows else None
PARTS_LOOKBACK = 12  # reports read back for sheets not fingerprinted yet (a campaign sealed before fingerprints)


def part_rows(book: Any, pending: Sequence[tuple[str, str]]) -> list[tuple[str, str]]:
    """(sheet, ``<fingerprint> <digest>``) for every sheet whose stored part
    can be fingerprinted with its values checked now: the dated sheets this
    report seals (``pending``: name, digest, computed from the same part), and
    the sheets of the refits before that no report has fingerprinted yet (the
    reports, and the sheets they sealed) whose values still have the digest
    the chain recorded for them; a sheet edited since is left to the
    cell-by-cell check of verify, which names the edit."""
    from automation.audit.parts import fingerprint, part_value

    out = [(name, part_value(fp, digest)) for name, digest in pending if (fp := fingerprint(book, name))]
    if getattr(book, "gate", None) is None:
        return out
    seen = {name for name, _ in pending}
    names = list(book.sheet_names)
    visited = 0
    for name in reversed(names):
        if not is_report(name):
            continue
        if name in seen or visited >= PARTS_LOOKBACK:
            break
        visited += 1
        rows = book.raw(name)
        if not rows or not is_report(name, rows[0]):
            continue
        _, links = chain_links(rows)
        seen |= {ln.target for ln in links if ln.kind == PART}
        this = next((ln for ln in links if ln.kind == "this report"), None)
        if this is not None and _intact(name, rows, links) and (fp := fingerprint(book, name)):
            out.append((name, part_value(fp, this.value)))
        for ln in links:
            if ln.kind != "sheet" or ln.target in seen or not book.has(ln.target):
                continue
            seen.add(ln.target)
            if sheet_digest(ln.target, canonical(book.raw(ln.target))) == ln.value and (fp := fingerprint(book, ln.target)):
                out.append((ln.target, part_value(fp, ln.value)))
    return out


def seal(book: Any, sheets: list[Any], key_file: Path | None = None, key: CampaignKey | None = None,
         read: Sequence[str] | None = None, parts: Sequence[tuple[str, str]] | None = None) -> list[Any]:
    """``sheets`` (NewSheets a refit is about to append) with the tamper-evidence
    rows added to each report, and the dice statistics to the report written
    with the date's roster and ledger. Its cost does not grow with the
    campaign's length (see :func:`history`). ``read``: the sheets the refit
    read (:class:`Reads`); the input sheets among them are recorded (all
    input sheets when not given). ``parts``: the ``part`` rows to write
    (:func:`part_rows`; given by replay, which cannot fingerprint the parts as
    they were)."""
    from automation.pbem import stats

    settings, system = workbook_system(book)
    commitment = str(settings.get("Key commitment") or "")
    if key is None:
        key = read_key(key_path_for(Path(str(book.path)), key_file), commitment)
    reports = [i for i, s in enumerate(sheets) if is_report(s.name, s.rows[0])]
    if not reports:
        return list(sheets)
    owner = {i: max([j for j in reports if j < i] or [reports[0]]) for i in range(len(sheets)) if i not in reports}
    past = history(book, commitment, system, with_stats=bool(owner))
    prev_name, prev_digest = past.prev_name, past.prev_digest
    inputs = recorded.record_rows(book, past.inputs, read)
    pending = {name: canonical(book.raw(name)) for name in past.pending}
    if parts is None:
        parts = part_rows(book, [(name, sheet_digest(name, rows)) for name, rows in pending.items()])
    out = list(sheets)
    for j in reports:
        sheet = sheets[j]
        header = list(sheet.rows[0])
        content = [list(r) for r in sheet.rows]
        past.tally.add(roll_rows(sheet.name, content), system)
        companions = [sheets[i] for i, o in owner.items() if o == j]
        if companions:
            content += stats.report_rows(past.tally.stats(), header)
        block = [_row(header, "previous report", prev_name, prev_digest)]
        for name in past.pending if j == reports[0] else []:
            block += _sheet_rows(header, name, pending[name])
        for other in companions:
            block += _sheet_rows(header, other.name, canonical(other.rows))
        block += _tag_rows(header, sheet.name, canonical(content))
        block += [_row(header, *r) for r in (inputs if j == reports[0] else [])]
        block += [_row(header, PART, *r) for r in (parts if j == reports[0] else [])]
        block.append(_row(header, SEALED_BY, sheet.name, sealer()))
        full = content + block
        this = chain_digest(sheet.name, canonical(full))
        full += [_row(header, "this report", sheet.name, this), _row(header, "seal", sheet.name, seal_of(key, this))]
        out[j] = dataclasses.replace(sheet, rows=full)
        prev_name, prev_digest = sheet.name, this
    return out


def is_refit_output(name: str, header: list[Any]) -> bool:
    """A roster or ledger sheet as a refit writes it (not the umpire's initial roster)."""
    from automation.workbook.campaign_sheets import START

    kind = kind_of(name)
    if kind is None or kind.tab not in ("roster", "ledger") or name == kind.name_for(date=START):
        return False
    return is_dated_input(name, header)

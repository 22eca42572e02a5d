"""Tamper evidence for campaign workbooks: a chain over the refit reports, and
``musterroll verify``.

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
* ``rules: Tables`` and ``rules: Modifiers`` -- the tables the rolls used;
* ``this report: NAME`` -- the digest of everything above it (values only, so
  formatting may change freely);
* ``seal: NAME`` -- an HMAC of that digest with the campaign key: only whoever
  holds the key could have written it.

The stage report that completes a date (the one written with the roster and
ledger) also gets a "Dice statistics" section before its tamper evidence: the
totals of the last such section carried on with the rolls since
(:class:`automation.pbem.stats.Tally`). Sealing reads only the last few
reports, so it costs the same on the hundredth date as on the first.

``verify`` walks the reports in workbook order and checks every digest, link and
tag; with the key it also checks every seal, re-derives every roll from the
key and its Label (dice, natural, DRM = sum of the modifiers, final, result)
and recounts the dice statistics from every roll to check each carried total.
"""
from __future__ import annotations

import dataclasses
import hashlib
import hmac
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from automation.engine.dice import CampaignKey, DiceKind, RollLabel
from automation.errors import CellProblem
from automation.keys import key_path_for, read_key
from automation.pbem.reports import (
    AUDIT_RULE, CHAIN_STEP, STATS_STEP, UMPIRE, Header, canonical, chain_digest, chain_start, column_tags, genesis,
    is_report, kind_of, name_parts, norm, roll_rows, row_tags, sheet_digest, sheet_kinds, title_pattern,
)

if TYPE_CHECKING:
    from automation.pbem.stats import Tally

START = "(campaign start)"
SEAL_PREFIX = b"musterroll/seal/v1\x00"
TAGS_PER_CELL = 3000
RULE_SHEETS = ("Tables", "Modifiers")


def seal_of(key: CampaignKey, digest: str) -> str:
    return hmac.new(key.secret, SEAL_PREFIX + digest.encode("ascii"), hashlib.sha256).hexdigest()


def workbook_system(book: Any) -> tuple[dict[str, Any], Any]:
    """The campaign's settings and its rule system as the workbook's tables hold it."""
    from automation.service import campaign_settings, system_of
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
    present = {str(h).strip() for h in header if h not in (None, "")} if header is not None else None
    for kind in sheet_kinds():
        if not kind.dated or kind.tab == "report" or not title_pattern(kind).match(name):
            continue
        if present is None or all(c.name in present for c in kind.columns):
            return True
    return False


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


def _tag_rows(header: list[Any], name: str, rows: list[list[str]]) -> list[list[Any]]:
    out = []
    for kind, tags in (("rows", row_tags(name, rows)), ("columns", column_tags(name, rows))):
        for i in range(0, max(len(tags), 1), TAGS_PER_CELL):
            out.append(_row(header, kind, name, " ".join(tags[i:i + TAGS_PER_CELL])))
    return out


def _sheet_rows(header: list[Any], name: str, rows: list[list[str]]) -> list[list[Any]]:
    return [_row(header, "sheet", name, sheet_digest(name, rows))] + _tag_rows(header, name, rows)


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


def _reports_backwards(book: Any, names: list[str]) -> Iterator[tuple[int, str, list[list[Any]]]]:
    """The workbook's reports, last first (a sheet is parsed only when reached)."""
    for i in range(len(names) - 1, -1, -1):
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
    for i, name, rows in _reports_backwards(book, names):
        _, links = chain_links(rows)
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
    pending = [n for n in names[after:] if n not in sealed and is_dated_input(n)
               and is_dated_input(n, (book.raw(n)[:1] or [[]])[0])]
    return History(prev_name, prev_digest, pending, tally)


def seal(book: Any, sheets: list[Any], key_file: Path | None = None, key: CampaignKey | None = None) -> list[Any]:
    """``sheets`` (NewSheets a refit is about to append) with the tamper-evidence
    rows added to each report, and the dice statistics to the report written
    with the date's roster and ledger. Its cost does not grow with the
    campaign's length (see :func:`history`)."""
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
    rules = [(n, sheet_digest(n, canonical(book.raw(n)))) for n in RULE_SHEETS if book.has(n)]
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
            block += _sheet_rows(header, name, canonical(book.raw(name)))
        for other in companions:
            block += _sheet_rows(header, other.name, canonical(other.rows))
        block += _tag_rows(header, sheet.name, canonical(content))
        block += [_row(header, "rules", n, d) for n, d in rules]
        full = content + block
        this = chain_digest(sheet.name, canonical(full))
        full += [_row(header, "this report", sheet.name, this), _row(header, "seal", sheet.name, seal_of(key, this))]
        out[j] = dataclasses.replace(sheet, rows=full)
        prev_name, prev_digest = sheet.name, this
    return out


# ------------------------------------------------------------------ verifying

@dataclass
class Verified:
    reports: list[str] = field(default_factory=list)
    dates: list[str] = field(default_factory=list)
    sealed_sheets: int = 0
    rolls_checked: int = 0
    seals_checked: int = 0
    results_unchecked: list[str] = field(default_factory=list)
    stats_checked: int = 0
    stats_unchecked: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    problems: list[CellProblem] = field(default_factory=list)

    def summary(self, path: Path, with_key: bool) -> str:
        if not self.reports:
            return "\n".join([f"{path}: no refit reports yet; nothing to verify"] + [f"  {n}" for n in self.notes])
        lines = [f"{path}: the chain of {len(self.reports)} report(s) is intact "
                 f"(dates: {', '.join(self.dates)}; {self.sealed_sheets} sealed sheet(s))"]
        if with_key:
            lines.append(f"  {self.seals_checked} seal(s) match the campaign key; {self.rolls_checked} roll(s) "
                         "re-derived from the key: dice, natural, DRM, final and result all match")
            if self.stats_checked:
                lines.append(f"  {self.stats_checked} dice statistics section(s) match a recount of every roll "
                             "of the campaign")
        else:
            lines.append("  seals and rolls not checked: give the campaign key with --key FILE to check them")
        for name in self.results_unchecked:
            lines.append(f"  {name}: results not compared with the tables (Tables or Modifiers edited since)")
        for name in self.stats_unchecked:
            lines.append(f"  {name}: dice statistics not recounted (Tables or Modifiers edited since it or an "
                         "earlier report)")
        lines += [f"  {n}" for n in self.notes]
        return "\n".join(lines)


def _describe(v: str) -> str:
    return f"{v!r}" if v else "an empty cell"


def _locate(name: str, now: list[list[str]], rec_rows: list[str], rec_cols: list[str], sealer: str) -> list[CellProblem]:
    from automation.workbook.reader import cell_ref

    if not rec_rows or not rec_cols:
        return []
    rows, cols = row_tags(name, now), column_tags(name, now)
    if len(rows) != len(rec_rows):
        first = next((i for i in range(min(len(rows), len(rec_rows))) if rows[i] != rec_rows[i]), min(len(rows), len(rec_rows)))
        return [CellProblem(name, f"A{first + 1}", f"rows were added or removed after {sealer} sealed this sheet "
                                                  f"({len(rec_rows)} rows then, {len(rows)} now; the first change is at row {first + 1})")]
    bad_rows = [i for i in range(len(rows)) if rows[i] != rec_rows[i]]
    bad_cols = [j for j in range(max(len(cols), len(rec_cols))) if j >= len(cols) or j >= len(rec_cols) or cols[j] != rec_cols[j]]
    out = []
    for i in bad_rows:
        for j in bad_cols:
            value = now[i][j] if j < len(now[i]) else ""
            out.append(CellProblem(name, cell_ref(j, i + 1), f"edited after {sealer} sealed it (now {_describe(value)})"))
    return out[:50]


def _tags(links: list[Link], kind: str, target: str) -> list[str]:
    return " ".join(ln.value for ln in links if ln.kind == kind and ln.target == target).split()


def verify_book(book: Any, key: CampaignKey | None = None, batches: list[Any] | None = None) -> Verified:
    """Check the chain of ``book``'s reports (and, with ``key``, seals, rolls and
    every carried dice statistics total, against a recount of all the rolls up
    to its report)."""
    from automation.pbem.stats import Tally, check_section
    from automation.workbook.reader import cell_ref

    settings, system = workbook_system(book)
    commitment = str(settings.get("Key commitment") or "")
    out = Verified()
    p = out.problems
    if key is not None and key.commitment != commitment.strip():
        p.append(CellProblem("Campaign", "B4", "the key given does not match the workbook's key commitment"))
        return out
    names = list(book.sheet_names)
    prev_name, prev_digest = START, genesis(commitment)
    sealed_by: dict[str, str] = {}
    rules_now = {n: sheet_digest(n, canonical(book.raw(n))) for n in RULE_SHEETS if book.has(n)}
    recount, same_rules = Tally(), True
    for name in names:
        if not is_report(name):
            continue
        rows = book.raw(name)
        if not rows or not is_report(name, rows[0]):
            continue
        out.reports.append(name)
        date = name_parts(kind_of(name), name).get("date", name)  # type: ignore[arg-type]
        if date not in out.dates:
            out.dates.append(date)
        h = Header.of(rows[0])
        start, links = chain_links(rows)
        content = canonical(rows[:start])
        if key is not None:
            recount.add(roll_rows(name, rows), system)
        if not links:
            p.append(CellProblem(name, f"A{len(rows) + 1}", "has no tamper-evidence rows: they were removed, or the "
                                                            "report was not written by musterroll refit"))
            prev_name, prev_digest = name, chain_digest(name, canonical(rows))
            continue
        where = lambda ln: h.cell("Result", ln.row)  # noqa: E731
        first = links[0]
        if first.kind != "previous report":
            p.append(CellProblem(name, where(first), "the tamper evidence does not begin with the previous report's digest"))
        elif first.target != prev_name:
            if first.target != START and first.target not in names:
                why = f"follows {first.target!r}, which is no longer in the workbook (removed)"
            else:
                why = f"follows {first.target!r} but the workbook has {prev_name!r} before it (sheets removed or reordered)"
            p.append(CellProblem(name, where(first), why))
        elif first.value != prev_digest:
            p.append(CellProblem(name, where(first), f"{prev_name} no longer matches the digest recorded here: it was edited"))
        located = _locate(name, content, _tags(links, "rows", name), _tags(links, "columns", name), name)
        p += located
        for ln in links:
            if ln.kind != "sheet":
                continue
            out.sealed_sheets += 1
            sealed_by[ln.target] = name
            if ln.target not in names:
                p.append(CellProblem(name, where(ln), f"{ln.target!r} was sealed here but is no longer in the workbook (removed)"))
                continue
            now = canonical(book.raw(ln.target))
            if sheet_digest(ln.target, now) != ln.value:
                found = _locate(ln.target, now, _tags(links, "rows", ln.target), _tags(links, "columns", ln.target), name)
                p += found or [CellProblem(ln.target, "A1", f"changed after {name} sealed it")]
        this = next((ln for ln in links if ln.kind == "this report"), None)
        full_until = this.row - 1 if this else len(rows)
        digest = chain_digest(name, canonical(rows[:full_until]))
        if this is None:
            p.append(CellProblem(name, cell_ref(0, len(rows) + 1), "the 'this report' digest row is missing"))
        elif this.value != digest and not located:
            p.append(CellProblem(name, where(this), "the report's digest does not match its content: a tamper-evidence "
                                                    "row was edited"))
        seal_link = next((ln for ln in links if ln.kind == "seal"), None)
        if key is not None and this is not None:
            out.seals_checked += 1
            if seal_link is None or seal_link.value != seal_of(key, this.value):
                p.append(CellProblem(name, where(seal_link) if seal_link else where(this),
                                     "the seal does not match the campaign key: these tamper-evidence rows were not "
                                     "written by the refit (someone without the key recomputed them)"))
        if key is not None:
            rules_then = {ln.target: ln.value for ln in links if ln.kind == "rules"}
            results = all(rules_now.get(n) == d for n, d in rules_then.items()) and bool(rules_then)
            if not results:
                out.results_unchecked.append(name)
            p += check_rolls(name, rows, key, system, results)
            same_rules = same_rules and results
            if any(h.get(row, "Step") == STATS_STEP for row in rows[1:start]):
                if same_rules:
                    out.stats_checked += 1
                    p += check_section(name, rows, recount.stats())
                else:
                    out.stats_unchecked.append(name)
            out.rolls_checked += len(roll_rows(name, rows))
        # the next report links to the digest recorded here: a change found above is not reported again there
        prev_name, prev_digest = name, this.value if this is not None else digest
    headers = {n: (book.raw(n)[:1] or [[]])[0] for n in names if is_dated_input(n) and n not in sealed_by}
    p += _missing_and_unsealed(names, out.reports, sealed_by, batches or [], headers)
    return out


def _missing_and_unsealed(names: list[str], reports: list[str], sealed_by: dict[str, str], batches: list[Any],
                          headers: dict[str, list[Any]]) -> list[CellProblem]:
    problems = []
    for batch in batches:
        for sheet in batch.sheets:
            if sheet not in names and (is_report(sheet) or is_dated_input(sheet)):
                problems.append(CellProblem(sheet, "A1", f"was added by {batch.name!r} but is no longer in the workbook: "
                                                          "removed by hand (musterroll undo removes a whole refit)"))
    if reports:
        last = names.index(reports[-1])
        for i, name in enumerate(names):
            if name in sealed_by or not is_dated_input(name, headers.get(name, [])):
                continue
            if i < last:
                problems.append(CellProblem(name, "A1", "lies among the reports but no report seals it: it was added "
                                                        "afterwards, or the report that sealed it was removed (a new "
                                                        "sheet belongs after the last report: moved there, the next "
                                                        "refit seals it)"))
            elif is_refit_output(name, headers.get(name, [])):
                problems.append(CellProblem(name, "A1", "was written by a refit, but no report seals it: the report "
                                                        "written with it was removed"))
    return problems


def is_refit_output(name: str, header: list[Any]) -> bool:
    """A roster or ledger sheet as a refit writes it (not the umpire's initial roster)."""
    from automation.workbook.campaign_sheets import START

    kind = kind_of(name)
    if kind is None or kind.tab not in ("roster", "ledger") or name == kind.name_for(date=START):
        return False
    return is_dated_input(name, header)


# ------------------------------------------------------------------ rolls

def dice_text(kind: DiceKind, dice: tuple[int, ...]) -> str:
    shown = "+".join(str(d) for d in dice) if kind is not DiceKind.D100 else f"{dice[0] % 10}{dice[1] % 10}"
    return f"{kind.value}: {shown}"


def modifiers_drm(text: str) -> int | None:
    import re

    if text.strip().lower() in ("", "none"):
        return 0
    parts = [p for p in text.split("; ")]
    values = [re.match(r"([+-]\d+) ", p) for p in parts]
    if not all(values):
        return None
    return sum(int(m.group(1)) for m in values if m)


def check_rolls(sheet: str, rows: list[list[Any]], key: CampaignKey, system: Any, results: bool) -> list[CellProblem]:
    """Re-derive every roll of a report from the key and its Label."""
    from automation.engine.resolver import Situation, resolve
    from automation.pbem.reports import as_int

    h = Header.of(rows[0])
    out: list[CellProblem] = []
    for r in roll_rows(sheet, rows):
        at = lambda column: CellProblem(sheet, h.cell(column, r.row), "")  # noqa: E731

        def bad(column: str, message: str) -> None:
            out.append(dataclasses.replace(at(column), message=message))

        table = system.tables.get(r.table_id)
        if table is None:
            bad("Table", f"table {r.table_id!r} is not a table of the campaign's rule system")
            continue
        try:
            label = RollLabel.parse(r.label)
        except ValueError:
            bad("Label", f"{r.label!r} is not a roll label")
            continue
        if str(label) != r.label:
            bad("Label", f"{r.label!r} is not written as the refit writes labels")
            continue
        dice = key.throw(table.dice, label)
        expected = dice_text(table.dice, dice)
        if r.dice.strip() != expected:
            bad("Dice", f"shows {r.dice!r} but the key gives {expected!r} for {r.label}")
            continue
        natural = table.dice.total(dice)
        if as_int(r.natural) != natural:
            bad("Natural", f"shows {norm(r.natural) or 'nothing'} but the dice {expected!r} read {natural}")
        drm = modifiers_drm(r.modifiers)
        if drm is None or as_int(r.drm) != drm:
            bad("DRM", f"shows {norm(r.drm) or 'nothing'} but the modifiers listed add up to "
                       f"{drm if drm is not None else '(unreadable modifiers)'}")
            continue
        final = natural + drm
        if table.clamp:
            final = max(table.clamp[0], min(table.clamp[1], final))
        if as_int(r.final) != final:
            bad("Final", f"shows {norm(r.final) or 'nothing'} but natural {natural} with DRM {drm:+d} gives {final}")
        if not results or r.result is None:
            continue
        column = r.column or table.default_column()
        if column not in table.columns:
            bad("Table column", f"{column!r} is not a column of {table.id}; valid: {', '.join(table.columns)}")
            continue
        bare = dataclasses.replace(table, modifiers=())
        result = resolve(bare, dice, Situation.with_drm(drm), column=column).result
        if result != r.result:
            bad("Table result", f"shows {r.result!r} but {table.id} gives {result!r} for final {final}")
    return out

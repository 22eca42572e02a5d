"""``musterroll verify``: the chain walked report by report.

Without the key: every link, digest and tag of the chain, the sheets each
report sealed, the input sheets as each refit read them (every change made in
the open is listed; an edit after the last refit is named). With the key:
also every seal, every roll re-derived from its label, every dice statistics
total recounted, and every refit run again (:mod:`automation.audit.replay`).
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from automation.audit.carried import ChainStore, ReportChain, Walk
from automation.audit.chain import START, Link, chain_links, is_dated_input, is_refit_output, seal_of, workbook_system
from automation.audit.desk import check_desk
from automation.audit.desk_replay import edited_inputs
from automation.audit.inputs import Change, Inputs
from automation.audit.rolls import check_rolls
from automation.engine.dice import CampaignKey
from automation.errors import CellProblem
from automation.pbem.reports import (
    STATS_STEP, Header, canonical, chain_digest, column_tags, genesis, is_report, kind_of, name_parts, report_names,
    roll_rows, row_tags, sheet_digest,
)

CHANGES_SHOWN = 40
RULE_SHEETS = ("Tables", "Modifiers")

@dataclass
class Verified:
    reports: list[str] = field(default_factory=list)
    dates: list[str] = field(default_factory=list)
    sealed_sheets: int = 0
    rolls_checked: int = 0
    seals_checked: int = 0
    stats_checked: int = 0
    stats_unchecked: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    problems: list[CellProblem] = field(default_factory=list)
    changes: list[Change] = field(default_factory=list)
    refits_replayed: int = 0
    sheets_replayed: int = 0
    physical: list[str] = field(default_factory=list)
    desk_rolls: int = 0
    desk_replayed: int = 0
    desk_sheets_replayed: int = 0
    desk_unrecorded: list[str] = field(default_factory=list)
    key_file: Path | None = None

    def summary(self, path: Path, with_key: bool) -> str:
        if not self.reports:
            lines = [f"{path}: no refit reports yet; no chain to verify"]
        else:
            lines = [f"{path}: the chain of {len(self.reports)} report(s) is intact "
                     f"(dates: {', '.join(self.dates)}; {self.sealed_sheets} sealed sheet(s))"]
        if with_key and not self.reports:
            if self.desk_rolls:
                lines.append(f"  {self.desk_rolls} dice desk and tracker roll(s) re-derived from the key and their "
                             "labels: dice, natural, DRM, final and result all match")
        elif with_key:
            lines.append(f"  {self.seals_checked} seal(s) match the campaign key; {self.rolls_checked} roll(s) "
                         "re-derived from the key: dice, natural, DRM, final and result all match")
            if self.desk_rolls:
                lines.append(f"  {self.desk_rolls} dice desk and tracker roll(s) re-derived from the key and their "
                             "labels: dice, natural, DRM, final and result all match")
            lines.append(f"  {self.refits_replayed} refit(s) run again from what they read: all "
                         f"{self.sheets_replayed} sheet(s) they wrote are, cell for cell, what the rules give")
            if self.stats_checked:
                lines.append(f"  {self.stats_checked} dice statistics section(s) match a recount of every roll "
                             "of the campaign")
        else:
            lines.append("  seals and rolls not checked: give the campaign key with --key FILE to check them")
        if with_key and self.desk_replayed:
            lines.append(f"  {self.desk_replayed} dice desk and tracker run(s) run again from what they read: all "
                         f"{self.desk_sheets_replayed} log sheet(s) they wrote are, cell for cell, what the rules give")
        if with_key and self.desk_unrecorded:
            lines.append(f"  {len(self.desk_unrecorded)} log sheet(s) written before logs recorded what their run read "
                         f"(not run again; their rolls are re-derived from the key): {', '.join(self.desk_unrecorded)}")
        for name in self.stats_unchecked:
            lines.append(f"  {name}: dice statistics not recounted against today's tables (Tables or Modifiers "
                         "changed since; the refit run again checks them as they were)")
        if self.changes:
            lines.append(f"  {len(self.changes)} change(s) of the rules or settings made in the open, each sealed at the "
                         "refit it took effect at:")
            lines += [f"    {c}" for c in self.changes[:CHANGES_SHOWN]]
            if len(self.changes) > CHANGES_SHOWN:
                lines.append(f"    ... and {len(self.changes) - CHANGES_SHOWN} more")
        if self.physical:
            lines.append(f"  {len(self.physical)} roll(s) of physical dice entered by hand: not derivable from the key")
            lines += [f"    {p}" for p in self.physical[:CHANGES_SHOWN]]
        lines += [f"  {n}" for n in self.notes]
        return "\n".join(lines)


class _Rows:
    """A report's rows, read only if asked for beyond its header and length
    (which its carried :class:`ReportChain` gives)."""

    def __init__(self, book: Any, name: str, chain: ReportChain) -> None:
        self.book, self.name, self.chain = book, name, chain
        self._rows: list[list[Any]] | None = None

    def __len__(self) -> int:
        return self.chain.length

    def all(self) -> list[list[Any]]:
        if self._rows is None:
            self._rows = self.book.raw(self.name)
        return self._rows

    def links(self) -> list[Link]:
        """Every tamper-evidence row, the row and column tags included."""
        return list(self.chain.links) if self.chain.tags else chain_links(self.all())[1]

    def __getitem__(self, index: Any) -> Any:
        return list(self.chain.header) if index == 0 else self.all()[index]

    def __iter__(self) -> Any:
        return iter(self.all())


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


def verify_book(book: Any, key: CampaignKey | None = None, batches: list[Any] | None = None,
                progress: Callable[[int, int, str], None] | None = None) -> Verified:
    """Check the chain of ``book``'s reports (and, with ``key``, seals, rolls,
    every carried dice statistics total, against a recount of all the rolls up
    to its report, and every refit run again)."""
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
    present = set(names)
    prev_name, prev_digest = START, genesis(commitment)
    sealed_by: dict[str, str] = {}
    rules_now = {n: canonical(book.raw(n)) for n in RULE_SHEETS if book.has(n)}
    recount, same_rules = Tally(), True
    compared: dict[int, bool] = {}  # a recorded state is shared by the refits that did not change it: compared once

    def same_as_now(name: str, rows: list[list[Any]]) -> bool:
        if id(rows) not in compared:
            compared[id(rows)] = canonical(rows) == rules_now[name]
        return compared[id(rows)]

    inputs, inputs_at = Inputs(), {}
    reports = []
    named = report_names(names)
    store = ChainStore.of(book) if key is None else None  # with the key every report is read
    walk = store.walk(named, commitment) if store is not None else None
    if walk is not None:  # the reports an earlier run walked without a problem, unchanged since: not walked again
        out.reports, out.dates, out.sealed_sheets = list(walk.chain), list(walk.dates), walk.sealed_sheets
        sealed_by.update(walk.sealed_by)
        inputs = Inputs.from_json(walk.inputs)
        prev_name, prev_digest = walk.prev
        if progress and walk.reports:
            progress(len(walk.reports), len(named), walk.reports[-1][0], "checking")
    for i, n in enumerate(named[len(walk.reports) if walk else 0:], start=len(walk.reports) + 1 if walk else 1):
        if progress:
            progress(i, len(named), n, "checking")
        if store is not None:
            chain = store.get(n)
            if chain.is_report:
                reports.append((n, _Rows(book, n, chain), chain.start, list(chain.links)))
            continue
        rows = book.raw(n)
        if rows and is_report(n, rows[0]):
            reports.append((n, rows, *chain_links(rows)))
    unchanged = unchanged_parts(book, [links for *_, links in reports], store.fingerprint if store else None)
    if store is not None:
        store.save()
    for name, rows, start, links in reports:
        out.reports.append(name)
        date = name_parts(kind_of(name), name).get("date", name)  # type: ignore[arg-type]
        if date not in out.dates:
            out.dates.append(date)
        h = Header.of(rows[0])
        this = next((ln for ln in links if ln.kind == "this report"), None)
        trusted = this is not None and (name, this.value) in unchanged  # stored as it was when its values were checked
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
            if first.target != START and first.target not in present:
                why = f"follows {first.target!r}, which is no longer in the workbook (removed)"
            else:
                why = f"follows {first.target!r} but the workbook has {prev_name!r} before it (sheets removed or reordered)"
            p.append(CellProblem(name, where(first), why))
        elif first.value != prev_digest:
            p.append(CellProblem(name, where(first), f"{prev_name} no longer matches the digest recorded here: it was edited"))
        tagged = rows.links if isinstance(rows, _Rows) else lambda: links  # with the tags, read again if carried
        located = [] if trusted else _locate(name, canonical(rows[:start]), _tags(tagged(), "rows", name),
                                             _tags(tagged(), "columns", name), name)
        p += located
        for ln in links:
            if ln.kind != "sheet":
                continue
            out.sealed_sheets += 1
            sealed_by[ln.target] = name
            if ln.target not in present:
                p.append(CellProblem(name, where(ln), f"{ln.target!r} was sealed here but is no longer in the workbook (removed)"))
                continue
            if (ln.target, ln.value) in unchanged:
                continue
            now = canonical(book.raw(ln.target))
            if sheet_digest(ln.target, now) != ln.value:
                found = _locate(ln.target, now, _tags(tagged(), "rows", ln.target), _tags(tagged(), "columns", ln.target),
                                name)
                p += found or [CellProblem(ln.target, "A1", f"changed after {name} sealed it")]
        p += inputs.apply(name, links, where)
        inputs_at[name] = inputs.snapshot()
        full_until = this.row - 1 if this else len(rows)
        digest = this.value if trusted and this is not None else chain_digest(name, canonical(rows[:full_until]))
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
            results = all(n in inputs.state and same_as_now(n, inputs.state[n]) for n in rules_now)
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
    if store is not None and not p:
        keep_walk(store, book, commitment, named, walk, reports, out, sealed_by, inputs, (prev_name, prev_digest))
    headers = {n: (book.raw(n)[:1] or [[]])[0] for n in names if n not in sealed_by and is_dated_input(n)}
    p += _missing_and_unsealed(names, out.reports, sealed_by, batches or [], headers)
    p += inputs.edited_since(book)
    out.changes = inputs.changes
    desk = check_desk(book, key)
    p += desk.problems
    p += edited_inputs(book)
    out.physical, out.desk_rolls = desk.physical, desk.rolls
    if key is not None and batches is not None and not p:  # with the record of batches: every refit run again
        from automation.audit.desk_replay import replay_desk
        from automation.audit.replay import replay, unreplayed_reports

        p += unreplayed_reports(book, batches)
        if not p:
            done = replay(book, key, batches, inputs_at, progress)
            out.refits_replayed, out.sheets_replayed = done.refits, done.sheets
            if done.reworded:
                out.notes.append(f"{len(done.reworded)} sheet(s) sealed by an earlier version of musterroll differ "
                                 "from today's only in wording: their rolls, numbers and outcomes are what the rules "
                                 f"give ({', '.join(done.reworded[:8])}{', ...' if len(done.reworded) > 8 else ''})")
            p += done.problems
        if not p:
            runs = replay_desk(book, key, batches, inputs_at, progress)
            out.desk_replayed, out.desk_sheets_replayed, out.desk_unrecorded = runs.runs, runs.sheets, runs.unrecorded
            p += runs.problems
    return out


def keep_walk(store: ChainStore, book: Any, commitment: str, named: list[str], walk: Walk | None,
              reports: list[Any], out: Verified, sealed_by: dict[str, str], inputs: Inputs,
              prev: tuple[str, str]) -> None:
    """Keep where this walk stood (it found no problem), for the next run to
    start there (:class:`automation.audit.carried.Walk`)."""
    from automation.audit.parts import shared_stamp

    shared = shared_stamp(book)
    if shared is None or store.path is None:
        return
    done = len(walk.reports) if walk else 0
    walked = [*(walk.reports if walk else ()), *((n, book.part_stamp(n)) for n in named[done:])]
    sealed = [*(walk.sealed if walk else ()),
              *((ln.target, book.part_stamp(ln.target)) for *_, links in reports for ln in links if ln.kind == "sheet")]
    if any(s is None for _, s in walked) or any(s is None for _, s in sealed):
        return
    kept = Walk(commitment, shared, tuple(walked), tuple(out.reports), tuple(dict(sealed).items()), prev,
                dict(sealed_by), tuple(out.dates), out.sealed_sheets, inputs.to_json())
    if kept != walk:
        store.keep_walk(kept)


def unchanged_parts(book: Any, links: list[list[Link]],
                    fingerprint: Callable[[str], str | None] | None = None) -> set[tuple[str, str]]:
    """(sheet, digest of its values) for every sheet whose stored part still has
    the fingerprint a ``part`` row of the chain recorded with that digest: its
    values need no new digest (see :mod:`automation.audit.parts`).
    ``fingerprint``: how a sheet's fingerprint is found (without the key: the
    carried ones, :meth:`ChainStore.fingerprint`)."""
    from automation.audit.chain import PART
    from automation.audit.parts import fingerprint as hashed, parse_value

    if fingerprint is None:
        fingerprint = lambda name: hashed(book, name)  # noqa: E731

    now: dict[str, str | None] = {}
    out = set()
    for ln in (ln for report in links for ln in report if ln.kind == PART):
        recorded = parse_value(ln.value)
        if recorded is None or not book.has(ln.target):
            continue
        if ln.target not in now:
            now[ln.target] = fingerprint(ln.target)
        if now[ln.target] == recorded[0]:
            out.add((ln.target, recorded[1]))
    return out


def _missing_and_unsealed(names: list[str], reports: list[str], sealed_by: dict[str, str], batches: list[Any],
                          headers: dict[str, list[Any]]) -> list[CellProblem]:
    problems = []
    present = set(names)
    for batch in batches:
        for sheet in batch.sheets:
            if sheet not in present and (is_report(sheet) or is_dated_input(sheet)):
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

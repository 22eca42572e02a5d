"""Service functions shared by the command line and the Excel ribbon: each
takes a workbook path (or a BookSource read from one) and does one job."""
from __future__ import annotations

import shutil
import zipfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from automation.campaign.model import Dice, Entry, Waiting
from automation.engine.dice import CampaignKey
from automation.pbem.planning import Planned
from automation.systems import BookSource
from automation.errors import CellProblem, UsageError, WorkbookError, WorkbookFileError
from automation.keys import key_path_for, read_key, write_key
from automation.rulebook import load_rulebook
from automation.workbook.reader import Workbook


@dataclass
class RefitOutcome:
    path: Path
    system: str
    date: str | None
    written: list[str] = field(default_factory=list)
    waiting: Waiting | None = None
    entries: list[Entry] = field(default_factory=list)
    completed: list[str] = field(default_factory=list)
    pending: list[Any] = field(default_factory=list)  # automation.pbem.pending.Pending: every decision waited for
    forms: list[str] = field(default_factory=list)  # the forms written for the decisions waited for

    def summary(self, quiet: bool = False) -> str:
        """What the refit did: the sheets written, every roll (what it was for,
        the dice, each modifier, the final number and the result) and what the
        refit waits for. ``quiet``: the sheets and the wait only."""
        lines = [f"{self.path}: refit of {self.date}"]
        lines += [f"  wrote {n}" for n in self.written] + [f"  wrote the form {n}" for n in self.forms] \
            or ["  nothing new to write"]
        rolls = [e for e in self.entries if e.roll is not None]
        if rolls and not quiet:
            lines.append(f"  rolls ({len(rolls)}):")
            lines += [f"    {roll_line(e)}" for e in rolls]
        if self.pending:
            lines += [f"  {p.line()}" for p in self.pending]
        elif self.waiting:
            lines.append(f"  {self.waiting} (to be decided by {self.waiting.who})")
        elif self.date:
            lines.append(f"  {self.date}: refit complete")
        return "\n".join(lines)


def roll_line(entry: Entry) -> str:
    """One roll as a line: 'CPP replenishment, German: d10 [6], -2 Historical DRM -> 4: +10 CPP'."""
    r = entry.roll
    assert r is not None
    subject = entry.subject.strip()
    who = entry.side if entry.side and entry.side != subject else ""
    title = ", ".join(p for p in (entry.step, who, subject) if p)
    mods = ", ".join(f"{m.value:+d} {m.name}" for m in r.modifiers) or "no modifiers"
    return f"{title}: {r.dice_kind.value} {list(r.dice)}, {mods} -> {r.final}: {entry.text}"


def campaign_settings(book: Workbook) -> dict[str, Any]:
    from automation.workbook.tables_io import settings_from_workbook

    return {k: v["Value"] for k, v in settings_from_workbook(book).items()}


def system_of(book: Workbook, settings: dict[str, Any]):
    system_id = settings.get("Rule system")
    systems = load_rulebook().systems
    if system_id not in systems:
        raise WorkbookError(CellProblem("Campaign", "B3", f"rule system {system_id!r} is unknown; valid: {', '.join(systems)}"), str(book.path))
    return systems[system_id]


def prepare(book: BookSource, key: CampaignKey | None = None, key_file: Path | None = None) -> Planned:
    """Read ``book`` and run its refit in memory, keeping the run.

    ``book`` is the file adapter's :class:`Workbook` (or another BookSource
    going through the same sheet contract). The key
    is given, or read from ``key_file`` (default: BOOK.key beside the book)."""
    from automation.pbem.planning import answers
    from automation.systems import campaign_system
    from automation.workbook.tables_io import system_from_workbook

    book = answers(book)  # a form not yet answered is not there
    settings = campaign_settings(book)
    base = system_of(book, settings)
    cs = campaign_system(base.id)
    if cs is None:
        raise UsageError(f"{book.path}: refits of {base.id} campaigns are not available")
    commitment = str(settings.get("Key commitment") or "").strip()
    if key is None:
        key = read_key(key_path_for(Path(book.path), key_file), commitment)
    elif commitment and key.commitment != commitment:
        raise UsageError(f"{book.path}: the key given does not match the workbook's commitment (Campaign!B4)")
    system = system_from_workbook(book, base)
    inputs, state = cs.load(book, system, settings)
    run = cs.refit(state, inputs, Dice(key, system, cs.date_of(inputs)))
    return Planned(cs, inputs, run, dict(settings))


def plan_refit(book: BookSource, key: CampaignKey | None = None, key_file: Path | None = None):
    """Run the refit of ``book`` in memory: (outcome, sheets to append)."""
    planned = prepare(book, key, key_file)
    lists = book.read_lists()
    lists["sides"] = list(planned.sides)
    sheets = planned.system.sheets_for(planned.run, planned.inputs, book, lists)
    run = planned.run
    outcome = RefitOutcome(Path(str(book.path)), planned.system.id, planned.date, [s.name for s in sheets],
                           run.waiting, run.entries, run.completed)
    return outcome, sheets


def plan_sealed(book: BookSource, key: CampaignKey | None = None, key_file: Path | None = None):
    """:func:`plan_refit`, with the report sheets sealed into the tamper-evident
    chain (automation.audit): what `musterroll refit` and the ribbon append."""
    from automation.audit import Reads, seal
    from automation.pbem.planning import answers

    reads = Reads(answers(book))  # what the refit reads is what its report seals (never a form not yet answered)
    outcome, sheets = plan_refit(reads, key, key_file)
    if sheets:
        sheets = seal(book, sheets, key_file=key_file, read=reads.names)
    return outcome, sheets


def refit(path: Path, key_file: Path | None = None) -> RefitOutcome:
    """Run every step whose inputs are present and append what it resolved."""
    from automation.pbem.pending import waiting_forms
    from automation.workbook.lock import writing
    from automation.workbook.package import append_sheets

    with writing(path):  # one writer at a time, from the read to the write
        book = Workbook(Path(path))
        outcome, sheets = plan_sealed(book, key_file=key_file)
        forms = []
        if outcome.waiting is not None:
            settings = campaign_settings(book)
            key = read_key(key_path_for(Path(path), key_file), str(settings.get("Key commitment") or "").strip())
            outcome.pending, forms = waiting_forms(book, key, outcome.waiting)  # its forms: in the same batch
            outcome.forms = [f.name for f in forms]
        if sheets or forms:
            append_sheets(Path(path), list(sheets) + forms, batch=f"Refit {outcome.date}", expected_digest=book.digest)
    return outcome


def undo(path: Path) -> list[str]:
    from automation.workbook.lock import writing
    from automation.workbook.package import remove_last_batch

    with writing(path):  # the package reader refuses files that are not workbooks before touching anything
        return remove_last_batch(Path(path))


def patch_placeholders(path: Path, values: dict[str, str]) -> None:
    """Replace template placeholders in the shared strings of a fresh copy."""
    from xml.sax.saxutils import escape

    tmp = path.with_suffix(".tmp")
    with zipfile.ZipFile(path) as src, zipfile.ZipFile(tmp, "w", zipfile.ZIP_DEFLATED) as dst:
        for info in src.infolist():
            data = src.read(info.filename)
            if info.filename == "xl/sharedStrings.xml":
                text = data.decode("utf-8")
                for old, new in values.items():
                    text = text.replace(escape(old), escape(new))
                data = text.encode("utf-8")
            dst.writestr(info, data)
    tmp.replace(path)


def new_campaign(system_id: str, out: Path, campaign: str | None = None, entropy: tuple[str, ...] = ()) -> Path:
    from automation.workbook import campaign_sheets
    from automation.workbook.template import CAMPAIGN_PLACEHOLDER, COMMITMENT_PLACEHOLDER, template_path

    systems = load_rulebook().systems
    if system_id not in systems or not campaign_sheets.is_campaign_system(system_id):
        valid = ", ".join(s for s in systems if campaign_sheets.is_campaign_system(s))
        raise UsageError(f"unknown campaign system {system_id!r}; valid: {valid}")
    out = Path(out)
    key_file = key_path_for(out)
    if out.exists():
        raise WorkbookFileError(f"{out}: already exists; choose another name (nothing was changed)")
    if key_file.exists():
        raise WorkbookFileError(f"{key_file}: a key file is already there; refusing to replace a campaign key")
    template = template_path(system_id)
    if not template.exists():
        raise WorkbookFileError(f"{template}: the template is missing; rebuild it with python -m automation.workbook.template")
    from automation.keys import new_key, record_contributions

    material = new_key(tuple(entropy))  # the base key mixed with each player's contribution
    key = material.key
    shutil.copyfile(template, out)
    patch_placeholders(out, {CAMPAIGN_PLACEHOLDER: campaign or out.stem, COMMITMENT_PLACEHOLDER: key.commitment})
    record_contributions(out, material)  # their commitments, on the Campaign sheet
    write_key(key_file, key, material)
    return out

"""Service functions shared by the command line and the Excel ribbon: each
takes a workbook path (or a BookSource read from one) and does one job."""
from __future__ import annotations

import shutil
import zipfile
from pathlib import Path

from automation.engine.dice import CampaignKey
from automation.errors import UsageError, WorkbookFileError
from automation.keys import key_path_for, read_key, write_key
# the refit planned in memory and the campaign's settings live below this module; their names are kept here
from automation.pbem.planning import Planned, RefitOutcome, plan_refit, prepare, roll_line  # noqa: F401
from automation.rulebook import load_rulebook
from automation.systems import BookSource
from automation.workbook.reader import Workbook
from automation.workbook.tables_io import campaign_settings, system_of  # noqa: F401


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
            append_sheets(Path(path), list(sheets) + forms, batch=f"Refit {outcome.date}", read=book.gate)
    return outcome


def undo(path: Path) -> list[str]:
    from automation.workbook.lock import writing
    from automation.workbook.undo import remove_last_batch

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

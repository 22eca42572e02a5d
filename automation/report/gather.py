"""Everything a report shows, gathered from one workbook: the umpire's master,
or a side's export (see :mod:`automation.report.source`)."""
from __future__ import annotations

from pathlib import Path
from types import ModuleType
from typing import Any

from automation.errors import UsageError
from automation.report import abtf, bf
from automation.report.model import Audit, CampaignData
from automation.report.progress import Progress
from automation.report.source import Source, rolls_of

SYSTEMS: dict[str, ModuleType] = {"bf-campaign": bf, "asl-abtf": abtf}
VERIFY_COMMAND = "musterroll verify EXPORT.xlsx --key KEY"


def system_module(source: Source) -> ModuleType:
    found = SYSTEMS.get(source.system_id)
    if found is None:
        raise UsageError(f"{source.book.path}: no campaign report for rule system {source.system_id!r} yet; "
                         f"available: {', '.join(SYSTEMS)}")
    return found


def gather(source: Source, progress: Progress, audit: Audit | None = None) -> CampaignData:
    module = system_module(source)
    reports = source.reports()
    order = module.dates(source)
    played = {s.date for s in reports}
    dates = [d for d in order if d in played] + sorted(played - set(order))
    data = CampaignData(source.system_id, source.campaign, source.viewer, source.sides, dates,
                        source.name, system=source.system, audit=audit)
    progress.stage("reading the reports", len(reports))
    for sheet in reports:
        data.rolls += rolls_of(source, sheet)
        progress.step()
    data.events = module.events(source)
    data.measures = module.measures(source, data.events)
    return data


def audit_status(master: Any, viewer: str | None, commitment: str, key_hex: str | None) -> Audit:
    """The chain checked on the opened master, as ``musterroll verify`` checks
    it without the key (a side learns only whether it holds)."""
    from automation.audit import verify_book
    from automation.errors import MusterrollError
    from automation.workbook.package import list_batches

    try:
        result = verify_book(master, None, list_batches(Path(master.path)))
    except MusterrollError as exc:
        return Audit(False, f"the chain cannot be checked: {exc}" if viewer is None else
                     "the chain cannot be checked: ask the umpire", commitment, key_hex, VERIFY_COMMAND)
    if not result.reports:
        return Audit(None, "no refit report is sealed yet", commitment, key_hex, VERIFY_COMMAND)
    if result.problems:
        text = (f"the chain is broken: {len(result.problems)} problem(s), e.g. {result.problems[0]}" if viewer is None
                else f"the chain is broken ({len(result.problems)} problem(s)): ask the umpire to run musterroll verify")
        return Audit(False, text, commitment, key_hex, VERIFY_COMMAND)
    text = f"the chain of {len(result.reports)} sealed report(s) is intact (dates: {', '.join(result.dates)})"
    return Audit(True, text, commitment, key_hex, VERIFY_COMMAND)

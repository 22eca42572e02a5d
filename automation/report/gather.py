"""Everything a report shows, gathered from one workbook: the umpire's master,
or a side's export (see :mod:`automation.report.source`)."""
from __future__ import annotations

import concurrent.futures
import multiprocessing
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

from automation.errors import UsageError
import automation.report.abtf as abtf
import automation.report.bf as bf
from automation.report.model import Audit, CampaignData
from automation.report.progress import Progress
from automation.report.source import Source, read_history, rolls_of

SYSTEMS: dict[str, ModuleType] = {"bf-campaign": bf, "asl-abtf": abtf}
VERIFY_COMMAND = "musterroll verify EXPORT.xlsx --key KEY"


def system_module(source: Source) -> ModuleType:
    found = SYSTEMS.get(source.system_id)
    if found is None:
        raise UsageError(f"{source.book.path}: no campaign report for rule system {source.system_id!r} yet; "
                         f"available: {', '.join(SYSTEMS)}")
    return found


def gather(source: Source, progress: Progress) -> CampaignData:
    module = system_module(source)
    reports = source.reports()
    order = module.dates(source)
    played = {s.date for s in reports}
    dates = [d for d in order if d in played] + sorted(played - set(order))
    data = CampaignData(source.system_id, source.campaign, source.viewer, source.sides, dates,
                        source.name, system=source.system)
    progress.stage("reading the reports", len(reports))
    for sheet in reports:
        data.rolls += rolls_of(source, sheet)
        progress.step()
    data.events = module.events(source)
    data.measures = module.measures(source, data.events)
    if source.viewer is None:  # the dice desk's logs are the umpire's
        from automation.audit.desk import check_desk

        data.desk_physical = list(check_desk(source.book, None).physical)
    return data


@dataclass(frozen=True)
class Chain:
    """What ``musterroll verify`` without the key finds (plain values, so a
    child process can hand it back)."""

    reports: int
    dates: tuple[str, ...]
    problems: tuple[str, ...]
    error: str | None = None


def check_chain(path: str) -> Chain:
    """The master's tamper-evident chain, checked as ``musterroll verify`` does
    without the key."""
    from automation.audit import verify_book
    from automation.errors import MusterrollError
    from automation.workbook.package import list_batches
    from automation.workbook.reader import Workbook

    try:
        result = verify_book(Workbook(Path(path)), None, list_batches(Path(path)))
    except MusterrollError as exc:
        return Chain(0, (), (), str(exc))
    return Chain(len(result.reports), tuple(result.dates), tuple(str(p) for p in result.problems))


class PendingChain:
    """The chain check, run beside the rest of the report in a second process
    for a long campaign (it reads every sealed sheet), inline otherwise; for a
    side's report, that process first reads the side's own rows of every
    dated roster (:func:`automation.report.source.read_history`)."""

    def __init__(self, path: Path, in_background: bool, side: str | None = None) -> None:
        self.path = str(path)
        self.side = side
        self._pool: concurrent.futures.ProcessPoolExecutor | None = None
        self._future: concurrent.futures.Future[Chain] | None = None
        self._history: concurrent.futures.Future[dict[str, list[list[Any]]]] | None = None
        if in_background:
            self._pool = concurrent.futures.ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn"))
            if side is not None:  # first: the side's report needs it before the chain
                self._history = self._pool.submit(read_history, self.path, side)
            self._future = self._pool.submit(check_chain, self.path)

    @property
    def background(self) -> bool:
        return self._pool is not None

    def history(self) -> dict[str, list[list[Any]]]:
        """The side's own rows of every dated roster, by sheet."""
        if self._history is not None:
            return self._history.result()
        return read_history(self.path, str(self.side))

    def result(self) -> Chain:
        if self._future is None:
            return check_chain(self.path)
        try:
            return self._future.result()
        finally:
            self.close()

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(cancel_futures=True)
            self._pool = None


def audit_status(chain: Chain, viewer: str | None, commitment: str, key_hex: str | None) -> Audit:
    """The audit as the reader may see it (a side learns only whether the chain holds)."""
    if chain.error is not None:
        return Audit(False, f"the chain cannot be checked: {chain.error}" if viewer is None else
                     "the chain cannot be checked: ask the umpire", commitment, key_hex, VERIFY_COMMAND)
    if not chain.reports:
        return Audit(None, "no refit report is sealed yet", commitment, key_hex, VERIFY_COMMAND)
    if chain.problems:
        text = (f"the chain is broken: {len(chain.problems)} problem(s), e.g. {chain.problems[0]}" if viewer is None
                else f"the chain is broken ({len(chain.problems)} problem(s)): ask the umpire to run musterroll verify")
        return Audit(False, text, commitment, key_hex, VERIFY_COMMAND)
    text = f"the chain of {chain.reports} sealed report(s) is intact (dates: {', '.join(chain.dates)})"
    return Audit(True, text, commitment, key_hex, VERIFY_COMMAND)

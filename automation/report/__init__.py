"""``musterroll report BOOK.xlsx [--side SIDE] -o REPORT.html``: the campaign at
a glance in one self-contained HTML file, for the umpire (everything) or for
one side (only what that side's export holds).

Modules: :mod:`.source` (which workbook is read: the master or the side's
export), :mod:`.bf` and :mod:`.abtf` (each rule system's story, strength,
economy and losses), :mod:`.gather`, :mod:`.frames` (pandas tables),
:mod:`.fit` (the test of fit and its plain-words reading), :mod:`.charts`
(matplotlib SVG), :mod:`.page` (the HTML) and :mod:`.progress`.
"""
from __future__ import annotations

import os
import tempfile
from pathlib import Path
from typing import Any

from automation.errors import UsageError, WorkbookFileError

SUFFIXES = (".html", ".htm")


def check_out(book: Path, out: Path) -> None:
    if out.suffix.lower() not in SUFFIXES:
        raise UsageError(f"-o {out}: the report must be an .html file")
    if out.exists() and out.resolve() == book.resolve():
        raise UsageError(f"-o {out}: choose a new file for the report, not the campaign workbook")
    if not out.parent.is_dir():
        raise WorkbookFileError(f"-o {out}: the folder {out.parent} does not exist")


def build_report(book: Path, out: Path, side: str | None = None, key_file: Path | None = None,
                 reveal_key: bool = False, quiet: bool = False) -> str:
    """Write the report of ``book`` to ``out``; returns a summary line."""
    from automation.report.frames import dice_statistics
    from automation.report.gather import PendingChain, audit_status, gather
    from automation.report.page import render
    from automation.report.progress import LONG, Progress
    from automation.report.source import open_master, open_side, open_umpire

    book, out = Path(book), Path(out)
    check_out(book, out)
    master = open_master(book)
    key_hex = revealed_key(master, key_file) if reveal_key else None
    chain = PendingChain(book, in_background=len(master.sheet_names) >= 3 * LONG, side=side)
    try:
        source = open_umpire(master) if side is None else open_side(master, side, key_file,
                                                                         chain.history if chain.background else None)
        progress = Progress.for_campaign(len(source.reports()), quiet)
        data = gather(source, progress)
        data.audit = audit_status(chain.result(), source.viewer, source.commitment, key_hex)
    finally:
        chain.close()
    html = render(data, dice_statistics(data, physical=False), dice_statistics(data, physical=True), progress)
    write(out, html)
    progress.close()
    return (f"wrote {out} for {data.for_whom}: {len(data.dates)} date(s), {len(data.rolls)} roll(s), "
            f"{len(html.encode('utf-8')) // 1024} KB")


def revealed_key(master: Any, key_file: Path | None) -> str:
    """The campaign key, checked against the master's commitment, for a report
    made once the umpire reveals it."""
    from automation.pbem import planning

    settings = planning.settings_of(master)
    return planning.master_key(Path(master.path), key_file, str(settings.get("Key commitment") or "")).to_hex()


def write(out: Path, html: str) -> None:
    fd, tmp = tempfile.mkstemp(prefix=".musterroll-", suffix=".html", dir=out.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(html)
        Path(tmp).replace(out)
    except OSError as exc:
        Path(tmp).unlink(missing_ok=True)
        raise WorkbookFileError(f"{out}: cannot be written ({exc.strerror})") from None

"""Helpers of the play-by-email tests: campaigns of the Advance to Rostov sample
at the points where play by email happens, and what players do to files."""
from __future__ import annotations

import io
import shutil
import zipfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from automation.cli import main
from automation.samples import SAMPLE
from automation.samples_demo import ORDERS_DEC24, RESULTS_DEC23, SPEND_DEC23, SPEND_DEC24, _sheet
from automation.service import refit
from automation.workbook import bf_sheets as K
from automation.workbook.package import append_sheets


def enter(book: Path, kind, rows_by_side: dict[str, list[list[Any]]], date: str, tab: str = "orders") -> None:
    """Sheets entered by hand in the master (as the umpire would)."""
    append_sheets(book, [_sheet(kind.name_for(date=date, side=s), kind, rows, tab) for s, rows in rows_by_side.items()],
                  batch=f"entered {kind.title} {date}")


def build(folder: Path, stage: str) -> Path:
    folder.mkdir(parents=True)
    book = folder / "rostov.xlsx"
    shutil.copyfile(SAMPLE, book)
    shutil.copyfile(SAMPLE.with_suffix(".key"), book.with_suffix(".key"))
    refit(book)  # Dec 23 stage 1: waits for Spend Dec 23
    if stage == "spend_dec23":
        return book
    enter(book, K.SPEND, SPEND_DEC23, "Dec 23")
    refit(book)  # Dec 23 complete
    append_sheets(book, [_sheet(K.RESULTS.name_for(date="Dec 23"), K.RESULTS, RESULTS_DEC23, "results")], batch="results")
    if stage == "orders_dec24":
        refit(book)  # waits for Orders Dec 24 German
        return book
    enter(book, K.ORDERS, ORDERS_DEC24, "Dec 24")
    refit(book)  # Dec 24 stage 1: waits for Spend Dec 24 German
    if stage == "spend_dec24":
        return book
    enter(book, K.SPEND, SPEND_DEC24, "Dec 24")
    refit(book)  # Dec 24 complete
    assert stage == "complete", stage
    return book


def run(capsys, *argv: object) -> tuple[int, str, str]:
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def fill(export: Path, out: Path, rows: Sequence[Sequence[Any]], sheet: str | None = None) -> Path:
    """A player fills the export's orders sheet (rows from A2) and saves it as ``out``."""
    import openpyxl

    wb = openpyxl.load_workbook(export)
    ws = wb[sheet] if sheet else wb.worksheets[1]
    for r in range(2, ws.max_row + 1):
        for c in range(1, 5):
            ws.cell(r, c).value = None
    for r, row in enumerate(rows, start=2):
        for c, value in enumerate(row, start=1):
            cell = ws.cell(r, c, value)
            if isinstance(value, str):
                cell.data_type = "s"  # typed as text, whatever it starts with
    wb.save(out)
    return out


def parts(path: Path) -> dict[str, bytes]:
    with zipfile.ZipFile(io.BytesIO(path.read_bytes())) as z:
        return {n: z.read(n) for n in z.namelist()}


def rows_of(path: Path, sheet: str) -> list[list[Any]]:
    from automation.workbook.reader import Workbook

    return Workbook(path).raw(sheet)

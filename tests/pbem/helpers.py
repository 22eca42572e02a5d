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
from automation.samples import whole_sheet as _sheet
from automation.samples_demo import ORDERS_DEC24, RESULTS_DEC23, SPEND_DEC23, SPEND_DEC24
from automation.service import refit
from automation.workbook import bf_sheets as K
from automation.workbook.forms.enter import enter as append_sheets  # sheets in place of the refit's forms


def private_copy(src: Path, folder: Path) -> Path:
    """A copy of campaign workbook ``src`` and its key in ``folder``."""
    dst = folder / src.name
    folder.mkdir(parents=True)
    shutil.copyfile(src, dst)
    shutil.copyfile(src.with_suffix(".key"), dst.with_suffix(".key"))
    return dst


def abtf_purchased(folder: Path) -> Path:
    """The A Bridge Too Far sample in ``folder``, its 17N refit run through the
    purchases (automation.samples_abtf's PURCHASES_17N) entered."""
    from automation import samples_abtf as S

    book = folder / "abtf.xlsx"
    shutil.copyfile(S.SAMPLE, book)
    shutil.copyfile(S.SAMPLE.with_suffix(".key"), book.with_suffix(".key"))
    refit(book)
    S.enter_purchases(book, "17N", S.PURCHASES_17N)
    refit(book)
    return book


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
    if stage == "dec26":
        return play_on(book, ["Dec 25", "Dec 26"])
    assert stage == "complete", stage
    return book


LATER_RESULTS = [  # a quiet scenario: one stand a side unharmed with a kill by fire (2.1.1.3.1)
    ["German", "G-Pz-3", "Unharmed", None, None, None, None, None, None, None, 1, None, None, None],
    ["Russian", "R-T34-4", "Unharmed", None, None, None, None, None, None, None, 1, None, None, None],
]
LATER_POSTURES = {"German": "Defend", "Russian": "Attack"}


def enter_date(book: Path, previous: str, date: str, spending: bool = True) -> None:
    """The umpire's results of ``previous``'s scenario and both sides' orders
    (and, with ``spending``, empty spending) for ``date``."""
    append_sheets(book, [_sheet(K.RESULTS.name_for(date=previous), K.RESULTS, LATER_RESULTS, "results")],
                  batch=f"results {previous}")
    enter(book, K.ORDERS, {s: [["Posture", None, p, None]] for s, p in LATER_POSTURES.items()}, date)
    if spending:
        enter(book, K.SPEND, {s: [] for s in LATER_POSTURES}, date)


def play_on(book: Path, dates: Sequence[str], previous: str = "Dec 24") -> Path:
    """Refit further dates of a complete campaign, each in its two stages as in
    play by email: orders, stage 1, spending, stage 2."""
    for date in dates:
        enter_date(book, previous, date, spending=False)
        refit(book)  # stage 1: waits for the spending
        enter(book, K.SPEND, {s: [] for s in LATER_POSTURES}, date)
        refit(book)  # stage 2: report, roster, ledger, summary
        previous = date
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
    top = next((r for r in range(1, 4) if ws.cell(r, 1).value == "Order"), 1)  # a form's header is below its title
    for r in range(top + 1, ws.max_row + 1):
        for c in range(1, 6):
            ws.cell(r, c).value = None
    for r, row in enumerate(rows, start=top + 1):
        for c, value in enumerate(row, start=1):
            cell = ws.cell(r, c, value)
            if isinstance(value, str):
                cell.data_type = "s"  # typed as text, whatever it starts with
    wb.save(out)
    return out


def parts(path: Path) -> dict[str, bytes]:
    with zipfile.ZipFile(io.BytesIO(path.read_bytes())) as z:
        return {n: z.read(n) for n in z.namelist()}


def part_of(path: Path, sheet: str) -> str:
    """The part that holds ``sheet`` of the workbook at ``path`` (as its workbook part and relationships name it)."""
    from automation.workbook.reader import Workbook

    return Workbook(path).gate.sheet_targets()[sheet][0]


def rows_of(path: Path, sheet: str) -> list[list[Any]]:
    from automation.workbook.reader import Workbook

    return Workbook(path).raw(sheet)


def find_row(ws, **values) -> int:
    head = {c.value: c.column for c in ws[1]}
    for r in range(2, ws.max_row + 1):
        if all(ws.cell(r, head[k]).value == v for k, v in values.items()):
            return r
    raise AssertionError(values)


def cheat(book, sheet: str, row: int, values: dict[int, object]) -> None:
    """A cheater who knows the format: change values of a report, then recompute the
    report's row and column tags and its digest (everything but the seal, which
    needs the key)."""
    import openpyxl

    from automation.pbem import reports

    wb = openpyxl.load_workbook(book)
    ws = wb[sheet]
    for col, v in values.items():
        ws.cell(row, col).value = v
    rows = [[c.value for c in r] for r in ws.iter_rows()]
    h = reports.Header.of(rows[0])
    start = reports.chain_start(h, rows)
    content = reports.canonical(rows[:start])
    tags = {"rows": " ".join(reports.row_tags(sheet, content)), "columns": " ".join(reports.column_tags(sheet, content))}
    for i in range(start, len(rows)):
        subject = str(rows[i][h.positions["Subject"]])
        kind, _, target = subject.partition(": ")
        if target == sheet and kind in tags:
            ws.cell(i + 1, h.positions["Result"] + 1).value = rows[i][h.positions["Result"]] = tags[kind]
        if kind == "this report":
            digest = reports.chain_digest(sheet, reports.canonical(rows[:i]))
            ws.cell(i + 1, h.positions["Result"] + 1).value = digest
    wb.save(book)


def sheets_read(monkeypatch) -> list[str]:
    """The names of the sheets read from now on, in order (a name again each time it is asked for)."""
    from automation.workbook.reader import Workbook

    read: list[str] = []
    original = Workbook.raw

    def counting(self, name):
        read.append(name)
        return original(self, name)
    monkeypatch.setattr(Workbook, "raw", counting)
    return read

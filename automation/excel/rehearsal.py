"""Workbooks for the add-in's manual release test (docs/excel.md).

``musterroll addin test-workbooks FOLDER`` copies the Advance to Rostov sample
into FOLDER in the states the test clicks Refit in, and refits a twin of each
with ``musterroll refit`` (automation.service.refit) into FOLDER/expected, so
what the button writes can be compared with what the command line writes:

* ``1-first-refit``: the sample as shipped (the Dec 23 refit's first stage);
* ``2-date-complete``: after that stage, with both sides' Dec 23 spending
  entered (the demo's), so the refit completes Dec 23: report, roster, ledger,
  summary with its chart;
* ``3-no-key``: the sample without its key file beside it;
* ``5-accents``: the sample as ``Küstrin.xlsx`` with ``Küstrin.key`` (a name
  xlwings' Mac code garbles on its way to Python).
"""
from __future__ import annotations

import shutil
from pathlib import Path

from automation.errors import WorkbookFileError

CASES = ("1-first-refit", "2-date-complete", "3-no-key", "5-accents")
ACCENTED = "Küstrin"


def _copy(book: Path, folder: Path, with_key: bool = True) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    target = folder / book.name
    shutil.copyfile(book, target)
    if with_key:
        shutil.copyfile(book.with_suffix(".key"), target.with_suffix(".key"))
    return target


def make_test_workbooks(folder: Path) -> list[str]:
    """Write the test workbooks and their expected twins; returns what each Refit must do."""
    from automation.samples import SAMPLE
    from automation.samples_demo import SPEND_DEC23
    from automation.service import refit
    from automation.workbook import bf_sheets as K
    from automation.workbook.forms.enter import enter as append_sheets  # in place of the refit's forms
    from automation.workbook.package import NewSheet

    folder = Path(folder)
    if folder.exists() and any(folder.iterdir()):
        raise WorkbookFileError(f"{folder}: the folder is not empty; choose a new one (nothing was written)")
    first = _copy(SAMPLE, folder / CASES[0])
    complete = _copy(SAMPLE, folder / CASES[1])
    refit(complete)
    append_sheets(complete, [NewSheet(K.SPEND.name_for(date="Dec 23", side=side), [K.SPEND.header] + rows,
                                      kind="orders", column_widths=[c.width for c in K.SPEND.columns])
                             for side, rows in SPEND_DEC23.items()], batch="Spend Dec 23")
    missing = _copy(SAMPLE, folder / CASES[2], with_key=False)
    accented = folder / CASES[3] / f"{ACCENTED}.xlsx"
    accented.parent.mkdir(parents=True)
    shutil.copyfile(SAMPLE, accented)
    shutil.copyfile(SAMPLE.with_suffix(".key"), accented.with_suffix(".key"))
    lines = []
    for book in (first, complete):
        twin = _copy(book, folder / "expected" / book.parent.name)
        outcome = refit(twin)
        lines.append(f"{book}\n  Refit must add: {', '.join(outcome.written)}\n  and say: "
                     f"{outcome.waiting or f'{outcome.date}: refit complete'}\n  musterroll refit wrote the same "
                     f"into {twin}")
    lines.append(f"{missing}\n  Refit must say: {missing.with_suffix('.key')}: the campaign key file is missing...")
    lines.append(f"{accented}\n  Refit must add: Refit Dec 23 1, as {first} does")
    return lines

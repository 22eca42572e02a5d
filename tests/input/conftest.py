"""Fixtures of the input tests: the command line run in-process, and copies of
the bundled samples edited the way a spreadsheet program leaves them."""
from __future__ import annotations

import shutil
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

import openpyxl
import pytest

from automation.cli import main
from automation.samples import SAMPLE
from tests.workbook.workbook_helpers import Run

ABTF_SAMPLE = SAMPLE.parent / "a_bridge_too_far.xlsx"


@pytest.fixture
def musterroll(capsys: pytest.CaptureFixture[str]) -> Callable[..., Run]:
    def run(*argv: object) -> Run:
        capsys.readouterr()
        code = main([str(a) for a in argv])
        out, err = capsys.readouterr()
        return Run(code, out, err)

    return run


def copy_of(sample: Path, folder: Path, name: str = "campaign.xlsx") -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    book = folder / name
    shutil.copyfile(sample, book)
    shutil.copyfile(sample.with_suffix(".key"), book.with_suffix(".key"))
    return book


def typed(book: Path, change: Callable[[Any], None]) -> Path:
    """Edit ``book`` as Excel leaves it (openpyxl writing real dates, numbers, booleans)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        wb = openpyxl.load_workbook(book)
        change(wb)
        wb.save(book)
    return book


def problems(run: Run) -> list[str]:
    assert run.code == 2 and "Traceback" not in run.err, (run.code, run.err)
    return [line.removeprefix("musterroll: ") for line in run.err.strip().splitlines()]

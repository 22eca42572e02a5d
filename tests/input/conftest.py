"""Fixtures of the input tests: the command line run in-process, and copies of
the bundled samples edited the way a spreadsheet program leaves them."""
from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from automation.samples import SAMPLE
from tests.workbook.workbook_helpers import Run, cli_runner, copy_of, edit  # noqa: F401 (copy_of: for the tests)

ABTF_SAMPLE = SAMPLE.parent / "a_bridge_too_far.xlsx"


@pytest.fixture
def musterroll(capsys: pytest.CaptureFixture[str]) -> Callable[..., Run]:
    return cli_runner(capsys)


def typed(book: Path, change: Callable[[Any], None]) -> Path:
    """Edit ``book`` as Excel leaves it (openpyxl writing real dates, numbers, booleans)."""
    return edit(book, change)


def problems(run: Run) -> list[str]:
    assert run.code == 2 and "Traceback" not in run.err, (run.code, run.err)
    return [line.removeprefix("musterroll: ") for line in run.err.strip().splitlines()]

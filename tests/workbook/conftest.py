"""Fixtures of the workbook tests (helpers are in workbook_helpers.py)."""
from __future__ import annotations

from collections.abc import Callable

import pytest
from workbook_helpers import Run

from automation.cli import main


@pytest.fixture
def musterroll(capsys: pytest.CaptureFixture[str]) -> Callable[..., Run]:
    """Run the command line in-process: musterroll("refit", path) -> Run(code, out, err)."""

    def run(*argv: object) -> Run:
        capsys.readouterr()
        code = main([str(a) for a in argv])
        out, err = capsys.readouterr()
        return Run(code, out, err)

    return run

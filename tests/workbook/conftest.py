"""Fixtures of the workbook tests (helpers are in workbook_helpers.py)."""
from __future__ import annotations

from collections.abc import Callable

import pytest
from workbook_helpers import Run, cli_runner



@pytest.fixture
def musterroll(capsys: pytest.CaptureFixture[str]) -> Callable[..., Run]:
    """Run the command line in-process: musterroll("refit", path) -> Run(code, out, err)."""
    return cli_runner(capsys)

"""Campaigns of the Advance to Rostov sample at the points where play by email
happens, built once per test session and copied for each test."""
from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from tests.pbem.helpers import build, private_copy


@pytest.fixture(scope="session")
def stages(tmp_path_factory) -> dict[str, Path]:
    root = tmp_path_factory.mktemp("stages")
    return {s: build(root / s, s) for s in ("spend_dec23", "orders_dec24", "spend_dec24", "complete", "dec26")}


@pytest.fixture
def campaign(stages, tmp_path) -> Callable[[str], Path]:
    """A private copy (with its key) of the campaign at ``stage``."""

    def copy(stage: str) -> Path:
        return private_copy(stages[stage], tmp_path / stage)

    return copy



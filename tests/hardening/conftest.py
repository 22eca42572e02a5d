"""Fixtures of the hardening tests: a master of the Advance to Rostov sample that
waits for both sides' spending of Dec 23, and both sides' returned orders."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from automation.cli import main
from tests.pbem.helpers import build


@pytest.fixture(scope="session")
def waiting_master(tmp_path_factory) -> tuple[Path, dict[str, Path]]:
    """(master, {side: its returned orders}): the master waits for Spend Dec 23 of
    both sides, and each side returns its export with no spending in it."""
    root = tmp_path_factory.mktemp("hardening")
    book = build(root / "master", "spend_dec23")
    returns = {}
    for side in ("German", "Russian"):
        out = root / f"{side.lower()}.xlsx"
        assert main(["export", str(book), "--side", side, "-o", str(out)]) == 0
        returns[side] = out
    return book, returns


@pytest.fixture
def master_copy(waiting_master, tmp_path) -> Path:
    """A private copy of the waiting master, with its key."""
    book, _ = waiting_master
    folder = tmp_path / "copy"
    folder.mkdir()
    dst = folder / book.name
    shutil.copyfile(book, dst)
    shutil.copyfile(book.with_suffix(".key"), dst.with_suffix(".key"))
    return dst

"""Campaigns of both sample systems after some refits, built once per test
session; tests that change nothing read them in place."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from automation import samples_abtf
from tests.pbem.helpers import build


@pytest.fixture(scope="session")
def rostov(tmp_path_factory) -> Path:
    """Advance to Rostov refitted through Dec 26 (four dates)."""
    return build(tmp_path_factory.mktemp("rostov") / "book", "dec26")


@pytest.fixture(scope="session")
def bridge(tmp_path_factory) -> Path:
    """A Bridge Too Far after the RePh of 17N and of 18AM."""
    folder = tmp_path_factory.mktemp("bridge")
    book = folder / "abtf.xlsx"
    shutil.copyfile(samples_abtf.SAMPLE, book)
    shutil.copyfile(samples_abtf.SAMPLE.with_suffix(".key"), book.with_suffix(".key"))
    samples_abtf.play(book)
    return book

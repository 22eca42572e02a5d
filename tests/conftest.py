"""Every test keeps its carried work (automation.pbem.carry) in a folder of its
own, never in the user's cache folder: what one test carried cannot make
another's first run warm."""
from __future__ import annotations

import os

import pytest

from automation.cachesetting import CACHE_SETTING


@pytest.fixture(scope="session", autouse=True)
def _session_cache(tmp_path_factory: pytest.TempPathFactory):
    """For fixtures shared by a whole run (built campaigns, exports)."""
    before = os.environ.get(CACHE_SETTING)
    os.environ[CACHE_SETTING] = str(tmp_path_factory.mktemp("cache"))
    yield
    if before is None:
        os.environ.pop(CACHE_SETTING, None)
    else:
        os.environ[CACHE_SETTING] = before


@pytest.fixture(autouse=True)
def _test_cache(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(CACHE_SETTING, str(tmp_path_factory.mktemp("cache")))

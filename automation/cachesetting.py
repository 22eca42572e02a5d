"""The one setting for what Musterroll keeps between runs to save work:
``MUSTERROLL_CACHE``, a folder for the campaigns' carried folders
(:mod:`automation.pbem.carry`) and the undo images of the last changes
(:mod:`automation.workbook.undoimage`), or ``off``: nothing is kept, neither
those nor the parsed rules files (:mod:`automation.rulebook`)."""
from __future__ import annotations

import os
from pathlib import Path

CACHE_SETTING = "MUSTERROLL_CACHE"
OFF = ("off", "none", "no", "0")


def setting() -> str:
    """The setting as given (empty when unset)."""
    return os.environ.get(CACHE_SETTING, "").strip()


def keeping_off() -> bool:
    """Whether the setting turns keeping off."""
    return setting().lower() in OFF


def cache_folder(name: str) -> Path | None:
    """The folder ``name`` of what is kept between runs: under the folder the
    setting names, else under the user's cache folder (``~/.cache/musterroll``
    on Linux, ``%LOCALAPPDATA%\\musterroll\\Cache`` on Windows,
    ``~/Library/Caches/musterroll`` on macOS). None when keeping is off."""
    if keeping_off():
        return None
    raw = setting()
    if raw:
        return Path(raw).expanduser() / name
    import platformdirs

    return Path(platformdirs.user_cache_dir("musterroll", appauthor=False)) / name

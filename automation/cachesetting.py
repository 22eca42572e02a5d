"""The one setting for what Musterroll keeps between runs to save work:
``MUSTERROLL_CACHE``, a folder for the campaigns' carried folders
(:mod:`automation.pbem.carry`), or ``off``: nothing is kept, neither those
nor the parsed rules files (:mod:`automation.rulebook`)."""
from __future__ import annotations

import os

CACHE_SETTING = "MUSTERROLL_CACHE"
OFF = ("off", "none", "no", "0")


def setting() -> str:
    """The setting as given (empty when unset)."""
    return os.environ.get(CACHE_SETTING, "").strip()


def keeping_off() -> bool:
    """Whether the setting turns keeping off."""
    return setting().lower() in OFF

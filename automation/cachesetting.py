"""The one setting for what Musterroll keeps between runs to save work:
``MUSTERROLL_CACHE``, a folder for the campaigns' carried folders
(:mod:`automation.pbem.carry`), the undo images of the last changes
(:mod:`automation.workbook.undoimage`) and what the file gate found in the
workbooks' lists (:mod:`automation.workbook.gatememo`), or ``off``: nothing
is kept, neither those nor the parsed rules files (:mod:`automation.rulebook`)."""
from __future__ import annotations

import contextlib
import os
import tempfile
from pathlib import Path
from typing import BinaryIO, Callable

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


def keep_file(path: Path, write: Callable[[BinaryIO], object]) -> None:
    """Write a kept file whole or not at all: ``write`` fills a temporary
    file beside ``path``, which then takes its place (a reader sees the old
    file or the new one, never half of one)."""
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".carry-", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as fh:
            write(fh)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def used(path: Path) -> None:
    """Mark a kept file as just used (its time is what :func:`prune` keeps the
    newest by): a file read again and again stays while newer ones come and go."""
    with contextlib.suppress(OSError):
        os.utime(path)


def prune(folder: Path, suffix: str, kept: int) -> None:
    """Remove all but the ``kept`` files of ``folder`` ending ``suffix`` last
    written or used (:func:`used`)."""
    with os.scandir(folder) as entries:
        found = [(entry.stat().st_mtime_ns, entry.path) for entry in entries if entry.name.endswith(suffix)]
    for _, path in sorted(found, reverse=True)[kept:]:
        with contextlib.suppress(OSError):
            os.unlink(path)

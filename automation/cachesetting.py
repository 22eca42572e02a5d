"""The one setting for what Musterroll keeps between runs to save work:
``MUSTERROLL_CACHE``, a folder for the campaigns' carried folders
(:mod:`automation.pbem.carry`), the undo images of the last changes
(:mod:`automation.workbook.undoimage`), what the file gate found in the
workbooks' lists (:mod:`automation.workbook.gatememo`) and the entries of
their zip directories (:mod:`automation.workbook.direntries`), or ``off``: nothing
is kept, neither those nor the parsed rules files (:mod:`automation.rulebook`)."""
from __future__ import annotations

import contextlib
import functools
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


def read_kept(folder: Path | None, name: str) -> bytes | None:
    """The bytes of the kept file ``folder/name`` (None: no folder, or the file
    absent or unreadable, so worked out again)."""
    if folder is None:
        return None
    try:
        return (folder / name).read_bytes()
    except OSError:
        return None


def write_kept(folder: Path, name: str, data: bytes, suffix: str, kept: int) -> bool:
    """Keep ``data`` as ``folder/name`` (:func:`keep_file`), and the ``kept``
    last written or used files of the folder ending ``suffix`` (best effort:
    what cannot be kept is worked out again next time); whether it was kept."""
    try:
        folder.mkdir(parents=True, exist_ok=True, mode=0o700)
        keep_file(folder / name, lambda fh: fh.write(data))
    except OSError:
        return False
    with contextlib.suppress(OSError):
        prune(folder, suffix, kept)
    return True


def sealed(body: bytes) -> bytes:
    """``body`` as a kept file holds it: followed by its SHA-256, which tells
    a file cut short or changed (only the user's own commands write the cache
    folder, readable by the user alone, so what reads back whole is taken as
    written)."""
    import hashlib  # (not for every command: odds keeps nothing)

    return body + hashlib.sha256(body).digest()


def unsealed(raw: bytes | None) -> bytes | None:
    """The body of a kept file :func:`sealed` wrote, when it reads back whole; else None."""
    import hashlib

    if raw is None or len(raw) < 32:
        return None
    body = raw[:-32]
    return body if hashlib.sha256(body).digest() == raw[-32:] else None


def used(path: Path) -> None:
    """Mark a kept file as just used (its time is what :func:`prune` keeps the
    newest by): a file read again and again stays while newer ones come and go."""
    with contextlib.suppress(OSError):
        os.utime(path)


def prune(folder: Path, suffix: str, kept: int) -> None:
    """Once more than ``kept`` files of ``folder`` end with ``suffix``, remove
    those written or used (:func:`used`) longest ago, down to seven eighths of
    ``kept``. Each write counts the files by name alone; their times are read
    only when some must go (a few hundred files: 0.8 ms), and then not again
    for an eighth of ``kept`` writes."""
    with os.scandir(folder) as entries:
        found = [entry for entry in entries if entry.name.endswith(suffix)]
    if len(found) <= kept:
        return
    stamped = []
    for entry in found:
        with contextlib.suppress(OSError):  # (one removed meanwhile: by another command pruning)
            stamped.append((entry.stat().st_mtime_ns, entry.path))
    for _, path in sorted(stamped, reverse=True)[kept - kept // 8:]:
        with contextlib.suppress(OSError):
            os.unlink(path)


@functools.cache
def code_stamp() -> str:
    """Musterroll's own modules (names, sizes, times): what is kept is worked
    out anew by another version (found once a process: the modules it runs
    are those it loaded)."""
    import hashlib

    root = Path(__file__).resolve().parent
    h = hashlib.sha256()
    for path in sorted(root.rglob("*.py")):
        st = path.stat()
        h.update(f"{path.relative_to(root)}:{st.st_size}:{st.st_mtime_ns}\n".encode())
    return h.hexdigest()[:32]

"""One writer at a time for a workbook file.

Every command that changes a workbook (refit, import, undo, the desk and the
trackers) holds an exclusive lock on it for its whole read-check-write, so a
second writer waits and then reads the bytes the first one wrote; two imports
that arrive together both land. The lock is a ``filelock`` lock file beside the
workbook (``.~NAME.lock``), taken with a bounded wait (``MUSTERROLL_LOCK_WAIT``
seconds, default 120); past it the command refuses and changes nothing.

While the lock is held, temporary files a killed write left beside the
workbook (see :func:`temp_prefix`) are removed: no other writer of this
workbook can be using them then. The journal of a write in place cut short
is not one of them: it is used to roll that write back
(:mod:`automation.workbook.journal`) before the workbook is read.
"""
from __future__ import annotations

import hashlib
import os
import re
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from automation.errors import WorkbookFileError

DEFAULT_WAIT = 120.0
WAIT_SETTING = "MUSTERROLL_LOCK_WAIT"


def lock_wait() -> float:
    raw = os.environ.get(WAIT_SETTING, "")
    try:
        wait = float(raw) if raw.strip() else DEFAULT_WAIT
    except ValueError:
        raise WorkbookFileError(f"{WAIT_SETTING}={raw!r}: give the seconds to wait for another writer, "
                                "e.g. 120") from None
    return max(0.0, wait)


def real_path(path: Path | str) -> Path:
    return Path(os.path.realpath(path))


def temp_prefix(real: Path) -> str:
    """The name every temporary file of a write of ``real`` starts with: the
    workbook's name (shortened) and a hash of its full name, so the temporary
    files of two workbooks never match each other's pattern."""
    tag = hashlib.sha256(real.name.encode("utf-8", "surrogatepass")).hexdigest()[:10]
    return f".~{real.stem[:30]}.{tag}."


def _stale(real: Path) -> list[Path]:
    prefix = temp_prefix(real)
    try:
        names = os.listdir(real.parent)
    except OSError:
        return []
    old = re.compile(re.escape(f".~{real.stem}-") + r"[A-Za-z0-9_]{8}\.tmp") if len(real.stem) <= 40 else None
    return [real.parent / n for n in names
            if (n.startswith(prefix) and n.endswith(".tmp")) or (old is not None and old.fullmatch(n))]


def clean_temporaries(path: Path | str) -> list[Path]:
    """Remove what killed writes of ``path`` left behind; the caller holds the lock."""
    removed = []
    for stale in _stale(real_path(path)):
        try:
            stale.unlink()
            removed.append(stale)
        except OSError:
            pass
    return removed


def lock_path(real: Path) -> Path:
    return real.with_name(f".~{real.name}.lock")


_held: dict[Path, int] = {}


@contextmanager
def writing(path: Path | str) -> Iterator[None]:
    """Hold the workbook's write lock (re-entrant within a process) for the block."""
    from filelock import FileLock, Timeout

    real = real_path(path)
    if _held.get(real):
        _held[real] += 1
        try:
            yield
        finally:
            _held[real] -= 1
        return
    if not real.is_file():  # no workbook to write: the reader says what is wrong, and no lock file is left
        yield
        return
    wait = lock_wait()
    lock = FileLock(str(lock_path(real)), timeout=wait)
    try:
        lock.acquire()
    except Timeout:
        raise WorkbookFileError(f"{path}: another Musterroll command has been changing this workbook for over "
                                f"{wait:g} s ({lock_path(real).name} is held); nothing was changed: run it again "
                                "when that one is done") from None
    except OSError as exc:
        raise WorkbookFileError(f"{path}: cannot lock the workbook for writing in its folder "
                                f"({exc.strerror or exc}); nothing was changed") from None
    _held[real] = 1
    try:
        clean_temporaries(real)
        yield
    finally:
        _held.pop(real, None)
        lock.release()


__all__ = ["clean_temporaries", "lock_path", "lock_wait", "temp_prefix", "writing"]

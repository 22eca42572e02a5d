"""One normalization for names and choices, used by every command: a side,
an ID, a list value or a header typed with another case or stray spaces names
the same thing, and Y/N, yes/no, true/false are one thing. Pure: no I/O."""
from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import Any


def norm(text: Any) -> str:
    """The one form names and choices are compared in: case and surrounding or
    repeated spaces do not count ('Germans ' is 'germans')."""
    return " ".join(str(text).split()).casefold()


def same(a: Any, b: Any) -> bool:
    return a is not None and b is not None and norm(a) == norm(b)


def match_name(text: Any, allowed: Sequence[str]) -> str | None:
    """The allowed value ``text`` names, ignoring case and spaces (None: none;
    the first of two that differ only so)."""
    if text is None:
        return None
    allowed = allowed if isinstance(allowed, tuple) else tuple(allowed)
    if len(allowed) > SHORT_LIST:  # a long list (a roster's IDs) is scanned: not kept for a next call
        key = norm(text)
        return next((a for a in allowed if norm(a) == key), None)
    return _by_norm(allowed).get(norm(text))


SHORT_LIST = 512  # a list of choices this long is normalized once and kept (at most 256 such lists)


@lru_cache(maxsize=256)
def _by_norm(allowed: tuple[str, ...]) -> dict[str, str]:
    """Each allowed value by its normal form (the first one, as a scan finds it):
    a list is normalized once, not once for every cell checked against it."""
    out: dict[str, str] = {}
    for a in allowed:
        out.setdefault(norm(a), a)
    return out


YES_WORDS = frozenset({"yes", "y", "true", "t", "1"})
NO_WORDS = frozenset({"no", "n", "false", "f", "0"})


def yes_no(value: Any) -> str | None:
    """'Yes' or 'No' for any way of writing one (Y/N, yes/no, true/false,
    TRUE/FALSE cells, 1/0); None for anything else."""
    if isinstance(value, bool):
        return "Yes" if value else "No"
    if isinstance(value, (int, float)) and value in (0, 1):
        return "Yes" if value else "No"
    key = norm(value) if isinstance(value, str) else ""
    return "Yes" if key in YES_WORDS else "No" if key in NO_WORDS else None

"""The progress bar of ``musterroll verify`` on standard error.

It appears once the run has taken longer than :data:`AFTER` seconds (a short
run prints nothing), is redrawn at most every :data:`EVERY` seconds, and ends
its line when a phase is done. ``MUSTERROLL_PROGRESS=1`` shows it from the
start, ``MUSTERROLL_PROGRESS=0`` never. Standard output (the summary, or JSON)
is never touched."""
from __future__ import annotations

import os
import sys
import time
from collections.abc import Callable
from typing import TextIO

AFTER = 2.0
EVERY = 0.2
WIDTH = 30


class Progress:
    """``progress(n, total, what, phase)``: item ``n`` of ``total`` of a phase is under way."""

    def __init__(self, stream: TextIO | None = None, after: float | None = None, every: float = EVERY,
                 clock: Callable[[], float] = time.monotonic) -> None:
        setting = os.environ.get("MUSTERROLL_PROGRESS", "")
        self.stream = stream if stream is not None else sys.stderr
        self.after = after if after is not None else (0.0 if setting == "1" else AFTER)
        self.off = setting == "0"
        self.every, self.clock = every, clock
        self.start = clock()
        self.last = -1.0

    def __call__(self, n: int, total: int, what: str, phase: str = "replaying") -> None:
        now = self.clock()
        final = n >= total
        if self.off or now - self.start < self.after or (not final and now - self.last < self.every):
            return
        done = int(WIDTH * n / max(total, 1))
        self.stream.write(f"\r{phase} {'#' * done}{'.' * (WIDTH - done)} {n}/{total} {what[:40]:<40}")
        if final:
            self.stream.write("\n")
        self.stream.flush()
        self.last = now


__all__ = ["AFTER", "Progress"]

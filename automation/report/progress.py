"""A progress bar on stderr for long campaigns (a terminal gets one line
redrawn; a log gets a line at each tenth)."""
from __future__ import annotations

import sys
from typing import TextIO

LONG = 40  # report sheets from which a campaign counts as long


class Progress:
    def __init__(self, enabled: bool, stream: TextIO | None = None, width: int = 30) -> None:
        self.enabled = enabled
        self.stream = stream if stream is not None else sys.stderr
        self.width = width
        self.total = 1
        self.done = 0
        self.what = ""
        self._shown = -1

    @classmethod
    def for_campaign(cls, sheets: int, quiet: bool = False) -> Progress:
        return cls(enabled=not quiet and sheets >= LONG)

    def stage(self, what: str, total: int) -> None:
        self.what, self.total, self.done, self._shown = what, max(total, 1), 0, -1
        self._draw()

    def step(self, n: int = 1) -> None:
        self.done = min(self.done + n, self.total)
        self._draw()

    def _draw(self) -> None:
        if not self.enabled:
            return
        tty = self.stream.isatty()
        tenth = self.done * 10 // self.total
        if not tty and tenth == self._shown:
            return
        self._shown = tenth
        filled = self.done * self.width // self.total
        bar = "#" * filled + "." * (self.width - filled)
        text = f"report: [{bar}] {self.done * 100 // self.total:3d}% {self.what}"
        self.stream.write(("\r" + text) if tty else text + "\n")
        self.stream.flush()

    def close(self) -> None:
        if self.enabled and self.stream.isatty():
            self.stream.write("\n")
            self.stream.flush()

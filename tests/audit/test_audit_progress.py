"""The progress bar of a long verify: silent for a short run, throttled, on standard error only."""
from __future__ import annotations

import io

from automation.audit.progress import Progress


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_a_short_run_prints_nothing(monkeypatch):
    monkeypatch.delenv("MUSTERROLL_PROGRESS", raising=False)
    out, clock = io.StringIO(), Clock()
    bar = Progress(out, clock=clock)
    for n in range(1, 11):
        clock.now += 0.1
        bar(n, 10, f"Refit {n}")
    assert out.getvalue() == ""


def test_a_long_run_shows_a_throttled_bar_that_ends_its_line(monkeypatch):
    monkeypatch.delenv("MUSTERROLL_PROGRESS", raising=False)
    out, clock = io.StringIO(), Clock()
    bar = Progress(out, clock=clock)
    for n in range(1, 101):
        clock.now += 0.05  # 5 s in all: shown from 2 s on, at most every 0.2 s
        bar(n, 100, f"Refit {n}", "checking")
    text = out.getvalue()
    draws = text.count("\r")
    assert 10 <= draws <= 16, draws
    assert text.startswith("\rchecking ") and text.endswith("100/100 Refit 100" + " " * 31 + "\n")
    assert " 1/100" not in text and " 39/100" not in text  # nothing before 2 s


def test_the_setting_forces_or_silences_the_bar(monkeypatch):
    out, clock = io.StringIO(), Clock()
    monkeypatch.setenv("MUSTERROLL_PROGRESS", "1")
    Progress(out, clock=clock)(1, 2, "Refit 1")
    assert "1/2 Refit 1" in out.getvalue()
    monkeypatch.setenv("MUSTERROLL_PROGRESS", "0")
    silent = io.StringIO()
    clock.now += 60
    Progress(silent, clock=lambda: 0.0)(2, 2, "Refit 2")
    assert silent.getvalue() == ""

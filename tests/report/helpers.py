"""Helpers of the report tests: campaigns of both sample systems, reading a
report's tables back, and a real headless Chromium."""
from __future__ import annotations

import os
import re
import shutil
import subprocess
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest

from automation.cli import main

CHROMIUM = ("chromium", "chromium-browser", "google-chrome")
FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking",
         "--disable-component-update", "--disable-sync")


def run(capsys, *args: Any) -> tuple[int, str, str]:
    code = main([str(a) for a in args])
    out, err = capsys.readouterr()
    return code, out, err


def report(capsys, book: Path, out: Path, *extra: Any) -> Path:
    code, _, err = run(capsys, "report", book, "-o", out, *extra)
    assert code == 0, err
    return out


class Tables(HTMLParser):
    """Every <table id=...> of a page as rows of cell texts (header rows included)."""

    def __init__(self) -> None:
        super().__init__()
        self.tables: dict[str, list[list[str]]] = {}
        self._id: str | None = None
        self._row: list[str] | None = None
        self._cell: list[str] | None = None
        self.ids: list[str] = []
        self.svgs = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        if a.get("id"):
            self.ids.append(str(a["id"]))
        if tag == "svg" and "chart" in str(a.get("class") or ""):
            self.svgs += 1
        if tag == "table" and a.get("id"):
            self._id = str(a["id"])
            self.tables[self._id] = []
        elif tag == "tr" and self._id:
            self._row = []
        elif tag in ("td", "th") and self._row is not None:
            self._cell = []

    def handle_endtag(self, tag: str) -> None:
        if tag in ("td", "th") and self._row is not None and self._cell is not None:
            self._row.append("".join(self._cell).strip())
            self._cell = None
        elif tag == "tr" and self._id and self._row is not None:
            self.tables[self._id].append(self._row)
            self._row = None
        elif tag == "table":
            self._id = None

    def handle_data(self, data: str) -> None:
        if self._cell is not None:
            self._cell.append(data)


def parse(html: str) -> Tables:
    t = Tables()
    t.feed(html)
    return t


def column_table(rows: list[list[str]]) -> dict[str, dict[str, str]]:
    """A table whose first row names the columns and first column the dates
    (pandas writes the index name on a second header row) as {date: {column: cell}}."""
    head = rows[0]
    body = [r for r in rows[1:] if r and r[0] and len(r) == len(head)]
    return {r[0]: dict(zip(head[1:], r[1:])) for r in body}


def record_table(rows: list[list[str]]) -> list[dict[str, str]]:
    return [dict(zip(rows[0], r)) for r in rows[1:]]


def slug(*parts: str) -> str:
    return re.sub(r"[^A-Za-z0-9]+", "-", " ".join(parts)).strip("-").lower()


# ------------------------------------------------------------------ Chromium

def chromium() -> str:
    for name in CHROMIUM:
        found = shutil.which(name)
        if found:
            return found
    if os.environ.get("CI") == "true":
        pytest.fail("Chromium is required when CI=true, and it is not installed")
    pytest.skip("Chromium is not installed")


def browse(page: Path, tmp: Path, width: int = 1100, height: int = 3000, screenshot: Path | None = None,
           fragment: str = "") -> tuple[str, str]:
    """Open ``page`` in headless Chromium: (the DOM after its scripts ran, the
    browser's log, where console messages and blocked requests appear)."""
    profile = tmp / f"profile-{width}-{os.getpid()}-{len(list(tmp.glob('profile-*')))}"
    args = [chromium(), *FLAGS, f"--user-data-dir={profile}", "--enable-logging=stderr", "--v=0",
            f"--window-size={width},{height}", "--virtual-time-budget=5000"]
    if screenshot is not None:
        shot = subprocess.run(args + [f"--screenshot={screenshot}", page.resolve().as_uri()], capture_output=True,
                              text=True, timeout=180)
        assert screenshot.exists(), shot.stderr[-2000:]
    done = subprocess.run(args + ["--dump-dom", page.resolve().as_uri() + fragment], capture_output=True, text=True,
                          timeout=180)
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout, done.stderr


def console_errors(log: str) -> list[str]:
    return [ln for ln in log.splitlines()
            if ":CONSOLE" in ln or "Uncaught" in ln or "Refused to" in ln or "net::ERR" in ln]

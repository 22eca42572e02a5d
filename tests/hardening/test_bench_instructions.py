"""The benchmark's instruction counts (bench/instructions.py): what callgrind
says is read and summed, a run that counted nothing is refused, the ratio is
of the longest campaign's count to the shortest's, and without Valgrind the
benchmark says so rather than measure nothing. Valgrind itself is not part of
the setup, so no command is counted here."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "bench" / "bench_commands.py"
sys.path.insert(0, str(SCRIPT.parent))
try:
    import instructions
finally:
    sys.path.remove(str(SCRIPT.parent))

STDERR = """==4242== Callgrind, a call-graph generating cache profiler
==4242== Command: /usr/bin/env MUSTERROLL_CACHE=/tmp/c python -m automation export x.xlsx
wrote x for German: 21 sheet(s)
==4242== Events    : Ir
==4242== Collected : 2485883201
==4243== Collected : 1000
==4242== I   refs:      2,485,883,201
"""


def test_the_counts_callgrind_writes_are_read_and_summed_over_the_processes_it_followed() -> None:
    assert instructions.collected(STDERR) == 2485884201


def test_a_run_that_counted_nothing_is_refused() -> None:
    with pytest.raises(RuntimeError, match="counted nothing"):
        instructions.collected("Collected : 12\nno line of callgrind's own")


def test_the_ratio_is_the_longest_campaigns_count_over_the_shortests() -> None:
    counts = {(40, 1, "export"): 1_000_000, (40, 100, "export"): 1_250_000, (40, 1, "refit"): 2_000_000}
    rows = instructions.summary(counts, [40], [1, 100])["40"]
    assert set(rows) == {"export"}  # (refit was not counted at every length)
    assert rows["export"] == {"instructions": {"1": 1_000_000, "100": 1_250_000}, "ratio_last_first": 1.25}
    assert instructions.table("40", rows, [1, 100])[-2] == "| export | 1 | 1 | 1.250 |"


def test_without_valgrind_the_benchmark_says_so_and_measures_nothing(tmp_path: Path) -> None:
    python = Path(sys.executable)
    env = {**os.environ, "PATH": str(tmp_path)}  # (no valgrind on it)
    run = subprocess.run([str(python), str(SCRIPT), "--quick", "--instructions", "--folder", str(tmp_path)],
                         capture_output=True, text=True, timeout=120, cwd=ROOT, env=env)
    assert run.returncode == 2
    assert "Valgrind, which is not installed" in run.stderr
    assert not list(tmp_path.iterdir())  # no campaign grown


def test_each_campaign_is_counted_with_its_own_cache_folder(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each size keeps its carried work in a folder of its own: a count runs in
    the environment of that folder, not in the one the benchmark started with."""
    import contextlib
    from unittest import mock

    class Campaign:
        def __init__(self, stands: int) -> None:
            self.stands = stands

        def cached(self) -> contextlib.AbstractContextManager[object]:
            return mock.patch.dict(os.environ, {"MUSTERROLL_CACHE": f"/cache/{self.stands} stands"})

        def argv(self, what: str) -> list[str]:
            return [what, str(self.stands)]
    seen: dict[str, str] = {}
    monkeypatch.setattr(instructions, "count",
                        lambda argv, cwd, env: seen.setdefault(argv[1], env["MUSTERROLL_CACHE"]) and 1)
    monkeypatch.setenv("MUSTERROLL_CACHE", "/cache")
    counted = instructions.count_each([Campaign(1000), Campaign(5000)], ["import"], ROOT,
                                      lambda: dict(os.environ), lambda c, w: (c.stands, w), lambda message: None)
    assert seen == {"1000": "/cache/1000 stands", "5000": "/cache/5000 stands"}
    assert counted == {(1000, "import"): 1, (5000, "import"): 1}

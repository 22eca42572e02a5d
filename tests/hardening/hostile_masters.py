"""Masters made hostile outside the project (from the Advance to Rostov sample),
and the command line run on them in a child process with capped memory."""
from __future__ import annotations

import io
import os
import resource
import shutil
import subprocess
import sys
import zipfile
from collections.abc import Callable
from pathlib import Path

from automation.samples import SAMPLE

ROOT = Path(__file__).resolve().parents[2]
MEMORY_CAP = 1024 * 2**20  # a refused file must cost less than 1 GB of address space...
TIME_CAP = 120  # ...and end (the figure is a hang guard, not a speed test)
ROSTER = "xl/worksheets/sheet8.xml"  # Roster Start, which every command reads
FAR = '<row r="1048576"><c r="XFD1048576" t="inlineStr"><is><t>x</t></is></c></row></sheetData>'

Parts = dict[str, bytes]


def parts_of(path: Path) -> Parts:
    with zipfile.ZipFile(path) as z:
        return {i.filename: z.read(i.filename) for i in z.infolist()}


def zipped(parts: Parts, level: int = 6) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED, compresslevel=level) as z:
        for name, data in parts.items():
            z.writestr(name, data)
    return buf.getvalue()


def master(folder: Path, change: Callable[[Parts], Parts] | None = None, src: Path = SAMPLE) -> Path:
    """A copy of ``src`` (with its key) in ``folder``, its parts changed by ``change``."""
    folder.mkdir(parents=True, exist_ok=True)
    book = folder / "campaign.xlsx"
    shutil.copyfile(src.with_suffix(".key"), book.with_suffix(".key"))
    if change is None:
        shutil.copyfile(src, book)
    else:
        book.write_bytes(zipped(change(parts_of(src))))
    return book


def capped(*argv: object) -> subprocess.CompletedProcess:
    def cap() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (MEMORY_CAP, MEMORY_CAP))

    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, "-m", "automation", *map(str, argv)], capture_output=True, text=True,
                          preexec_fn=cap, env=env, timeout=TIME_CAP, cwd=ROOT)


def argv_for(command: str, book: Path, folder: Path) -> list[object]:
    if command == "export":
        return ["export", book, "--side", "German", "-o", folder / "out.xlsx"]
    return [command, book]


class Measured:
    """A command line run in a child process: its exit code, output, true peak
    RSS (MB, from the kernel's accounting of that child) and CPU seconds."""

    def __init__(self, code: int, out: str, err: str, rss_mb: float, cpu_s: float) -> None:
        self.code, self.out, self.err, self.rss_mb, self.cpu_s = code, out, err, rss_mb, cpu_s


def measured(*argv: object, cpu_cap: int = 10, wall_cap: int = TIME_CAP) -> Measured:
    """Run ``musterroll ARGV`` with its address space capped (1.5 GB, a net under
    the 1 GB asserted on the peak RSS) and its CPU time capped at ``cpu_cap``
    seconds (the kernel stops it past that, whatever the load of the machine)."""
    import tempfile
    import threading

    def cap() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (1536 * 2**20, 1536 * 2**20))
        resource.setrlimit(resource.RLIMIT_CPU, (cpu_cap, cpu_cap + 1))

    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        proc = subprocess.Popen([sys.executable, "-m", "automation", *map(str, argv)], stdout=out, stderr=err,
                                preexec_fn=cap, env=env, cwd=ROOT)
        watchdog = threading.Timer(wall_cap, proc.kill)
        watchdog.start()
        try:
            _, status, usage = os.wait4(proc.pid, 0)
        finally:
            watchdog.cancel()
        proc.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        return Measured(proc.returncode, out.read().decode("utf-8", "replace"), err.read().decode("utf-8", "replace"),
                        usage.ru_maxrss / 1024, usage.ru_utime + usage.ru_stime)

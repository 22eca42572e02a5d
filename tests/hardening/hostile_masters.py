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

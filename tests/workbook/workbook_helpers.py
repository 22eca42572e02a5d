"""Helpers for the workbook tests: copies of the bundled sample edited the way an
umpire would in a spreadsheet (openpyxl stands in for Excel)."""
from __future__ import annotations

import shutil
import warnings
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import openpyxl

from automation.samples import SAMPLE


@dataclass(frozen=True)
class Run:
    code: int
    out: str
    err: str


def cli_runner(capsys: Any) -> Callable[..., Run]:
    """The command line run in-process: run("refit", path) -> Run(code, out, err)."""
    from automation.cli import main

    def run(*argv: object) -> Run:
        capsys.readouterr()
        code = main([str(a) for a in argv])
        out, err = capsys.readouterr()
        return Run(code, out, err)

    return run


def copy_of(sample: Path, folder: Path, name: str = "campaign.xlsx") -> Path:
    """A copy of ``sample`` with its key beside it."""
    folder.mkdir(parents=True, exist_ok=True)
    book = folder / name
    shutil.copyfile(sample, book)
    shutil.copyfile(sample.with_suffix(".key"), book.with_suffix(".key"))
    return book


def copy_sample(folder: Path, name: str = "campaign.xlsx") -> Path:
    """A copy of the Advance to Rostov sample with its key beside it."""
    return copy_of(SAMPLE, folder, name)


def edit(book: Path, change: Callable[[Any], None]) -> Path:
    """Open ``book`` as a spreadsheet program would, let ``change`` edit it, save it."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        wb = openpyxl.load_workbook(book)
        change(wb)
        wb.save(book)
    return book


def sheet_values(book: Path, name: str) -> list[list[Any]]:
    from python_calamine import CalamineWorkbook

    return [list(r) for r in CalamineWorkbook.from_path(str(book)).get_sheet_by_name(name).to_python()]


def records_read(monkeypatch: Any, *modules: Any) -> list[int]:
    """Each reading of a zip directory's records through ``modules`` (each names
    ``plain_records``), by how many it read."""
    from automation.workbook import zipentries

    read: list[int] = []
    real = zipentries.plain_records

    def counted(directory: bytes, count: int, cd_off: int) -> list[zipentries.Entry] | None:
        read.append(count)
        return real(directory, count, cd_off)
    for module in modules:
        monkeypatch.setattr(module, "plain_records", counted)
    return read

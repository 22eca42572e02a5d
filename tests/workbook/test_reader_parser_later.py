"""A master read before is opened by the parser only when a sheet is parsed:
its sheets are named from the gate's findings (automation.workbook.gatememo),
which hold that the parser names them as the workbook part does. A command
that takes every sheet it reads as an earlier one read it (the export, stats,
undo of a campaign in play) never opens it. An append carries that forward;
a file read for the first time, or a player's, is opened at once."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from automation.errors import WorkbookFileError
from automation.samples import SAMPLE
from automation.workbook import reader
from automation.workbook.gate import returned_limits
from automation.workbook.package import NewSheet, append_sheets
from automation.workbook.reader import Workbook


def opened(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Each opening of a file by the parser, listed as it happens."""
    seen: list[str] = []
    real = reader._calamine
    monkeypatch.setattr(reader, "_calamine", lambda data: (seen.append("opened"), real(data))[1])
    return seen


@pytest.fixture
def campaign(tmp_path: Path) -> Path:
    path = tmp_path / "campaign.xlsx"
    shutil.copyfile(SAMPLE, path)
    return path


def test_a_master_read_before_is_opened_by_the_parser_only_when_a_sheet_is_parsed(
        campaign: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    first = Workbook(campaign)  # read for the first time: opened at once, its names found alike
    names, rows = list(first.sheet_names), first.raw("Sides")
    seen = opened(monkeypatch)
    again = Workbook(campaign)
    assert seen == [] and again.sheet_names == names and again.has("Sides")
    again.keep_reads = False  # (the sheet parsed from the file, not taken as the first read took it)
    assert again.raw("Sides") == rows and seen == ["opened"]
    assert again.raw("Campaign") == first.raw("Campaign") and seen == ["opened"]  # opened once


def test_the_file_an_append_writes_is_named_as_the_parser_names_it_without_opening_it(
        campaign: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import python_calamine

    Workbook(campaign)
    append_sheets(campaign, [NewSheet("Orders 5 & <more>", [["Turn"], [1]])], "Orders")
    append_sheets(campaign, [NewSheet("Orders 5 & <more>", [["Turn"], [2]]), NewSheet("Report 5", [["Turn"], [3]])],
                  "Answer", replace=["Orders 5 & <more>"])  # the form answered: kept very hidden, renamed
    seen = opened(monkeypatch)
    book = Workbook(campaign)
    assert seen == []
    assert book.sheet_names == python_calamine.CalamineWorkbook.from_path(str(campaign)).sheet_names
    assert book.sheet_names[-2:] == ["Orders 5 & <more>", "Report 5"] and book.raw("Report 5") == [["Turn"], [3.0]]
    assert seen == []  # (the cells an append wrote are kept as the parser reads them: automation.workbook.readback)
    book.keep_reads = False
    assert book.raw("Orders 5 & <more>") == [["Turn"], [2.0]] and seen == ["opened"]


def test_a_file_first_read_and_a_player_s_file_are_opened_at_once(
        campaign: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    seen = opened(monkeypatch)
    master = Workbook(campaign)
    assert seen == ["opened"]
    returned = tmp_path / "returned.xlsx"
    shutil.copyfile(campaign, returned)
    for _ in range(2):
        Workbook(returned, limits=returned_limits(master.gate, campaign.stat().st_size))
    assert seen == ["opened"] * 3


def test_a_file_whose_sheets_the_parser_names_otherwise_is_refused_once_then_read_as_it_names_them(
        campaign: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    Workbook(campaign)
    real = reader._calamine

    class Renamed:  # the parser naming a sheet otherwise than the workbook part does (never seen)
        def __init__(self, book: object) -> None:
            self.book = book
            self.sheet_names = ["Other", *book.sheet_names[1:]]  # type: ignore[attr-defined]

        def get_sheet_by_name(self, name: str) -> object:
            return self.book.get_sheet_by_name(name)  # type: ignore[attr-defined]

    monkeypatch.setattr(reader, "_calamine", lambda data: Renamed(real(data)))
    book = Workbook(campaign)
    book.keep_reads = False
    with pytest.raises(WorkbookFileError, match="sheets read otherwise than when it was last read; nothing was "
                                                "changed: run the command again"):
        book.raw("Sides")
    again = Workbook(campaign)  # opened at once now: the names it gives are taken
    assert again.sheet_names[0] == "Other"

"""The carried folder belongs to the campaign, not to one file
(automation.pbem.carry.folder_for): a copy of the workbook saved elsewhere,
alone with its key, finds the work already done; copies of one campaign at
different dates keep each other's work; MUSTERROLL_CACHE places the folders
or turns carrying off."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from automation.cachesetting import CACHE_SETTING
from automation.pbem.carry import cache_root, folder_for
from automation.workbook.reader import Workbook
from tests.pbem.helpers import run, sheets_read


def alone(book: Path, folder: Path, key: bool = True) -> Path:
    """``book`` and (``key``) its key copied into ``folder``, nothing else
    (verify without the key file carries its walk)."""
    folder.mkdir(parents=True)
    shutil.copyfile(book, folder / book.name)
    if key:
        shutil.copyfile(book.with_suffix(".key"), folder / book.with_suffix(".key").name)
    return folder / book.name


def reads(capsys, monkeypatch, *argv: object) -> list[str]:
    """The sheets a command reads (a name again each time it is asked for); the command succeeds."""
    with monkeypatch.context() as scoped:
        read = sheets_read(scoped)
        code, _, err = run(capsys, *argv)
    assert code == 0, err
    return read


def export(capsys, monkeypatch, book: Path, out: Path) -> list[str]:
    return reads(capsys, monkeypatch, "export", book, "--side", "German", "-o", out)


def test_a_copy_saved_elsewhere_alone_with_its_key_finds_the_work_already_done(capsys, monkeypatch, campaign,
                                                                                 tmp_path):
    book = campaign("dec26")
    cold = export(capsys, monkeypatch, book, tmp_path / "cold.xlsx")
    warm = export(capsys, monkeypatch, book, tmp_path / "warm.xlsx")
    assert len(warm) < len(cold) / 2  # the sealed sheets are not read again

    copy = alone(book, tmp_path / "saved from the mail")
    assert folder_for(copy) == folder_for(book)
    assert export(capsys, monkeypatch, copy, tmp_path / "copy.xlsx") == warm
    assert (tmp_path / "copy.xlsx").read_bytes() == (tmp_path / "warm.xlsx").read_bytes()
    assert not [p.name for p in copy.parent.iterdir() if p.name.startswith(".")]  # nothing beside the copy


def test_copies_of_one_campaign_at_different_dates_keep_each_others_work(capsys, monkeypatch, campaign, tmp_path):
    early, late = campaign("complete"), campaign("dec26")
    assert folder_for(early) == folder_for(late)
    keyless = {book: alone(book, tmp_path / "keyless" / book.parent.name, key=False) for book in (early, late)}
    settled = {}
    for book in (early, late):
        export(capsys, monkeypatch, book, tmp_path / "first.xlsx")
        settled[book] = export(capsys, monkeypatch, book, tmp_path / "settled.xlsx")
        assert [n for n in reads(capsys, monkeypatch, "verify", keyless[book]) if n.startswith("Refit ")]
    for book in (early, late, early, late):  # in turn: neither undoes what the other carried
        assert export(capsys, monkeypatch, book, tmp_path / "again.xlsx") == settled[book]
        walked = [n for n in reads(capsys, monkeypatch, "verify", keyless[book]) if n.startswith("Refit ")]
        assert walked == [], (book, walked)


def test_a_campaign_with_carrying_turned_off_reads_every_sheet_each_time(capsys, monkeypatch, campaign, tmp_path):
    book = campaign("dec26")
    monkeypatch.setenv(CACHE_SETTING, "off")
    assert cache_root() is None and folder_for(book) is None
    first = export(capsys, monkeypatch, book, tmp_path / "one.xlsx")
    assert export(capsys, monkeypatch, book, tmp_path / "two.xlsx") == first
    assert (tmp_path / "one.xlsx").read_bytes() == (tmp_path / "two.xlsx").read_bytes()


def test_the_carried_folders_are_in_the_users_cache_folder_unless_the_setting_names_one(monkeypatch, tmp_path):
    import platformdirs

    monkeypatch.delenv(CACHE_SETTING, raising=False)
    assert cache_root() == Path(platformdirs.user_cache_dir("musterroll", appauthor=False)) / "carried"
    monkeypatch.setenv(CACHE_SETTING, str(tmp_path / "elsewhere"))
    assert cache_root() == tmp_path / "elsewhere" / "carried"


def test_each_campaign_has_its_own_carried_folder_and_a_workbook_without_a_campaign_sheet_none(campaign, tmp_path):
    from automation.service import new_campaign

    ours = campaign("dec26")
    other = new_campaign("bf-campaign", tmp_path / "another.xlsx")  # another key: another campaign
    assert folder_for(ours) != folder_for(other)
    assert folder_for(ours).parent == folder_for(other).parent == cache_root()

    import xlsxwriter

    bare = tmp_path / "bare.xlsx"
    with xlsxwriter.Workbook(bare) as wb:
        wb.add_worksheet("Roster").write("A1", "Stand")
    assert folder_for(bare) is None


@pytest.mark.parametrize("command", ["export", "verify"])
def test_a_carried_folder_that_cannot_be_made_costs_time_never_the_result(capsys, monkeypatch, campaign, tmp_path,
                                                                          command):
    book = campaign("dec26")
    blocked = tmp_path / "a file, not a folder"
    blocked.write_text("")
    monkeypatch.setenv(CACHE_SETTING, str(blocked))
    argv = ("export", book, "--side", "German", "-o", tmp_path / "out.xlsx") if command == "export" else ("verify", book)
    code, out, err = run(capsys, *argv)
    assert code == 0, err
    monkeypatch.setenv(CACHE_SETTING, "off")
    argv = argv[:-1] + (tmp_path / "plain.xlsx",) if command == "export" else argv
    assert run(capsys, *argv)[:2] == (0, out.replace("out.xlsx", "plain.xlsx"))


def test_two_copies_that_went_different_ways_each_keep_their_own_entries(capsys, monkeypatch, campaign, tmp_path):
    from automation.workbook.typein import type_in

    ours = campaign("dec26")
    theirs = alone(ours, tmp_path / "a branch")
    rows = Workbook(theirs).raw("Refit Dec 23 2")
    type_in(theirs, "Refit Dec 23 2", {"G3": f"{rows[2][6]} (noted)"})  # one sealed sheet a side sees differs
    assert folder_for(theirs) == folder_for(ours)
    settled = {}
    for book in (ours, theirs):
        assert "Refit Dec 23 2" in export(capsys, monkeypatch, book, tmp_path / "first.xlsx")
        settled[book] = export(capsys, monkeypatch, book, tmp_path / "settled.xlsx")
        assert "Refit Dec 23 2" not in settled[book]
    for book in (ours, theirs, ours):
        assert export(capsys, monkeypatch, book, tmp_path / "again.xlsx") == settled[book]


def test_a_new_campaigns_folder_clears_those_of_campaigns_no_run_wrote_to_for_half_a_year(capsys, monkeypatch,
                                                                                          campaign, tmp_path):
    import os
    import time

    root = cache_root()
    old, recent, other = root / ("a" * 24), root / ("b" * 24), root / "notes of mine"
    for folder, days in ((old, 200), (recent, 20), (other, 400)):
        folder.mkdir(parents=True)
        (folder / "entries.json").write_text("{}")
        then = time.time() - days * 86400
        os.utime(folder / "entries.json", (then, then))
    book = campaign("dec26")
    export(capsys, monkeypatch, book, tmp_path / "out.xlsx")
    assert folder_for(book).is_dir()
    assert not old.exists() and recent.is_dir() and other.is_dir()  # only a campaign's folder, and only an old one

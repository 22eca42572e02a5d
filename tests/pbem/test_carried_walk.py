"""Which sheets go out to a side, and which secret names each holds, are
carried as one value for the whole campaign (automation.pbem.carry.Carried.walk)
while every sheet is the one it was: an export of an unchanged campaign asks
the carried folder once, not once for each of a long campaign's sheets. Any
sheet changed, added or moved, or any setting changed, walks again."""
from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from automation.cachesetting import CACHE_SETTING
from automation.pbem import carry
from automation.pbem.carry import WALKS, Carried
from tests.pbem.test_carried_files import Book, sheets
from tests.pbem.test_perf_carried import replace_in_part
from tests.pbem.test_perf_export_parts import export


def never() -> Any:
    raise AssertionError("walked again")


def test_a_walk_is_found_by_the_next_run_while_every_sheet_and_setting_is_the_same(tmp_path: Path) -> None:
    book = Book(sheets(50))
    first = Carried(book, tmp_path, "context")
    assert first.walk("sheets:German", list(book.stamps), "settings", lambda: ["all", 50]) == ["all", 50]
    first.save()
    assert Carried(book, tmp_path, "context").walk("sheets:German", list(book.stamps), "settings", never) == \
        ["all", 50]


@pytest.mark.parametrize("change", ["stamp", "added", "order", "settings", "context"])
def test_any_sheet_or_setting_changed_walks_again(tmp_path: Path, change: str) -> None:
    book = Book(sheets(50))
    first = Carried(book, tmp_path, "context")
    first.walk("sheets:German", list(book.stamps), "settings", lambda: "before")
    first.save()
    names, settings, context = list(book.stamps), "settings", "context"
    if change == "stamp":
        book.stamps["Roster 7"] = "00000007.101.50"
    elif change == "added":
        book.stamps["Roster 51"] = "00000051.100.50"
        names.append("Roster 51")
    elif change == "order":
        names.reverse()
    elif change == "settings":
        settings = "other settings"
    else:
        context = "another version"
    assert Carried(book, tmp_path, context).walk("sheets:German", names, settings, lambda: "after") == "after"


def test_a_sheet_without_a_stamp_is_never_walked_from_the_store(tmp_path: Path) -> None:
    book = Book(sheets(5))
    names = [*book.stamps, "Not a part"]
    for _ in range(2):
        walked = Carried(book, tmp_path, "context")
        assert walked.walk("sheets:German", names, "settings", lambda: "computed") == "computed"
        walked.save()
    assert not list(tmp_path.glob(f"*{carry.WALK}"))


def test_the_walks_kept_are_the_last_written_or_read(tmp_path: Path) -> None:
    book = Book(sheets(20))
    names = list(book.stamps)
    first = Carried(book, tmp_path, "context")
    first.walk("sheets:German", names, "settings", lambda: "the first")
    first.save()
    for n in range(WALKS + 3):  # copies of the campaign one roster longer each
        book.stamps[f"Roster {100 + n}"] = f"{100 + n:08x}.100.50"
        run = Carried(book, tmp_path, "context")
        run.walk("sheets:German", list(book.stamps), "settings", lambda n=n: n)
        assert run.walk("sheets:German", names, "settings", never) == "the first"  # read: kept on
        run.save()
    # 1 + WALKS + 3 walks written, one a save: the one that made them WALKS + 1 took them down to seven eighths
    # of WALKS (automation.cachesetting.prune), and the three after it were added
    assert len(list(tmp_path.glob(f"*{carry.WALK}"))) == WALKS - WALKS // 8 + 3
    assert Carried(book, tmp_path, "context").walk("sheets:German", names, "settings", never) == "the first"


def looked_up(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The derivations asked for one sheet at a time, from now on."""
    asked: list[str] = []
    get, get_keyed = Carried.get, Carried.get_keyed
    monkeypatch.setattr(Carried, "get", lambda self, what, *a: (asked.append(what), get(self, what, *a))[1])
    monkeypatch.setattr(Carried, "get_keyed",
                        lambda self, what, *a: (asked.append(what), get_keyed(self, what, *a))[1])
    return asked


def test_an_export_of_an_unchanged_campaign_asks_once_and_writes_the_same_file(
        capsys, campaign, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    book = campaign("dec26")
    asked = looked_up(monkeypatch)
    first = export(capsys, book, tmp_path / "first.xlsx")
    assert {"seen:German", "purchases:German"} <= set(asked)  # (the first: sheet by sheet)
    asked.clear()
    again = export(capsys, book, tmp_path / "again.xlsx")
    assert again == first
    assert not [what for what in asked if what.startswith(("seen:", "words", "purchases:"))]


def test_an_export_after_a_sheet_changed_is_the_export_made_with_nothing_carried(
        capsys, campaign, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    book = campaign("dec26")
    export(capsys, book, tmp_path / "first.xlsx")
    replace_in_part(book, "Roster Start", b"<sheetData>", b"<sheetData> ")  # its stamp changes, not its cells
    asked = looked_up(monkeypatch)
    carried = export(capsys, book, tmp_path / "carried.xlsx")
    assert any(what.startswith("seen:") for what in asked)  # walked again, sheet by sheet
    monkeypatch.setenv(CACHE_SETTING, "off")
    assert export(capsys, book, tmp_path / "plain.xlsx") == carried


def test_sheets_added_after_those_the_last_walk_was_of_carry_it_on(tmp_path: Path) -> None:
    book = Book(sheets(30))
    first = Carried(book, tmp_path, "context")
    first.walk("sheets:German", list(book.stamps), "settings", lambda: list(book.stamps), lambda *_: never())
    first.save()
    book.stamps.update({"Roster 31": "0000001f.100.50", "Roster 32": "00000020.100.50"})  # a refit's sheets
    carried_on: list[int] = []
    later = Carried(book, tmp_path, "context")
    assert later.walk("sheets:German", list(book.stamps), "settings", never,
                      lambda before, n: carried_on.append(n) or before + list(book.stamps)[n:]) == list(book.stamps)
    later.save()
    assert carried_on == [30]
    again = Carried(book, tmp_path, "context")  # the same sheets: the walk itself
    assert again.walk("sheets:German", list(book.stamps), "settings", never, lambda *_: never()) == list(book.stamps)


@pytest.mark.parametrize("change", ["a sheet before", "settings"])
def test_a_walk_is_not_carried_on_past_a_change_before_the_added_sheets(tmp_path: Path, change: str) -> None:
    book = Book(sheets(30))
    first = Carried(book, tmp_path, "context")
    first.walk("sheets:German", list(book.stamps), "settings", lambda: "before", lambda *_: never())
    first.save()
    book.stamps["Roster 31"] = "0000001f.100.50"
    settings = "settings"
    if change == "a sheet before":
        book.stamps["Roster 3"] = "00000003.101.50"
    else:
        settings = "other"
    later = Carried(book, tmp_path, "context")
    assert later.walk("sheets:German", list(book.stamps), settings, lambda: "anew", lambda *_: never()) == "anew"


def test_the_export_after_a_refit_walks_only_the_refit_s_sheets_and_is_the_export_with_nothing_carried(
        capsys, campaign, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from tests.pbem.helpers import play_on

    book = campaign("complete")
    export(capsys, book, tmp_path / "before.xlsx")
    play_on(book, ["Dec 25"])
    asked = looked_up(monkeypatch)
    sheets_asked: list[tuple[str, str]] = []
    get = Carried.get
    monkeypatch.setattr(Carried, "get", lambda self, what, sheet, *a: (
        asked.append(what), sheets_asked.append((what, sheet)), get(self, what, sheet, *a))[2])
    carried = export(capsys, book, tmp_path / "after.xlsx")
    assert not [what for what in asked if what.startswith("seen:")]  # the sheets before: carried on
    assert all(sheet.startswith("Ledger ") for what, sheet in sheets_asked if what.startswith("kind:"))  # (purchases)
    monkeypatch.setenv(CACHE_SETTING, "off")
    assert export(capsys, book, tmp_path / "plain.xlsx") == carried


def test_a_walk_whose_value_no_file_can_hold_is_given_and_not_kept(tmp_path: Path) -> None:
    book = Book(sheets(30))
    odd = [object()]  # (as a cell of a type the carried files do not hold)
    first = Carried(book, tmp_path, "context")
    assert first.walk("purchases:German", list(book.stamps), "", lambda: odd, lambda *_: never()) is odd
    first.save()
    assert not list(tmp_path.glob(f"*{carry.WALK}")) and not list(tmp_path.glob(f"*{carry.CARRIED_ON_INDEX}"))
    again = Carried(book, tmp_path, "context")
    assert again.walk("purchases:German", list(book.stamps), "", lambda: ["anew"], lambda *_: never()) == ["anew"]


def test_the_purchase_record_is_carried_whole_and_after_a_refit_reads_only_the_refit_s_ledgers(
        capsys, campaign, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from automation.workbook.reader import Workbook
    from tests.pbem.helpers import play_on

    book = campaign("complete")
    export(capsys, book, tmp_path / "before.xlsx")
    ledgers_before = {n for n in Workbook(book).sheet_names if n.startswith("Ledger ")}
    play_on(book, ["Dec 25"])
    added = {n for n in Workbook(book).sheet_names if n.startswith("Ledger ")} - ledgers_before
    taken: list[tuple[str, str, str]] = []  # (how, derivation, sheet) of each ledger's purchase lines asked for
    for how in ("get", "fresh"):
        real = getattr(Carried, how)
        monkeypatch.setattr(Carried, how, lambda self, what, sheet, compute, how=how, real=real: (
            taken.append((how, what, sheet)) if what.startswith("purchases:") else None,
            real(self, what, sheet, compute))[1])
    after = export(capsys, book, tmp_path / "after.xlsx")
    assert added and sorted(sheet for _, _, sheet in taken) == sorted(added)
    assert {how for how, _, _ in taken} == {"fresh"}  # (their files not read to look for them)
    taken.clear()
    assert export(capsys, book, tmp_path / "again.xlsx") == after and taken == []  # one value: no ledger asked
    monkeypatch.setenv(CACHE_SETTING, "off")
    assert export(capsys, book, tmp_path / "plain.xlsx") == after


@pytest.mark.parametrize("carry_on", [None, "scrub:German"])
def test_copies_at_other_dates_exported_in_turn_each_carry_on_from_their_own_walk(
        tmp_path: Path, carry_on: str | None) -> None:
    """A copy of the campaign at date 1 and one at date 100 share the carried
    folder; each export after a refit carries on from that copy's own last
    walk, not from the other copy's, whichever ran last."""
    short, long = Book(sheets(30)), Book(sheets(600))

    def walk(book: Book, settings: str = "settings") -> tuple[Any, list[int]]:
        carried_on: list[int] = []
        run = Carried(book, tmp_path, "context")
        value = run.walk("scrub", list(book.stamps), settings if carry_on is None else f"{settings} {len(book.stamps)}",
                         lambda: list(book.stamps),
                         lambda before, n: carried_on.append(n) or before + list(book.stamps)[n:], carry_on=carry_on)
        run.save()
        return value, carried_on

    assert walk(short) == (list(short.stamps), [])
    assert walk(long) == (list(long.stamps), [30])  # (the short copy's sheets are the first of the long one's)
    for date in range(1, 4):  # each copy refitted in turn: the refit's sheets added after its own
        for book, length in ((short, 30), (long, 600)):
            book.stamps[f"Refit {length} {date}"] = f"{length:04x}{date:04x}.1.1"
            assert walk(book) == (list(book.stamps), [length + date - 1])


def test_a_walk_carried_on_from_is_never_one_of_other_sheets_whatever_the_index_lists(tmp_path: Path) -> None:
    book = Book(sheets(30))
    first = Carried(book, tmp_path, "context")
    first.walk("sheets:German", list(book.stamps), "settings", lambda: "of 30 sheets", lambda *_: never())
    first.save()
    index = next(tmp_path.glob(f"*{carry.CARRIED_ON_INDEX}"))
    index.write_text("[40, 30, true, \"20\", -1, 0]")  # (lengths no walk of these sheets has, and nonsense)
    book.stamps["Roster 2"] = "00000002.101.50"  # a sheet before changed: no walk is of the first sheets now
    book.stamps["Roster 31"] = "0000001f.100.50"
    later = Carried(book, tmp_path, "context")
    assert later.walk("sheets:German", list(book.stamps), "settings", lambda: "anew", lambda *_: never()) == "anew"
    index.write_text("not json")
    assert Carried(book, tmp_path, "context").walk(
        "sheets:German", list(book.stamps), "settings", lambda: "anew", lambda *_: never()) == "anew"

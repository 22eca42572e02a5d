"""The names a side may not see change as the enemy buys, so the export after
a refit scrubs every sheet again (automation.pbem.export.scrub). The names
each sheet held are carried on from the side's last export: only the
refit's sheets are looked at, while no name now secret can be in a sheet
walked before. Whatever is carried, the result is the scrub with nothing
carried."""
from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from automation.pbem.carry import Carried
from automation.pbem.export import scrub
from automation.pbem.xlsx import OutSheet
from tests.pbem.test_carried_files import Book


def campaign(dates: int) -> tuple[Book, list[OutSheet]]:
    """A sheet a date, each naming the stands bought that date (and a few old ones)."""
    book = Book({})
    out = []
    for d in range(1, dates + 1):
        name = f"Roster {d}"
        book.stamps[name] = f"{d:08x}.100.50"
        rows = [["Stand", "Note"]] + [[f"T34-{d}-{k}", f"beside Hans Schmidt and T34-{max(d - 1, 1)}-0"]
                                       for k in range(3)]
        out.append(OutSheet(name, rows, source=f"rows:German|{name}|{book.stamps[name]}"))
    return book, out


def secret_of(dates: int, *extra: str) -> dict[str, str]:
    names = [f"T34-{d}-{k}" for d in range(1, dates + 1) for k in range(3)] + list(extra)
    return {name: f"Enemy {n}" for n, name in enumerate(names, start=1)}


def words_asked(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The sheets whose words are looked up, from now on (each once)."""
    asked: list[str] = []
    get_keyed = Carried.get_keyed
    monkeypatch.setattr(Carried, "get_keyed", lambda self, what, sheet, *a: (
        asked.append(sheet) if what == "words" and sheet not in asked else None,
        get_keyed(self, what, sheet, *a))[1])
    return asked


def rows_of(sheets: list[OutSheet]) -> list[tuple[str, Any, str]]:
    return [(s.name, [list(r) for r in s.rows], s.source) for s in sheets]


def scrubbed(book: Book, folder: Path, sheets: list[OutSheet], secret: dict[str, str]) -> list[OutSheet]:
    carried = Carried(book, folder, "context")
    out = scrub(sheets, secret, carried, "German")
    carried.save()
    return out


def test_the_export_after_a_refit_looks_only_at_the_refit_s_sheets_and_scrubs_as_with_nothing_carried(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    book, sheets = campaign(30)
    scrubbed(book, tmp_path, sheets[:28], secret_of(28))
    asked = words_asked(monkeypatch)
    after = scrubbed(book, tmp_path, sheets, secret_of(30))  # the refit: two dates' sheets, two dates' stands
    assert asked == []  # no sheet's words looked up among every sheet's: the refit's are read
    assert rows_of(after) == rows_of(scrub(sheets, secret_of(30)))
    assert after[0].rows[1][0] == "Enemy 1" and after[-1].rows[1][0] == "Enemy 88"


def test_a_name_no_longer_secret_is_shown_again_in_the_sheets_walked_before(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    book, sheets = campaign(10)
    scrubbed(book, tmp_path, sheets, secret_of(10))
    fewer = {name: alias for name, alias in secret_of(10).items() if not name.startswith("T34-3-")}
    asked = words_asked(monkeypatch)
    after = scrubbed(book, tmp_path, sheets, fewer)
    assert asked == ["Roster 3", "Roster 4"]  # the sheets that held them, alone
    assert rows_of(after) == rows_of(scrub(sheets, fewer))
    assert after[2].rows[1][0] == "T34-3-0"


def test_a_new_secret_name_found_among_the_words_walked_before_walks_every_sheet_again(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    book, sheets = campaign(10)
    scrubbed(book, tmp_path, sheets, secret_of(10))
    more = secret_of(10, "beside")  # a word of every sheet is now a name
    asked = words_asked(monkeypatch)
    after = scrubbed(book, tmp_path, sheets, more)
    assert sorted(asked) == sorted(s.name for s in sheets)
    assert rows_of(after) == rows_of(scrub(sheets, more))
    assert "beside" not in after[4].rows[1][1]


def test_names_of_several_words_are_looked_at_again_where_a_longer_name_is_no_longer_secret(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    book, sheets = campaign(10)
    both = secret_of(10, "Hans Schmidt", "Schmidt")
    first = scrubbed(book, tmp_path, sheets, both)
    assert rows_of(first) == rows_of(scrub(sheets, both))
    shorter = {name: alias for name, alias in both.items() if name != "Hans Schmidt"}
    after = scrubbed(book, tmp_path, sheets, shorter)
    assert rows_of(after) == rows_of(scrub(sheets, shorter))
    assert "Hans Enemy" in after[0].rows[1][1]  # the shorter name, found where the longer one was


def test_each_side_carries_on_from_its_own_last_export(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    book, sheets = campaign(12)
    scrubbed(book, tmp_path, sheets[:10], secret_of(10))
    other = Carried(book, tmp_path, "context")
    scrub(sheets[:11], {"Hans": "Someone"}, other, "Soviet")  # the other side's export between
    other.save()
    asked = words_asked(monkeypatch)
    after = scrubbed(book, tmp_path, sheets, secret_of(12))
    assert asked == []
    assert rows_of(after) == rows_of(scrub(sheets, secret_of(12)))


def test_a_sheet_walked_before_that_changed_walks_every_sheet_again(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    book, sheets = campaign(10)
    scrubbed(book, tmp_path, sheets, secret_of(10))
    book.stamps["Roster 4"] = "00000004.101.50"
    sheets[3] = OutSheet("Roster 4", [["Stand", "Note"], ["T34-9-1", "moved"]],
                         source=f"rows:German|Roster 4|{book.stamps['Roster 4']}")
    asked = words_asked(monkeypatch)
    after = scrubbed(book, tmp_path, sheets, secret_of(10))
    assert len(asked) == 10
    assert rows_of(after) == rows_of(scrub(sheets, secret_of(10)))

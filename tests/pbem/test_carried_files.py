"""A large derivation's carried entries (the rows a side sees of each sheet)
are spread over a few files by sheet name (automation.pbem.carry.shard_of): a
run that derives the sheets a refit added reads and writes the files holding
them, not every entry of a long campaign, and finds every entry an earlier
run kept. A derivation every run reads whole keeps its one file."""
from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from automation.pbem import carry
from automation.pbem.carry import SHARDS, Carried, shard_of, spread


class Book:
    """A workbook as the carried store sees it: sheets and their part stamps."""

    def __init__(self, stamps: dict[str, str]) -> None:
        self.stamps = stamps

    def part_stamp(self, name: str) -> str | None:
        return self.stamps.get(name)


def store(book: Book, folder: Path) -> Carried:
    return Carried(book, folder, "context")


def sheets(n: int) -> dict[str, str]:
    return {f"Roster {d}": f"{d:08x}.100.50" for d in range(1, n + 1)}


def test_entries_kept_by_one_run_are_found_by_the_next(tmp_path: Path) -> None:
    book = Book(sheets(300))
    first = store(book, tmp_path)
    assert [first.get("rows:German", name, lambda name=name: [[name]]) for name in book.stamps] == \
        [[[name]] for name in book.stamps]
    first.save()
    again = store(book, tmp_path)

    def never() -> Any:
        raise AssertionError("derived again")
    assert [again.get("rows:German", name, never) for name in book.stamps] == [[[name]] for name in book.stamps]
    assert 1 < len(list(tmp_path.glob("*.json"))) <= SHARDS


def test_a_run_that_derives_the_sheets_a_refit_added_reads_and_writes_only_their_files(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    book = Book(sheets(600))
    first = store(book, tmp_path)
    for name in book.stamps:
        first.get("rows:German", name, lambda name=name: [[name] * 20] * 10)
    first.save()
    added = {f"Roster {d}": f"{d:08x}.100.50" for d in (601, 602)}
    book.stamps.update(added)
    read: list[Path] = []
    text = Path.read_text
    monkeypatch.setattr(Path, "read_text", lambda self, *a, **k: (read.append(self), text(self, *a, **k))[1])
    written: list[Path] = []
    keep = carry.keep_file
    monkeypatch.setattr(carry, "keep_file", lambda path, write: (written.append(path), keep(path, write))[1])
    later = store(book, tmp_path)
    for name in added:
        later.get("rows:German", name, lambda name=name: [[name]])
    later.save()
    files = {later._file(shard_of("rows:German", f"{name}\x00{stamp}")) for name, stamp in added.items()}
    assert set(read) == files and set(written) == files
    again = store(book, tmp_path)
    assert again.get("rows:German", "Roster 601", lambda: None) == [["Roster 601"]]
    assert again.get("rows:German", "Roster 7", lambda: None) == [["Roster 7"] * 20] * 10


def test_the_entries_of_one_sheet_are_in_one_file() -> None:
    assert len({shard_of("rows:German", f"Roster 1\x00{stamp}\x00{key}") for stamp in "abc" for key in "xyz"}) == 1
    assert len({shard_of("rows:German", f"Roster {d}\x00s") for d in range(200)}) == SHARDS


def test_the_one_file_an_earlier_version_kept_goes_when_the_derivation_is_written(tmp_path: Path) -> None:
    import hashlib

    old = tmp_path / (hashlib.sha256(b"rows:German").hexdigest()[:24] + ".json")
    old.write_text('{"what": "rows:German", "context": "context", "sheets": {}}')
    book = Book(sheets(3))
    carried = store(book, tmp_path)
    carried.get("rows:German", "Roster 1", lambda: [])
    carried.save()
    assert not old.exists() and list(tmp_path.glob("*-*.json"))


def test_a_derivation_read_for_every_sheet_keeps_one_file(tmp_path: Path) -> None:
    assert spread("rows:German") and spread("shown:Russian") and spread("roster names of each")
    assert not any(spread(w) for w in ("words", "seen:German", "shown count:German", "kind:bf.roster", "unanswered"))
    book = Book(sheets(100))
    carried = store(book, tmp_path)
    for name in book.stamps:
        carried.get("seen:German", name, lambda: True)
    carried.save()
    assert [p.name for p in tmp_path.glob("*.json")] == [carried._file(("seen:German", -1)).name]

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


def refit_added(book: Book, folder: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[dict[str, str], list[Path]]:
    """Every sheet's rows kept by a first run, then a refit's two sheets added:
    those sheets, and the carried files read from now on."""
    first = store(book, folder)
    for name in book.stamps:
        first.get("rows:German", name, lambda name=name: [[name] * 20] * 10)
    first.save()
    added = {f"Roster {d}": f"{d:08x}.100.50" for d in (601, 602)}
    book.stamps.update(added)
    read: list[Path] = []
    text = Path.read_text
    monkeypatch.setattr(Path, "read_text", lambda self, *a, **k: (read.append(self), text(self, *a, **k))[1])
    return added, read


def test_a_run_that_derives_the_sheets_a_refit_added_reads_and_writes_only_their_files(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    book = Book(sheets(600))
    added, read = refit_added(book, tmp_path, monkeypatch)
    written: list[Path] = []
    keep, append = carry.keep_file, carry._append
    monkeypatch.setattr(carry, "keep_file", lambda path, write: (written.append(path), keep(path, write))[1])
    monkeypatch.setattr(carry, "_append", lambda path, line: (written.append(path), append(path, line))[1])
    later = store(book, tmp_path)
    for name in added:
        later.get("rows:German", name, lambda name=name: [[name]])
    later.save()
    shards = {shard_of("rows:German", f"{name}\x00{stamp}") for name, stamp in added.items()}
    assert set(read) == {later._file(shard) for shard in shards}
    assert set(written) == {later._more(shard) for shard in shards}  # their entries added beside each file
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


def seen_by_all(book: Book, folder: Path) -> Carried:
    """A run that found the side sees every sheet of ``book``, saved."""
    first = store(book, folder)
    for name in book.stamps:
        first.get("seen:German", name, lambda: True)
    first.save()
    return first


def test_entries_added_to_a_file_are_appended_beside_it_and_found_by_the_next_run(tmp_path: Path) -> None:
    book = Book(sheets(400))
    first = seen_by_all(book, tmp_path)
    whole = first._file(("seen:German", -1))
    before = whole.read_bytes()
    for d in (401, 402):  # two refits, each exported
        book.stamps[f"Roster {d}"] = f"{d:08x}.100.50"
        run = store(book, tmp_path)
        assert run.get("seen:German", f"Roster {d}", lambda: d % 2 == 0) == (d % 2 == 0)
        run.save()
    assert whole.read_bytes() == before  # the file of every sheet is not written again
    assert len(run._more(("seen:German", -1)).read_text(encoding="utf-8").splitlines()) == 2
    again = store(book, tmp_path)
    assert [again.get("seen:German", name, never) for name in book.stamps] == [True] * 400 + [False, True]


def test_a_line_cut_short_is_worked_out_again_and_the_rest_found(tmp_path: Path) -> None:
    book = Book(sheets(10))
    first = seen_by_all(book, tmp_path)
    book.stamps.update({"Roster 11": "0000000b.100.50", "Roster 12": "0000000c.100.50"})
    for name in ("Roster 11", "Roster 12"):
        run = store(book, tmp_path)
        run.get("seen:German", name, lambda: True)
        run.save()
    more = run._more(("seen:German", -1))
    more.write_bytes(more.read_bytes()[:-10])  # the last run's line cut short
    again = store(book, tmp_path)
    assert again.get("seen:German", "Roster 11", never) is True
    assert again.get("seen:German", "Roster 12", lambda: "anew") == "anew"


def test_once_the_added_lines_outgrow_their_bound_the_file_is_written_anew_with_them(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(carry, "MORE", 0)  # every line is past the bound once it outgrows half the file
    book = Book(sheets(4))
    first = store(book, tmp_path)
    for name in book.stamps:
        first.get("words", name, lambda name=name: [[name] * 50])
    first.save()
    whole, more = first._file(("words", -1)), first._more(("words", -1))
    for d in range(5, 12):
        book.stamps[f"Roster {d}"] = f"{d:08x}.100.50"
        run = store(book, tmp_path)
        run.get("words", f"Roster {d}", lambda d=d: [[d] * 50])
        run.save()
        assert more.exists() or f"Roster {d}" in whole.read_text(encoding="utf-8")
    assert not more.exists() or len(more.read_text(encoding="utf-8").splitlines()) < 7
    again = store(book, tmp_path)
    assert [again.get("words", name, never) for name in book.stamps] == \
        [[[name] * 50] for name in list(book.stamps)[:4]] + [[[d] * 50] for d in range(5, 12)]


def test_lines_of_another_context_are_not_taken(tmp_path: Path) -> None:
    book = Book(sheets(3))
    first = seen_by_all(book, tmp_path)
    book.stamps["Roster 4"] = "00000004.100.50"
    run = store(book, tmp_path)
    run.get("seen:German", "Roster 4", lambda: True)
    run.save()
    other = Carried(book, tmp_path, "another version")
    assert other.get("seen:German", "Roster 4", lambda: "anew") == "anew"
    other.save()  # written whole for its own context, the lines of the other gone
    assert not other._more(("seen:German", -1)).exists()


def never() -> object:
    raise AssertionError("derived again")


def test_a_refit_s_sheets_derived_fresh_are_kept_beside_their_files_without_reading_them(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    book = Book(sheets(600))
    added, read = refit_added(book, tmp_path, monkeypatch)
    later = store(book, tmp_path)
    for name in added:
        assert later.fresh("rows:German", name, lambda name=name: [[name]]) == [[name]]
        assert later.get("rows:German", name, lambda: None) == [[name]]  # the same run asks again: no file read
    later.save()
    assert read == []
    shards = {shard_of("rows:German", f"{name}\x00{stamp}") for name, stamp in added.items()}
    assert {p for p in tmp_path.glob("*.more")} == {later._more(shard) for shard in shards}
    monkeypatch.undo()
    again = store(book, tmp_path)
    assert again.get("rows:German", "Roster 602", lambda: None) == [["Roster 602"]]
    assert again.get("rows:German", "Roster 7", lambda: None) == [["Roster 7"] * 20] * 10


def test_the_other_derivations_of_a_sheet_derived_fresh_read_no_file_and_are_found_by_the_next_run(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    book = Book(sheets(600))
    first = store(book, tmp_path)
    for name in book.stamps:  # the rolls shown of every sheet, kept by an earlier export
        first.get_keyed("shown:German", name, "source", lambda name=name: [["roll of", name]])
    first.save()
    added, read = refit_added(book, tmp_path, monkeypatch)
    later = store(book, tmp_path)
    for name in added:
        later.fresh("rows:German", name, lambda name=name: [[name]])
        assert later.get_keyed("shown:German", name, "source", lambda name=name: [["roll of", name]]) == \
            [["roll of", name]]
    later.save()
    assert read == []  # neither the rows' files nor the rolls' were read to look for a refit's sheets
    monkeypatch.undo()
    again = store(book, tmp_path)
    for name in added:
        assert again.get_keyed("shown:German", name, "source", never) == [["roll of", name]]
    assert again.get_keyed("shown:German", "Roster 7", "source", never) == [["roll of", "Roster 7"]]
    assert again.get_keyed("shown:German", "Roster 7", "another source", lambda: "worked out") == "worked out"


def test_a_sheet_derived_fresh_beside_a_file_of_another_context_writes_the_file_anew(tmp_path: Path) -> None:
    book = Book(sheets(40))
    old = Carried(book, tmp_path, "another version")
    for name in book.stamps:
        old.get("rows:German", name, lambda name=name: [["old", name]])
    old.save()
    later = store(book, tmp_path)
    later.fresh("rows:German", "Roster 3", lambda: [["new"]])
    later.save()
    again = store(book, tmp_path)
    assert again.get("rows:German", "Roster 3", lambda: None) == [["new"]]
    assert again.get("rows:German", "Roster 4", lambda: "worked out again") == "worked out again"
    assert not list(tmp_path.glob("*.more"))


def test_a_sheet_derived_fresh_whose_file_was_read_is_taken_as_carried(tmp_path: Path) -> None:
    book = Book(sheets(10))
    first = store(book, tmp_path)
    first.get("rows:German", "Roster 5", lambda: [["kept"]])
    first.save()
    later = store(book, tmp_path)
    assert later.get("rows:German", "Roster 5", lambda: [["worked out"]]) == [["kept"]]  # its file read
    assert later.fresh("rows:German", "Roster 5", lambda: [["worked out"]]) == [["kept"]]

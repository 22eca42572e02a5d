"""What an export of a long campaign no longer does again: a sealed sheet
whose part and rolls were carried is written without its rows being read,
the rolls of carried runs of the Dice audit are not committed again, only the
rosters added since are read for the side's secrets, and names are found by
their words, as the whole-word pattern finds them."""
from __future__ import annotations

import re
import string
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from automation.audit import player
from automation.pbem import bf, export as export_module, sidesheets
from automation.pbem.carry import Carried
from automation.pbem.export import Names, secret_pattern
from tests.pbem.helpers import play_on
from tests.pbem.test_perf_carried import replace_in_part
from tests.pbem.test_perf_export_parts import export


def spy(monkeypatch, owner, name: str) -> list:
    calls: list = []
    real = getattr(owner, name)

    def counting(*args, **kwargs):
        calls.append(args)
        return real(*args, **kwargs)

    monkeypatch.setattr(owner, name, counting)
    return calls


def loaded_stores(monkeypatch) -> list[str]:
    """What carried derivations a run loads from the folder."""
    loaded: list[str] = []
    real = Carried._entries

    def entries(self, shard):  # (a derivation's entries are in a few files: shard = derivation, file number)
        if shard not in self._loaded:
            loaded.append(shard[0])
        return real(self, shard)

    monkeypatch.setattr(Carried, "_entries", entries)
    return loaded


def rows_read(monkeypatch) -> list[int]:
    """Each time a sheet's carried rows are read."""
    read: list[int] = []
    real = sidesheets.Later._all

    def reading(self):
        if self._load is not None:
            read.append(id(self))
        return real(self)

    monkeypatch.setattr(sidesheets.Later, "_all", reading)
    return read


def test_a_warm_export_reads_no_row_of_a_sealed_sheet_and_commits_no_carried_roll_again(
        capsys, campaign, tmp_path, monkeypatch):
    book = campaign("dec26")
    first = export(capsys, book, tmp_path / "first.xlsx")
    views = spy(monkeypatch, sidesheets, "side_view")
    commitments = spy(monkeypatch, player, "commitment_of")
    read = rows_read(monkeypatch)
    second = export(capsys, book, tmp_path / "second.xlsx")
    assert second == first
    assert [a[1] for a in views] == ["Roster Dec 26"]  # the latest roster only: it is never carried
    # rows are read only of the few sheets whose words hold every word of a secret name of several words
    # (then the whole-word search decides); all of the others are written from their carried parts
    sealed = len([n for n in first if n.startswith("xl/worksheets/sheet")])
    assert len(read) < sealed // 5, read
    from python_calamine import CalamineWorkbook

    audit = CalamineWorkbook.from_path(str(tmp_path / "second.xlsx")).get_sheet_by_name("Dice audit").to_python()
    assert len(audit) > 10 and commitments == []  # each roll's commitment copied with its run, not worked out


def test_with_names_of_one_word_a_warm_export_loads_no_carried_rows(capsys, campaign, tmp_path, monkeypatch):
    book = campaign("dec26")
    first = export(capsys, book, tmp_path / "first.xlsx")
    real = export_module.Names.of
    monkeypatch.setattr(export_module.Names, "of", classmethod(
        lambda cls, secret: real({n: a for n, a in secret.items() if re.fullmatch(r"[\w-]+", n)})))
    export(capsys, book, tmp_path / "warm-up.xlsx")  # the names taken changed: the scrubbed sources too
    loaded = loaded_stores(monkeypatch)
    export(capsys, book, tmp_path / "second.xlsx")
    assert loaded and not any(w.startswith("rows:") for w in loaded), loaded
    assert first


def test_only_the_rosters_added_since_are_read_for_the_sides_secrets(capsys, campaign, tmp_path, monkeypatch):
    book = campaign("complete")
    export(capsys, book, tmp_path / "early.xlsx")
    read = spy(monkeypatch, bf, "roster_names")
    export(capsys, book, tmp_path / "same.xlsx")
    assert read == []
    play_on(book, ["Dec 25"])
    late = export(capsys, book, tmp_path / "late.xlsx")
    assert [a[1] for a in read] == ["Roster Dec 25"]
    read.clear()
    replace_in_part(book, "Roster Start", b"</sheetData>", b"</sheetData>")  # unchanged: nothing is read again
    export(capsys, book, tmp_path / "again.xlsx")
    assert read == []
    assert late == export(capsys, book, tmp_path / "late-again.xlsx")


def test_an_earlier_roster_changed_reads_every_roster_again(capsys, campaign, tmp_path, monkeypatch):
    book = campaign("complete")
    export(capsys, book, tmp_path / "early.xlsx")
    replace_in_part(book, "Roster Start", b"<sheetData>", b"<sheetData> ")
    read = spy(monkeypatch, bf, "roster_names")
    export(capsys, book, tmp_path / "late.xlsx")
    assert [a[1] for a in read] == ["Roster Start"]  # the others: as carried one by one


def test_a_name_many_rosters_list_is_held_once() -> None:
    """A campaign with nothing carried yet reads every roster for the secret names: each name is kept once."""
    class Book:
        def raw(self, name: str) -> list[list[str]]:  # each read makes its own strings, as the parser does
            return [["Side", "ME", "Stand"], ["German", "".join(["G-", "001"]), "".join(["G-001", "-01"])]]

    early, late = bf.roster_names(Book(), "Roster Dec 24"), bf.roster_names(Book(), "Roster Dec 25")
    assert early == late == {"German": ["G-001-01", "G-001"]}
    assert all(a is b for a, b in zip(early["German"], late["German"]))


def test_a_roster_s_names_are_its_stands_and_mes_by_side_first_seen_first() -> None:
    """Empty cells and rows give no name (nor a side), numbers are named as
    written, a short row or a roster without an ME column gives what it has."""
    rows = [["ME", "Side", "Stand"], ["G-1", "German", "G-1-01"], [], [None, None, ""], ["S-1", "Soviet", 7],
            ["G-1", "German", "G-1-02"], ["G-2", "German"], [None, 3, "X-1"]]

    class Book:
        def __init__(self, rows: list[list[object]]) -> None:
            self.rows = rows

        def raw(self, name: str) -> list[list[object]]:
            return self.rows

    assert bf.roster_names(Book(rows), "Roster") == {
        "German": ["G-1-01", "G-1", "G-1-02", "G-2"], "Soviet": ["7", "S-1"], "3": ["X-1"]}
    no_me = [["Side", "Stand"], ["German", "G-1-01"], ["Soviet", "S-1-01"]]
    assert bf.roster_names(Book(no_me), "Roster") == {"German": ["G-1-01"], "Soviet": ["S-1-01"]}
    assert bf.roster_names(Book([]), "Roster") == {}


WORDS = st.text(alphabet=string.ascii_letters[:6] + "-_0Äé", min_size=1, max_size=5)
TEXT = st.lists(st.one_of(WORDS, st.sampled_from([" ", ", ", "-", ".", "/", "\n", "(", "é"])), max_size=30)


@settings(max_examples=300, deadline=None)
@given(names=st.sets(WORDS, min_size=1, max_size=8), pieces=TEXT, extra=st.lists(WORDS, max_size=3))
def test_names_found_by_their_words_are_the_names_the_pattern_finds(names, pieces, extra) -> None:
    secret = {n: f"enemy-{i}" for i, n in enumerate(sorted(names))}
    text = "".join(pieces + extra + sorted(names)[:1] + pieces)
    pattern = secret_pattern(secret)
    assert pattern is not None
    words = Names.of(secret)
    assert words.pattern is None  # every name is a word: looked up, not matched
    seen: set[str] = set()
    assert words.sub(text, seen) == pattern.sub(lambda m: secret[m.group(0)], text)
    assert seen == set(pattern.findall(text))
    assert words.found_in(lambda: [text]) == (pattern.search(text) is not None)
    assert words.found_in(lambda: [text], lambda: set(re.findall(r"[\w-]+", text))) == words.found_in(lambda: [text])


def test_names_that_are_not_single_words_are_matched_by_the_pattern_longest_first() -> None:
    secret = {"Pz IV": "enemy-1", "Pz IV 3": "enemy-2", "HQ": "enemy-3"}
    names = Names.of(secret)
    assert names.pattern is not None
    assert names.sub("Pz IV 3 and Pz IV, HQ-1 HQ") == "enemy-2 and enemy-1, HQ-1 enemy-3"
    assert names.found_in(lambda: ["x", "Pz IV"]) and not names.found_in(lambda: ["Pz", "IV"])
    # the words of a text decide without it when a run of every name is missing
    assert not names.found_in(lambda: pytest.fail("the texts are not needed"), lambda: ["Pz", "3", "HQ-1"])
    assert names.found_in(lambda: ["Pz IV"], lambda: ["Pz", "IV"])


@settings(max_examples=300, deadline=None)
@given(names=st.sets(st.lists(WORDS, min_size=1, max_size=3).map(" ".join), min_size=1, max_size=6),
       pieces=TEXT)
def test_names_of_several_words_are_found_as_the_pattern_finds_them_words_known_or_not(names, pieces) -> None:
    secret = {n: f"enemy-{i}" for i, n in enumerate(sorted(names))}
    text = "".join(pieces + [sorted(names)[0]] + pieces)
    found = Names.of(secret)
    expected = secret_pattern(secret).search(text) is not None  # type: ignore[union-attr]
    assert found.found_in(lambda: [text]) == expected
    assert found.found_in(lambda: [text], lambda: re.findall(r"[\w-]+", text)) == expected
    assert found.found_in(lambda: [text + " x"], lambda: re.findall(r"[\w-]+", "nothing")) is False or \
        any(not re.findall(r"[\w-]+", n) for n in names)


def test_the_export_refuses_two_sheets_named_alike_whatever_their_case(tmp_path: Path) -> None:
    from xlsxwriter.exceptions import DuplicateWorksheetName

    from automation.pbem.xlsx import _workbook_class

    book = _workbook_class()(str(tmp_path / "x.xlsx"), {"in_memory": True})
    book.add_worksheet("Roster Dec 24")
    book.add_worksheet()
    with pytest.raises(DuplicateWorksheetName, match="roster dec 24"):
        book.add_worksheet("roster dec 24")
    with pytest.raises(Exception, match=re.escape("[]:*?/\\")):
        book.add_worksheet("a[b]")
    assert [w.name for w in book.worksheets()] == ["Roster Dec 24", "Sheet2"]
    book.close()

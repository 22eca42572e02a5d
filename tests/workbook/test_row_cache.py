"""A sheet read once is read by the next command as it was: its validated
rows are kept, named by its part stamp, the kind it is read as, the lists
and Musterroll's code (automation.workbook.rowcache), and the next read
neither parses nor checks it. Anything else that changed reads it again,
and what is read is what a read with nothing kept gives."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from automation.cachesetting import CACHE_SETTING, cache_folder
from automation.errors import WorkbookError
from automation.pbem import guard
from automation.workbook import bf_sheets as K
from automation.workbook import rowcache
from automation.workbook.gate import PLAYER
from automation.workbook.reader import Workbook
from tests.pbem.test_perf_carried import replace_in_part

SAMPLE = Path(__file__).resolve().parents[2] / "samples" / "advance_to_rostov.xlsx"


@pytest.fixture
def book(tmp_path: Path) -> Path:
    path = tmp_path / "rostov.xlsx"
    shutil.copyfile(SAMPLE, path)
    return path


def parsed(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The sheets parsed from now on."""
    seen: list[str] = []
    raw = Workbook.raw
    monkeypatch.setattr(Workbook, "raw", lambda self, name: (seen.append(name), raw(self, name))[1])
    return seen


def roster(path: Path, lists: dict[str, list[str]] | None = None, **open_with: object) -> list:
    book = guard.open_book(path, **open_with) if open_with else Workbook(path)
    return book.read(K.ROSTER, "Roster Start", lists if lists is not None else Workbook(path).read_lists())


def test_a_sheet_read_by_one_command_is_taken_by_the_next_without_being_parsed(
        book: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    first = roster(book)
    lists = Workbook(book).read_lists()
    seen = parsed(monkeypatch)
    assert roster(book, lists) == first
    assert seen == []
    assert first[0]["Stand"] == "G-Pz-1" and first[0].cell("Stand") == "G2"


def test_a_copy_of_the_workbook_elsewhere_takes_them_too(book: Path, tmp_path: Path,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    first = roster(book)
    copy = tmp_path / "mail" / "copy.xlsx"
    copy.parent.mkdir()
    shutil.copyfile(book, copy)
    lists = Workbook(copy).read_lists()
    seen = parsed(monkeypatch)
    assert [(r.row, dict(r.values)) for r in roster(copy, lists)] == [(r.row, dict(r.values)) for r in first]
    assert seen == []


@pytest.mark.parametrize("change", ["the sheet", "the lists", "the kind", "keeping off"])
def test_anything_else_changed_reads_the_sheet_again(book: Path, monkeypatch: pytest.MonkeyPatch,
                                                      change: str) -> None:
    roster(book)
    lists = Workbook(book).read_lists()
    kind = K.ROSTER
    if change == "the sheet":
        replace_in_part(book, "Roster Start", b'<c r="G2" s="2" t="s"><v>141</v></c>',
                        b'<c r="G2" s="2" t="inlineStr"><is><t>G-Pz-9</t></is></c>')
    elif change == "the lists":
        lists = {**lists, "discipline": [*lists["discipline"], "Raw"]}
    elif change == "the kind":
        kind = K.ROSTER.__class__(**{**K.ROSTER.__dict__, "description": "another reading"})
    else:
        monkeypatch.setenv(CACHE_SETTING, "off")
    seen = parsed(monkeypatch)
    rows = Workbook(book).read(kind, "Roster Start", lists)
    assert seen == ["Roster Start"]
    assert rows[0]["Stand"] == ("G-Pz-9" if change == "the sheet" else "G-Pz-1")


def test_kept_rows_cut_short_or_changed_are_not_taken(book: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    first = roster(book)
    lists = Workbook(book).read_lists()
    for kept in (cache_folder("rows") or Path()).glob("*.rows"):
        kept.write_bytes(kept.read_bytes()[:-40] + b"x" * 40)
    seen = parsed(monkeypatch)
    assert roster(book, lists) == first
    assert seen == ["Roster Start"]


def test_nothing_is_kept_of_a_players_file(book: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    roster(book, limits=PLAYER)
    assert not list((cache_folder("rows") or Path()).glob("*.rows"))


def test_a_sheet_with_a_problem_is_not_kept_and_says_so_each_time(book: Path) -> None:
    replace_in_part(book, "Roster Start", b'<c r="F2" t="s"><v>47</v></c>',
                    b'<c r="F2" t="inlineStr"><is><t>Heroic</t></is></c>')
    for _ in range(2):
        with pytest.raises(WorkbookError, match="Discipline"):
            roster(book)
    assert not list((cache_folder("rows") or Path()).glob("*.rows"))


def test_rows_holding_a_value_marshal_does_not_write_are_not_kept() -> None:
    import datetime as dt

    rowcache.keep("k" * 40, {"Day": "A"}, [(2, (dt.date(1943, 7, 5),))])
    assert rowcache.find("k" * 40) is None
    rowcache.keep("k" * 40, {"Day": "A"}, [(2, ("1943-07-05",))])
    assert rowcache.find("k" * 40) == ({"Day": "A"}, ((2, ("1943-07-05",)),))


def calamine_parsed(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The sheets the parser parses from now on."""
    from python_calamine import CalamineWorkbook

    seen: list[str] = []
    real = CalamineWorkbook.get_sheet_by_name

    class Spying:
        def __init__(self, book: object) -> None:
            self._book = book

        def __getattr__(self, name: str) -> object:
            return getattr(self._book, name)

        def get_sheet_by_name(self, name: str) -> object:
            seen.append(name)
            return real(self._book, name)

    from automation.workbook import reader
    calamine = reader._calamine
    monkeypatch.setattr(reader, "_calamine", lambda data: Spying(calamine(data)))
    return seen


def test_a_sheet_s_cells_parsed_by_one_command_are_taken_by_the_next_unparsed_and_unchecked(
        book: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    first = {name: Workbook(book).raw(name) for name in ("Roster Start", "Tables", "Charts")}
    seen = calamine_parsed(monkeypatch)
    checked: list[str] = []
    from automation.workbook.gate import Gate
    check = Gate.check_sheet
    monkeypatch.setattr(Gate, "check_sheet", lambda self, name: (checked.append(name), check(self, name))[1])
    again = Workbook(book)
    assert {name: again.raw(name) for name in first} == first
    assert seen == [] and checked == []
    assert Workbook(book).raw("Sides") and seen == ["Sides"]  # (a sheet not read before is parsed)


def test_a_sheet_holding_a_date_cell_is_parsed_each_time(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import datetime as dt

    import openpyxl

    path = tmp_path / "dated.xlsx"
    wb = openpyxl.Workbook()
    wb.active.title = "Dated"
    wb.active.append(["Date", "Note"])
    wb.active.append([dt.date(1943, 7, 5), "Kursk"])
    wb.save(path)
    first = Workbook(path).raw("Dated")
    seen = calamine_parsed(monkeypatch)
    assert Workbook(path).raw("Dated") == first and seen == ["Dated"]


def test_verify_reads_every_sheet_from_the_file_as_it_holds_it_now(book: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A sheet whose part was changed so that its CRC-32 and sizes stayed as
    they were would be read as it was kept: verify never takes what is kept."""
    from automation.pbem import checks

    reader = Workbook(book)
    for name in reader.sheet_names:  # every sheet's cells kept
        reader.raw(name)
    taken: list[str] = []
    find = rowcache.find_cells
    monkeypatch.setattr(rowcache, "find_cells", lambda key: (taken.append(key), find(key))[1])
    seen = calamine_parsed(monkeypatch)
    assert checks.verify(book).problems == []
    assert seen and taken == []  # sheets parsed, none looked up among those kept


def _rezipped(path: Path, styles: bytes | None = None) -> None:
    """``path`` zipped again part by part as it is (or with the styles part
    ``styles``): each other part's bytes, CRC-32 and sizes as before."""
    import io
    import zipfile

    with zipfile.ZipFile(path) as z:
        items = [(i, z.read(i.filename)) for i in z.infolist()]
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:
        for info, data in items:
            z.writestr(info, styles if styles is not None and info.filename == "xl/styles.xml" else data)
    path.write_bytes(out.getvalue())


def test_a_styles_part_changed_by_hand_reads_a_sheet_again_whose_number_became_a_date(tmp_path: Path) -> None:
    import datetime as dt
    import zipfile

    import openpyxl

    path = tmp_path / "styled.xlsx"
    wb = openpyxl.Workbook()
    wb.active.title = "Counts"
    wb.active.append(["Count"])
    wb.active.append([45000])
    wb.active["A2"].number_format = "0.00"
    wb.save(path)
    _rezipped(path)
    assert Workbook(path).raw("Counts") == [["Count"], [45000.0]]  # kept
    stamp = Workbook(path).part_stamp("Counts")
    styles = zipfile.ZipFile(path).read("xl/styles.xml")
    assert b'numFmtId="2"' in styles
    _rezipped(path, styles.replace(b'numFmtId="2"', b'numFmtId="14"'))  # "0.00" made a date format
    assert Workbook(path).part_stamp("Counts") == stamp  # the sheet's own part as it was
    assert Workbook(path).raw("Counts") == [["Count"], [dt.date(2023, 3, 15)]]

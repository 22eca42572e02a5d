"""An export copies its leading sealed sheets (places 2, 3, ...) as one piece
when an earlier export of the side wrote them so (automation.pbem.xlsxrun):
the file is the one built from nothing, byte for byte; a run that agrees in
part is copied as far as it agrees, and one that does not read back is not
used."""
from __future__ import annotations

import shutil
import zipfile
from pathlib import Path

import pytest

import automation.pbem.xlsx as xlsx
from automation.pbem import partstore, xlsxrun
from automation.pbem.carry import folder_for
from automation.pbem.partstore import PartStore
from automation.pbem.xlsx import OutSheet, write
from automation.workbook.zipraw import RawRun
from tests.pbem.helpers import play_on, run
from tests.pbem.test_perf_carried import replace_in_part


def export(capsys, book: Path, out: Path, side: str = "German") -> bytes:
    code, _, err = run(capsys, "export", book, "--side", side, "-o", out)
    assert code == 0, err
    with zipfile.ZipFile(out) as z:
        assert z.testzip() is None
    return out.read_bytes()


def from_nothing(capsys, book: Path, tmp_path: Path) -> bytes:
    """The export of ``book`` with nothing carried (its carried folder removed)."""
    shutil.rmtree(folder_for(book))
    return export(capsys, book, tmp_path / "cold.xlsx")


def first_run(capsys, book: Path, tmp_path: Path) -> xlsxrun.Kept:
    """The run the first export of ``book`` keeps."""
    export(capsys, book, tmp_path / "first.xlsx")
    kept = xlsxrun.read(run_file(book))
    assert kept is not None
    return kept


def runs_copied(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """How many sheets each run an export copies from now on holds."""
    copied: list[int] = []
    real = xlsx.write_zip

    def spying(out, source, replaced, *args, **kwargs):
        copied.extend(data.count for data in replaced.values() if isinstance(data, RawRun))
        return real(out, source, replaced, *args, **kwargs)

    monkeypatch.setattr(xlsx, "write_zip", spying)
    return copied


def parts_looked_up(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The keys of the parts an export finds one by one from now on."""
    looked: list[str] = []
    real = PartStore.get
    monkeypatch.setattr(PartStore, "get", lambda self, key: looked.append(key) or real(self, key))
    return looked


def run_file(book: Path, side: str = "German") -> Path:
    tag = PartStore.of(folder_for(book), side).path.name.split("-")[1]
    found = list(folder_for(book).glob(f"parts-{tag}-*.zip.run"))
    assert len(found) == 1, found
    return found[0]


def sheet_names(path: Path) -> list[str]:
    from python_calamine import CalamineWorkbook

    return list(CalamineWorkbook.from_path(str(path)).sheet_names)


def test_a_second_export_copies_its_leading_sheets_as_one_piece_and_is_the_same_file(capsys, campaign, tmp_path,
                                                                                       monkeypatch):
    book = campaign("dec26")
    first = export(capsys, book, tmp_path / "first.xlsx")
    kept = xlsxrun.read(run_file(book))
    names = sheet_names(tmp_path / "first.xlsx")
    assert kept is not None and names[1:3] == ["Orders Dec 27 German", "Choices"]  # (before the sealed sheets)
    assert [name for _, _, name in kept.sheets] == names[3:3 + kept.count]
    assert names[3 + kept.count] == "Roster Dec 26"  # the run ends at the first sheet drawn by every export
    copied, looked = runs_copied(monkeypatch), parts_looked_up(monkeypatch)
    assert export(capsys, book, tmp_path / "second.xlsx") == first
    assert copied == [kept.count] and kept.count > 20
    assert len(looked) < 8  # only the sheets after the run are found one by one


def test_a_new_date_extends_the_run_and_the_export_is_the_one_built_from_nothing(capsys, campaign, tmp_path,
                                                                                monkeypatch):
    book = campaign("complete")
    before = first_run(capsys, book, tmp_path)
    play_on(book, ["Dec 25"])
    copied = runs_copied(monkeypatch)
    late = export(capsys, book, tmp_path / "late.xlsx")
    after = xlsxrun.read(run_file(book))
    assert after is not None
    assert copied == [before.count] and after.count > before.count
    assert after.sheets[:before.count] == before.sheets
    assert any("Dec 25" in name for _, _, name in after.sheets[before.count:])
    assert from_nothing(capsys, book, tmp_path) == late


def test_a_sheet_changed_in_the_run_is_written_alone_and_the_rest_copied_around_it(capsys, campaign, tmp_path,
                                                                                      monkeypatch):
    book = campaign("complete")
    whole = first_run(capsys, book, tmp_path)
    edited = [name for _, _, name in whole.sheets].index("Ledger Dec 23")
    replace_in_part(book, "Ledger Dec 23", b"Purchase", b"Bought")
    copied = runs_copied(monkeypatch)
    after = export(capsys, book, tmp_path / "b.xlsx")
    assert copied == [edited, whole.count - edited - 1] and 0 < edited < whole.count - 1
    assert xlsxrun.read(run_file(book)) == whole  # one sheet of many not copied: the run is not kept anew for it
    copied.clear()
    assert export(capsys, book, tmp_path / "c.xlsx") == after and copied == [edited, whole.count - edited - 1]
    assert from_nothing(capsys, book, tmp_path) == after


def test_a_run_kept_with_no_orders_to_fill_is_copied_by_an_export_with_orders(capsys, campaign, tmp_path,
                                                                              monkeypatch):
    from tests.pbem.helpers import enter_date, refit

    book = campaign("complete")
    before = first_run(capsys, book, tmp_path)  # nothing to decide: no orders to fill
    enter_date(book, "Dec 24", "Dec 25", spending=False)
    refit(book)  # stage 1: waits for the spending
    copied = runs_copied(monkeypatch)
    spend = export(capsys, book, tmp_path / "spend.xlsx")
    names = sheet_names(tmp_path / "spend.xlsx")
    assert names[1:3] == ["Spend Dec 25 German", "Choices"]
    assert copied == [before.count]  # the orders' parts are numbered after the run's
    assert from_nothing(capsys, book, tmp_path) == spend


def test_the_orders_parts_are_numbered_after_the_sheets_that_may_go_in_a_run():
    from automation.pbem.xlsxcarry import part_numbers

    assert part_numbers(5, 0) == [1, 2, 3, 4, 5]
    assert part_numbers(6, 2) == [1, 5, 6, 2, 3, 4]  # Export, the orders and their choices, then the others
    assert sorted(part_numbers(610, 2)) == list(range(1, 611))


def flip(at: int):
    def damage(data: bytes) -> bytes:
        return data[:at] + bytes([data[at] ^ 0xFF]) + data[at + 1:]
    return damage


@pytest.mark.parametrize("damage", [
    lambda data: data[:len(data) // 2],  # cut short
    lambda data: b"XXRUN" + data[5:],  # another format
    flip(40),  # its description changed
    lambda data: data.replace(b"xl/worksheets/sheet5.xml", b"xl/worksheets/sheet9.xml", 1),  # a record not its place's
    lambda data: data.replace(b"PK\x03\x04", b"PK\x03\x05", 1),  # a local record not where it says
    lambda data: b"",
], ids=["cut short", "another format", "description changed", "record renamed", "local record moved", "empty"])
def test_a_run_file_that_does_not_read_back_is_not_used_and_is_written_anew(capsys, campaign, tmp_path, monkeypatch,
                                                                            damage):
    book = campaign("dec26")
    first = export(capsys, book, tmp_path / "first.xlsx")
    path = run_file(book)
    path.write_bytes(damage(path.read_bytes()))
    assert xlsxrun.read(path) is None
    copied = runs_copied(monkeypatch)
    assert export(capsys, book, tmp_path / "again.xlsx") == first
    assert copied == [] and xlsxrun.read(path) is not None


def plain_sheets(days: range, extra: str = "") -> list[OutSheet]:
    rows = [["Stand", "Notes"]] + [[f"G-{i}", f"note {i} & <{extra}>"] for i in range(30)]
    return [OutSheet("Export", [["Setting", "Value"], ["Side", "German"]])] + [
        OutSheet(f"Refit Dec {day} 1", rows, source=f"stamp of Dec {day}{extra}") for day in days] + [
        OutSheet("Roster", rows)]


def test_members_written_as_one_run_are_the_members_written_one_by_one(tmp_path, monkeypatch):
    store = PartStore.of(tmp_path / "store", "German")
    write(tmp_path / "one by one.xlsx", plain_sheets(range(1, 9)), store)
    store.save()
    copied = runs_copied(monkeypatch)
    write(tmp_path / "as a run.xlsx", plain_sheets(range(1, 9)), PartStore.of(tmp_path / "store", "German"))
    write(tmp_path / "cold.xlsx", plain_sheets(range(1, 9)), PartStore.of(tmp_path / "another store", "German"))
    assert copied == [8]
    assert (tmp_path / "as a run.xlsx").read_bytes() == (tmp_path / "one by one.xlsx").read_bytes() == \
        (tmp_path / "cold.xlsx").read_bytes()
    with zipfile.ZipFile(tmp_path / "as a run.xlsx") as z:
        assert z.testzip() is None and len(z.namelist()) == len({*z.namelist()})


def test_the_parts_copied_in_a_run_stay_in_the_store_when_it_is_written_anew(tmp_path, monkeypatch):
    first = PartStore.of(tmp_path / "store", "German")
    write(tmp_path / "a.xlsx", plain_sheets(range(1, 9)), first)
    first.save()
    kept = xlsxrun.read(first.path.with_name(first.path.name + ".run"))
    assert kept is not None and kept.count == 8
    monkeypatch.setattr(partstore, "SEGMENTS", 0)  # every save writes the store anew
    monkeypatch.setattr(partstore, "KEEP_ABSENT", 0)  # with the parts this export used alone
    second = PartStore.of(tmp_path / "store", "German")
    write(tmp_path / "b.xlsx", plain_sheets(range(1, 9)) + plain_sheets(range(9, 12), "new")[1:-1], second)
    second.save()
    with zipfile.ZipFile(second.path) as z:
        held = set(z.namelist())
    assert set(kept.keys) <= held  # the run's, copied without being looked up, and the new ones'
    assert len(held) == 8 + 3


def test_an_unreadable_store_beside_a_run_leaves_the_run_to_copy(capsys, campaign, tmp_path, monkeypatch):
    book = campaign("dec26")
    good = export(capsys, book, tmp_path / "good.xlsx")
    store = run_file(book).with_suffix("")
    store.write_bytes(store.read_bytes()[:5000] + b"garbage" * 100)
    kept = xlsxrun.read(run_file(book))
    copied = runs_copied(monkeypatch)
    assert export(capsys, book, tmp_path / "again.xlsx") == good
    assert kept is not None and copied == [kept.count]

"""An export copies the part of each sealed sheet an earlier export of the side
wrote (automation.pbem.partstore): the file is the one built from nothing, the
parts are not built again, and a part is built anew once what it came from
changes."""
from __future__ import annotations

import shutil
import zipfile
from pathlib import Path

import pytest

from automation.pbem import xlsx
from automation.pbem.carry import folder_for
from automation.pbem.export import scrub
from automation.pbem.partstore import PartStore
from automation.pbem.xlsx import OutSheet
from tests.pbem.helpers import part_of, run
from tests.pbem.test_perf_carried import replace_in_part


def members(path: Path) -> dict[str, bytes]:
    with zipfile.ZipFile(path) as z:
        assert z.testzip() is None
        return {i.filename: z.read(i) for i in z.infolist()}


def built_sheets(monkeypatch) -> list[str]:
    """The names of the plain sheets an export builds cell by cell from now on."""
    built: list[str] = []
    real = xlsx._sheet_data

    def counting(sheet, *args):
        built.append(sheet.name)
        return real(sheet, *args)

    monkeypatch.setattr(xlsx, "_sheet_data", counting)
    return built


def export(capsys, book: Path, out: Path, side: str = "German") -> dict[str, bytes]:
    code, _, err = run(capsys, "export", book, "--side", side, "-o", out)
    assert code == 0, err
    return members(out)


def store_of(book: Path, side: str) -> Path:
    """The side's one store (of the code and dates at hand)."""
    tag = PartStore.of(folder_for(book), side).path.name.split("-")[1]
    found = list(folder_for(book).glob(f"parts-{tag}-*.zip"))
    assert len(found) == 1, found
    return found[0]


def test_a_second_export_copies_every_sealed_sheet_and_is_the_same_file(capsys, campaign, tmp_path, monkeypatch):
    book = campaign("dec26")
    built = built_sheets(monkeypatch)
    first = export(capsys, book, tmp_path / "first.xlsx")
    sealed = len(built)
    with zipfile.ZipFile(store_of(book, "German")) as z:
        assert len(z.namelist()) > 20  # a part for each sealed sheet the side sees
    built.clear()
    second = export(capsys, book, tmp_path / "second.xlsx")
    assert second == first
    # built again: only what changes with every date (the latest roster, the record of every purchase, the
    # audit of every roll shown, the choices and the Export sheet)
    assert sorted(built) == ["Choices", "Dice audit", "Export", "Purchase record", "Roster Dec 26"]
    assert sealed > 25


def test_without_the_carried_folder_the_export_is_byte_for_byte_the_same(capsys, campaign, tmp_path):
    book = campaign("dec26")
    export(capsys, book, tmp_path / "warm-up.xlsx")
    warm = export(capsys, book, tmp_path / "warm.xlsx")
    shutil.rmtree(folder_for(book))
    assert export(capsys, book, tmp_path / "cold.xlsx") == warm


def test_an_unreadable_store_is_built_again(capsys, campaign, tmp_path, monkeypatch):
    book = campaign("dec26")
    good = export(capsys, book, tmp_path / "good.xlsx")
    store = store_of(book, "German")
    store.write_bytes(store.read_bytes()[:5000] + b"garbage" * 100)
    store.with_name(store.name + ".run").unlink()  # (the run kept beside it would hold the leading sheets' parts)
    built = built_sheets(monkeypatch)
    assert export(capsys, book, tmp_path / "again.xlsx") == good
    assert len(built) > 20
    with zipfile.ZipFile(store) as z:
        assert z.testzip() is None


def test_a_sheet_edited_since_gets_its_part_built_anew(capsys, campaign, tmp_path, monkeypatch):
    book = campaign("complete")
    export(capsys, book, tmp_path / "a.xlsx")
    replace_in_part(book, "Ledger Dec 23", b"Purchase", b"Bought")
    built = built_sheets(monkeypatch)
    after = export(capsys, book, tmp_path / "b.xlsx")
    assert "Ledger Dec 23" in built and "Ledger Dec 24" not in built
    assert any(b"Bought" in data for name, data in after.items() if name.startswith("xl/worksheets/"))


def test_each_side_keeps_its_own_parts(capsys, campaign, tmp_path):
    book = campaign("dec26")
    german = export(capsys, book, tmp_path / "g.xlsx", "German")
    russian = export(capsys, book, tmp_path / "r.xlsx", "Russian")
    assert store_of(book, "German") != store_of(book, "Russian")
    assert store_of(book, "German").exists() and store_of(book, "Russian").exists()
    assert export(capsys, book, tmp_path / "g2.xlsx", "German") == german
    assert export(capsys, book, tmp_path / "r2.xlsx", "Russian") == russian


def test_a_sheets_source_names_the_secret_names_scrubbed_from_it():
    rows = [["Unit", "Note"], ["Otto 1", "met Ivan 2 at the bridge"]]
    plain = OutSheet("Refit Dec 24", [["Unit"], ["Otto 1"]], source="rows:German|Refit Dec 24|s1")
    met = OutSheet("Results Dec 24", rows, source="rows:German|Results Dec 24|s2")
    loose = OutSheet("Purchase record", rows)
    first = scrub([plain, met, loose], {"Ivan 2": "enemy-a"})
    again = scrub([plain, met, loose], {"Ivan 2": "enemy-a", "Ivan 9": "enemy-b"})
    renamed = scrub([plain, met, loose], {"Ivan 2": "enemy-c"})
    assert first[1].rows[1][1] == "met enemy-a at the bridge"
    assert first[0].source == again[0].source == renamed[0].source != plain.source
    assert first[1].source == again[1].source != renamed[1].source
    assert first[2].source == "" and first[2].rows[1][1] == "met enemy-a at the bridge"


def built_rows(monkeypatch) -> list[tuple[str, int, int | None]]:
    """(sheet, first row, row after) of each run of rows an export builds from now on."""
    built: list[tuple[str, int, int | None]] = []
    real = xlsx._sheet_data

    def counting(sheet, codes, widths, styles, columns, start=0, stop=None):
        built.append((sheet.name, start, stop))
        return real(sheet, codes, widths, styles, columns, start, stop)

    monkeypatch.setattr(xlsx, "_sheet_data", counting)
    return built


def test_the_dice_audit_takes_each_sealed_sheets_rolls_as_deflated_before(capsys, campaign, tmp_path, monkeypatch):
    book = campaign("dec26")
    built = built_rows(monkeypatch)
    first = export(capsys, book, tmp_path / "first.xlsx")
    runs = [b for b in built if b[0] == "Dice audit" and b[1] > 0]
    assert len(runs) > 5  # a run for each report the side sees
    built.clear()
    assert export(capsys, book, tmp_path / "second.xlsx") == first
    assert [b for b in built if b[0] == "Dice audit"] == [("Dice audit", 0, 1)]  # its header row only


def test_a_run_that_does_not_read_back_is_built_again(capsys, campaign, tmp_path, monkeypatch):
    from automation.workbook.zipraw import Deflated

    book = campaign("dec26")
    first = export(capsys, book, tmp_path / "first.xlsx")
    monkeypatch.setattr(Deflated, "inflated", lambda self: None)  # as if every carried run were damaged
    monkeypatch.setattr(xlsx, "_joined_keys", lambda layout, keys: [f"not kept {i}" for i in range(len(keys))])
    built = built_rows(monkeypatch)
    assert export(capsys, book, tmp_path / "again.xlsx") == first
    assert len([b for b in built if b[0] == "Dice audit"]) > 5


def test_the_runs_an_export_carried_are_joined_for_the_next_which_inflates_none(capsys, campaign, tmp_path,
                                                                                  monkeypatch):
    from automation.workbook.zipraw import Deflated

    book = campaign("dec26")
    first = export(capsys, book, tmp_path / "first.xlsx")  # builds the runs, each kept, and keeps them joined
    second = export(capsys, book, tmp_path / "second.xlsx")  # takes each run, and keeps them joined
    assert second == first
    inflated: list[int] = []
    real = Deflated.inflated
    monkeypatch.setattr(Deflated, "inflated", lambda self: inflated.append(self.size) or real(self))
    built = built_rows(monkeypatch)
    assert export(capsys, book, tmp_path / "third.xlsx") == first
    assert inflated == [] and not [b for b in built if b[0] == "Dice audit" and b[1] > 0]


def test_a_new_date_moves_no_carried_run_and_adds_its_own(capsys, campaign, tmp_path, monkeypatch):
    from tests.pbem.helpers import play_on

    book = campaign("complete")
    export(capsys, book, tmp_path / "early.xlsx")
    play_on(book, ["Dec 25"])
    built = built_rows(monkeypatch)
    late = export(capsys, book, tmp_path / "late.xlsx")
    new_runs = [b for b in built if b[0] == "Dice audit" and b[1] > 0]
    assert new_runs and all("Dec 25" in name for name in late_sheets_of(new_runs, tmp_path / "late.xlsx"))
    shutil.rmtree(folder_for(book))
    assert export(capsys, book, tmp_path / "cold.xlsx") == late


def late_sheets_of(runs: list[tuple[str, int, int | None]], path: Path) -> set[str]:
    """The sheets whose rolls the Dice audit rows of ``runs`` list."""
    import openpyxl

    audit = openpyxl.load_workbook(path, read_only=True)["Dice audit"]
    rows = list(audit.iter_rows(values_only=True))
    return {rows[r][0] for _, start, stop in runs for r in range(start, stop or len(rows))}


def test_a_store_made_by_other_code_is_not_read_and_goes_when_the_new_one_is_kept(capsys, campaign, tmp_path,
                                                                                   monkeypatch):
    book = campaign("dec26")
    first = export(capsys, book, tmp_path / "first.xlsx")
    store = store_of(book, "German")
    older = store.with_name("-".join(store.name.split("-")[:2]) + "-000000000000.zip")  # another version's
    store.rename(older)
    store.with_name(store.name + ".run").rename(older.with_name(older.name + ".run"))  # and the run kept beside it
    built = built_sheets(monkeypatch)
    assert export(capsys, book, tmp_path / "again.xlsx") == first
    assert len(built) > 20  # every part built again: none is taken from the other version's store
    assert not older.exists() and store_of(book, "German") == store
    assert not older.with_name(older.name + ".run").exists()


def _joined_in_store(book: Path) -> int:
    from automation.pbem.partstore import JOINED

    store = store_of(book, "German")
    found = 0
    for path in [store, *store.parent.glob(f"{store.name}.[0-9]*")]:  # the store, and the parts added beside it
        with zipfile.ZipFile(path) as z:
            found += len([name for name in z.namelist() if name.startswith(JOINED)])
    return found


def test_the_runs_joined_before_a_new_date_are_kept_for_a_copy_of_before_it_and_no_more(capsys, campaign, tmp_path,
                                                                                          monkeypatch):
    from automation.pbem import partstore
    from automation.workbook.zipraw import Deflated
    from tests.pbem.helpers import play_on

    book = campaign("complete")
    before = tmp_path / "before" / book.name
    before.parent.mkdir()
    shutil.copyfile(book, before)
    shutil.copyfile(book.with_suffix(".key"), before.with_suffix(".key"))
    early = export(capsys, before, tmp_path / "early.xlsx")
    play_on(book, ["Dec 25"])
    late = export(capsys, book, tmp_path / "late.xlsx")  # joins the runs of the new date to those joined before
    assert _joined_in_store(book) == 2  # the new join, and the one it holds, for the copy of before
    inflated: list[int] = []
    real = Deflated.inflated
    monkeypatch.setattr(Deflated, "inflated", lambda self: inflated.append(self.size) or real(self))
    assert export(capsys, before, tmp_path / "early again.xlsx") == early
    assert export(capsys, book, tmp_path / "late again.xlsx") == late
    assert inflated == []  # each copy took its runs joined
    monkeypatch.setattr(partstore, "JOINED_OTHERS", 0)
    monkeypatch.setattr(partstore, "SEGMENTS", 0)  # the store written anew (not added to) by the next export
    play_on(book, ["Dec 26"], previous="Dec 25")
    export(capsys, book, tmp_path / "later.xlsx")
    assert _joined_in_store(book) == 1  # a join held whole by the new one is not kept beyond the few for other copies


def test_parts_new_to_the_store_go_beside_it_until_it_is_written_anew_with_them(tmp_path, monkeypatch):
    import os

    from automation.pbem import partstore
    from automation.workbook.zipraw import Deflated

    monkeypatch.setattr(partstore, "SEGMENTS", 3)
    path = tmp_path / "parts-side-context.zip"
    parts = {f"{i:040x}": Deflated.of(os.urandom(3000)) for i in range(20)}
    first = PartStore(path)
    for key, part in parts.items():
        first.keep(key, part)
    first.save()
    written = path.read_bytes()
    for n in range(1, 5):  # an export after each of four refits
        run = PartStore(path)
        assert {key: run.get(key) for key in parts} == parts  # the store's parts and those beside it
        parts[f"new-{n}"] = Deflated.of(bytes([n]) * 500)
        run.keep(f"new-{n}", parts[f"new-{n}"])
        run.save()
        beside = sorted(p.name for p in tmp_path.glob(f"{path.name}.*"))
        if n <= 3:
            assert path.read_bytes() == written and beside == [f"{path.name}.{k:03d}" for k in range(1, n + 1)]
        else:  # the fourth: the store written anew with every part, nothing beside it
            assert path.read_bytes() != written and beside == []
    last = PartStore(path)
    assert {key: last.get(key) for key in parts} == parts


def test_a_damaged_file_beside_the_store_loses_only_its_own_parts(tmp_path):
    from automation.workbook.zipraw import Deflated

    path = tmp_path / "parts-side-context.zip"
    first = PartStore(path)
    first.keep("a" * 40, Deflated.of(b"in the store" * 100))
    first.save()
    later = PartStore(path)
    later.get("a" * 40)
    later.keep("b" * 40, Deflated.of(b"beside it" * 100))
    later.save()
    beside = path.with_name(path.name + ".001")
    beside.write_bytes(beside.read_bytes()[:40])
    again = PartStore(path)
    assert again.get("a" * 40) == Deflated.of(b"in the store" * 100) and again.get("b" * 40) is None


def saved_store(path, parts) -> None:
    """A side's store at ``path`` holding ``parts`` (key -> Deflated), saved."""
    store = PartStore(path)
    for key, part in parts.items():
        store.keep(key, part)
    store.save()


@pytest.mark.parametrize("damage", ["its local header", "its name", "its length"])
def test_a_part_not_stored_as_the_store_s_directory_says_is_built_again_and_the_others_taken(tmp_path, damage):
    """The store's directory is read a tuple a part; a part's own record is
    read when the part is asked for, and checked against it."""
    import struct

    from automation.workbook.zipraw import Deflated

    path = tmp_path / "parts-side-context.zip"
    parts = {key * 40: Deflated.of(key.encode() * 2000) for key in "abc"}
    saved_store(path, parts)
    data = bytearray(path.read_bytes())
    at = data.index(("b" * 40).encode()) - 30  # its local record
    if damage == "its local header":
        data[at:at + 4] = b"PK\x07\x07"
    elif damage == "its name":
        data[at + 30] = ord("x")
    else:  # the directory says it is longer than it is: it would reach into the next part
        central = data.rindex(("b" * 40).encode()) - 46
        struct.pack_into("<I", data, central + 20, len(parts["b" * 40].body) + 50)
    path.write_bytes(bytes(data))
    later = PartStore(path)
    assert later.get("b" * 40) is None
    assert later.get("a" * 40) == parts["a" * 40] and later.get("c" * 40) == parts["c" * 40]


def test_a_part_each_export_draws_anew_is_deflated_fast_and_a_sealed_sheet_s_as_kept(capsys, campaign, tmp_path):
    """The latest roster's view and the Export sheet are drawn by each export:
    deflated at the level of the parts every change writes anew
    (pkgfile.LAST). A sealed sheet's part, kept and copied into the exports
    after, is deflated at the level of a part kept (zipraw.KEPT_LEVEL)."""
    from automation.pbem.export import side_export
    from automation.workbook.zipraw import Deflated

    book = campaign("dec26")
    export(capsys, book, tmp_path / "first.xlsx")
    sheets = side_export(book, "German").sheets
    out = tmp_path / "second.xlsx"
    export(capsys, book, out)
    with zipfile.ZipFile(out) as z:
        stored = {i.filename: (i.compress_size, z.read(i)) for i in z.infolist()}
    fast, tight = [], []
    for number, sheet in enumerate(sheets, start=1):
        size, data = stored[part_of(out, sheet.name)]
        if sheet.form is None and not sheet.segments and number > 1:  # (the first sheet and the forms:
            # XlsxWriter's own deflate; the Dice audit: runs of rows, each deflated apart)
            level = 3 if sheet.source else 1
            (tight if sheet.source else fast).append((sheet.name, size, len(Deflated.of(data, level).body)))
    assert any(name.startswith("Roster") for name, _, _ in fast) and len(tight) > 5
    assert [(name, size) for name, size, _ in fast + tight] == [(name, made) for name, _, made in fast + tight]


def test_a_part_whose_local_record_has_an_extra_field_is_still_taken(tmp_path):
    """A part whose local record holds an extra field (the store's own
    parts have none) is checked as zipfile checks it, and taken."""
    import struct
    import zlib

    from automation.workbook.zipraw import DIRECTORY_RECORD, LOCAL_HEADER

    body = b"a part written by another zip writer " * 300
    packer = zlib.compressobj(6, zlib.DEFLATED, -15)
    deflated, crc = packer.compress(body) + packer.flush(), zlib.crc32(body)
    name, extra = b"d" * 40, b"\xfe\xca\x04\x00abcd"
    local = LOCAL_HEADER.pack(0x04034B50, 20, 0, 8, 0, 0x21, crc, len(deflated), len(body), len(name), len(extra))
    record = local + name + extra + deflated
    central = DIRECTORY_RECORD.pack(0x02014B50, 20, 20, 0, 8, 0, 0x21, crc, len(deflated), len(body), len(name), 0, 0,
                                    0, 0, 0, 0) + name
    end = struct.pack("<IHHHHIIH", 0x06054B50, 0, 0, 1, 1, len(central), len(record), 0)
    path = tmp_path / "parts-side-context.zip"
    path.write_bytes(record + central + end)
    found = PartStore(path).get("d" * 40)
    assert found is not None and (found.crc, found.size) == (crc, len(body))
    assert zlib.decompress(bytes(found.body), -15) == body


@pytest.mark.parametrize("mapped", [True, False])
def test_a_store_mapped_or_read_gives_the_same_parts_and_is_replaced_while_its_parts_are_in_use(
        tmp_path, monkeypatch, mapped):
    """On Linux and macOS a store is mapped, not read whole (a new process
    would first lay out its 7 MB); elsewhere it is read. Either way the
    parts taken from it stay as they were when the store is written anew
    under them, and the new store holds them."""
    from automation.pbem import partstore
    from automation.workbook.zipraw import Deflated

    monkeypatch.setattr(partstore, "MAPPED", mapped and partstore.MAPPED)
    path = tmp_path / "parts-side-context.zip"
    parts = {key * 40: Deflated.of(key.encode() * 5000) for key in "ab"}
    saved_store(path, parts)
    later = PartStore(path)
    taken = {key: later.get(key) for key in parts}
    assert taken == parts
    monkeypatch.setattr(partstore, "SEGMENTS", 0)  # (the next save writes the store anew, not beside it)
    later.keep("c" * 40, Deflated.of(b"c" * 9000))
    later.save()
    assert taken == parts  # (what was taken from the store before it was replaced)
    again = PartStore(path)
    assert {key: again.get(key) for key in [*parts, "c" * 40]} == {**parts, "c" * 40: Deflated.of(b"c" * 9000)}


def test_an_empty_store_holds_no_part(tmp_path):
    path = tmp_path / "parts-side-context.zip"
    path.write_bytes(b"")
    assert PartStore(path).get("a" * 40) is None

"""A workbook's large sheet parts are copied into its snapshot when first
read, so a command that reads a few sheets of a long campaign copies a few.
What it reads is what a whole copy holds; a workbook written meanwhile by
another program is refused, never read in part; a command's own write in
place leaves the rest of what it took readable."""
from __future__ import annotations

from package_helpers import *  # noqa: F403 - the shared helpers, fixture and imports

import random

from automation.samples import SAMPLE
from automation.workbook import snapshot
from automation.workbook.reader import Workbook
from automation.workbook.snapshot import Snapshot, take
from automation.workbook.zipraw import parse_zip

pytestmark = pytest.mark.skipif(not hasattr(os, "memfd_create") or not os.path.isdir("/proc/self/fd"),
                                reason="no anonymous in-memory files here")


@pytest.fixture
def every_sheet_later(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every sheet part, however small, is copied when first read."""
    monkeypatch.setattr(snapshot, "LAZY_PART", 1)


def _sheets_of(path: Path) -> dict[str, list[list[object]]]:
    whole = Workbook(path, path.read_bytes())  # read from bytes: nothing copied later
    return {name: whole.raw(name) for name in whole.sheet_names}


def _zip_with(path: Path, members: dict[str, bytes]) -> None:
    with zipfile.ZipFile(path, "w", zipfile.ZIP_STORED) as z:
        for name, data in members.items():
            z.writestr(name, data)


def test_every_sheet_part_is_left_to_be_copied_when_read_header_and_all_and_the_rest_is_copied_at_once(
        tmp_path: Path) -> None:
    noise = bytes(random.Random(7).getrandbits(8) for _ in range(48 << 10))
    path = tmp_path / "b.xlsx"
    _zip_with(path, {"[Content_Types].xml": b"<Types/>", "xl/worksheets/sheet1.xml": noise,
                     "xl/worksheets/sheet2.xml": b"<worksheet/>", "xl/media/image1.png": noise})
    held, data = take(path), path.read_bytes()
    assert isinstance(held, Snapshot) and held.pending == 2  # the picture and the types are copied at once
    start = data.index(noise)
    with zipfile.ZipFile(path) as z:
        header = z.getinfo("xl/worksheets/sheet1.xml").header_offset
        small = z.getinfo("xl/worksheets/sheet2.xml").header_offset
        picture = z.getinfo("xl/media/image1.png").header_offset
    assert held.mapped()[header:header + 4] == bytes(4) and held.mapped()[small:small + 4] == bytes(4)  # not yet
    assert held.mapped()[picture:picture + 4] == b"PK\x03\x04"
    assert held[start:start + len(noise)] == noise and held.pending == 1
    assert held.mapped()[header:header + 4] == b"PK\x03\x04"  # its local header came with it
    assert bytes(held) == data and held.pending == 0


def test_a_file_that_is_not_a_zip_is_copied_whole(tmp_path: Path) -> None:
    path = tmp_path / "b.xlsx"
    path.write_bytes(b"PK" + bytes(random.Random(3).getrandbits(8) for _ in range(100_000)))
    held = take(path)
    assert isinstance(held, Snapshot) and held.pending == 0
    assert bytes(held.mapped()) == path.read_bytes()


def test_reading_a_sheet_copies_its_part_and_no_other(tmp_path: Path, every_sheet_later: None,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    from automation.cachesetting import CACHE_SETTING

    monkeypatch.setenv(CACHE_SETTING, "off")  # (else the cells read below are those kept: no part is read)
    path = tmp_path / "b.xlsx"
    shutil.copyfile(RICH, path)
    expected = _sheets_of(path)
    opened = Workbook(path)
    held = opened.gate.data
    assert isinstance(held, Snapshot) and held.pending >= len(expected)
    for name in opened.sheet_names:
        pending = held.pending
        assert opened.raw(name) == expected[name]
        assert held.pending == pending - 1
    assert bytes(held) == path.read_bytes()


def test_a_zip_parsed_from_a_snapshot_copies_each_member_as_it_is_read(tmp_path: Path,
                                                                        every_sheet_later: None) -> None:
    path = tmp_path / "b.xlsx"
    shutil.copyfile(RICH, path)
    held = take(path)
    parsed, plain = parse_zip(held, str(path)), zipfile.ZipFile(path)
    pending = held.pending
    assert pending > 0 and pending == held.pending  # parsing read the directory only
    assert {m.name: parsed.read(m.name) for m in parsed.members} == {n: plain.read(n) for n in plain.namelist()}
    assert held.pending == 0


def test_a_workbook_written_in_place_by_another_program_meanwhile_is_refused_not_read_in_part(
        tmp_path: Path, every_sheet_later: None) -> None:
    path = tmp_path / "b.xlsx"
    shutil.copyfile(RICH, path)
    expected = _sheets_of(path)
    opened = Workbook(path)
    first, *others = opened.sheet_names
    assert opened.raw(first) == expected[first]
    before = path.read_bytes()
    with open(path, "r+b") as fh:  # the same file, emptied and written anew in place
        fh.truncate(0)
        fh.write(before[:len(before) // 2])
    with pytest.raises(WorkbookFileError) as refused:
        for name in others:
            opened.raw(name)
    assert str(refused.value) == f"{path}: the workbook changed on disk while it was read (saved meanwhile?); " \
        "nothing was written: run the command again"  # not taken for a damaged part
    assert opened.raw(first) == expected[first]  # read before: still what it was


def test_a_workbook_replaced_by_another_meanwhile_is_read_as_it_was_taken(tmp_path: Path,
                                                                          every_sheet_later: None) -> None:
    path, other = tmp_path / "b.xlsx", tmp_path / "other.xlsx"
    shutil.copyfile(RICH, path)
    shutil.copyfile(SAMPLE, other)
    expected = _sheets_of(path)
    opened = Workbook(path)
    os.replace(other, path)  # as Excel and LibreOffice save
    assert {name: opened.raw(name) for name in opened.sheet_names} == expected


def test_an_append_in_place_writes_what_a_whole_copy_would_and_leaves_the_rest_readable(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    written = {}
    for part_size in (1, 1 << 40):  # every sheet copied when read; none
        monkeypatch.setattr(snapshot, "LAZY_PART", part_size)
        path = tmp_path / f"b{part_size}.xlsx"
        shutil.copyfile(RICH, path)
        expected = _sheets_of(path)
        opened = Workbook(path)
        assert (opened.gate.data.pending > 0) == (part_size == 1)
        append_sheets(path, [report("Report 9"), report("Roster 9", kind="roster")], "Refit 9", read=opened.gate)
        assert {name: opened.raw(name) for name in expected} == expected
        written[part_size] = path.read_bytes()
    assert written[1] == written[1 << 40]


def test_an_undo_holds_the_workbook_as_a_reader_does_and_copies_no_sheet_it_leaves(
        tmp_path: Path, every_sheet_later: None, monkeypatch: pytest.MonkeyPatch) -> None:
    from automation.workbook import pkgfile
    from automation.workbook.package import NewSheet, append_sheets
    from automation.workbook.undo import remove_last_batch

    path = tmp_path / "campaign.xlsx"
    shutil.copyfile(SAMPLE, path)
    append_sheets(path, [NewSheet("Report 5", [["Turn", "Order"], [5, "Hold"]])], "Refit 5")
    before = _sheets_of(path)
    append_sheets(path, [NewSheet("Report 6", [["Turn", "Order"], [6, "Attack"]])], "Refit 6")
    held: list[Snapshot] = []
    real = pkgfile.take
    monkeypatch.setattr(pkgfile, "take", lambda p: (held.append(found := real(p)), found)[1])
    assert remove_last_batch(path) == ["Report 6"]
    assert len(held) == 1 and isinstance(held[0], Snapshot)
    assert held[0].pending >= len(before) - 1  # the sheets it leaves as they were: never copied
    assert _sheets_of(path) == before

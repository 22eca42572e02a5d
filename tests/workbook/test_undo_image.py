"""Undo of a workbook exactly as its last append left it puts back the lists
that append kept (automation.workbook.undoimage) and parses no part; it
writes the very parts undo writes when it works the change out from the
workbook's lists. A workbook changed since, an image cut short or changed,
and keeping turned off all leave undo to work it out, with the same result."""
from __future__ import annotations

from package_helpers import *  # noqa: F403 - the shared helpers, fixture and imports

from automation.cachesetting import CACHE_SETTING
from automation.workbook import package, pkgfile, undoimage
from automation.workbook.zipraw import Deflated
from automation.workbook.gate import Gate

from test_package_lists import KINDS, _variant


def _images() -> list[Path]:
    where = undoimage.folder()
    return sorted(where.glob("*.undo")) if where is not None and where.is_dir() else []


def _parsing_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    """Any parse of the workbook (its gate, a part, a list checked as XML
    again) fails the test."""
    def refused(*_: object, **__: object) -> None:
        raise AssertionError("undo parsed the workbook")
    monkeypatch.setattr(Gate, "__init__", refused)
    monkeypatch.setattr(package, "parse_xml", refused)
    monkeypatch.setattr(pkgfile, "check_well_formed", refused)


def _worked_out(path: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> list[str]:
    """Undo with no image to find: it works the change out from the lists."""
    with monkeypatch.context() as m:
        m.setenv(CACHE_SETTING, str(tmp_path / "no images here"))
        return remove_last_batch(path)


@pytest.mark.parametrize("kind", KINDS)
def test_undo_puts_back_the_lists_the_append_kept_and_writes_what_working_it_out_writes(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, kind: str) -> None:
    kept, worked = tmp_path / "kept.xlsx", tmp_path / "worked.xlsx"
    shutil.copyfile(RICH, kept)
    _variant(kept, kind)
    before = contents(kept)
    batches = list_batches(kept)
    append_sheets(kept, [report("Report 9"), report("Roster 9", kind="roster"), report("Notes 9", hidden=True)],
                  "Refit 9")
    assert len(_images()) >= 1
    shutil.copyfile(kept, worked)
    with monkeypatch.context() as m:
        _parsing_refused(m)
        assert remove_last_batch(kept) == ["Report 9", "Roster 9", "Notes 9"]
    assert _worked_out(worked, monkeypatch, tmp_path) == ["Report 9", "Roster 9", "Notes 9"]
    assert contents(kept) == contents(worked)
    assert list_batches(kept) == batches
    # the lists are those before the append, and no part of it is left (the styles keep its formats)
    after = contents(kept)
    assert {k: v for k, v in after.items() if k != "xl/styles.xml"} == \
        {k: v for k, v in before.items() if k != "xl/styles.xml"}


def test_undo_from_the_image_writes_each_list_back_as_the_file_stored_it(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "book.xlsx"
    shutil.copyfile(RICH, path)  # (its lists deflated by another program, as Excel's are)
    stored = raw_members(path)
    append_sheets(path, [report("Report 1")], "Refit 1")
    with monkeypatch.context() as m:
        _parsing_refused(m)
        m.setattr(Deflated, "of", _refused_deflate)
        assert remove_last_batch(path) == ["Report 1"]
    after = raw_members(path)
    for name in RESTORED_BY_UNDO:  # the same deflated bytes and CRC-32, not the text deflated anew
        assert after[name][1:] == stored[name][1:], name


def _refused_deflate(*_: object, **__: object) -> None:
    raise AssertionError("undo deflated a list again")


def test_undo_of_an_answered_form_puts_the_form_back_as_it_was(tmp_path: Path, monkeypatch: pytest.MonkeyPatch
                                                                ) -> None:
    kept, worked = tmp_path / "kept.xlsx", tmp_path / "worked.xlsx"
    shutil.copyfile(RICH, kept)
    append_sheets(kept, [report("Orders 1")], "Orders")
    before = contents(kept)
    append_sheets(kept, [report("Orders 1", rows=[["Turn"], [7]])], "Answer", replace=["Orders 1"])
    shutil.copyfile(kept, worked)
    with monkeypatch.context() as m:
        _parsing_refused(m)
        assert remove_last_batch(kept) == ["Orders 1"]
    assert _worked_out(worked, monkeypatch, tmp_path) == ["Orders 1"]
    assert contents(kept) == contents(worked)
    assert {k: v for k, v in contents(kept).items() if k != "xl/styles.xml"} == \
        {k: v for k, v in before.items() if k != "xl/styles.xml"}


def test_a_workbook_changed_since_its_append_is_worked_out(book: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    append_sheets(book, [report("Report 1")], "Refit 1")
    files = contents(book)
    rezip(book, {"xl/workbook.xml": files["xl/workbook.xml"].replace(b"<sheets>", b"<sheets> ")})  # saved again
    gates: list[str] = []
    made = Gate.__init__

    def spy(self: Gate, where: object, data: bytes, *args: object) -> None:
        gates.append(str(where))
        made(self, where, data, *args)
    monkeypatch.setattr(Gate, "__init__", spy)
    assert remove_last_batch(book) == ["Report 1"]
    assert gates  # worked out from the workbook's lists
    assert "Report 1" not in openpyxl.load_workbook(book).sheetnames


@pytest.mark.parametrize("damage", ["cut short", "a byte changed", "another workbook's"])
def test_an_image_that_does_not_read_back_whole_is_not_used(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                             damage: str) -> None:
    kept, worked = tmp_path / "kept.xlsx", tmp_path / "worked.xlsx"
    shutil.copyfile(RICH, kept)
    append_sheets(kept, [report("Report 1")], "Refit 1")
    shutil.copyfile(kept, worked)
    (image,) = _images()
    raw = image.read_bytes()
    if damage == "cut short":
        image.write_bytes(raw[:len(raw) // 2])
    elif damage == "a byte changed":
        image.write_bytes(raw[:100] + bytes([raw[100] ^ 1]) + raw[101:])
    else:  # a whole, valid image, but of another workbook's append
        other = tmp_path / "other.xlsx"
        shutil.copyfile(RICH, other)
        append_sheets(other, [report("Other 1")], "Refit 1")
        (newest,) = [p for p in _images() if p != image]
        image.write_bytes(newest.read_bytes())
    assert remove_last_batch(kept) == ["Report 1"]
    assert _worked_out(worked, monkeypatch, tmp_path) == ["Report 1"]
    assert contents(kept) == contents(worked)


def test_with_keeping_off_no_image_is_kept_and_undo_works_it_out(tmp_path: Path, monkeypatch: pytest.MonkeyPatch
                                                                 ) -> None:
    monkeypatch.setenv(CACHE_SETTING, "off")
    path = tmp_path / "book.xlsx"
    shutil.copyfile(RICH, path)
    before = contents(path)
    append_sheets(path, [report("Report 1")], "Refit 1")
    assert undoimage.folder() is None
    assert remove_last_batch(path) == ["Report 1"]
    assert {k: v for k, v in contents(path).items() if k != "xl/styles.xml"} == \
        {k: v for k, v in before.items() if k != "xl/styles.xml"}


def test_a_second_undo_works_out_the_batch_before(book: Path) -> None:
    append_sheets(book, [report("Report 1")], "Refit 1")
    append_sheets(book, [report("Report 2")], "Refit 2")
    assert remove_last_batch(book) == ["Report 2"]
    assert remove_last_batch(book) == ["Report 1"]
    assert [b.name for b in list_batches(book)] == []


def test_the_newest_images_alone_are_kept(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(undoimage, "KEPT", 3)
    path = tmp_path / "book.xlsx"
    shutil.copyfile(RICH, path)
    for n in range(1, 6):
        append_sheets(path, [report(f"Report {n}")], f"Refit {n}")
    assert len(_images()) == 3
    assert remove_last_batch(path) == ["Report 5"]  # the last append's image is among them


def test_an_image_read_again_is_kept_before_newer_ones(tmp_path: Path) -> None:
    path = tmp_path / "book.xlsx"
    shutil.copyfile(RICH, path)
    append_sheets(path, [report("Report 1")], "Refit 1")
    (image,) = _images()
    os.utime(image, ns=(10**9, 10**9))  # kept long ago
    assert undoimage.find(path.read_bytes()) is not None
    assert image.stat().st_mtime_ns > 10**9  # read again now: what is pruned last


def test_an_image_is_readable_by_its_user_alone(book: Path) -> None:
    append_sheets(book, [report("Report 1")], "Refit 1")
    where = undoimage.folder()
    assert where is not None and (where.stat().st_mode & 0o077) == 0


def test_a_cache_folder_that_cannot_be_named_only_leaves_undo_to_work_it_out(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def unnamed(name: str) -> Path:
        raise RuntimeError("no home folder")
    monkeypatch.setattr(undoimage, "cache_folder", unnamed)
    path = tmp_path / "book.xlsx"
    shutil.copyfile(RICH, path)
    append_sheets(path, [report("Report 1")], "Refit 1")  # written, though no image could be kept
    assert "Report 1" in openpyxl.load_workbook(path).sheetnames
    assert remove_last_batch(path) == ["Report 1"]

"""A change at the end of the workbook is written in place under a journal;
a write cut short is rolled back before anything reads the workbook again."""
from __future__ import annotations

from package_helpers import *  # noqa: F403 - the shared helpers, fixture and imports

from automation.workbook import journal
from automation.workbook.journal import journal_path
from automation.workbook.lock import real_path
from automation.workbook.zipraw import Written

EDITED = ["[Content_Types].xml", "xl/_rels/workbook.xml.rels", "xl/workbook.xml", "docProps/app.xml",
          "xl/styles.xml"]


def names_in_file_order(path: Path) -> list[str]:
    with zipfile.ZipFile(path) as zf:
        return [i.filename for i in sorted(zf.infolist(), key=lambda i: i.header_offset)]


def first_edited_offset(path: Path) -> int:
    with zipfile.ZipFile(path) as zf:
        return min(i.header_offset for i in zf.infolist() if i.filename in EDITED)


def left_beside(book: Path) -> list[str]:
    return sorted(p.name for p in book.parent.iterdir() if p.name != f".~{book.name}.lock")


@pytest.fixture
def written(book: Path) -> Path:
    """The workbook after one append: written whole once, its edited parts now last."""
    append_sheets(book, [report("First")], "Refit 1")
    return book


def test_the_first_change_writes_the_file_whole_with_the_parts_it_edits_last(book: Path) -> None:
    assert names_in_file_order(book)[0] == "[Content_Types].xml"  # as Excel stores it
    inode = book.stat().st_ino
    append_sheets(book, [report("First")], "Refit 1")
    order = names_in_file_order(book)
    assert book.stat().st_ino != inode  # a new file moved over the old one
    present = [n for n in EDITED if n in order]
    assert sorted(order[-len(present):]) == sorted(present)
    assert "First" in sheet_names(book)


def test_a_change_at_the_end_is_written_in_place_and_keeps_every_byte_before_it(written: Path) -> None:
    before = written.read_bytes()
    start = first_edited_offset(written)
    inode = written.stat().st_ino
    append_sheets(written, [report("Second")], "Refit 2")
    after = written.read_bytes()
    assert written.stat().st_ino == inode
    assert after[:start] == before[:start]
    assert sheet_names(written)[-2:] == ["First", "Second"]
    with zipfile.ZipFile(written) as zf:
        assert zf.testzip() is None
    assert left_beside(written) == [written.name]  # no journal, no temporary file


def test_undo_of_the_last_append_gives_back_the_workbook_byte_for_byte(written: Path) -> None:
    before = written.read_bytes()
    append_sheets(written, [report("Second"), report("Third")], "Refit 2")
    assert remove_last_batch(written) == ["Second", "Third"]
    assert written.read_bytes() == before


def test_a_change_of_more_than_half_the_file_writes_it_whole(written: Path) -> None:
    big = [[f"row {i}", i, i * 2, "x" * 40] for i in range(20_000)]
    append_sheets(written, [report("Big", big)], "Refit 2")
    inode = written.stat().st_ino
    remove_last_batch(written)  # the big sheet is most of the file: written whole, beside it
    assert written.stat().st_ino != inode
    assert "Big" not in sheet_names(written)


def cut_short(monkeypatch: pytest.MonkeyPatch, fraction: float) -> None:
    """The next in-place write stops (as a killed process does) after writing
    ``fraction`` of the new end: nothing rolls it back in this process."""
    real_write = journal._write_at
    calls = []

    def write_at(fh, start, data):  # noqa: ANN001
        calls.append(start)
        if len(calls) == 1:
            fh.seek(start)
            fh.write(data[:int(len(data) * fraction)])
            fh.flush()
            raise KeyboardInterrupt("killed")
        real_write(fh, start, data)
    monkeypatch.setattr(journal, "_write_at", write_at)


def killed_while_writing(book: Path, monkeypatch: pytest.MonkeyPatch, fraction: float) -> None:
    """An append to ``book`` stopped (as a killed process is) when ``fraction`` of its new end is written."""
    cut_short(monkeypatch, fraction)
    with pytest.raises(KeyboardInterrupt):
        append_sheets(book, [report("Second")], "Refit 2")
    monkeypatch.undo()


@pytest.mark.parametrize("fraction", [0.0, 0.3, 0.99])
def test_a_write_cut_short_is_rolled_back_before_the_workbook_is_read_again(written: Path, monkeypatch,
                                                                          fraction: float) -> None:
    before = written.read_bytes()
    killed_while_writing(written, monkeypatch, fraction)
    assert journal_path(real_path(written)).exists()
    assert (written.read_bytes() != before) == bool(fraction)  # part of the new end is in the file
    assert sheet_names(written)[-1] == "First"  # read through the journal: rolled back first
    assert written.read_bytes() == before
    assert left_beside(written) == [written.name]


def test_a_write_cut_short_after_its_end_was_wholly_written_is_kept(written: Path, monkeypatch) -> None:
    killed_while_writing(written, monkeypatch, 1.0)  # killed before the fsync: the file holds the new end already
    assert sheet_names(written)[-2:] == ["First", "Second"]
    assert [b.name for b in list_batches(written)][-1] == "Refit 2"
    assert left_beside(written) == [written.name]


def test_the_next_write_rolls_back_a_write_cut_short_then_writes(written: Path, monkeypatch) -> None:
    killed_while_writing(written, monkeypatch, 0.5)
    append_sheets(written, [report("Third")], "Refit 3")
    assert sheet_names(written)[-2:] == ["First", "Third"]
    assert [b.name for b in list_batches(written)][-2:] == ["Refit 1", "Refit 3"]


def test_a_journal_cut_short_is_dropped_and_the_workbook_untouched(written: Path) -> None:
    before = written.read_bytes()
    journal_path(real_path(written)).write_bytes(b"MRJ1" + bytes(20))
    assert sheet_names(written)[-1] == "First"
    assert written.read_bytes() == before
    assert left_beside(written) == [written.name]


def test_a_journal_of_a_workbook_replaced_since_leaves_the_new_workbook_alone(written: Path, monkeypatch) -> None:
    killed_while_writing(written, monkeypatch, 0.5)
    written.write_bytes(RICH.read_bytes())  # another workbook put in its place before anything ran
    assert sheet_names(written)
    assert written.read_bytes() == RICH.read_bytes()
    assert left_beside(written) == [written.name]


def refused_unchanged(book: Path, message: str) -> str:
    """An append to ``book`` refused with ``message``, its bytes as they were and nothing left beside it."""
    before = book.read_bytes()
    with pytest.raises(WorkbookFileError, match=message) as err:
        append_sheets(book, [report("Second")], "Refit 2")
    assert book.read_bytes() == before
    assert left_beside(book) == [book.name]
    return str(err.value)


def test_a_write_that_fails_midway_is_rolled_back_and_says_so(written: Path, monkeypatch) -> None:
    before = written.read_bytes()
    real_write = journal._write_at

    def full_disk(fh, start, data):  # noqa: ANN001
        if len(data) != len(before) - start:  # the new end, not the rollback
            fh.seek(start)
            fh.write(data[:100])
            raise OSError(28, "No space left on device")
        real_write(fh, start, data)
    monkeypatch.setattr(journal, "_write_at", full_disk)
    assert str(written) in refused_unchanged(written, "No space left on device.*it is unchanged")


def test_a_write_that_does_not_read_back_is_rolled_back(written: Path, monkeypatch) -> None:
    monkeypatch.setattr(Written, "check", lambda self, data: False)
    refused_unchanged(written, "did not read back; nothing was written")


def test_a_journal_that_cannot_be_written_leaves_the_workbook_untouched(written: Path, monkeypatch) -> None:
    def no_journal(*_a, **_k):  # noqa: ANN002, ANN003
        raise OSError(13, "Permission denied")
    monkeypatch.setattr(journal, "_sync_folder", no_journal)
    refused_unchanged(written, "Permission denied.*it is unchanged")


def test_a_workbook_changed_since_it_was_read_is_not_written_in_place(written: Path, monkeypatch) -> None:
    from automation.workbook import pkgfile

    stale = written.read_bytes()
    append_sheets(written, [report("Second")], "Refit 2")  # another command, between this one's read and write
    now = written.read_bytes()
    monkeypatch.setattr(pkgfile, "read_held", lambda path: stale)  # this one read the workbook before that
    with pytest.raises(WorkbookFileError, match="changed since it was read"):
        append_sheets(written, [report("Third")], "Refit 3")
    assert written.read_bytes() == now
    assert left_beside(written) == [written.name]


def _read_by_reader(book: Path) -> list[str]:
    from automation.workbook.reader import Workbook
    return Workbook(book).sheet_names


def _read_by_guard(book: Path) -> list[str]:
    from automation.pbem.guard import read_bytes
    from automation.workbook.gate import MASTER
    path = book.parent / "read.xlsx"
    path.write_bytes(bytes(read_bytes(book, MASTER)))
    return sheet_names(path)


@pytest.mark.parametrize("read", [sheet_names, _read_by_reader, _read_by_guard])
def test_every_way_of_reading_the_workbook_rolls_back_a_write_cut_short_first(written: Path, monkeypatch,
                                                                              read) -> None:
    before = written.read_bytes()
    killed_while_writing(written, monkeypatch, 0.5)
    assert read(written)[-1] == "First"
    assert written.read_bytes() == before
    assert not journal_path(real_path(written)).exists()


PAUSED_WRITER = """
import sys, time
from pathlib import Path
from automation.workbook import journal
from automation.workbook.package import NewSheet, append_sheets

real = journal._write_at
def slow(fh, start, data):
    fh.seek(start)
    fh.write(data[:len(data) // 2])  # half the new end, then a pause: a reader must not see this
    fh.flush()
    Path(sys.argv[2]).touch()
    time.sleep(1.5)
    real(fh, start, data)
journal._write_at = slow
append_sheets(Path(sys.argv[1]), [NewSheet("Second", [["a", 1]])], "Refit 2")
"""


def test_a_reader_never_reads_the_workbook_halfway_through_a_write(written: Path, tmp_path: Path) -> None:
    import subprocess
    import sys
    import time

    before = written.read_bytes()
    halfway = tmp_path / "halfway"
    writer = subprocess.Popen([sys.executable, "-c", PAUSED_WRITER, str(written), str(halfway)],
                              cwd=Path(__file__).resolve().parents[2], stderr=subprocess.PIPE, text=True)
    while not halfway.exists() and writer.poll() is None:
        time.sleep(0.01)
    assert writer.poll() is None, writer.stderr.read()
    torn = written.read_bytes()  # what a reader without the lock would read: half old, half new
    assert torn != before
    assert sheet_names(written)[-2:] == ["First", "Second"]  # waited for the write, then read it whole
    assert writer.wait(timeout=60) == 0, writer.stderr.read()


def test_a_workbook_is_read_without_a_lock_and_again_under_it_if_it_changed_meanwhile(written: Path) -> None:
    from automation.workbook.lock import lock_path

    lock = lock_path(real_path(written))
    lock.unlink()
    reads = []
    assert journal.read_settled(written, lambda: reads.append(1) or b"bytes") == b"bytes"
    assert reads == [1] and not lock.exists()  # no lock taken, nothing made beside the file

    def a_writer_wrote_meanwhile() -> bytes:
        reads.append(2)
        with open(written, "ab") as fh:  # (as a write in place, begun and ended while the bytes were read)
            fh.write(b"\0")
        return b"maybe torn"
    reads.clear()
    assert journal.read_settled(written, lambda: a_writer_wrote_meanwhile() if not reads else
                                reads.append(3) or b"whole") == b"whole"
    assert reads == [2, 3]

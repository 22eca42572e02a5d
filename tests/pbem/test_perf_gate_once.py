"""A refit reads its workbook once, through the gate once: the writer takes
the bytes its reader holds and the gate it passed for them, and a file
changed in between is still refused, untouched."""
from __future__ import annotations

from automation.errors import WorkbookFileError
from automation.workbook import gate as gate_module
from automation.workbook import pkgfile
from automation.workbook.package import append_sheets, sheet_names
from automation.workbook.reader import Workbook
from automation.workbook.sheetgraft import NewSheet
from automation.workbook import bf_sheets as K
from tests.pbem.helpers import SPEND_DEC24, enter, run


def counted_gates(monkeypatch) -> list[str]:
    made: list[str] = []
    real = gate_module.Gate.__init__

    def init(self, where, data, limits=gate_module.MASTER):
        made.append(str(where))
        real(self, where, data, limits)

    monkeypatch.setattr(gate_module.Gate, "__init__", init)
    return made


def test_a_refit_passes_its_workbook_through_the_gate_once(capsys, campaign, monkeypatch):
    book = campaign("spend_dec24")
    enter(book, K.SPEND, SPEND_DEC24, "Dec 24")
    before = set(sheet_names(book))
    made = counted_gates(monkeypatch)
    reads = []
    for name in ("read", "read_held"):  # read whole, or held as a reader holds it
        monkeypatch.setattr(pkgfile, name, lambda path, real=getattr(pkgfile, name): reads.append(path) or real(path))
    code, out, err = run(capsys, "refit", book, "--quiet")
    assert code == 0, err
    assert made == [str(book)]
    assert reads == []  # the writer took the bytes its reader holds (and compared the file with them)
    assert set(sheet_names(book)) - before  # it wrote


def test_the_gate_passed_is_not_taken_for_other_bytes(campaign, tmp_path, monkeypatch):
    book = campaign("spend_dec24")
    reader = Workbook(book)
    made = counted_gates(monkeypatch)
    sheet = NewSheet("Notes x", [["a"], ["b"]])
    append_sheets(book, [sheet], "one", expected_digest=reader.digest)
    assert made == []  # the reader's gate: the same bytes
    changed = book.read_bytes()
    try:
        append_sheets(book, [NewSheet("Notes y", [["a"]])], "two", expected_digest=reader.digest)
    except WorkbookFileError as exc:
        assert "changed since it was read" in str(exc)
        assert book.read_bytes() == changed and "Notes y" not in sheet_names(book)
    else:
        raise AssertionError("a workbook changed since it was read was written")
    made.clear()
    append_sheets(book, [NewSheet("Notes z", [["a"]])], "three")
    assert made == [str(book)]  # new bytes: a new gate


def test_no_command_works_out_the_digest_of_the_whole_workbook(capsys, campaign, tmp_path, monkeypatch):
    """A writer finds the bytes its reader read by their gate, not by their
    SHA-256: hashing 10-40 MB grew with the campaign for nothing."""
    import hashlib

    book = campaign("spend_dec24")
    reader = Workbook(book)
    assert reader.gate._digest is None  # reading alone hashes nothing
    assert reader.digest == hashlib.sha256(book.read_bytes()).hexdigest()  # (for a caller that asks)
    asked: list[str] = []
    real = gate_module.Gate.digest

    monkeypatch.setattr(gate_module.Gate, "digest",
                        property(lambda self: asked.append(self.where) or real.fget(self)))
    for argv in (("stats", book), ("export", book, "--side", "German", "-o", tmp_path / "g.xlsx"),
                 ("verify", book)):
        code, _, err = run(capsys, *argv)
        assert code in (0, 1), err
    enter(book, K.SPEND, SPEND_DEC24, "Dec 24")
    before = set(sheet_names(book))
    code, _, err = run(capsys, "refit", book, "--quiet")
    assert code == 0, err
    assert set(sheet_names(book)) - before  # it wrote
    assert asked == []


def test_a_batch_appended_to_what_a_reader_read_is_refused_once_the_workbook_changed(campaign):
    book = campaign("spend_dec24")
    reader = Workbook(book)
    append_sheets(book, [NewSheet("Notes x", [["a"], ["b"]])], "one", read=reader.gate)
    assert "Notes x" in sheet_names(book)
    changed = book.read_bytes()
    try:
        append_sheets(book, [NewSheet("Notes y", [["a"]])], "two", read=reader.gate)  # what it read is gone
    except WorkbookFileError as exc:
        assert "changed since it was read" in str(exc)
    else:
        raise AssertionError("a batch was appended to bytes the workbook no longer holds")
    assert book.read_bytes() == changed and "Notes y" not in sheet_names(book)
    again = Workbook(book)
    append_sheets(book, [NewSheet("Notes y", [["a"]])], "two", read=again.gate)  # read anew: appended
    assert "Notes y" in sheet_names(book)

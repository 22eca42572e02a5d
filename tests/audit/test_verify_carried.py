"""verify without the key carries what it read of each report (its chain rows)
from run to run, under the report part's fingerprint: a second run reads only
the last report again, and any edit to a report, even one that leaves every other part
byte for byte, is found exactly as on the first run."""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from automation.audit.carried import FILE
from automation.pbem.carry import folder_for
from automation.workbook.reader import Workbook
from automation.workbook.typein import type_in
from tests.pbem.helpers import run


@pytest.fixture(scope="module")
def played(tmp_path_factory) -> Path:
    """The Rostov demo: two dates, four reports."""
    from automation.samples import run_demo

    folder = tmp_path_factory.mktemp("played")
    return run_demo(folder / "demo")


@pytest.fixture
def book(played, tmp_path) -> Path:
    out = tmp_path / played.name
    shutil.copyfile(played, out)
    shutil.copyfile(played.with_suffix(".key"), tmp_path / "campaign.key")  # kept away: verify runs without it
    return out


def verify(capsys, book: Path) -> tuple[int, str]:
    code, out, err = run(capsys, "verify", book)
    return code, out + err


def store(book: Path) -> dict:
    return json.loads((folder_for(book) / FILE).read_text(encoding="utf-8"))["reports"]


def test_a_second_run_reads_only_the_last_report_again_and_says_the_same(capsys, book, monkeypatch):
    first = verify(capsys, book)
    assert first[0] == 0 and "the chain of 4 report(s) is intact" in first[1]
    assert len(store(book)) == 4  # one entry per report
    assert not [k for e in store(book).values() for _, k, _, _ in e[2] if k in ("rows", "columns")]  # tags left out

    read: list[str] = []
    original = Workbook.raw

    def counting(self, name):
        read.append(name)
        return original(self, name)
    monkeypatch.setattr(Workbook, "raw", counting)
    second = verify(capsys, book)
    assert second == first
    # only the last report is read: it cannot hold its own part's fingerprint, so its digest is taken anew
    assert [n for n in read if n.startswith("Refit ")] == ["Refit Dec 24 2"], read


def test_an_edit_to_a_report_after_a_carried_run_is_named_at_its_cell(capsys, book):
    assert verify(capsys, book)[0] == 0
    rows = Workbook(book).raw("Refit Dec 23 2")
    type_in(book, "Refit Dec 23 2", {"G3": f"{rows[2][6]} (edited)"})  # only that part's bytes change
    code, out = verify(capsys, book)
    assert code == 1 and "Refit Dec 23 2!G3" in out, out


def test_an_edit_to_a_tamper_evidence_row_after_a_carried_run_is_found(capsys, book):
    assert verify(capsys, book)[0] == 0
    rows = Workbook(book).raw("Refit Dec 23 2")
    subject, result = rows[0].index("Subject"), rows[0].index("Result")
    this = next(i for i, r in enumerate(rows) if str(r[subject]).startswith("this report"))
    type_in(book, "Refit Dec 23 2", {f"{'ABCDEFGHIJKLMNOP'[result]}{this + 1}": "0" * 64})
    code, out = verify(capsys, book)
    assert code == 1 and "Refit Dec 23 2" in out, out


def test_a_forged_store_cannot_hide_an_edit_from_verify_with_the_key(capsys, book, tmp_path):
    assert verify(capsys, book)[0] == 0
    carried = store(book)
    type_in(book, "Refit Dec 23 2", {"G3": "forged"})
    # a forger copies the old entries under every fingerprint the edited workbook could have
    path = folder_for(book) / FILE
    data = json.loads(path.read_text(encoding="utf-8"))
    from automation.audit.parts import fingerprint

    wb = Workbook(book)
    for name in ("Refit Dec 23 2",):
        data["reports"][fingerprint(wb, name)] = next(iter(carried.values()))
    path.write_text(json.dumps(data), encoding="utf-8")
    code, out, err = run(capsys, "verify", book, "--key", tmp_path / "campaign.key")
    assert code == 1 and "Refit Dec 23 2" in out + err


def test_an_edit_to_a_sealed_sheet_after_a_carried_run_is_named_at_its_cell(capsys, book):
    """The carried chain rows leave out the row and column tags; locating the
    change reads the report that sealed the sheet again."""
    assert verify(capsys, book)[0] == 0
    rows = Workbook(book).raw("Roster Dec 23")
    type_in(book, "Roster Dec 23", {"B3": f"{rows[2][1]}x"})
    code, out = verify(capsys, book)
    assert code == 1 and "Roster Dec 23!B3" in out, out

"""verify without the key carries what it read of each report (its chain rows)
from run to run, under the report part's fingerprint, and where its last clean
walk stood: a second run walks no report again, and any edit to a report, even
one that leaves every other part byte for byte, is found exactly as on the
first run."""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from automation.audit.carried import FILE, WALK_FILE
from automation.pbem.carry import folder_for
from automation.workbook.reader import Workbook
from automation.workbook.typein import type_in
from tests.pbem.helpers import run, sheets_read


@pytest.fixture(scope="module")
def played(tmp_path_factory) -> Path:
    """The Rostov demo: two dates, four reports."""
    from automation.samples_demo import run_demo

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


def walk_file(book: Path) -> Path:
    """The one file of walks kept (the walks that begin with the first report)."""
    found = list(folder_for(book).glob(f"{WALK_FILE}-*.json"))
    assert len(found) == 1, found
    return found[0]


def store(book: Path) -> dict:
    return json.loads((folder_for(book) / FILE).read_text(encoding="utf-8"))["reports"]


def test_a_second_run_reads_only_the_last_report_again_and_says_the_same(capsys, book, monkeypatch):
    first = verify(capsys, book)
    assert first[0] == 0 and "the chain of 4 report(s) is intact" in first[1]
    assert len(store(book)) == 4  # one entry per report
    assert not [k for e in store(book).values() for _, k, _, _ in e[2] if k in ("rows", "columns")]  # tags left out

    read = sheets_read(monkeypatch)
    second = verify(capsys, book)
    assert second == first
    # the walk is kept where it stood: no report is read, nor any carried entry of one
    assert [n for n in read if n.startswith("Refit ")] == [], read

    walk_file(book).unlink()  # without the walk: only the last report is read again (it cannot
    read.clear()                              # hold its own part's fingerprint, so its digest is taken anew)
    assert verify(capsys, book) == first
    assert {n for n in read if n.startswith("Refit ")} == {"Refit Dec 24 2"}, read


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


def test_a_second_run_hashes_no_sealed_sheet_again_and_an_edit_changes_only_that_sheets_stamp(capsys, book,
                                                                                           monkeypatch):
    """The fingerprints are carried by stamp (the zip directory's CRC-32 and
    sizes): the second run hashes nothing; an edited sheet gets a new stamp,
    and only it is hashed again."""
    import automation.audit.parts as parts

    first = verify(capsys, book)
    hashed: list[str] = []
    original = parts.fingerprint
    monkeypatch.setattr(parts, "fingerprint", lambda wb, name: hashed.append(name) or original(wb, name))
    assert verify(capsys, book) == first and hashed == []

    before = {n: parts.stamp(Workbook(book), n) for n in Workbook(book).sheet_names}
    rows = Workbook(book).raw("Roster Dec 23")
    type_in(book, "Roster Dec 23", {"B3": f"{rows[2][1]}x"})
    after = {n: parts.stamp(Workbook(book), n) for n in Workbook(book).sheet_names}
    assert [n for n in before if before[n] != after[n]] == ["Roster Dec 23"]
    code, out = verify(capsys, book)
    assert code == 1 and "Roster Dec 23!B3" in out and set(hashed) == {"Roster Dec 23"}, (out, hashed)


def test_an_input_sheets_row_tags_are_carried_as_their_number(capsys, book):
    from automation.audit.inputs import INPUT_TAGS

    first = verify(capsys, book)
    carried = [ln for e in store(book).values() for ln in e[2] if ln[1] == INPUT_TAGS]
    assert carried and all(isinstance(ln[3], int) and ln[3] > 0 for ln in carried)
    assert verify(capsys, book) == first  # the walk rebuilds each input sheet to its digest from the number alone


def test_after_an_undo_the_walk_starts_again_and_after_a_new_refit_only_the_new_report_is_walked(capsys, book,
                                                                                                 tmp_path, monkeypatch):
    whole = book.read_bytes()
    first = verify(capsys, book)
    assert first[0] == 0 and "the chain of 4 report(s) is intact" in first[1]
    code, _, _ = run(capsys, "undo", book)
    assert code == 0
    fresh = tmp_path / "fresh"
    fresh.mkdir()
    shutil.copyfile(book, fresh / book.name)
    after = verify(capsys, book)  # the walk kept holds four reports, the workbook three: walked from the first
    assert after[0] == 0 and "the chain of 3 report(s) is intact" in after[1]
    assert after[1].replace(str(book), "B") == verify(capsys, fresh / book.name)[1].replace(str(fresh / book.name), "B")

    book.write_bytes(whole)  # the refit again: the walk of four reports is kept beside that of three, and holds
    read = sheets_read(monkeypatch)
    assert verify(capsys, book) == first
    assert [n for n in read if n.startswith("Refit ")] == [], read

    walks = json.loads(walk_file(book).read_text(encoding="utf-8"))
    assert [len(w["reports"]) for w in walks["walks"]] == [3, 4]  # the newest first
    walks["walks"] = walks["walks"][:1]  # only the walk of three: the three reports are first, unchanged; one is new
    walk_file(book).write_text(json.dumps(walks), encoding="utf-8")
    read.clear()
    assert verify(capsys, book) == first
    assert {n for n in read if n.startswith("Refit ")} == {"Refit Dec 24 2"}, read
    assert len(store(book)) == 4  # the walked reports' carried rows are kept with the new one's

    rows = Workbook(book).raw("Refit Dec 23 2")
    type_in(book, "Refit Dec 23 2", {"G3": f"{rows[2][6]} (edited)"})
    read.clear()  # the walk no longer holds: every report is walked, and only the edited and the last are read
    code, out = verify(capsys, book)
    assert code == 1 and "Refit Dec 23 2!G3" in out, out
    assert {n for n in read if n.startswith("Refit ")} == {"Refit Dec 23 2", "Refit Dec 24 2"}, read


def test_a_walk_that_found_a_problem_is_not_kept_and_the_problem_is_found_on_every_run(capsys, book):
    assert verify(capsys, book)[0] == 0
    kept = walk_file(book).read_bytes()
    rows = Workbook(book).raw("Roster Dec 23")
    type_in(book, "Roster Dec 23", {"B3": f"{rows[2][1]}x"})
    first = verify(capsys, book)
    assert first[0] == 1 and "Roster Dec 23!B3" in first[1]
    assert walk_file(book).read_bytes() == kept and verify(capsys, book) == first


def test_a_carried_walk_cannot_hide_an_edit_from_verify_with_the_key(capsys, book, tmp_path):
    assert verify(capsys, book)[0] == 0
    walk = json.loads(walk_file(book).read_text(encoding="utf-8"))
    rows = Workbook(book).raw("Roster Dec 23")
    type_in(book, "Roster Dec 23", {"B3": f"{rows[2][1]}x"})
    wb = Workbook(book)  # a forger stamps the walk with the edited sheet's new stamp
    walk["walks"][0]["sealed"] = [[n, wb.part_stamp(n)] for n, _ in walk["walks"][0]["sealed"]]
    walk_file(book).write_text(json.dumps(walk), encoding="utf-8")
    assert verify(capsys, book)[0] == 0  # without the key the carried walk is work already done (module docs)
    code, out, err = run(capsys, "verify", book, "--key", tmp_path / "campaign.key")
    assert code == 1 and "Roster Dec 23!B3" in out + err


def test_the_input_sheets_a_walk_keeps_come_back_as_they_were():
    import datetime as dt

    from automation.audit.inputs import Change, Inputs

    inputs = Inputs({"Dates": [["Date", "Note"], [dt.date(1942, 12, 23), ""],
                               [dt.datetime(1942, 12, 24, 6, 30), None, 3, 2.5, True, "Dec 24"]]},
                    {"Dates": "Refit Dec 23 1"}, [Change("Dates", "B2", "Refit Dec 23 1", "a", "")],
                    {"Dates": "ab" * 32})
    back = Inputs.from_json(json.loads(json.dumps(inputs.to_json())))
    assert back == inputs and type(back.state["Dates"][2][0]) is dt.datetime

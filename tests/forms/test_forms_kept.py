"""Which of a master's sheets are forms not yet answered is kept with what the
gate found in the file (automation.workbook.gatememo.Forms), and an append
carries it to the file it writes: a command tells only the sheets added
since, and what it finds is what telling every sheet anew finds."""
from __future__ import annotations

from pathlib import Path

import pytest

from automation.cachesetting import code_stamp
from automation.pbem import guard, planning
from automation.pbem.carry import Carried
from automation.workbook import gatememo
from automation.workbook.forms.fill import fill
from automation.workbook.forms.status import Status, status_of
from automation.workbook.gate import MASTER
from automation.workbook.reader import Workbook
from tests.forms.test_master_forms import ANSWERS, copy, refitted  # noqa: F401 - the fixture
from tests.pbem.helpers import run

FORMS = {"Spend Dec 23 German", "Spend Dec 23 Russian"}  # the sample's first refit waits for both


@pytest.fixture
def told(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every sheet whose status a command tells (from the carried store or by parsing it), as it asks."""
    asked: list[str] = []
    real = Carried.get

    def get(self: Carried, what: str, sheet: str, compute):  # noqa: ANN001
        if what == "unanswered":
            asked.append(sheet)
        return real(self, what, sheet, compute)

    monkeypatch.setattr(Carried, "get", get)
    return asked


def waiting(book: Path) -> set[str]:
    """The sheets a command on ``book`` takes for forms not yet answered."""
    every = guard.open_book(book)
    return set(every.sheet_names) - set(planning.answers(every).sheet_names)


def told_anew(book: Path) -> set[str]:
    """The forms not yet answered, each sheet parsed for its status cell."""
    wb = Workbook(book)
    return {n for n in planning.forms_among(wb.sheet_names) if status_of(wb.raw(n)) is Status.NOT_YET}


def kept(book: Path) -> gatememo.Forms | None:
    key = gatememo.key_for(book.read_bytes(), MASTER)
    found = gatememo.find(key) if key is not None else None
    return found.forms if found is not None else None


def test_a_command_on_a_file_told_before_tells_none_of_its_sheets(tmp_path, refitted, told) -> None:
    book = copy(refitted["bf"], tmp_path)
    assert waiting(book) == FORMS
    assert FORMS <= set(told)  # the first command tells every form
    assert kept(book) == gatememo.Forms(code_stamp(), tuple(sorted(FORMS)))
    told.clear()
    assert waiting(book) == FORMS == told_anew(book)
    assert told == []


def test_after_an_import_the_next_command_tells_only_the_sheet_it_put_in_place_of_the_form(
        capsys, tmp_path, refitted, told) -> None:
    book = copy(refitted["bf"], tmp_path)
    assert waiting(book) == FORMS
    export = tmp_path / "german.xlsx"
    assert run(capsys, "export", book, "--side", "German", "-o", export)[0] == 0
    fill(export, "Spend Dec 23 German", ANSWERS["Spend Dec 23 German"])
    assert run(capsys, "import", book, export)[0] == 0
    forms = kept(book)
    assert forms is not None and forms.pending == ("Spend Dec 23 Russian",)  # carried by the import's append
    assert "Spend Dec 23 German" in forms.unknown
    told.clear()
    assert waiting(book) == {"Spend Dec 23 Russian"} == told_anew(book)
    assert told == ["Spend Dec 23 German"]  # the answer that took the form's place, and nothing else


def test_a_form_answered_in_the_master_is_told_anew(tmp_path, refitted, told) -> None:
    book = copy(refitted["bf"], tmp_path)
    assert waiting(book) == FORMS
    fill(book, "Spend Dec 23 German", [])  # B2 set to Ready: the part, so the zip directory, changes
    told.clear()
    assert waiting(book) == {"Spend Dec 23 Russian"} == told_anew(book)
    assert set(told) >= FORMS


def test_a_refit_carries_the_forms_and_the_next_command_tells_the_sheets_it_added(tmp_path, refitted, told) -> None:
    book = copy(refitted["bf"], tmp_path)
    assert waiting(book) == FORMS
    fill(book, "Spend Dec 23 German", [])
    fill(book, "Spend Dec 23 Russian", [])
    assert waiting(book) == set()
    assert kept(book) == gatememo.Forms(code_stamp(), ())
    from automation.service import refit

    outcome = refit(book)
    assert outcome.written
    forms = kept(book)
    assert forms is not None and set(outcome.written) <= set(forms.unknown) and forms.pending == ()
    told.clear()
    assert waiting(book) == told_anew(book)
    assert told == [n for n in forms.unknown if planning.may_be_form(n)]  # the sheets it added that may be forms


def test_forms_told_by_other_code_or_with_many_sheets_added_since_are_kept_whole_again(tmp_path, refitted) -> None:
    book = copy(refitted["bf"], tmp_path)
    assert waiting(book) == FORMS
    gate = guard.open_book(book).gate
    names = tuple(Workbook(book).sheet_names)
    gate.keep_forms(gatememo.Forms("another version", ()))  # told by other code: not taken
    assert waiting(book) == FORMS and kept(book) == gatememo.Forms(code_stamp(), tuple(sorted(FORMS)))
    many = names * (planning.TOLD_AGAIN // len(names) + 1)
    guard.open_book(book).gate.keep_forms(gatememo.Forms(code_stamp(), (), many))
    assert waiting(book) == FORMS  # the sheets added since are told
    assert kept(book) == gatememo.Forms(code_stamp(), tuple(sorted(FORMS)))  # and kept whole


def test_forms_are_kept_and_read_back_with_the_findings_and_carried_by_an_append() -> None:
    forms = gatememo.Forms("code", ("Spend Dec 23 Russian", "Spend Dec 23 German"), ("Notes",))
    found = gatememo.Found(frozenset(), {}, {}, (), None, forms=forms)
    assert gatememo.Found.from_bytes(found.to_bytes("k"), "k").forms == forms
    assert gatememo.Forms.from_plain(("code", ("a",), "b")) is None  # not names: not taken
    after = forms.appended(["Spend Dec 23 German", "_mr_0001_1"], {"Spend Dec 23 German"})
    assert after == gatememo.Forms("code", ("Spend Dec 23 Russian",),
                                   ("Notes", "Spend Dec 23 German", "_mr_0001_1"))

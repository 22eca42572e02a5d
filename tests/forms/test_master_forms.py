"""The refit writes the forms it waits for into the master, in its own batch:
one per person pending, set to Not yet until that person says Ready. An
unanswered form is not an answer; a Ready one is; an import replaces the
unanswered form (undo puts it back exactly) and never one the umpire answered;
and answering in the master gives what answering by import gives."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from automation.pbem.reports import Header, chain_start
from automation.samples import SAMPLE
from automation.samples_abtf import PURCHASES_17N, SAMPLE as ABTF_SAMPLE
from automation.service import refit, undo
from automation.workbook import abtf_sheets as A
from automation.workbook import bf_sheets as K
from automation.workbook.forms.fill import fill
from automation.workbook.forms.status import STATUS_LABEL, Status, status_of
from automation.workbook.package import list_batches
from automation.workbook.reader import Workbook
from tests.pbem.helpers import parts, run

SYSTEMS = {"bf": (SAMPLE, ["Spend Dec 23 German", "Spend Dec 23 Russian"]),
           "abtf": (ABTF_SAMPLE, ["Purchases 17N British", "Purchases 17N German"])}
# what each side decides on its form (column name -> value); the same lines whether filled in the master or in an export
ANSWERS = {
    "Spend Dec 23 German": [{"Order": "Purchase", "Subject": "I1", "Value": 1}],
    "Spend Dec 23 Russian": [],
    "Purchases 17N British": [dict(zip(A.PURCHASES.header, r)) for r in PURCHASES_17N["British"]],
    "Purchases 17N German": [dict(zip(A.PURCHASES.header, r)) for r in PURCHASES_17N["German"]],
}


def copy(src: Path, folder: Path) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    book = folder / src.name
    shutil.copyfile(src, book)
    shutil.copyfile(src.with_suffix(".key"), book.with_suffix(".key"))
    return book


@pytest.fixture(scope="module")
def refitted(tmp_path_factory) -> dict[str, Path]:
    """Each sample after its first refit, which stops for both sides' spending or purchases."""
    root = tmp_path_factory.mktemp("master_forms")
    out = {}
    for system, (sample, _) in SYSTEMS.items():
        out[system] = copy(sample, root / system)
        refit(out[system])
    return out


def status(book: Path, sheet: str) -> Status | None:
    return status_of(Workbook(book).raw(sheet))


@pytest.mark.parametrize("system", list(SYSTEMS))
def test_the_refit_writes_one_form_per_person_pending_in_its_own_batch(tmp_path, system):
    sample, forms = SYSTEMS[system]
    book = copy(sample, tmp_path)
    before = Workbook(book).sheet_names
    outcome = refit(book)
    assert outcome.forms == forms == [p.sheet for p in outcome.pending]
    batch = list_batches(book)[-1]
    assert batch.forms == tuple(forms) and set(forms) <= set(batch.sheets)
    for sheet in forms:
        rows = Workbook(book).raw(sheet)
        assert rows[1][:2] == [STATUS_LABEL, Status.NOT_YET.value]
        assert rows[0][0].startswith(sheet.split()[-1] + ":")  # the plain line for the side who fills it
    lines = outcome.summary(quiet=True).splitlines()
    for sheet in forms:
        assert any(line.startswith(f"  waiting for {sheet} (") and line.endswith(f"set {sheet}!B2 to Ready")
                   for line in lines), lines
    assert undo(book) == list(batch.sheets)  # undo takes the forms away with the refit
    assert Workbook(book).sheet_names == before


def test_an_unanswered_form_is_not_an_answer_and_a_ready_one_is(tmp_path, refitted):
    book = copy(refitted["bf"], tmp_path)
    again = refit(book)  # both forms still say Not yet: nothing new, both still waited for
    assert again.written == [] and again.forms == []
    assert [p.sheet for p in again.pending] == SYSTEMS["bf"][1] and all(p.form for p in again.pending)
    fill(book, "Spend Dec 23 German", [])  # nothing chosen, set to Ready: a valid answer of nothing
    assert status(book, "Spend Dec 23 German") is Status.READY
    waits = refit(book)
    assert waits.written == [] and [p.sheet for p in waits.pending] == ["Spend Dec 23 Russian"]
    fill(book, "Spend Dec 23 Russian", [])
    done = refit(book)
    assert "Refit Dec 23 2" in done.written and "Ledger Dec 23" in done.written


def test_import_replaces_the_unanswered_form_and_undo_puts_it_back_exactly(capsys, tmp_path, refitted):
    book = copy(refitted["bf"], tmp_path)
    before = parts(book)
    export = tmp_path / "german.xlsx"
    assert run(capsys, "export", book, "--side", "German", "-o", export)[0] == 0
    fill(export, "Spend Dec 23 German", ANSWERS["Spend Dec 23 German"], ready=False)  # sent back: an answer anyway
    code, out, err = run(capsys, "import", book, export)
    assert code == 0 and "1 order(s)" in out, err
    rows = Workbook(book).raw("Spend Dec 23 German")
    assert rows[0] == K.SPEND.header and rows[1][:3] == ["Purchase", "I1", 1]  # the answer, where the form was
    assert status(book, "Spend Dec 23 Russian") is Status.NOT_YET  # the other side's form is untouched
    batch = list_batches(book)[-1]
    assert batch.sheets == ("Spend Dec 23 German",) and batch.replaced == ("Spend Dec 23 German",)
    assert run(capsys, "undo", book)[0] == 0
    assert parts(book) == before  # every part as it was: the unanswered form is back, byte for byte


def test_a_form_the_umpire_answered_in_the_master_is_not_replaced_by_an_import(capsys, tmp_path, refitted):
    book = copy(refitted["bf"], tmp_path)
    export = tmp_path / "german.xlsx"
    assert run(capsys, "export", book, "--side", "German", "-o", export)[0] == 0
    fill(book, "Spend Dec 23 German", [])  # the umpire answers it in the master meanwhile
    data = book.read_bytes()
    code, out, err = run(capsys, "import", book, export)
    assert code == 2 and "already answered 'Spend Dec 23 German'" in err and "B2 says Ready" in err, err
    assert book.read_bytes() == data


def outcome_rows(book: Path, names: list[str]) -> dict[str, list[list[object]]]:
    """The sheets a refit wrote, without their chain rows (the seal binds the inputs' own cells)."""
    out = {}
    for name in names:
        rows = Workbook(book).raw(name)
        h = Header.of(rows[0])
        out[name] = rows[:chain_start(h, rows)] if "Step" in h.positions else rows
    return out


@pytest.mark.parametrize("system", list(SYSTEMS))
def test_answering_in_the_master_is_answering_by_import(capsys, tmp_path, refitted, system):
    forms = SYSTEMS[system][1]
    in_master = copy(refitted[system], tmp_path / "master")
    by_import = copy(refitted[system], tmp_path / "import")
    for sheet in forms:
        fill(in_master, sheet, ANSWERS[sheet])  # the umpire fills each form in the master and says Ready
        export = tmp_path / f"{sheet}.xlsx"
        assert run(capsys, "export", by_import, "--side", sheet.split()[-1], "-o", export)[0] == 0
        fill(export, sheet, ANSWERS[sheet])  # each player fills the same form in the export
        code, out, err = run(capsys, "import", by_import, export)
        assert code == 0, err
    a, b = refit(in_master), refit(by_import)
    assert a.written == b.written and len(a.written) >= 3
    assert [(e.text, e.roll.dice if e.roll else None) for e in a.entries] == \
        [(e.text, e.roll.dice if e.roll else None) for e in b.entries]
    assert outcome_rows(in_master, a.written) == outcome_rows(by_import, b.written)
    bought = "I1" if system == "bf" else "I3"
    assert any(bought in str(cell) for rows in outcome_rows(in_master, a.written).values() for r in rows for cell in r)


def test_a_narrow_form_keeps_its_status_cell_and_moves_what_finds_no_room_to_its_first_line():
    """A form of two columns with a live total (as a Forces form): A2 asks, B2 answers, the total sits above its
    own column, and the plain line and the total's words join row 1."""
    import io

    import xlsxwriter
    from python_calamine import CalamineWorkbook

    from automation.workbook.forms.draw import STATUS_LINE, draw
    from automation.workbook.forms.model import Account, Form, FormRow

    from automation.workbook.schema import Column, SheetKind

    narrow = SheetKind("test.narrow", "Narrow {date} {side}", (Column("ME", width=18),
                                                              Column("Notes", required=False, width=40)),
                       tab="orders", description="a narrow form", dated=True, per_side=True)
    form = Form("Narrow Dec 24 German", narrow, "German: your forces.", (FormRow({"ME": "G-1"}),),
                (Account("I1", 2),), 2, value_column="ME", totals_label="I1 left:")
    out = io.BytesIO()
    book = xlsxwriter.Workbook(out)
    draw(book, book.add_worksheet("Narrow Dec 24 German"), form)
    book.close()
    rows = CalamineWorkbook.from_filelike(io.BytesIO(out.getvalue())).get_sheet_by_name("Narrow Dec 24 German")
    rows = rows.to_python()
    assert rows[0][0] == f"German: your forces. {STATUS_LINE} I1 left:"
    assert rows[1] == [STATUS_LABEL, Status.NOT_YET.value, 2.0] and rows[2] == ["ME", "Notes", "I1"]
    assert status_of(rows) is Status.NOT_YET

"""`musterroll demo`: the main job on the bundled sample, in a fresh copy each time."""
import os

import openpyxl

from python_calamine import CalamineWorkbook

from automation.cli import main


def test_the_demo_refits_two_dates_of_a_fresh_copy_and_says_where_it_is(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert main(["demo"]) == 0
    out = capsys.readouterr().out
    book = tmp_path / "musterroll-demo" / "advance_to_rostov.xlsx"
    assert f"The campaign workbook is {book.resolve()}" in out
    assert "Dec 24: refit complete" in out
    assert (tmp_path / "musterroll-demo" / "advance_to_rostov.key").exists()
    names = CalamineWorkbook.from_path(book).sheet_names
    assert {"Refit Dec 23 1", "Refit Dec 23 2", "Roster Dec 24", "Ledger Dec 24", "Summary Dec 24"} <= set(names)
    # played through the forms: each side fills the form of its export, and import puts it in place of the
    # master's unanswered form (kept for undo)
    for sheet, orders in (("Spend Dec 23 German", 3), ("Spend Dec 23 Russian", 3), ("Orders Dec 24 Russian", 2),
                          ("Spend Dec 24 German", 3), ("Spend Dec 24 Russian", 1)):
        side = sheet.split()[-1]
        assert f"  {side} fills {sheet} in the export and sends it back: {orders} order(s) imported" in out
    from automation.workbook.package import list_batches
    from automation.workbook.reader import Workbook

    batches = list_batches(book)
    assert ("Spend Dec 24 German",) in [b.replaced for b in batches]  # the master's form, replaced by the answer
    spend = Workbook(book).raw("Spend Dec 24 German")
    assert [r[:3] for r in spend[1:3]] == [["Repair", "G-Pz-2", 1], ["Removal", "R-T34-2", "Yes"]]  # the alias undone
    ledger = [r for r in Workbook(book).raw("Ledger Dec 23") if "O3" in str(r)]
    assert ledger, "the German purchase of two O3 chosen on the form reaches the ledger"
    # the umpire's Results are typed into the form the refit wrote, in the master: never a sheet entered whole
    assert "the umpire fills Results Dec 23 in the campaign workbook (16 line(s)) and sets it to Ready" in out
    assert "entered " not in out
    assert ("Results Dec 23",) not in [b.replaced for b in batches]  # filled in place, not replaced
    ws = openpyxl.load_workbook(book)["Results Dec 23"]
    assert (ws["A2"].value, ws["B2"].value) == ("Ready to use?", "Ready")
    rows = {(r[0].value, r[1].value): [c.value for c in r] for r in ws.iter_rows(min_row=4) if r[1].value}
    assert rows[("Russian", "R-1RR-11")][2:9] == ["Unharmed", None, "Enemy lines", "Isolated", None, "Yes", 3]
    assert rows[("German", "G-Pz-1")][2] is None  # offered, left blank: took no part


def test_running_the_demo_again_makes_another_fresh_copy(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert main(["demo"]) == 0 and main(["demo"]) == 0
    assert sorted(os.listdir(tmp_path)) == ["musterroll-demo", "musterroll-demo-2"]


def test_a_named_folder_that_already_holds_the_demo_is_refused(tmp_path, capsys):
    folder = str(tmp_path / "here")
    assert main(["demo", "--folder", folder]) == 0
    assert main(["demo", "--folder", folder]) == 2
    assert "already exists" in capsys.readouterr().err

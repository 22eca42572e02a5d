"""An A Bridge Too Far campaign's orders sheets are sealed into the chain like
Battlefront's, though both systems call them "Orders <date> <side>"."""
import shutil
import subprocess
import sys

import openpyxl

from automation.samples_abtf import SAMPLE, play


def played(tmp_path):
    book = tmp_path / SAMPLE.name
    shutil.copyfile(SAMPLE, book)
    shutil.copyfile(SAMPLE.with_suffix(".key"), book.with_suffix(".key"))
    play(book)
    return book


def verify(book):
    return subprocess.run([sys.executable, "-m", "automation", "verify", str(book)], capture_output=True, text=True)


def test_an_edited_abtf_orders_sheet_is_named_by_verify(tmp_path):
    book = played(tmp_path)
    clean = verify(book)  # BOOK.key beside it: every refit run again
    assert clean.returncode == 0 and "refit(s) run again from what they read" in clean.stdout, clean.stderr
    wb = openpyxl.load_workbook(book)
    ws = wb["Orders 18AM British"]
    column = [c.value for c in ws[1]].index("Value") + 1
    ws.cell(row=2, column=column).value = "Attack" if ws.cell(row=2, column=column).value != "Attack" else "Idle"
    wb.save(book)
    result = verify(book)
    assert result.returncode == 1
    assert "Orders 18AM British!" in result.stdout + result.stderr


def test_an_abtf_refit_redone_with_a_relabelled_roll_is_named(tmp_path, monkeypatch):
    from automation.campaign.model import Dice
    from automation.service import refit, undo

    book = played(tmp_path)
    undo(book)
    real = Dice.roll

    def relabelled(self, table_id, label, *args, **kwargs):  # every roll of the refit redone gets new dice
        return real(self, table_id, [*label[:-1], f"{label[-1]}b"], *args, **kwargs)

    monkeypatch.setattr(Dice, "roll", relabelled)
    refit(book)
    monkeypatch.setattr(Dice, "roll", real)
    result = verify(book)
    # the first cell that differs may be a roll's or one its new dice changed (the CPP left...)
    assert result.returncode == 1 and "RePh 18AM" in result.stderr and "the rules give" in result.stderr

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
    assert verify(book).returncode == 0
    wb = openpyxl.load_workbook(book)
    ws = wb["Orders 18AM British"]
    column = [c.value for c in ws[1]].index("Value") + 1
    ws.cell(row=2, column=column).value = "Attack" if ws.cell(row=2, column=column).value != "Attack" else "Idle"
    wb.save(book)
    result = verify(book)
    assert result.returncode == 1
    assert "Orders 18AM British!" in result.stdout + result.stderr

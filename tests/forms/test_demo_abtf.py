"""`musterroll demo abtf` plays the A Bridge Too Far sample from the command
line, as `musterroll demo` plays Advance to Rostov."""
from __future__ import annotations

import openpyxl

from automation.workbook.reader import Workbook
from tests.pbem.helpers import run


def test_demo_abtf_plays_the_sample_into_a_fresh_folder(capsys, tmp_path):
    code, out, err = run(capsys, "demo", "abtf", "--folder", tmp_path / "demo")
    assert code == 0, err
    assert out.count("waiting for Purchases 17N") == 2  # both sides, one line each
    assert "18AM: refit complete" in out and "did you mean" not in out
    for side, orders in (("British", 1), ("German", 3)):
        assert f"  {side} fills Purchases 17N {side} in the export and sends it back: {orders} order(s) imported" in out
    for side, orders in (("British", 2), ("German", 4)):
        assert f"  {side} fills Purchases 18AM {side} in the export and sends it back: {orders} order(s) imported" in out
    book = tmp_path / "demo" / "a_bridge_too_far.xlsx"
    chits = [r[:2] for r in Workbook(book).raw("Purchases 18AM German") if r[0] == "Chit"]
    assert chits == [["Chit", "Attack"]]  # chosen on the form's Chit row, from the chits left
    names = Workbook(book).sheet_names
    assert {"RePh 17N 1", "RePh 17N 2", "RePh 18AM 1", "RePh 18AM 2", "CG Roster 18AM"} <= set(names)
    # the umpire types into the forms the refit wrote, in the master; the players' orders go through exports
    assert "the umpire fills End 17N in the campaign workbook" in out
    assert "the umpire fills Umpire 18AM in the campaign workbook" in out
    for side in ("British", "German"):
        assert f"  {side} fills Orders 18AM {side} in the export and sends it back: 1 order(s) imported" in out
    wb = openpyxl.load_workbook(book)
    for sheet in ("End 17N", "Umpire 18AM"):
        assert (wb[sheet]["A2"].value, wb[sheet]["B2"].value) == ("Ready to use?", "Ready")
    end = {r[1]: r for r in Workbook(book).raw("End 17N") if r and r[0] in ("British", "German")}
    assert "Eliminated" in str(end["B-1"][10]) and end["B-LMG1"][9] in (None, "")  # typed over the form's row
    umpire = [r[:3] for r in Workbook(book).raw("Umpire 18AM") if r and r[0] == "Final CVP"]
    assert umpire == [["Final CVP", "British", 0], ["Final CVP", "German", 2]]
    code, _, err = run(capsys, "demo", "abtf", "--folder", tmp_path / "demo")
    assert code == 2 and "already exists" in err

"""`musterroll demo abtf` plays the A Bridge Too Far sample from the command
line, as `musterroll demo` plays Advance to Rostov."""
from __future__ import annotations

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
    code, _, err = run(capsys, "demo", "abtf", "--folder", tmp_path / "demo")
    assert code == 2 and "already exists" in err

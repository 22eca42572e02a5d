"""A dishonest umpire holds the key: whatever they redo, relabel or re-seal,
`musterroll verify` runs every refit again and names the first cell that is
not what the rules give."""
from __future__ import annotations

import openpyxl

from automation.campaign.model import Dice
from automation.service import refit, undo
from tests.pbem.helpers import cheat, find_row, run


def verify(capsys, book, *extra):
    return run(capsys, "verify", book, *extra)


def reseal(book, sheet):
    """What only a key holder can do after :func:`cheat`: write the seal again."""
    from automation.audit.chain import seal_of
    from automation.keys import read_key_file
    from automation.pbem import reports

    key = read_key_file(book.with_suffix(".key")).key
    wb = openpyxl.load_workbook(book)
    ws = wb[sheet]
    rows = [[c.value for c in r] for r in ws.iter_rows()]
    h = reports.Header.of(rows[0])
    this = next(r for r in rows if str(r[h.positions["Subject"]]).startswith("this report: "))
    digest = this[h.positions["Result"]]
    i = next(i for i, r in enumerate(rows) if str(r[h.positions["Subject"]]).startswith("seal: "))
    ws.cell(i + 1, h.positions["Result"] + 1).value = seal_of(key, digest)
    wb.save(book)


def test_undo_then_a_relabelled_roll_resealed_by_the_refit_is_named(capsys, campaign, monkeypatch):
    book = campaign("complete")
    undo(book)  # the last refit: Dec 24 stage 2
    real = Dice.roll

    def relabelled(self, table_id, label, *args, **kwargs):
        label = list(label)
        if table_id == "bf.armor_repair" and "G-Pz-2" in label:
            label[-1] = f"{label[-1]}-again"  # a new label gives new dice
        return real(self, table_id, label, *args, **kwargs)

    monkeypatch.setattr(Dice, "roll", relabelled)
    refit(book)  # sealed with the key like any refit
    monkeypatch.setattr(Dice, "roll", real)
    ws = openpyxl.load_workbook(book)["Refit Dec 24 2"]
    r = find_row(ws, Step="Armor repair", Subject="G-Pz-2")
    label = [c.value for c in ws[1]].index("Label") + 1
    code, _, err = verify(capsys, book)
    assert code == 1
    letter = openpyxl.utils.get_column_letter(label)
    assert (f"Refit Dec 24 2!{letter}{r}: relabelled roll: a label the rules do not give: written "
            "'Dec 24/repair/German/G-Pz-2-again', the rules give 'Dec 24/repair/German/G-Pz-2'") in err


def test_a_result_changed_and_resealed_with_the_key_is_named_by_replay(capsys, campaign):
    book = campaign("complete")
    ws = openpyxl.load_workbook(book)["Refit Dec 24 2"]
    r = find_row(ws, Step="Armor repair", Subject="G-Pz-2")
    # a modifier added by hand, the roll's numbers all consistent with it
    cheat(book, "Refit Dec 24 2", r, {8: "+3 1 CPP expended (2.1.1.2); +4 extra effort", 9: 7, 10: 12,
                                      11: "Repaired", 16: "Repaired"})
    reseal(book, "Refit Dec 24 2")
    code, _, err = verify(capsys, book)
    assert code == 1
    # the dice statistics recounted from every roll no longer add up, and so the first sheet named is the report
    assert "Refit Dec 24 2!" in err and "a recount of the campaign's rolls gives" in err


def test_a_dropped_roll_resealed_with_the_key_is_named(capsys, campaign):
    book = campaign("complete")
    wb = openpyxl.load_workbook(book)
    ws = wb["Refit Dec 24 2"]
    r = find_row(ws, Step="Armor repair", Subject="G-Pz-2")
    ws.delete_rows(r)
    wb.save(book)
    cheat(book, "Refit Dec 24 2", 1, {})
    reseal(book, "Refit Dec 24 2")
    code, _, err = verify(capsys, book)
    assert code == 1 and "Refit Dec 24 2!" in err


def armor_repair_made_generous(book):
    """The Tables sheet's armor repair 'No effect' band turned into 'Repaired':
    (the old value, its row, its column)."""
    wb = openpyxl.load_workbook(book)
    ws = wb["Tables"]
    head = [c.value for c in ws[1]]
    col = head.index("Result") + 1
    r = next(i for i in range(2, ws.max_row + 1) if ws.cell(i, head.index("Table") + 1).value == "bf.armor_repair"
             and ws.cell(i, col).value == "No effect")
    old = ws.cell(r, col).value
    ws.cell(r, col).value = "Repaired"
    wb.save(book)
    return old, r, col


def test_an_edited_table_is_named_without_the_key_and_a_sealed_change_is_listed(capsys, campaign, tmp_path):
    book = campaign("complete")
    old, r, col = armor_repair_made_generous(book)
    book.with_suffix(".key").rename(tmp_path / "away.key")
    code, _, err = verify(capsys, book)
    letter = openpyxl.utils.get_column_letter(col)
    assert code == 1
    assert f"Tables!{letter}{r}: edited after Refit Dec 24 2 sealed it (then {old!r}, now 'Repaired')" in err


def test_a_table_changed_in_the_open_is_listed_with_its_date_and_both_values(capsys, campaign):
    from tests.pbem.helpers import play_on

    book = campaign("complete")
    old, r, col = armor_repair_made_generous(book)
    play_on(book, ["Dec 25"])
    code, out, _ = verify(capsys, book)
    letter = openpyxl.utils.get_column_letter(col)
    assert code == 0, out
    assert "1 change(s) of the rules or settings made in the open" in out
    assert f"Tables!{letter}{r} changed at Refit Dec 25 1: {old!r} -> 'Repaired'" in out
    assert "refit(s) run again" in out

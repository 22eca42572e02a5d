"""A player checks the rolls of their own export: on its own, and with the key
once it is revealed."""
from __future__ import annotations

import shutil

import openpyxl

from automation.engine.dice import CampaignKey
from automation.samples_abtf import SAMPLE as ABTF_SAMPLE, play
from tests.pbem.helpers import find_row, run


def exported(capsys, book, side, out):
    code, _, err = run(capsys, "export", book, "--side", side, "-o", out)
    assert code == 0, err
    return out


def test_a_players_export_verifies_on_its_own_and_with_the_revealed_key(capsys, campaign, tmp_path):
    book = campaign("complete")
    out = exported(capsys, book, "German", tmp_path / "german.xlsx")
    ws = openpyxl.load_workbook(out)["Dice audit"]
    assert [c.value for c in ws[1]][:3] == ["Sheet", "Row", "Label"] and ws.max_row > 5
    code, text, err = run(capsys, "verify", out)
    assert code == 0, err
    assert "a player's export for German" in text and "commitments and dice not checked" in text
    code, text, err = run(capsys, "verify", out, "--key", book.with_suffix(".key"))
    assert code == 0, err
    assert "every commitment matches the campaign key" in text and " re-derived from the key" in text


def test_a_roll_edited_in_the_export_is_named_without_the_key(capsys, campaign, tmp_path):
    book = campaign("complete")
    out = exported(capsys, book, "German", tmp_path / "german.xlsx")
    wb = openpyxl.load_workbook(out)
    ws = wb["Refit Dec 24 2"]
    r = find_row(ws, Step="Armor repair", Subject="G-Pz-2")
    col = [c.value for c in ws[1]].index("Dice") + 1
    ws.cell(r, col).value = "d10: 9"
    wb.save(out)
    code, _, err = run(capsys, "verify", out)
    letter = openpyxl.utils.get_column_letter(col)
    assert code == 1 and f"Refit Dec 24 2!{letter}{r}: edited: shows 'd10: 9' but the Dice audit" in err


def test_a_roll_edited_in_the_export_and_its_audit_is_named_by_the_key(capsys, campaign, tmp_path):
    book = campaign("complete")
    out = exported(capsys, book, "German", tmp_path / "german.xlsx")
    wb = openpyxl.load_workbook(out)
    ws = wb["Refit Dec 24 2"]
    r = find_row(ws, Step="Armor repair", Subject="G-Pz-2")
    head = [c.value for c in ws[1]]
    for column, value in (("Dice", "d10: 9"), ("Natural", 9), ("Final", 12)):
        ws.cell(r, head.index(column) + 1).value = value
    audit = wb["Dice audit"]
    a = find_row(audit, Sheet="Refit Dec 24 2", Row=str(r))
    for column, value in ((6, "d10: 9"), (7, "9"), (9, "12")):
        audit.cell(a, column).value = value
    wb.save(out)
    assert run(capsys, "verify", out)[0] == 0  # consistent: only the key can tell
    code, _, err = run(capsys, "verify", out, "--key", book.with_suffix(".key"))
    assert code == 1 and f"Dice audit!K{a}: the commitment does not match this roll" in err


def test_the_key_of_another_campaign_is_bad_input_for_an_export(capsys, campaign, tmp_path):
    book = campaign("complete")
    out = exported(capsys, book, "Russian", tmp_path / "russian.xlsx")
    other = tmp_path / "other.key"
    other.write_text(CampaignKey.from_text("another campaign").to_hex() + "\n")
    code, _, err = run(capsys, "verify", out, "--key", other)
    assert code == 2 and "does not match the export's Key commitment" in err and len(err.strip().splitlines()) == 1


def test_an_abtf_players_export_verifies_on_its_own_and_with_the_key(capsys, tmp_path):
    book = tmp_path / ABTF_SAMPLE.name
    shutil.copyfile(ABTF_SAMPLE, book)
    shutil.copyfile(ABTF_SAMPLE.with_suffix(".key"), book.with_suffix(".key"))
    play(book)
    for side in ("German", "British"):
        out = exported(capsys, book, side, tmp_path / f"{side}.xlsx")
        code, text, err = run(capsys, "verify", out)
        assert code == 0 and f"a player's export for {side}" in text, err
        code, text, err = run(capsys, "verify", out, "--key", book.with_suffix(".key"))
        assert code == 0 and "every commitment matches the campaign key" in text, err

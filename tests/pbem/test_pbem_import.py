import openpyxl
import pytest

from automation.pbem.sidesheets import alias
from automation.samples import SAMPLE_KEY
from automation.workbook import bf_sheets as K
from tests.pbem.helpers import fill, rows_of, run


def exported(capsys, book, side, folder, *extra):
    out = folder / f"{side.lower()}.xlsx"
    code, _, err = run(capsys, "export", book, "--side", side, "-o", out, *extra)
    assert code == 0, err
    return out


def edit_info(path, setting, value):
    wb = openpyxl.load_workbook(path)
    ws = wb["Export"]
    for row in ws.iter_rows(min_row=2):
        if row[0].value == setting:
            row[1].value = value
    wb.save(path)


def refused(capsys, book, orders, *extra):
    before = book.read_bytes()
    code, _, err = run(capsys, "import", book, orders, *extra)
    assert code == 2 and "Traceback" not in err
    assert book.read_bytes() == before  # nothing merged
    return err


def test_returned_spending_is_appended_as_the_sides_dated_sheet_with_enemy_aliases_resolved(capsys, campaign, tmp_path):
    book = campaign("spend_dec24")
    back = fill(exported(capsys, book, "German", tmp_path), tmp_path / "back.xlsx", [
        ["Repair", "G-Pz-2", 1, "spend the one CPP allowed"],
        ["Removal", alias(SAMPLE_KEY, "R-T34-2"), None, None],
        ["Removal", "Wire north of the kolkhoz", None, "near MLR"]])
    code, out, err = run(capsys, "import", book, back)
    assert code == 0, err
    assert "imported Spend Dec 24 German" in out and "3 order(s)" in out
    assert rows_of(book, "Spend Dec 24 German") == [
        ["Order", "Subject", "Value", "Detail", "Offered"], ["Repair", "G-Pz-2", 1, "spend the one CPP allowed", ""],
        ["Removal", "R-T34-2", "", "", ""], ["Removal", "Wire north of the kolkhoz", "", "near MLR", ""]]


def test_importing_the_same_orders_twice_is_refused(capsys, campaign, tmp_path):
    book = campaign("spend_dec24")
    back = fill(exported(capsys, book, "German", tmp_path), tmp_path / "back.xlsx", [["Repair", "G-Pz-2", 1, None]])
    assert run(capsys, "import", book, back)[0] == 0
    err = refused(capsys, book, back)
    assert "'Spend Dec 24 German' is already in rostov.xlsx: these orders were imported before" in err


def test_an_empty_orders_sheet_means_no_spending(capsys, campaign, tmp_path):
    book = campaign("spend_dec24")
    code, out, _ = run(capsys, "import", book, exported(capsys, book, "Russian", tmp_path))
    assert code == 0 and "0 order(s)" in out and rows_of(book, "Spend Dec 24 Russian") == [K.SPEND.header]


def test_orders_claimed_for_the_other_side_are_refused(capsys, campaign, tmp_path):
    book = campaign("spend_dec24")
    back = exported(capsys, book, "Russian", tmp_path)
    edit_info(back, "Side", "German")
    edit_info(back, "Orders sheet", "Spend Dec 24 German")
    wb = openpyxl.load_workbook(back)
    wb["Spend Dec 24 Russian"].title = "Spend Dec 24 German"
    wb.save(back)
    err = refused(capsys, book, back)
    assert "Export!B11: Return code: does not match this campaign's key for German and 'Spend Dec 24 German'" in err


def test_orders_of_another_campaign_are_refused(capsys, campaign, tmp_path):
    book = campaign("spend_dec24")
    back = exported(capsys, book, "German", tmp_path)
    edit_info(back, "Key commitment", "0" * 64)
    err = refused(capsys, book, back)
    assert "Export!B3: Key commitment: '" + "0" * 64 + "' is not this campaign's" in err


def test_orders_for_a_decision_already_taken_are_refused(capsys, campaign, tmp_path):
    book = campaign("spend_dec24")
    german = exported(capsys, book, "German", tmp_path)
    assert run(capsys, "import", book, exported(capsys, book, "Russian", tmp_path))[0] == 0
    assert run(capsys, "import", book, fill(german, tmp_path / "g1.xlsx", []))[0] == 0
    assert run(capsys, "refit", book)[0] == 0
    stale = fill(german, tmp_path / "g2.xlsx", [["Repair", "G-Pz-2", 1, None]], sheet="Spend Dec 24 German")
    err = refused(capsys, book, stale)
    assert "is already in rostov.xlsx" in err


def test_orders_for_a_decision_the_campaign_is_not_waiting_for_are_refused(capsys, campaign, tmp_path):
    early = campaign("spend_dec23")  # the same campaign, still waiting for Spend Dec 23
    later = fill(exported(capsys, campaign("orders_dec24"), "German", tmp_path), tmp_path / "back.xlsx",
                 [["Posture", None, "Attack", None]])
    err = refused(capsys, early, later)
    assert "Export!B7: Orders sheet: the campaign waits for Spend Dec 23 German (German), not for Orders Dec 24 German" in err


@pytest.mark.parametrize("orders, cells, words", [
    ([["Purchase", "A1", 1, None], ["Purchase", "I1", 1, None]], ("A4", "A5"), ("20 CPP", "17")),
    ([["Purchase", "Q9", 1, None]], ("B4",), ("'Q9' is not on the RG chart of German", "I1, A1, E1, O3, F1, P1")),
    ([["Purchase", "I1", 3, None]], ("C4",), ("3 x I1 exceeds the campaign total of 3", "at most 2 more")),
    ([["Purchase", "E1", 2, None]], ("C4",), ("2 x E1 exceeds the campaign total", "1")),
    ([["Repair", "G-Pz-77", 1, None]], ("B4",), ("G-Pz-77",)),
    ([["Posture", None, "Attack", None]], ("A4",), ("Posture belongs on the Orders sheet",)),
])
def test_invalid_spending_is_refused_naming_the_returned_files_sheet_and_cell(capsys, campaign, tmp_path, orders, cells, words):
    book = campaign("spend_dec24")
    back = fill(exported(capsys, book, "German", tmp_path), tmp_path / "back.xlsx", orders)
    err = refused(capsys, book, back)
    lines = [ln.strip() for ln in err.splitlines() if any(f"Spend Dec 24 German!{c}:" in ln for c in cells)]
    assert lines and all(ln.startswith("back.xlsx: Spend Dec 24 German!") for ln in lines)
    assert any(all(w in ln for w in words) for ln in lines), lines
    assert "nothing was imported" in err


def test_a_posture_that_is_neither_attack_nor_defend_is_refused(capsys, campaign, tmp_path):
    book = campaign("orders_dec24")
    back = fill(exported(capsys, book, "German", tmp_path), tmp_path / "back.xlsx", [["Posture", None, "Charge", None]])
    err = refused(capsys, book, back)
    assert "back.xlsx: Orders Dec 24 German!C4: Posture: 'Charge' is not allowed; valid: Attack, Defend" in err


def test_orders_without_the_posture_the_refit_waits_for_are_refused(capsys, campaign, tmp_path):
    book = campaign("orders_dec24")
    back = fill(exported(capsys, book, "German", tmp_path), tmp_path / "back.xlsx", [])
    err = refused(capsys, book, back)
    assert "Orders Dec 24 German!A4: still missing: posture (Attack or Defend)" in err


def test_an_escape_for_a_stand_that_is_not_trapped_is_refused(capsys, campaign, tmp_path):
    book = campaign("orders_dec24")
    back = fill(exported(capsys, book, "Russian", tmp_path), tmp_path / "back.xlsx",
                [["Posture", None, "Attack", None], ["Escape", "R-1RR-8", "Yes", None]])
    err = refused(capsys, book, back)
    assert "Orders Dec 24 Russian!B5: Escape: R-1RR-8 is not an isolated or cut-off stand" in err


def test_text_players_type_that_starts_with_a_formula_sign_stays_text(capsys, campaign, tmp_path):
    book = campaign("spend_dec24")
    texts = ['=HYPERLINK("http://x","y")', "+2 for the kolkhoz", "-1 if it rains", "@HQ"]
    back = fill(exported(capsys, book, "German", tmp_path), tmp_path / "back.xlsx", [
        ["Repair", "G-Pz-2", 1, texts[0]], ["Purchase", "I1", 1, texts[1]], ["Purchase", "P1", 1, texts[2]],
        ["Fortification", "Wire section", 1, texts[3]]])
    code, _, err = run(capsys, "import", book, back)
    ws = openpyxl.load_workbook(book)["Spend Dec 24 German"]
    assert code == 0, err
    assert [(ws.cell(r, 4).value, ws.cell(r, 4).data_type) for r in range(2, 6)] == [(t, "s") for t in texts]


def test_a_renamed_orders_sheet_is_refused(capsys, campaign, tmp_path):
    book = campaign("spend_dec24")
    back = exported(capsys, book, "German", tmp_path)
    wb = openpyxl.load_workbook(back)
    wb["Spend Dec 24 German"].title = "My orders"
    wb.save(back)
    err = refused(capsys, book, back)
    assert "Spend Dec 24 German!A1: the sheet 'Spend Dec 24 German' is missing" in err


def test_a_workbook_that_is_not_an_export_is_refused(capsys, campaign, tmp_path):
    book = campaign("spend_dec24")
    other = tmp_path / "other.xlsx"
    openpyxl.Workbook().save(other)
    err = refused(capsys, book, other)
    assert "Export!A1: this is not a Musterroll export (no Export sheet)" in err


def test_encrypted_orders_import_with_their_password_and_not_without(capsys, campaign, tmp_path):
    book = campaign("spend_dec24")
    sealed = exported(capsys, book, "Russian", tmp_path, "--password", "Stalingrad")
    assert "the workbook is encrypted; give its password with --password" in refused(capsys, book, sealed)
    assert "the password is wrong" in refused(capsys, book, sealed, "--password", "Stalin")
    code, out, _ = run(capsys, "import", book, sealed, "--password", "Stalingrad")
    assert code == 0 and "imported Spend Dec 24 Russian" in out


def test_a_whole_round_by_email_ends_in_a_refit_that_verifies(capsys, campaign, tmp_path):
    book = campaign("spend_dec24")
    g = exported(capsys, book, "German", tmp_path)
    r = exported(capsys, book, "Russian", tmp_path)
    fill(g, g, [["Repair", "G-Pz-2", 1, None], ["Removal", alias(SAMPLE_KEY, "R-T34-2"), None, None]])
    fill(r, r, [["Purchase", "A2", 1, None]])
    assert run(capsys, "import", book, r)[0] == 0 and run(capsys, "import", book, g)[0] == 0
    code, out, _ = run(capsys, "refit", book)
    assert code == 0 and "Dec 24: refit complete" in out
    code, out, _ = run(capsys, "verify", book, "--key", book.with_suffix(".key"))
    assert code == 0 and "dates: Dec 23, Dec 24" in out

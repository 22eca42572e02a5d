import io
import os
import shutil
import subprocess
import re
import zipfile

import openpyxl
import pytest

from automation.engine.dice import CampaignKey
from tests.pbem.helpers import cheat, find_row, run


def verify(capsys, book, *extra):
    return run(capsys, "verify", book, *extra)


def key_of(book):
    return book.with_suffix(".key")


def sheet_part(data: bytes, sheet: str) -> str:
    z = zipfile.ZipFile(io.BytesIO(data))
    wb = z.read("xl/workbook.xml").decode()
    rid = re.search(rf'<sheet name="{re.escape(sheet)}" sheetId="\d+"(?: state="\w+")? r:id="(rId\d+)"', wb).group(1)
    rels = z.read("xl/_rels/workbook.xml.rels").decode()
    target = re.search(rf'Id="{rid}"[^>]*Target="([^"]+)"|Target="([^"]+)"[^>]*Id="{rid}"', rels)
    target = target.group(1) or target.group(2)
    return target.lstrip("/") if target.startswith("/") else "xl/" + target


def rewrite(book, part: str, change) -> None:
    data = book.read_bytes()
    src = zipfile.ZipFile(io.BytesIO(data))
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as dst:
        for info in src.infolist():
            body = src.read(info.filename)
            dst.writestr(info, change(body.decode()).encode() if info.filename == part else body)
    book.write_bytes(out.getvalue())


def set_number_xml(book, sheet: str, ref: str, value: int) -> None:
    """A cheater edits one number inside the sheet's XML (no spreadsheet program involved)."""
    part = sheet_part(book.read_bytes(), sheet)
    pattern = re.compile(rf'(<c r="{ref}"[^>]*>)<v>[^<]*</v>')
    rewrite(book, part, lambda xml: pattern.subn(rf"\g<1><v>{value}</v>", xml, count=1)[0])


def test_a_clean_campaign_verifies_with_a_summary_of_dates_and_rolls(capsys, campaign):
    book = campaign("complete")
    code, out, _ = verify(capsys, book, "--key", key_of(book))
    assert code == 0
    assert "the chain of 4 report(s) is intact (dates: Dec 23, Dec 24; 14 sealed sheet(s))" in out
    assert "4 seal(s) match the campaign key; 26 roll(s) re-derived from the key" in out
    assert "2 dice statistics section(s) match a recount of every roll of the campaign" in out


def test_without_the_key_only_the_chain_is_checked(capsys, campaign):
    book = campaign("complete")
    key_of(book).rename(book.parent / "kept-elsewhere.key")
    code, out, _ = verify(capsys, book)
    assert code == 0 and "seals and rolls not checked: give the campaign key with --key FILE" in out


def test_verify_finds_the_key_beside_the_workbook_as_refit_does(capsys, campaign):
    code, out, _ = verify(capsys, campaign("complete"))
    assert code == 0 and "4 seal(s) match the campaign key" in out and "4 refit(s) run again" in out


def test_saving_the_workbook_without_changing_values_keeps_it_verifiable(capsys, campaign):
    book = campaign("complete")
    wb = openpyxl.load_workbook(book)
    wb["Refit Dec 24 2"]["A1"].font = openpyxl.styles.Font(bold=False, italic=True)  # formatting only
    wb.save(book)
    assert verify(capsys, book, "--key", key_of(book))[0] == 0


def test_an_edited_report_value_is_named_by_sheet_and_cell(capsys, campaign):
    book = campaign("complete")
    wb = openpyxl.load_workbook(book)
    ws = wb["Refit Dec 23 1"]
    r = find_row(ws, Step="CPP replenishment", Side="Russian")
    ws.cell(r, 11).value = "+18 CPP"
    wb.save(book)
    code, _, err = verify(capsys, book)
    assert code == 1 and f"Refit Dec 23 1!K{r}: edited after Refit Dec 23 1 sealed it (now '+18 CPP')" in err


def test_an_edited_ledger_balance_is_named_even_when_edited_inside_the_xml(capsys, campaign):
    book = campaign("complete")
    ws = openpyxl.load_workbook(book)["Ledger Dec 23"]
    r = find_row(ws, Side="German", Account="CPP", Entry="Left")
    set_number_xml(book, "Ledger Dec 23", f"E{r}", 70)
    code, _, err = verify(capsys, book)
    assert code == 1 and f"Ledger Dec 23!E{r}: edited after Refit Dec 23 2 sealed it (now '70')" in err


def test_an_edited_past_order_is_named(capsys, campaign):
    book = campaign("complete")
    wb = openpyxl.load_workbook(book)
    wb["Spend Dec 23 Russian"]["C2"].value = 0
    wb.save(book)
    code, _, err = verify(capsys, book)
    assert code == 1 and "Spend Dec 23 Russian!C2: edited after Refit Dec 23 2 sealed it (now '0')" in err


def test_a_removed_sheet_is_named(capsys, campaign):
    book = campaign("complete")
    wb = openpyxl.load_workbook(book)
    wb.remove(wb["Results Dec 23"])
    wb.save(book)
    code, _, err = verify(capsys, book)
    assert code == 1 and "'Results Dec 23' was sealed here but is no longer in the workbook (removed)" in err
    assert "Refit Dec 24 1!K" in err


def test_a_removed_report_breaks_the_chain_at_the_next_one(capsys, campaign):
    book = campaign("complete")
    wb = openpyxl.load_workbook(book)
    wb.remove(wb["Refit Dec 23 2"])
    wb.save(book)
    code, _, err = verify(capsys, book)
    first = openpyxl.load_workbook(book)["Refit Dec 24 1"]
    r = find_row(first, Step="Tamper evidence", Subject="previous report: Refit Dec 23 2")
    assert code == 1 and f"Refit Dec 24 1!K{r}: follows 'Refit Dec 23 2', which is no longer in the workbook (removed)" in err
    assert "Refit Dec 23 2!A1: was added by 'Refit Dec 23' but is no longer in the workbook" in err


def test_the_last_report_removed_with_its_batch_record_is_still_found(capsys, campaign):
    book = campaign("complete")
    wb = openpyxl.load_workbook(book)
    wb.remove(wb["Refit Dec 24 2"])
    for name in [n for n in wb.defined_names if n.startswith("_mr_batch")]:
        del wb.defined_names[name]
    wb.save(book)
    code, _, err = verify(capsys, book)
    assert code == 1 and "Roster Dec 24!A1: was written by a refit, but no report seals it" in err
    assert "Ledger Dec 24!A1: was written by a refit, but no report seals it" in err


def test_reordered_reports_are_named(capsys, campaign):
    book = campaign("complete")

    def swap(xml: str) -> str:
        a = re.search(r'<sheet name="Refit Dec 23 1"[^>]*/>', xml).group(0)
        b = re.search(r'<sheet name="Refit Dec 23 2"[^>]*/>', xml).group(0)
        return xml.replace(a, "\0").replace(b, a).replace("\0", b)

    rewrite(book, "xl/workbook.xml", swap)
    code, _, err = verify(capsys, book)
    assert code == 1
    assert "Refit Dec 23 2!" in err and "follows 'Refit Dec 23 1' but the workbook has '(campaign start)' before it" in err


def test_removed_tamper_evidence_is_named(capsys, campaign):
    book = campaign("complete")
    wb = openpyxl.load_workbook(book)
    ws = wb["Refit Dec 24 2"]
    first = find_row(ws, Step="Tamper evidence")
    ws.delete_rows(first, ws.max_row - first + 1)
    wb.save(book)
    code, _, err = verify(capsys, book)
    assert code == 1 and f"Refit Dec 24 2!A{first}: has no tamper-evidence rows" in err


def test_a_changed_roll_with_a_recomputed_chain_is_caught_by_the_key(capsys, campaign):
    book = campaign("complete")
    ws = openpyxl.load_workbook(book)["Refit Dec 24 2"]
    r = find_row(ws, Step="Armor repair", Subject="G-Pz-2")
    assert [ws.cell(r, c).value for c in (6, 7, 10, 16)] == ["d10: 5", 5, 8, "No effect"]
    # 9 + 3 (1 CPP expended) = 12: repaired (2.1.1.2)
    cheat(book, "Refit Dec 24 2", r, {6: "d10: 9", 7: 9, 10: 12, 11: "Repaired", 16: "Repaired"})
    key_of(book).rename(book.parent / "kept-elsewhere.key")
    unkeyed = verify(capsys, book)
    key_of(book).parent.joinpath("kept-elsewhere.key").rename(key_of(book))
    code, _, err = verify(capsys, book, "--key", key_of(book))
    assert unkeyed[0] == 0  # consistent: only the key can tell
    assert code == 1 and f"Refit Dec 24 2!F{r}: shows 'd10: 9' but the key gives 'd10: 5' for Dec 24/repair/German/G-Pz-2" in err
    assert "the seal does not match the campaign key" in err


@pytest.mark.parametrize("column, value, message", [
    (7, 6, "shows 6 but the dice 'd10: 5' read 5"),
    (9, 4, "shows 4 but the modifiers listed add up to 3"),
    (10, 9, "shows 9 but natural 5 with DRM +3 gives 8"),
    (16, "Repaired", "shows 'Repaired' but bf.armor_repair gives 'No effect' for final 8"),
])
def test_each_number_of_a_roll_is_rederived_from_the_key(capsys, campaign, column, value, message):
    book = campaign("complete")
    ws = openpyxl.load_workbook(book)["Refit Dec 24 2"]
    r = find_row(ws, Step="Armor repair", Subject="G-Pz-2")
    cheat(book, "Refit Dec 24 2", r, {column: value})
    code, _, err = verify(capsys, book, "--key", key_of(book))
    letter = openpyxl.utils.get_column_letter(column)
    assert code == 1 and f"Refit Dec 24 2!{letter}{r}: {message}" in err


def test_the_key_of_another_campaign_fails_verification(capsys, campaign, tmp_path):
    other = tmp_path / "other.key"
    other.write_text(CampaignKey.from_text("not this campaign").to_hex() + "\n")
    code, _, err = verify(capsys, campaign("complete"), "--key", other)
    assert code == 2 and "this key does not match the workbook's commitment" in err and len(err.splitlines()) == 1


def test_a_campaign_with_no_report_yet_has_nothing_to_verify(capsys, tmp_path):
    book = tmp_path / "new.xlsx"
    run(capsys, "new", "bf-campaign", book)
    code, out, _ = verify(capsys, book, "--key", key_of(book))
    assert code == 0 and "no refit reports yet" in out


@pytest.mark.skipif(shutil.which("soffice") is None and os.environ.get("CI") != "true",
                    reason="LibreOffice is not installed (under CI=true this test fails instead)")
def test_a_workbook_saved_again_by_libreoffice_still_verifies(capsys, campaign, tmp_path):
    book = campaign("complete")
    proc = subprocess.run(["soffice", "--headless", f"-env:UserInstallation=file://{tmp_path}/profile", "--convert-to",
                           "xlsx:Calc MS Excel 2007 XML", "--outdir", str(tmp_path / "lo"), str(book)],
                          capture_output=True, timeout=300)
    saved = tmp_path / "lo" / book.name
    assert proc.returncode == 0 and saved.exists()
    code, out, _ = verify(capsys, saved, "--key", key_of(book))
    assert code == 0 and "26 roll(s) re-derived" in out

"""Rolls made with physical dice are counted apart from the keyed rolls."""
from __future__ import annotations

import shutil

import openpyxl

from tests.report.helpers import parse, record_table, report, slug

LABEL = "Dec 24/repair/German/G-Pz-2"


def test_a_roll_marked_physical_is_kept_out_of_the_keyed_statistics_and_shown_apart(capsys, rostov, tmp_path):
    book = tmp_path / "rostov.xlsx"
    shutil.copyfile(rostov, book)
    shutil.copyfile(rostov.with_suffix(".key"), book.with_suffix(".key"))
    before = parse(report(capsys, book, tmp_path / "before.html", "--quiet").read_text(encoding="utf-8")).tables
    wb = openpyxl.load_workbook(book)
    ws = wb["Refit Dec 24 2"]
    head = [c.value for c in ws[1]]
    row = next(r for r in ws.iter_rows(min_row=2) if r[head.index("Label")].value == LABEL)
    face = int(str(row[head.index("Dice")].value).split(":")[1])  # 'd10: 5'
    result = row[head.index("Table result")].value
    column = ws.max_column + 1
    ws.cell(1, column, "Physical")
    ws.cell(row[0].row, column, "Yes")  # G-Pz-2's armor repair roll, thrown with the umpire's own die
    wb.save(book)
    after = parse(report(capsys, book, tmp_path / "after.html", "--quiet").read_text(encoding="utf-8")).tables
    rolls = {r["Label"]: r for r in record_table(after["roll-table"])}
    assert rolls[LABEL]["Dice source"] == "physical"
    assert {r["Dice source"] for lab, r in rolls.items() if lab != LABEL} == {"keyed"}
    keyed_before = {r["Result"]: int(r["Observed"]) for r in record_table(before[slug("fit", "German", "bf.armor_repair",
                                                                                          "Result")])}
    keyed_after = {r["Result"]: int(r["Observed"]) for r in record_table(after[slug("fit", "German", "bf.armor_repair",
                                                                                        "Result")])}
    physical = {r["Result"]: int(r["Observed"]) for r in record_table(after[slug("physical fit", "German",
                                                                                     "bf.armor_repair", "Result")])}
    assert physical[result] == 1 and sum(physical.values()) == 1
    assert keyed_after.get(result, 0) == keyed_before[result] - 1
    faces = {r["Face"]: r["Observed"] for r in record_table(after[slug("physical faces", "German", "d10")])}
    assert faces[str(face)] == "1" and sum(int(v) for v in faces.values()) == 1


def test_physical_dice_of_the_dice_desk_are_listed_apart_in_the_umpires_report(capsys, tmp_path):
    from automation.workbook.desk_sheets import ROLL_REQUESTS
    from tests.desk.desk_helpers import fill, sample_copy
    from tests.report.helpers import run

    book = sample_copy(tmp_path)
    fill(book, ROLL_REQUESTS, [
        ["G1", "bfta.greif_clearance", None, "engineer_present", "clear hex 1512", "T5", "All", None],
        ["P1", "bfta.greif_clearance", None, "engineer_present", "rolled at the table", "T5", "All", "5"]])
    assert run(capsys, "roll-requests", book)[0] == 0
    html = report(capsys, book, tmp_path / "r.html", "--quiet").read_text(encoding="utf-8")
    assert '<ul id="desk-physical"><li>Desk T5 1!' in html
    assert "physical/request/P1 on bfta.greif_clearance, d6: 5 (physical)" in html
    assert "desk/request/G1" not in html.split('id="desk-physical"')[1].split("</ul>")[0]
    assert "No refit has been run yet" in html  # a campaign before its first refit still reports

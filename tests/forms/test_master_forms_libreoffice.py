"""The forms the refit writes into the master, through LibreOffice: the whole
master saved again by LibreOffice keeps each form working (its dropdowns,
validated counts, live totals and overspent highlight; still not an answer
until Ready, then read as one), and each form renders to PDF and PNG pages,
one page wide with its top rows repeated."""
from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import openpyxl
import pytest

from automation.service import refit
from automation.workbook.forms.fill import fill
from automation.workbook.forms.status import Status, status_of
from automation.workbook.reader import Workbook
from tests.forms.test_forms_render import pdf_pages, tool
from tests.forms.test_master_forms import SYSTEMS, copy
from tests.workbook.package_helpers import libreoffice, soffice



RENDERED = {**{system: forms for system, (_, forms) in SYSTEMS.items()},
            "bf orders": ["Orders Dec 24 German", "Orders Dec 24 Russian"]}


@pytest.fixture(scope="module")
def refitted(tmp_path_factory) -> dict[str, Path]:
    from tests.pbem.helpers import build

    root = tmp_path_factory.mktemp("master_forms_lo")
    out = {}
    for system, (sample, _) in SYSTEMS.items():
        out[system] = copy(sample, root / system)
        refit(out[system])
    out["bf orders"] = build(root / "orders", "orders_dec24")  # the refit waits for both sides' Dec 24 orders
    return out


def test_a_libreoffice_round_trip_of_the_whole_master_keeps_its_forms_working(tmp_path, refitted):
    soffice()
    (tmp_path / "lo").mkdir()
    libreoffice(refitted["bf"], "xlsx", tmp_path / "lo")
    book = tmp_path / "lo" / refitted["bf"].name
    shutil.copyfile(refitted["bf"].with_suffix(".key"), book.with_suffix(".key"))
    ws = openpyxl.load_workbook(book)["Spend Dec 23 German"]
    rules = ws.data_validations.dataValidation
    assert any(dv.type == "list" and "B2" in dv.sqref and "Ready" in dv.formula1 for dv in rules)  # the status
    assert any(dv.type == "whole" for dv in rules) and any(dv.type == "list" and str(dv.sqref).startswith("A") for dv in rules)
    formulas = [c.value for row in ws.iter_rows() for c in row if isinstance(c.value, str) and c.value.startswith("=")]
    assert any(f.startswith("=20-SUM(F4:F") for f in formulas) and any("ISNUMBER(C" in f for f in formulas)
    assert ws.conditional_formatting  # the overspent highlight
    again = refit(book)  # still forms not yet answered after LibreOffice saved them
    assert again.written == [] and all(p.form for p in again.pending) and len(again.pending) == 2
    fill(book, "Spend Dec 23 German", [{"Order": "Purchase", "Subject": "I1", "Value": 1}])
    fill(book, "Spend Dec 23 Russian", [])
    assert status_of(Workbook(book).raw("Spend Dec 23 German")) is Status.READY
    done = refit(book)
    assert "Ledger Dec 23" in done.written
    assert any(r[2:3] == ["Purchase I1"] or "I1" in str(r) for r in Workbook(book).raw("Ledger Dec 23"))


@pytest.mark.parametrize("system", list(RENDERED))
def test_each_form_of_the_master_renders_one_page_wide_to_pdf_and_png(tmp_path, refitted, system):
    soffice()
    assert all(status_of(Workbook(refitted[system]).raw(sheet)) is Status.NOT_YET for sheet in RENDERED[system])
    for sheet in RENDERED[system]:
        only = tmp_path / f"{sheet}.xlsx"
        wb = openpyxl.load_workbook(refitted[system])
        for ws in wb.worksheets:  # the master's form alone on the page (the others hidden, not printed)
            ws.sheet_state = "visible" if ws.title == sheet else "hidden"
        wb.active = wb.sheetnames.index(sheet)
        wb.save(only)
        pdf, pages = pdf_pages(only, tmp_path)
        header = Workbook(refitted[system]).raw(sheet)[2]
        assert len(pages) <= 2, f"{sheet} prints on {len(pages)} pages"
        for text in pages:  # one page wide, the title, status and header rows on every page
            assert "Ready to use?" in text and all(w in text for c in header for w in str(c).split())
        assert pages[0].split()[0] == f"{sheet.split()[-1]}:"
        subprocess.run([tool("pdftoppm"), "-png", "-r", "70", str(pdf), str(tmp_path / only.stem)], check=True)
        pngs = sorted(tmp_path.glob(f"{only.stem}*.png"))
        assert len(pngs) == len(pages) and all(p.stat().st_size > 5000 for p in pngs)  # kept in tmp_path to look at


def recalculated(book: Path, sheet: str, folder: Path) -> list[list[object]]:
    """The sheet's values once LibreOffice has calculated its formulas (the file saved again by it)."""
    folder.mkdir()
    libreoffice(book, "xlsx", folder)
    return Workbook(folder / book.name).raw(sheet)


def test_free_rows_count_in_the_live_totals_by_what_they_are(tmp_path, refitted):
    """Spend: Extra CPP costs its Value in CPP, a Removal its FPP (2.1.1.4.4, 2.1.1.5.1), next to an offered
    purchase; the totals are LibreOffice's own calculation of the formulas the form holds."""
    soffice()
    book = copy(refitted["bf"], tmp_path / "master")
    lines = [{"Order": "Purchase", "Subject": "I1", "Value": 1}, {"Order": "Extra CPP", "Subject": "O3", "Value": 3},
             {"Order": "Removal", "Subject": "Wire north of the kolkhoz"}, {"Order": "Combine", "Subject": "G-1"}]
    fill(book, "Spend Dec 23 German", lines, ready=False)
    rows = recalculated(book, "Spend Dec 23 German", tmp_path / "lo")
    assert rows[1][5:7] == [20 - 8 - 3, 4 - 1]  # 20 CPP, 4 FPP; I1 is 8 CPP, a removal 1 FPP
    free = {r[0]: r[5:7] for r in rows[3:] if r[0] in ("Extra CPP", "Removal", "Combine")}
    assert free == {"Extra CPP": [3, 0], "Removal": [0, 1], "Combine": [0, 0]}


def test_an_abtf_free_row_costs_the_price_of_the_item_it_names(tmp_path):
    """Purchases: a free RG row costs its RG's CPP times its Count (9.617), a free fortification row its FPP
    (9.619), looked up in the price list the form's formula holds."""
    from tests.pbem.test_abtf_pbem import build

    soffice()
    book = build(tmp_path / "abtf", "purchases_18am")
    sheet = "Purchases 18AM German"
    form = Workbook(book).raw(sheet)
    cpp, fpp = int(form[1][8]), int(form[1][9])
    chart = Workbook(book).raw("RG Chart German")
    price = next(int(r[chart[0].index("CPP Cost")]) for r in chart[1:] if r[0] == "I3")
    fill(book, sheet, [{"Purchase": "RG", "Item": "I3", "KG": "Z", "Count": 2}], ready=False)  # no KG Z row: free
    wb = openpyxl.load_workbook(book)
    ws = wb[sheet]
    free = next(r for r in range(5, ws.max_row + 1) if not ws.cell(r, 1).value)
    for column, value in enumerate(["Fortification", "wire", None, 1], start=1):  # typed in the next free row
        ws.cell(free, column, value)
    wb.save(book)
    rows = recalculated(book, sheet, tmp_path / "lo")
    assert [r[8:10] for r in rows[3:] if r[2] == "Z"] == [[2 * price, 0]]
    assert rows[free - 1][:2] == ["Fortification", "wire"] and rows[free - 1][8:10] == [0, 10]  # wire: 10 FPP (9.619)
    assert rows[1][8:10] == [cpp - 2 * price, fpp - 10]

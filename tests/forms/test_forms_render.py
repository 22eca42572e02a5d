"""Each form as a person sees it: rendered by LibreOffice to PDF and PNG
pages, printed one page wide with its top rows repeated on every page, and
still a working form after a LibreOffice round trip (its dropdowns, its
formulas, and an import of what was filled in it)."""
from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import openpyxl
import pytest

from automation.pbem.xlsx import OutSheet, write
from automation.workbook.forms.model import FormRow, Whole
from automation.workbook.reader import Workbook
from tests.pbem.helpers import build, private_copy, run
from tests.workbook.package_helpers import libreoffice, soffice

FORMS = {"Spend Dec 24 German": ("spend_dec24", "German"), "Orders Dec 24 Russian": ("orders_dec24", "Russian"),
         "Purchases 18AM German": ("purchases_18am", "German")}


def tool(name: str) -> str:
    exe = shutil.which(name)
    if exe:
        return exe
    if os.environ.get("CI") == "true":
        pytest.fail(f"{name} is required when CI=true but it is not installed")
    pytest.skip(f"{name} is not installed")


@pytest.fixture(scope="module")
def rostov(tmp_path_factory) -> dict[str, Path]:
    from tests.pbem.test_abtf_pbem import build as build_abtf

    root = tmp_path_factory.mktemp("render")
    stages = {s: build(root / s, s) for s in ("orders_dec24", "spend_dec24")}
    stages["purchases_18am"] = build_abtf(root / "abtf", "purchases_18am")
    return stages


def the_form(capsys, rostov, tmp_path: Path, sheet: str, more_rows: int = 0) -> Path:
    """A workbook holding only ``sheet`` as its export draws it (``more_rows``
    extra offered rows make it run over several pages)."""
    stage, side = FORMS[sheet]
    book = private_copy(rostov[stage], tmp_path / "master")
    export = tmp_path / "export.xlsx"
    assert run(capsys, "export", book, "--side", side, "-o", export)[0] == 0
    from automation.keys import key_path_for, read_key
    from automation.pbem.abtf import ABtFView
    from automation.pbem.bf import BattlefrontView
    from automation.pbem.planning import plan, settings_of

    wb = Workbook(book)
    key = read_key(key_path_for(book), str(settings_of(wb)["Key commitment"]))
    if sheet.startswith("Purchases"):
        form = ABtFView().form(wb, plan(wb, key), side, sheet)
    else:
        form = BattlefrontView().form(wb, plan(wb, key), side, sheet, key)
    if more_rows:
        extra = tuple(FormRow({"Order": "Fortification", "Subject": f"Wire section", "Offered": f"filler row {i}"},
                              {"Value": Whole(1, 9)}) for i in range(more_rows))
        form = type(form)(form.name, form.kind, form.title, form.rows + extra, form.accounts, form.free_rows,
                          form.free_rules, form.widths)
    out = tmp_path / f"{sheet}.xlsx"
    write(out, [OutSheet(sheet, [form.columns], tab="orders", form=form)])
    return out


def pdf_pages(xlsx: Path, outdir: Path) -> tuple[Path, list[str]]:
    libreoffice(xlsx, "pdf", outdir)
    pdf = outdir / f"{xlsx.stem}.pdf"
    assert pdf.exists(), "LibreOffice wrote no PDF"
    info = subprocess.run([tool("pdfinfo"), str(pdf)], capture_output=True, text=True, check=True).stdout
    pages = int(re.search(r"Pages:\s+(\d+)", info).group(1))
    texts = [subprocess.run([tool("pdftotext"), "-f", str(p), "-l", str(p), "-layout", str(pdf), "-"],
                            capture_output=True, text=True, check=True).stdout for p in range(1, pages + 1)]
    return pdf, texts


@pytest.mark.parametrize("sheet", list(FORMS))
def test_each_form_prints_one_page_wide_with_its_png_pages(capsys, rostov, tmp_path, sheet):
    soffice()
    xlsx = the_form(capsys, rostov, tmp_path, sheet)
    pdf, pages = pdf_pages(xlsx, tmp_path)
    assert len(pages) <= 2, f"{sheet} prints on {len(pages)} pages"
    for text in pages:  # one page wide: every column of the header on every page, none on a page of its own
        for column in Workbook(xlsx).raw(sheet)[2]:
            assert all(word in text for word in column.split()), column  # a header may wrap
    assert "CPP left" in pages[0] or "Posture" in pages[0]
    assert pages[0].split()[0] == f"{FORMS[sheet][1]}:"  # the plain line comes first
    subprocess.run([tool("pdftoppm"), "-png", "-r", "60", str(pdf), str(tmp_path / "page")], check=True)
    assert sorted(p.name for p in tmp_path.glob("page*.png")) == [f"page-{n}.png" for n in range(1, len(pages) + 1)]


def test_a_long_form_repeats_its_top_rows_on_every_page_and_stays_one_page_wide(capsys, rostov, tmp_path):
    soffice()
    xlsx = the_form(capsys, rostov, tmp_path, "Spend Dec 24 German", more_rows=120)
    _, pages = pdf_pages(xlsx, tmp_path)
    assert len(pages) >= 3
    for text in pages:  # every page: the plain line, the totals and the header, all columns of the form
        assert "your spending for Dec 24" in text and "CPP left" in text
        assert all(c in text for c in ("Order", "Subject", "Value", "Offered", "CPP", "FPP"))
    assert sum(text.count("filler row") for text in pages) == 120  # no row lost to a page cut on the right


def test_a_form_survives_a_libreoffice_round_trip_and_still_imports(capsys, rostov, tmp_path):
    soffice()
    book = private_copy(rostov["spend_dec24"], tmp_path / "master")
    export = tmp_path / "export.xlsx"
    assert run(capsys, "export", book, "--side", "German", "-o", export)[0] == 0
    (tmp_path / "lo").mkdir()
    libreoffice(export, "xlsx", tmp_path / "lo")
    again = tmp_path / "lo" / "export.xlsx"
    assert again.exists()
    wb = openpyxl.load_workbook(again)
    ws = wb["Spend Dec 24 German"]
    lists = [dv for dv in ws.data_validations.dataValidation if dv.type == "list"]
    counts = [dv for dv in ws.data_validations.dataValidation if dv.type == "whole"]
    assert lists and counts  # dropdowns and validated counts kept
    formulas = [c.value for row in ws.iter_rows() for c in row if isinstance(c.value, str) and c.value.startswith("=")]
    assert any(f.startswith("=17-SUM(F4:F") for f in formulas) and any("ISNUMBER(C" in f for f in formulas)
    row = next(r for r in range(4, ws.max_row + 1) if ws.cell(r, 1).value == "Purchase" and ws.cell(r, 2).value == "I1")
    ws.cell(row, 3, 1)
    filled = tmp_path / "filled.xlsx"
    wb.save(filled)
    code, out, err = run(capsys, "import", book, filled)
    assert code == 0 and "1 order(s)" in out, err

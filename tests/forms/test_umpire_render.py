"""The umpire's and the forces forms as a person sees them: rendered by
LibreOffice to PDF and PNG pages (kept under the test's folder to look at),
one page wide, with the plain line, the totals and the header on every page."""
from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from tests.forms.form_helpers import drawn
from tests.forms.test_forces_form import three_i1  # noqa: F401  (fixtures)
from tests.forms.test_umpire_abtf import abtf_orders, abtf_waiting_end, abtf_waiting_umpire, dual_assault  # noqa: F401
from tests.forms.test_umpire_bf import waiting_results  # noqa: F401
from tests.forms.test_forms_render import pdf_pages, tool
from tests.workbook.package_helpers import soffice

FORMS: dict[str, tuple[str, str]] = {}  # sheet -> (fixture, the form's first word)


def builders(request) -> dict[str, object]:
    from tests.forms import test_forces_form, test_umpire_bf

    out = {"Results Dec 23": lambda: test_umpire_bf.results_form(request.getfixturevalue("waiting_results")),
           "Forces Dec 23 German": lambda: test_forces_form.forces_form(request.getfixturevalue("three_i1"))}
    for name, build in ABTF.items():
        out[name] = (lambda build=build: build(request))
    return out


def _abtf(sheet: str, fixture: str, side: str = "Umpire"):
    def build(request):
        from tests.forms import test_umpire_abtf

        return test_umpire_abtf.form_of(request.getfixturevalue(fixture), sheet, side)
    return build


ABTF = {"End 17N": _abtf("End 17N", "abtf_waiting_end"), "Umpire 18AM": _abtf("Umpire 18AM", "abtf_waiting_umpire"),
        "Setup 18AM": _abtf("Setup 18AM", "dual_assault"),
        "Orders 18AM British": _abtf("Orders 18AM British", "abtf_orders", "British")}
FIRST = {"Results Dec 23": "Umpire:", "Forces Dec 23 German": "German:", "End 17N": "Umpire:", "Umpire 18AM": "Umpire:",
         "Setup 18AM": "Umpire:", "Orders 18AM British": "British:"}


@pytest.fixture(scope="module")
def pictures(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("pictures")


@pytest.mark.parametrize("sheet", list(FIRST))
def test_each_new_form_prints_one_page_wide_with_its_top_rows_on_every_page(request, pictures, sheet):
    soffice()
    form = builders(request)[sheet]()
    folder = pictures / sheet.replace(" ", "_")
    xlsx = drawn(form, folder)
    pdf, pages = pdf_pages(xlsx, folder)
    assert pages
    for text in pages:  # every page: the plain line's start and every column of the header (which may wrap)
        assert FIRST[sheet] in text.split()[:3]
        for column in form.columns + form.cost_columns:
            assert all(word in text for word in column.split()), (sheet, column)
    offered = [str(r.values.get("Unit") or r.values.get("Stand") or r.values.get("ME") or r.values.get("Side") or "")
               for r in form.rows]
    body = "\n".join(pages)
    assert all(o in body for o in offered if o)  # no row lost to a page cut on the right
    subprocess.run([tool("pdftoppm"), "-png", "-r", "60", str(pdf), str(folder / "page")], check=True)
    assert len(list(folder.glob("page*.png"))) == len(pages)


@pytest.mark.parametrize("sheet, fixture, fill_in", [
    ("Results Dec 23", "waiting_results", {"Outcome": "Knocked out"}),
    ("Umpire 18AM", "abtf_waiting_umpire", {"Value": 2}),
])
def test_a_new_form_keeps_its_dropdowns_through_a_libreoffice_round_trip_and_still_reads(request, tmp_path, sheet,
                                                                                       fixture, fill_in):
    import openpyxl

    from automation.pbem.planning import Overlay
    from automation.service import plan_refit
    from automation.workbook.reader import Workbook
    from tests.workbook.package_helpers import libreoffice

    soffice()
    form = builders(request)[sheet]()
    xlsx = drawn(form, tmp_path)
    (tmp_path / "lo").mkdir()
    libreoffice(xlsx, "xlsx", tmp_path / "lo")
    again = tmp_path / "lo" / xlsx.name
    wb = openpyxl.load_workbook(again)
    ws = wb[sheet]
    assert [dv for dv in ws.data_validations.dataValidation if dv.type == "list"]
    for column, value in fill_in.items():
        ws.cell(4, form.columns.index(column) + 1).value = value  # the first offered row
    ws["B2"] = "Ready"  # filled: the umpire says it is ready
    wb.save(again)
    book = request.getfixturevalue(fixture)
    outcome, _ = plan_refit(Overlay(Workbook(book), {sheet: Workbook(again).raw(sheet)}))
    assert outcome.waiting is None or outcome.waiting.sheet != sheet or "British" not in outcome.waiting.what

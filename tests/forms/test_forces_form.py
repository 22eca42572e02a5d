"""2.1.1.7 through the Forces form: a side owning more MEs of an RG than its
scenario maximum lets deploy gets ``Forces <date> <side>`` in its export while
the scenario is played (one row per ME it may deploy, a live count per RG at
the top); import checks it with the refit's own forces step; the umpire's
Results form then starts the deployed MEs' stands as having taken part."""
from __future__ import annotations

import shutil
from pathlib import Path

import openpyxl
import pytest

from automation.pbem.bf import BattlefrontView
from automation.pbem.planning import Overlay
from automation.samples import SAMPLE
from automation.service import plan_refit, refit
from automation.workbook import bf_sheets as K
from automation.workbook.forms.model import HEADER_ROW
from automation.workbook.forms.enter import enter as append_sheets  # in place of the refit's forms
from automation.workbook.package import NewSheet
from automation.workbook.reader import Workbook
from tests.forms.form_helpers import drawn, fill, planned
from tests.pbem.helpers import private_copy, run

SHEET = "Forces Dec 23 German"


@pytest.fixture(scope="module")
def three_i1(tmp_path_factory) -> Path:
    """The sample where the German bought two more I1 (three I1 MEs, scenario
    maximum 2) at Dec 23; the refit of Dec 24 waits for Results Dec 23."""
    book = tmp_path_factory.mktemp("forces") / "rostov.xlsx"
    shutil.copyfile(SAMPLE, book)
    shutil.copyfile(SAMPLE.with_suffix(".key"), book.with_suffix(".key"))
    refit(book)
    spend = {"German": [["Purchase", "I1", 2, None]], "Russian": []}
    append_sheets(book, [NewSheet(K.SPEND.name_for(date="Dec 23", side=s), [K.SPEND.header] + rows, kind="orders")
                         for s, rows in spend.items()], batch="spend")
    assert refit(book).waiting is None
    assert refit(book).waiting.sheet == "Results Dec 23"
    return book


def forces_form(book: Path, side: str = "German"):
    wb, plan, _ = planned(book)
    return BattlefrontView().form(wb, plan, side, f"Forces Dec 23 {side}")


def test_the_forces_form_offers_each_me_with_a_live_count_per_rg_against_its_scenario_maximum(three_i1):
    form = forces_form(three_i1)
    assert [r.values["ME"] for r in form.rows] == ["2/57 Pio", "4/114 PzG", "I/76 AR",
                                                    "I1-2", "I1-3", "II/11 Pz"]
    assert {a.name: a.available for a in form.accounts} == {"A1": 2, "E1": 1, "F1": 1, "I1": 2, "O3": 2}
    i1 = [r.values["ME"] for r in form.rows if [c.account for c in r.costs] == ["I1"]]
    assert i1 == ["4/114 PzG", "I1-2", "I1-3"]
    assert all(r.rules["Deploy"].values == ("Yes",) for r in form.rows)
    assert "RG I1: at most 2 in one scenario (2.1.1.7)" in form.rows[1].values["Offered"]
    assert form.title.startswith("German: your forces for the scenario of Dec 23 (2.1.1.7).")


def test_the_drawn_form_counts_what_is_left_of_each_rg_with_a_formula_red_when_over(three_i1, tmp_path):
    form = forces_form(three_i1)
    path = drawn(form, tmp_path)
    ws = openpyxl.load_workbook(path)[SHEET]
    header = [c.value for c in ws[HEADER_ROW + 1]]
    assert header == K.FORCES.header + ["A1", "E1", "F1", "I1", "O3"]
    i1 = header.index("I1") + 1
    assert ws.cell(2, i1).value.startswith("=2-SUM(")  # I1 left: 2 less the rows answered Yes
    assert any(str(c.value).startswith('=IF(C') for row in ws.iter_rows(min_row=4) for c in row)
    assert ws.conditional_formatting  # red when over


def export_of(capsys, book: Path, side: str, out: Path) -> Path:
    code, _, err = run(capsys, "export", book, "--side", side, "-o", out)
    assert code == 0, err
    return out


def deploy(export: Path, out: Path, mes: set[str]) -> Path:
    wb = openpyxl.load_workbook(export)
    ws = wb[SHEET]
    for r in range(HEADER_ROW + 2, ws.max_row + 1):
        if ws.cell(r, 1).value in mes:
            ws.cell(r, 3, "Yes")
    wb.save(out)
    return out


def test_the_side_over_a_maximum_gets_the_forces_form_the_other_its_orders(capsys, three_i1, tmp_path):
    book = private_copy(three_i1, tmp_path / "m")
    german = Workbook(export_of(capsys, book, "German", tmp_path / "g.xlsx"))
    assert german.has(SHEET) and not german.has("Orders Dec 24 German")
    russian = Workbook(export_of(capsys, book, "Russian", tmp_path / "r.xlsx"))
    assert russian.has("Orders Dec 24 Russian") and not russian.has("Forces Dec 23 Russian")


def test_forces_over_the_scenario_maximum_are_refused_on_import_at_their_cell(capsys, three_i1, tmp_path):
    book = private_copy(three_i1, tmp_path / "m")
    export = export_of(capsys, book, "German", tmp_path / "g.xlsx")
    back = deploy(export, tmp_path / "back.xlsx", {"4/114 PzG", "I1-2", "I1-3"})
    before = book.read_bytes()
    code, _, err = run(capsys, "import", book, back)
    assert code == 2
    assert "Forces: 3 MEs of RG I1 in one scenario (4/114 PzG, I1-2, I1-3); the RG chart's scenario maximum is 2" in err
    assert f"{SHEET}!A" in err
    assert book.read_bytes() == before


def test_forces_within_the_maximum_import_and_start_their_stands_on_the_results_form(capsys, three_i1, tmp_path):
    book = private_copy(three_i1, tmp_path / "m")
    export = export_of(capsys, book, "German", tmp_path / "g.xlsx")
    back = deploy(export, tmp_path / "back.xlsx", {"I1-2", "I1-3", "II/11 Pz"})
    code, out, err = run(capsys, "import", book, back)
    assert code == 0, err
    outcome, _ = plan_refit(Workbook(book))
    assert outcome.waiting.sheet == "Results Dec 23"
    assert any(e.step == "Choose forces" and e.text.startswith("3 ME(s) chosen on Forces Dec 23 German")
               and e.text.endswith("I1-2, I1-3, II/11 Pz") for e in outcome.entries)
    wb, plan, _ = planned(book)
    results = BattlefrontView().form(wb, plan, "Umpire", "Results Dec 23")
    german = {r.values["Stand"]: r.values.get("Outcome") for r in results.rows if r.values["Side"] == "German"}
    me_of = {r[6]: r[1] for r in wb.raw("Roster Dec 23")[1:]}
    assert set(german) == {s for s, me in me_of.items() if me in {"I1-2", "I1-3", "II/11 Pz"}}  # no Forces: all
    assert set(german.values()) == {"Unharmed"}
    assert any(r.values["Side"] == "Russian" and "Outcome" not in r.values for r in results.rows)
    # and the German now gets its orders
    assert Workbook(export_of(capsys, book, "German", tmp_path / "g2.xlsx")).has("Orders Dec 24 German")


def test_every_me_the_forces_form_offers_deploys_without_a_problem(three_i1, tmp_path):
    form = forces_form(three_i1)
    for i, row in enumerate(form.rows):
        rows = fill(drawn(form, tmp_path / str(i)), form, lambda j, v, i=i: {"Deploy": "Yes"} if j == i else {})
        outcome, _ = plan_refit(Overlay(Workbook(three_i1), {SHEET: rows}))
        assert outcome.waiting.sheet == "Results Dec 23"
        assert any(e.step == "Choose forces" and e.text.endswith(row.values["ME"]) for e in outcome.entries)

"""2.1.1.4.1 and 2.1.1.7 over a real workbook (the bundled Advance to Rostov
sample): the umpire's Scheduled Reinforcements sheet brings groups in on their date,
free of CPP, and a side's Forces sheet is checked against the RG chart's
scenario maximum by the next refit, cell by cell, leaving the file untouched."""
from __future__ import annotations

import shutil
from dataclasses import replace
from pathlib import Path
from typing import Any

import openpyxl
import pytest

from automation.cli import main
from automation.errors import WorkbookError
from automation.samples import SAMPLE
from automation.service import refit
from automation.workbook import bf_adapter, bf_sheets as K
from automation.workbook.bf_output import forces_form
from automation.workbook.forms.enter import enter as append_sheets  # in place of the refit's forms
from automation.workbook.package import NewSheet
from automation.workbook.reader import Workbook


@pytest.fixture
def book(tmp_path: Path) -> Path:
    path = tmp_path / "rostov.xlsx"
    shutil.copyfile(SAMPLE, path)
    shutil.copyfile(SAMPLE.with_suffix(".key"), path.with_suffix(".key"))
    return path


def spend(path: Path, date: str, side: str, *rows: list[Any]) -> None:
    name = K.SPEND.name_for(date=date, side=side)
    append_sheets(path, [NewSheet(name, [K.SPEND.header] + list(rows), kind="orders")], batch=f"enter {name}")


def dec_23_bought(path: Path, *german: list[Any]) -> None:
    refit(path)
    spend(path, "Dec 23", "German", *german)
    spend(path, "Dec 23", "Russian")
    assert refit(path).waiting is None


def choose(path: Path, side: str, *mes: str) -> None:
    wb = Workbook(path)
    lists = wb.read_lists()
    lists["sides"] = ["German", "Russian"]
    roster = bf_adapter.read_roster(wb, "Roster Dec 23", lists)
    form = forces_form(roster, "Dec 23", side)
    append_sheets(path, [replace(form, rows=[*form.rows, *([m, None] for m in mes)])], batch=f"enter {form.name}")


def test_the_forces_form_offers_only_the_sides_own_mes_as_a_dropdown(book: Path):
    dec_23_bought(book, ["Purchase", "I1", 2, None])
    wb = Workbook(book)
    lists = wb.read_lists()
    lists["sides"] = ["German", "Russian"]
    form = forces_form(bf_adapter.read_roster(wb, "Roster Dec 23", lists), "Dec 23", "German")
    assert form.name == "Forces Dec 23 German" and form.rows == [K.FORCES.header]
    (dropdown,) = form.validations
    assert dropdown.allowed == ("2/57 Pio", "4/114 PzG", "I/76 AR", "I1-2", "I1-3", "II/11 Pz")
    append_sheets(book, [form], batch="blank form")
    sheet = openpyxl.load_workbook(book)["Forces Dec 23 German"]
    (validation,) = sheet.data_validations.dataValidation
    assert validation.formula1 == '"2/57 Pio,4/114 PzG,I/76 AR,I1-2,I1-3,II/11 Pz"'


def test_2_1_1_7_a_third_i1_in_one_scenario_is_refused_at_its_cell_and_the_workbook_is_untouched(book: Path, capsys):
    dec_23_bought(book, ["Purchase", "I1", 2, None])  # beyond the scenario maximum of 2: buying is allowed
    assert {r[1] for r in Workbook(book).raw("Roster Dec 23")[1:] if r[4] == "I1" and r[0] == "German"} == {
        "4/114 PzG", "I1-2", "I1-3"}
    choose(book, "German", "4/114 PzG", "I1-2", "I1-3")
    before = book.read_bytes()
    with pytest.raises(WorkbookError) as err:
        refit(book)
    assert [str(p) for p in err.value.problems] == [
        "Forces Dec 23 German!A4: Forces: 3 MEs of RG I1 in one scenario (4/114 PzG, I1-2, I1-3); the RG chart's "
        "scenario maximum is 2, so at most 2 may be chosen (2.1.1.7)"]
    assert main(["refit", str(book)]) == 2
    assert "Forces Dec 23 German!A4" in capsys.readouterr().err
    assert book.read_bytes() == before


def test_2_1_1_7_two_of_the_three_pass_and_the_refit_goes_on_to_the_results(book: Path):
    dec_23_bought(book, ["Purchase", "I1", 2, None])
    choose(book, "German", "I1-2", "I1-3")
    outcome = refit(book)
    assert outcome.waiting is not None and outcome.waiting.sheet == "Results Dec 23"
    assert ("Choose forces", "2 ME(s) chosen on Forces Dec 23 German, within the RG chart's scenario maximums: "
            "I1-2, I1-3") in [(e.step, e.text) for e in outcome.entries]


def test_2_1_1_4_1_a_scheduled_reinforcement_joins_the_roster_on_its_date_free_of_cpp(book: Path):
    wb = openpyxl.load_workbook(book)
    sheet = wb[K.REINFORCEMENTS.title]
    assert [c.value for c in sheet[1]] == K.REINFORCEMENTS.header
    sheet.append(["Dec 23", "Russian", "A2", "3/87 TB", "arrives from the Don crossing"])
    sheet.append(["Dec 24", "Russian", "A2", None, None])
    wb.save(book)
    refit(book)
    spend(book, "Dec 23", "German")
    spend(book, "Dec 23", "Russian", ["Purchase", "A2", 1, None])
    with pytest.raises(WorkbookError) as err:  # A2: 3 in the campaign; base force 1, scheduled 2
        refit(book)
    assert [str(p) for p in err.value.problems] == [
        "Spend Dec 23 Russian!C2: Purchase: 1 x A2 exceeds the campaign total of 3: 2 already used "
        "(base force included, 2.1.1.4.1) and 1 scheduled to arrive later, so at most 0 more"]


def test_2_1_1_4_1_the_arrival_is_on_the_roster_and_ledger_it_writes(book: Path):
    wb = openpyxl.load_workbook(book)
    wb[K.REINFORCEMENTS.title].append(["Dec 23", "Russian", "A2", "3/87 TB", None])
    wb.save(book)
    refit(book)
    spend(book, "Dec 23", "German")
    spend(book, "Dec 23", "Russian")
    assert refit(book).waiting is None
    wb = Workbook(book)
    roster = [r for r in wb.raw("Roster Dec 23")[1:] if r[1] == "3/87 TB"]
    assert [(r[0], r[4], r[5], r[8]) for r in roster] == [("Russian", "A2", "Raw", "AFV")] * 3
    assert ["Russian", "RG", "A2", "", 2] == wb.raw("Ledger Dec 23")[[r[2] for r in wb.raw("Ledger Dec 23")].index("A2")][:5]
    cpp_lines = [r for r in wb.raw("Ledger Dec 23")[1:] if r[0] == "Russian" and r[1] == "CPP"]
    assert all("A2" not in str(r[2]) for r in cpp_lines)

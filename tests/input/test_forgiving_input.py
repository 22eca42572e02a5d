"""What people type in Excel is read the way they meant it: codes Excel turned
into dates or numbers are explained at their cell with the fix; names and
choices match ignoring case and spaces; Y/N, yes/no, true/false are one thing;
a renamed header is pointed out with "did you mean"."""
from __future__ import annotations

import datetime as dt
from pathlib import Path

from automation.samples import SAMPLE
from automation.campaign.names import yes_no
from automation.workbook.cellvalues import convert, excel_turned
from automation.workbook.schema import YES_NO, Column, Kind, choice
from tests.input.conftest import ABTF_SAMPLE, copy_of, problems, typed
from tests.workbook.workbook_helpers import sheet_values

STRENGTH = Column("Strength", required=False)
UNIT = Column("Unit")
LABEL = Column("Date")


def test_a_factor_excel_made_into_a_date_says_what_happened_and_how_to_fix_it() -> None:
    assert convert(STRENGTH, dt.datetime(2008, 6, 5), {}) == (None, (
        "Excel turned 6-5-8 into a date (it holds the date 2008-06-05); type '6-5-8 (with the apostrophe first) "
        "or format the column as Text and type it again"))
    assert convert(STRENGTH, dt.datetime(2026, 8, 1), {})[1].startswith("Excel turned 8-1 into a date")
    assert convert(UNIT, dt.datetime(2026, 8, 1), {})[1].startswith("Excel turned 8-1 into a date")
    assert excel_turned(7.0) == ("Excel turned this into the number 7; type '7 (with the apostrophe first, and any "
                                 "leading zeros) or format the column as Text and type it again")
    assert convert(STRENGTH, "6-5-8", {}) == ("6-5-8", None)
    assert convert(LABEL, dt.datetime(2026, 7, 11), {}) == ("Jul 11", None)  # a date label reads as typed


def test_yes_no_and_choices_ignore_case_spaces_and_spelling() -> None:
    flag = choice("Night", YES_NO)
    boolean = Column("Fit", Kind.BOOL)
    for typed_value, meant in (("Y", "Yes"), ("n", "No"), (" yes ", "Yes"), ("TRUE", "Yes"), ("false", "No"),
                               (True, "Yes"), (False, "No"), (1, "Yes"), (0.0, "No")):
        assert convert(flag, typed_value, {}) == (meant, None)
        assert convert(boolean, typed_value, {}) == (meant, None)
    assert convert(flag, "maybe", {}) == (None, "text 'maybe' is not allowed; valid: Yes, No")
    assert yes_no("x") is None
    kind = choice("Kind", ("AFV", "Soft vehicle"))
    assert convert(kind, "  soft   VEHICLE ", {}) == ("Soft vehicle", None)


def test_an_abtf_campaign_with_factors_excel_made_into_dates_is_refused_at_each_cell(tmp_path: Path,
                                                                                     musterroll) -> None:
    book = copy_of(ABTF_SAMPLE, tmp_path)

    def excel(wb) -> None:
        ws = wb["Units Start"]
        ws["E2"] = dt.datetime(2008, 6, 5)  # 6-5-8 typed into a General column
        ws["E10"] = dt.datetime(2026, 9, 2)  # the leader's 9-2

    typed(book, excel)
    before = book.read_bytes()
    found = problems(musterroll("refit", book))
    assert ("Units Start!E2: Strength: Excel turned 6-5-8 into a date (it holds the date 2008-06-05); type '6-5-8 "
            "(with the apostrophe first) or format the column as Text and type it again") in found
    assert any(p.startswith("Units Start!E10: Strength: Excel turned 9-2 into a date") for p in found)
    assert book.read_bytes() == before


def test_y_n_and_case_in_a_battlefront_campaign_refit_as_the_plain_words_do(tmp_path: Path, musterroll) -> None:
    plain = copy_of(SAMPLE, tmp_path / "plain")
    careless = copy_of(SAMPLE, tmp_path / "careless")

    def excel(wb) -> None:
        sides = wb["Sides"]
        for row in (2, 3):
            flag = sides.cell(row, 5).value
            sides.cell(row, 5).value = {"Yes": "y", "No": "N"}[flag]
        roster = wb["Roster Start"]
        header = [c.value for c in roster[1]]
        kind = header.index("Kind") + 1
        for row in range(2, roster.max_row + 1):
            if roster.cell(row, kind).value:
                roster.cell(row, kind).value = " " + roster.cell(row, kind).value.upper() + " "
        roster.cell(1, header.index("Stand type") + 1).value = "stand TYPE "  # a header typed carelessly

    typed(careless, excel)
    assert musterroll("refit", plain).code == 0
    run = musterroll("refit", careless)
    assert run.code == 0, run.err
    report = [r for r in sheet_values(careless, "Refit Dec 23 1") if r[0] != "Tamper evidence"]
    assert report == [r for r in sheet_values(plain, "Refit Dec 23 1") if r[0] != "Tamper evidence"]


def test_a_renamed_header_is_pointed_out_at_its_cell_with_did_you_mean(tmp_path: Path, musterroll) -> None:
    book = copy_of(SAMPLE, tmp_path)
    typed(book, lambda wb: wb["RG Chart"].cell(1, 7).__setattr__("value", "Stand list"))
    header = [c for c in sheet_values(book, "RG Chart")[0]]
    assert header[6] == "Stand list"
    found = problems(musterroll("refit", book))
    assert found[0].startswith("RG Chart!G1: header 'Stand list': did you mean 'Stands'? Rename it 'Stands'")


def test_a_calendar_date_before_1900_is_refused_with_a_message(tmp_path: Path, musterroll) -> None:
    book = copy_of(SAMPLE, tmp_path)
    typed(book, lambda wb: wb["Dates"].__setitem__("B2", "1899-12-31"))
    assert problems(musterroll("refit", book)) == [
        "Dates!B2: Calendar date: text '1899-12-31' is before 1900-01-01, the first date a workbook holds; "
        "write a later date"]


def test_a_stand_kind_in_any_case_is_read_and_an_unknown_one_is_one_clear_problem(tmp_path: Path, musterroll) -> None:
    plain = copy_of(SAMPLE, tmp_path / "plain")
    careless = copy_of(SAMPLE, tmp_path / "careless")
    typed(careless, lambda wb: wb["RG Chart"].__setitem__("G3", "Command tank x1 [afv]; PzKpfw IVG x4 [ Afv ]"))
    assert musterroll("refit", plain).code == 0
    assert musterroll("refit", careless).code == 0
    assert [r for r in sheet_values(careless, "Refit Dec 23 1") if r[0] != "Tamper evidence"] == \
        [r for r in sheet_values(plain, "Refit Dec 23 1") if r[0] != "Tamper evidence"]
    wrong = copy_of(SAMPLE, tmp_path / "wrong")
    typed(wrong, lambda wb: wb["RG Chart"].__setitem__("G3", "PzKpfw IVG x4 [Tank]"))
    assert problems(musterroll("refit", wrong)) == [
        "RG Chart!G3: 'PzKpfw IVG x4 [Tank]': [Tank] is not a stand kind of the Lists sheet; valid: Troops, Engineers, "
        "Command, Gun, AFV, Soft vehicle, OBA module, Aircraft, Fortification"]


def test_an_abtf_chit_typed_in_any_case_is_the_chit() -> None:
    from tests.steps.abtf.test_abtf_elr_and_commencement import AREAS, chits, commencement, state
    from tests.support.abtf import ScriptedDice

    out = commencement.run(state(areas=AREAS), chits(" idle", "ATTACK"), ScriptedDice((3, 4), (4,), (2,)))
    assert (out.state.records["British"].chit, out.state.records["German"].chit) == ("Idle", "Attack")
    assert out.state.records["British"].scenario == "German Assault"

"""`musterroll refit` says who must fill which sheet, one line each: both
sides when both must decide, the umpire's sheet with the orders that may be
filled meanwhile, and a sheet named close to the one waited for."""
from __future__ import annotations

import json
from pathlib import Path

import openpyxl
import pytest

from tests.pbem.helpers import build, run


@pytest.fixture(scope="module")
def rostov(tmp_path_factory) -> dict[str, Path]:
    root = tmp_path_factory.mktemp("waiting")
    return {s: build(root / s, s) for s in ("spend_dec23", "orders_dec24")}


def copy(src: Path, folder: Path) -> Path:
    from tests.pbem.helpers import private_copy

    return private_copy(src, folder)


def waiting_lines(out: str) -> list[str]:
    return [ln.strip() for ln in out.splitlines() if ln.strip().startswith("waiting for")]


def test_both_sides_spending_is_asked_for_one_line_each(capsys, rostov, tmp_path):
    book = copy(rostov["spend_dec23"], tmp_path / "a")
    code, out, _ = run(capsys, "refit", book)
    assert code == 0
    assert waiting_lines(out) == [
        f"waiting for Spend Dec 23 {side} ({side} fills it): repairs, purchases and FPP spending (an empty sheet "
        f"means none); when it is complete, set Spend Dec 23 {side}!B2 to Ready" for side in ("German", "Russian")]


def test_json_lists_every_pending_decision(capsys, rostov, tmp_path):
    book = copy(rostov["spend_dec23"], tmp_path / "a")
    code, out, _ = run(capsys, "refit", book, "--json")
    assert [(p["who"], p["sheet"]) for p in json.loads(out)["pending"]] == [
        ("German", "Spend Dec 23 German"), ("Russian", "Spend Dec 23 Russian")]


def test_each_sides_orders_ask_for_posture_and_escapes_whichever_the_refit_stopped_at(capsys, rostov, tmp_path):
    book = copy(rostov["orders_dec24"], tmp_path / "a")
    code, out, _ = run(capsys, "refit", book)
    assert code == 0
    assert sorted(waiting_lines(out)) == [
        f"waiting for Orders Dec 24 {side} ({side} fills it): posture (Attack or Defend, 2.1) and escape attempts of "
        f"isolated and cut-off stands (2.1.2.4.3); when it is complete, set Orders Dec 24 {side}!B2 to Ready"
        for side in ("German", "Russian")]


@pytest.mark.parametrize("typed", ["Results 23 Dec", "results dec 23", "Results Dec 32"])
def test_a_sheet_named_close_to_the_one_waited_for_gets_did_you_mean(capsys, rostov, tmp_path, typed):
    book = copy(rostov["spend_dec23"], tmp_path / "a")
    from tests.pbem.helpers import enter
    from automation.samples_demo import SPEND_DEC23
    from automation.workbook import bf_sheets as K

    enter(book, K.SPEND, SPEND_DEC23, "Dec 23")
    assert run(capsys, "refit", book)[0] == 0  # Dec 23 complete; Dec 24 waits for Results Dec 23
    wb = openpyxl.load_workbook(book)
    wb.create_sheet(typed).append(K.RESULTS.header)
    wb.save(book)
    code, out, _ = run(capsys, "refit", book)
    lines = waiting_lines(out)
    hint = (f"waiting for Results Dec 23 (the umpire fills it): the results of the scenario just played "
            f"(did you mean {typed!r}? rename it 'Results Dec 23')")
    if typed.lower() == "results dec 23":  # only the case differs: no form can be added beside it
        assert lines[0] == hint and "wrote the form Results Dec 23" not in out
    else:  # the form to fill is written beside the sheet typed by hand
        assert lines[0] == hint + "; when it is complete, set Results Dec 23!B2 to Ready"
        assert "wrote the form Results Dec 23" in out
    assert [ln.split(" (")[0] for ln in lines[1:]] == ["waiting for Orders Dec 24 German",
                                                       "waiting for Orders Dec 24 Russian"]
    assert all("posture (Attack or Defend, 2.1)" in ln for ln in lines[1:])


def test_an_answered_form_that_lacks_an_entry_is_named_with_where_to_add_it(capsys, tmp_path):
    """The A Bridge Too Far Umpire form answered with the British Final CVP only:
    the refit asks for the German's on the same sheet, and says to add it on an
    row (the form is Ready: setting B2 again would mean nothing)."""
    import shutil

    from automation.samples_abtf import END_17N, PURCHASES_17N, SAMPLE
    from automation.samples_demo import as_lines, through_forms
    from automation.service import refit
    from automation.workbook import abtf_sheets as K
    from automation.workbook.forms.fill import fill_in_place

    book = tmp_path / SAMPLE.name
    shutil.copyfile(SAMPLE, book)
    shutil.copyfile(SAMPLE.with_suffix(".key"), book.with_suffix(".key"))
    refit(book)
    through_forms(book, {K.PURCHASES.name_for(date="17N", side=s): as_lines(K.PURCHASES, r)
                         for s, r in PURCHASES_17N.items()})
    refit(book)
    refit(book)
    fill_in_place(book, "End 17N", as_lines(K.END, END_17N), keys=("Side", "Unit"))
    assert "Umpire 18AM" in refit(book).forms
    fill_in_place(book, "Umpire 18AM", [{"Entry": "Final CVP", "Subject": "British", "Value": 0}])
    code, out, _ = run(capsys, "refit", book)
    assert code == 0
    assert ("waiting for Umpire 18AM (the umpire fills it): Final CVP of the German for the scenario just ended; "
            "Umpire 18AM is already answered: enter it there, on its row if the sheet offers one, else on an empty "
            "row (the next refit reads the sheet again)") \
        in waiting_lines(out)
    assert not any("Orders 18AM" in ln and "already there" in ln for ln in waiting_lines(out))

"""The Battlefront forms on a small campaign of its own (not the sample), made
with `musterroll new` and filled in as a new umpire would: sides named Axis
and Soviet, two SS companies of one RG with a scenario maximum of 1, a Soviet
OBA module. The Axis gets its Forces form while the scenario is played, the
umpire's Results form starts the deployed MEs' stands as Unharmed, and the
filled Results form drives the next refit."""
from __future__ import annotations

from pathlib import Path

import openpyxl
import pytest

from automation.pbem.bf import BattlefrontView
from automation.service import refit
from automation.workbook import bf_sheets as K
from automation.workbook.forms.model import HEADER_ROW
from automation.workbook.reader import Workbook
from tests.forms.form_helpers import drawn, fill, lay_in, planned
from tests.pbem.helpers import enter, run

SIDES = [["Axis", "German", 6, 2, "No", "Attack"], ["Soviet", "Russian", 6, 2, "Yes", "Defend"]]
DATES = [["Feb 19", "1943-02-19", "Full day", None], ["Feb 20", "1943-02-20", "Full day", None]]
DRM = [[d, s, 0, "2.1.1.1"] for d in ("Feb 19", "Feb 20") for s in ("Axis", "Soviet")]
RG = [["Axis", "I1", "SS Panzergrenadier company", "ME", "I", "SS company", "Rifle x3", "Veteran", 8, 1, 3, None, None],
      ["Axis", "A1", "Tiger platoon", "ME", "A", "Tiger platoon", "Tiger x2 [AFV]", "Elite", 14, 1, 1, None, None],
      ["Soviet", "I1", "Rifle company", "ME", "I", "Rifle company", "Rifle x3", "Trained", 5, 3, 6, None, None],
      ["Soviet", "O1", "Howitzer battalion", "OBA", None, None, None, None, 5, 1, 2, None, None]]
FP = [["Both", "Wire section", 1, None]]


def stand(side, me, cls, me_type, rg, discipline, sid, stype, kind, tracks=None):
    return [side, me, cls, me_type, rg, discipline, sid, stype, kind, tracks, "Available", "Normal", None, None, None,
            None, None, "Normal", None]


ROSTER = ([stand("Axis", "1/LAH", "I", "SS company", "I1", "Veteran", f"LAH1-{n}", "Rifle", "Troops") for n in (1, 2, 3)]
          + [stand("Axis", "2/LAH", "I", "SS company", "I1", "Veteran", f"LAH2-{n}", "Rifle", "Troops") for n in (1, 2, 3)]
          + [stand("Axis", "13/LAH", "A", "Tiger platoon", "A1", "Elite", f"Tiger-{n}", "Tiger", "AFV", "Fully tracked")
             for n in (1, 2)]
          + [stand("Soviet", "1/69", "I", "Rifle company", "I1", "Trained", f"S69-{n}", "Rifle", "Troops") for n in (1, 2, 3)]
          + [["Soviet", "O1-1", "O", "Howitzer battalion", "O1", None, "O1-1 OBA", "Howitzer battalion", "OBA module",
              None, "Available", "Normal", None, None, None, None, None, None, None]])


@pytest.fixture(scope="module")
def kharkov(tmp_path_factory) -> Path:
    """The new campaign with Feb 19 refitted: the refit of Feb 20 waits for Results Feb 19."""
    book = tmp_path_factory.mktemp("kharkov") / "kharkov.xlsx"
    from automation.cli import main

    assert main(["new", "bf-campaign", str(book), "--campaign", "Kharkov 1943"]) == 0
    wb = openpyxl.load_workbook(book)
    for title, rows in (("Sides", SIDES), ("Dates", DATES), ("Historical DRM", DRM), ("RG Chart", RG),
                        ("FP Chart", FP), ("Roster Start", ROSTER)):
        for row in rows:
            wb[title].append(row)
    wb.save(book)
    assert refit(book).waiting.sheet.startswith("Spend Feb 19")
    enter(book, K.SPEND, {"Axis": [], "Soviet": []}, "Feb 19")
    assert refit(book).waiting is None
    assert refit(book).waiting.sheet == "Results Feb 19"
    return book


def test_the_axis_over_its_i1_maximum_gets_its_forces_form_the_soviet_its_orders(capsys, kharkov, tmp_path):
    axis, soviet = tmp_path / "axis.xlsx", tmp_path / "soviet.xlsx"
    assert run(capsys, "export", kharkov, "--side", "Axis", "-o", axis)[0] == 0
    assert run(capsys, "export", kharkov, "--side", "Soviet", "-o", soviet)[0] == 0
    assert Workbook(axis).has("Forces Feb 19 Axis") and Workbook(soviet).has("Orders Feb 20 Soviet")
    ws = openpyxl.load_workbook(axis)["Forces Feb 19 Axis"]
    offered = [ws.cell(r, 1).value for r in range(HEADER_ROW + 2, ws.max_row + 1)]
    assert offered == ["1/LAH", "13/LAH", "2/LAH"]
    assert [c.value for c in ws[HEADER_ROW + 1]][-2:] == ["A1", "I1"]
    code, out, _ = run(capsys, "refit", kharkov)
    assert code == 0 and ("waiting for Forces Feb 19 Axis (Axis fills it): the MEs, OBA modules and aircraft you deploy "
                          "in the scenario (2.1.1.7): Yes on each one (to fill before Results Feb 19: checked on import)") in out


def test_forces_then_results_through_the_forms_drive_the_next_refit(capsys, kharkov, tmp_path):
    from tests.pbem.helpers import private_copy

    book = private_copy(kharkov, tmp_path / "m")
    export = tmp_path / "axis.xlsx"
    assert run(capsys, "export", book, "--side", "Axis", "-o", export)[0] == 0
    wb = openpyxl.load_workbook(export)
    ws = wb["Forces Feb 19 Axis"]
    for r in range(HEADER_ROW + 2, ws.max_row + 1):
        if ws.cell(r, 1).value in ("1/LAH", "13/LAH"):
            ws.cell(r, 3, "Yes")
    wb.save(tmp_path / "back.xlsx")
    code, _, err = run(capsys, "import", book, tmp_path / "back.xlsx")
    assert code == 0, err
    wbk, plan, _ = planned(book)
    form = BattlefrontView().form(wbk, plan, "Umpire", "Results Feb 19")
    started = {r.values["Stand"]: r.values.get("Outcome") for r in form.rows}
    assert {s for s, o in started.items() if o == "Unharmed"} == {"LAH1-1", "LAH1-2", "LAH1-3", "Tiger-1", "Tiger-2"}
    assert "LAH2-1" not in started and started["O1-1 OBA"] is None  # not deployed; the Soviet named no forces
    oba = next(r for r in form.rows if r.values["Stand"] == "O1-1 OBA")
    assert oba.rules["Outcome"].values == ("Unharmed", "Used")
    picks = {"Tiger-2": {"Outcome": "Knocked out", "Knocked out by": "Direct fire", "Ends in": "Enemy lines"},
             "S69-1": {"Outcome": "Knocked out", "Knocked out by": "Direct fire"},
             "S69-2": {"Outcome": "Unharmed", "Kills by fire": 1}, "O1-1 OBA": {"Outcome": "Used"}}
    rows = fill(drawn(form, tmp_path / "form"), form, lambda i, v: picks.get(v["Stand"], {}))
    lay_in(book, "Results Feb 19", rows, "results")
    enter(book, K.ORDERS, {"Axis": [["Posture", None, "Attack", None]], "Soviet": [["Posture", None, "Defend", None]]},
          "Feb 20")
    outcome = refit(book)
    texts = {(e.subject, e.text) for e in outcome.entries}
    assert ("Tiger-2", "Tiger knocked out: wreck in enemy lines") in texts
    assert ("S69-1", "Rifle knocked out: leaves the roster") in texts
    assert outcome.waiting.sheet.startswith("Spend Feb 20")

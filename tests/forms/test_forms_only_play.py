"""A whole date of each system played through the forms alone: every sheet the
refit waits for is a form it wrote, filled in the master by the umpire or in an
export by a player, set to Ready or imported; the umpire types into the
master's forms in place (nothing else of the workbook changes); nothing is
typed on a bare sheet; and verify --key runs every refit again from what it
read."""
from __future__ import annotations

import shutil
from pathlib import Path

from automation.pbem.export import export
from automation.pbem.importer import import_orders
from automation.samples import SAMPLE
from automation.samples_abtf import PURCHASES_17N, SAMPLE as ABTF_SAMPLE
from automation.service import refit
from automation.workbook import abtf_sheets as A
from automation.workbook.forms.fill import fill, fill_in_place
from tests.pbem.helpers import run


def copy(src: Path, folder: Path) -> Path:
    folder.mkdir(parents=True)
    book = folder / src.name
    shutil.copyfile(src, book)
    shutil.copyfile(src.with_suffix(".key"), book.with_suffix(".key"))
    return book


def by_player(book: Path, sheet: str, lines: list[dict]) -> str:
    side = sheet.split()[-1]
    sent = book.parent / f"{sheet}.xlsx"
    export(book, side, sent)
    fill(sent, sheet, lines)
    return import_orders(book, sent)


def test_a_battlefront_date_played_through_forms_alone(capsys, tmp_path):
    book = copy(SAMPLE, tmp_path / "bf")
    assert refit(book).forms == ["Spend Dec 23 German", "Spend Dec 23 Russian"]
    fill_in_place(book, "Spend Dec 23 German", [{"Order": "Purchase", "Subject": "I1", "Value": 1}])  # the umpire, by phone
    fill_in_place(book, "Spend Dec 23 Russian", [])
    assert refit(book).waiting is None  # Dec 23 complete
    waits = refit(book)
    assert waits.forms == ["Results Dec 23", "Orders Dec 24 German", "Orders Dec 24 Russian"]
    fill_in_place(book, "Results Dec 23", [])  # the umpire's form, untouched: no stand took part
    assert [p.sheet for p in refit(book).pending] == ["Orders Dec 24 German", "Orders Dec 24 Russian"]
    for side in ("German", "Russian"):
        assert "1 order(s)" in by_player(book, f"Orders Dec 24 {side}", [{"Order": "Posture", "Value": "Attack"}])
    assert refit(book).forms == ["Spend Dec 24 German", "Spend Dec 24 Russian"]
    for side in ("German", "Russian"):
        assert "0 order(s)" in by_player(book, f"Spend Dec 24 {side}", [])
    done = refit(book)
    assert done.waiting is None and "Roster Dec 24" in done.written
    code, out, err = run(capsys, "verify", book)
    assert code == 0 and "4 refit(s) run again" in out, out + err


def test_an_a_bridge_too_far_date_played_through_forms_alone(capsys, tmp_path):
    book = copy(ABTF_SAMPLE, tmp_path / "abtf")
    assert refit(book).forms == ["Purchases 17N British", "Purchases 17N German"]
    for side in ("British", "German"):
        by_player(book, f"Purchases 17N {side}", [dict(zip(A.PURCHASES.header, r)) for r in PURCHASES_17N[side]])
    assert refit(book).waiting is None  # 17N complete
    assert refit(book).forms == ["End 17N", "Orders 18AM British", "Orders 18AM German"]
    fill_in_place(book, "End 17N", [])  # nothing moved in the scenario
    assert refit(book).forms == ["Umpire 18AM"]
    fill_in_place(book, "Umpire 18AM", [{"Entry": "Final CVP", "Subject": "British", "Value": 10},
                               {"Entry": "Final CVP", "Subject": "German", "Value": 12}])
    for side in ("British", "German"):
        by_player(book, f"Orders 18AM {side}", [])
    assert refit(book).forms == ["Purchases 18AM British", "Purchases 18AM German"]
    for side, chit in (("British", "Idle"), ("German", "Attack")):
        assert "1 order(s)" in by_player(book, f"Purchases 18AM {side}", [{"Purchase": "Chit", "Item": chit}])
    done = refit(book)
    assert done.waiting is None and "CG Roster 18AM" in done.written
    code, out, err = run(capsys, "verify", book)
    assert code == 0 and "4 refit(s) run again" in out, out + err
